package org.codese.capture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.codese.jvm.HashFields;
import org.codese.program.Tape;

/**
 * The tapes of JDK collections whose {@code writeObject} writes what their public API tells, made
 * without running it: an {@code ArrayList} (its size as a default field and as an {@code int}, then
 * the elements) and a {@code TreeMap} in natural order (a {@code null} comparator as its default
 * field, the size, then each key and value); where {@link HashFields#readable()}, also a {@code
 * HashMap} or {@code LinkedHashMap} (its load factor and threshold as default fields, its capacity,
 * the size, then each key and value in iteration order) and a {@code HashSet} or {@code
 * LinkedHashSet} (no fields, the backing map's capacity and load factor, the size, the elements).
 * For the linked classes this is the tape of their first slot, {@code HashMap}'s or {@code
 * HashSet}'s; their own slot has no {@code writeObject}. The tape and the order in which the
 * elements are given ids are exactly those of running the class's {@code writeObject} on a {@link
 * CaptureStream}, without the stream, its data stream and the reflective read of the fields.
 *
 * <p>Also a {@code ConcurrentHashMap}, whose tape is its {@code writeObject}'s but for one thing:
 * it holds {@code null} for the sixteen lock objects that writes as its {@code segments}
 * pseudo-field, made for the call and ignored by its {@code readObject} ({@link
 * #concurrentHashMap}); so its snapshot differs from that of a capture that runs every {@code
 * writeObject} in those objects.
 *
 * <p>Contract: only for snapshots (a stream's capture runs {@code writeObject}, whose calls the
 * writer's hooks may observe), for objects of exactly these classes; anything else answers {@code
 * null} and is captured by running its {@code writeObject}.
 */
final class KnownWrites {
  private KnownWrites() {}

  /**
   * @return the tape {@code obj}'s {@code writeObject} would write, its references taken in order,
   *     or {@code null} if {@code obj} is not one of the classes this knows
   */
  static Tape tape(Capturer capturer, ChildList children, int id, Object obj) throws IOException {
    Class<?> c = obj.getClass();
    if (c == ArrayList.class) {
      return arrayList(capturer, children, id, ((ArrayList<?>) obj).toArray());
    } else if (c == TreeMap.class && ((TreeMap<?, ?>) obj).comparator() == null) {
      return naturalTreeMap(capturer, children, id, (TreeMap<?, ?>) obj);
    } else if ((c == HashMap.class || c == LinkedHashMap.class) && HashFields.readable()) {
      return hashMap(capturer, children, id, (HashMap<?, ?>) obj);
    } else if ((c == HashSet.class || c == LinkedHashSet.class) && HashFields.readable()) {
      return hashSet(capturer, children, id, (HashSet<?>) obj);
    } else if (c == ConcurrentHashMap.class) {
      return concurrentHashMap(capturer, children, id, (ConcurrentHashMap<?, ?>) obj);
    }
    return null;
  }

  /**
   * {@code ConcurrentHashMap}'s {@code segmentMask} and {@code segmentShift}, as it writes them.
   */
  private static final int SEGMENT_MASK = 15;

  private static final int SEGMENT_SHIFT = 28;

  /**
   * Fields ({@code segmentMask}, {@code segmentShift}, and {@code null} for {@code segments}), each
   * key and value in the order of the table, then two {@code null}s: the tape of its {@code
   * writeObject} but for the segments, sixteen {@code Segment}s (locks) it makes for the call and
   * which its {@code readObject} ignores. Without them a snapshot makes no segment, whether the map
   * is then filled or replayed ({@code plan.ConcurrentFill}).
   */
  private static Tape concurrentHashMap(
      Capturer capturer, ChildList children, int id, ConcurrentHashMap<?, ?> map)
      throws IOException {
    // sized for the mappings now; other threads may change it while it is walked, as they may
    // while its writeObject walks it
    int[] items = new int[8 + 4 * map.size()];
    items[0] = Tape.FIELDS;
    items[1] = 1;
    items[2] = Tape.OBJECT;
    items[3] = -1;
    int[] all = HashEntries.takeAll(capturer, children, id, map, items, 4, 4);
    all[all.length - 4] = Tape.OBJECT;
    all[all.length - 3] = -1;
    all[all.length - 2] = Tape.OBJECT;
    all[all.length - 1] = -1;
    return new Tape(ints(SEGMENT_MASK, SEGMENT_SHIFT), all);
  }

  /** Fields (no reference, the size), a block of the size again, the elements. */
  private static Tape arrayList(Capturer capturer, ChildList children, int id, Object[] elements)
      throws IOException {
    int n = elements.length;
    int[] items = new int[4 + 2 * n];
    items[0] = Tape.FIELDS;
    items[1] = 0;
    items[2] = Tape.BLOCK;
    items[3] = 4;
    for (int i = 0; i < n; i++) {
      items[4 + 2 * i] = Tape.OBJECT;
      items[5 + 2 * i] = capturer.referenceNow(children, id, elements[i], null, i, false);
    }
    return new Tape(ints(n, n), items);
  }

  /** Fields (the {@code null} comparator), a block of the size, each key and value. */
  private static Tape naturalTreeMap(
      Capturer capturer, ChildList children, int id, TreeMap<?, ?> map) throws IOException {
    int n = map.size();
    int[] items = new int[6 + 4 * n];
    items[0] = Tape.FIELDS;
    items[1] = 1;
    items[2] = Tape.OBJECT;
    items[3] = -1;
    items[4] = Tape.BLOCK;
    items[5] = 4;
    int at = 6;
    int k = 0;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      items[at] = Tape.OBJECT;
      items[at + 1] = capturer.referenceNow(children, id, e.getKey(), null, k++, false);
      items[at + 2] = Tape.OBJECT;
      items[at + 3] = capturer.referenceNow(children, id, e.getValue(), null, k++, false);
      at += 4;
    }
    if (at != items.length) {
      throw new java.util.ConcurrentModificationException("TreeMap changed while captured");
    }
    return new Tape(ints(n), items);
  }

  /**
   * Fields (the load factor and threshold, no reference), a block of the capacity and size, each
   * key and value in iteration order: that of the table, or for a {@code LinkedHashMap} of its
   * links, as {@code internalWriteEntries} writes them.
   */
  private static Tape hashMap(Capturer capturer, ChildList children, int id, HashMap<?, ?> map)
      throws IOException {
    float loadFactor = HashFields.loadFactor(map);
    int threshold = HashFields.threshold(map);
    int capacity = HashFields.capacity(map);
    int n = map.size();
    int[] items = new int[4 + 4 * n];
    items[0] = Tape.FIELDS;
    items[1] = 0;
    items[2] = Tape.BLOCK;
    items[3] = 8;
    HashEntries.take(capturer, children, id, map, items, 4, false);
    return new Tape(ints(Float.floatToRawIntBits(loadFactor), threshold, capacity, n), items);
  }

  /**
   * Fields (none), a block of the backing map's capacity and load factor and the size, the elements
   * in iteration order.
   */
  private static Tape hashSet(Capturer capturer, ChildList children, int id, HashSet<?> set)
      throws IOException {
    HashMap<?, ?> map = HashFields.map(set);
    int capacity = HashFields.capacity(map);
    float loadFactor = HashFields.loadFactor(map);
    int n = map.size();
    int[] items = new int[4 + 2 * n];
    items[0] = Tape.FIELDS;
    items[1] = 0;
    items[2] = Tape.BLOCK;
    items[3] = 12;
    HashEntries.take(capturer, children, id, map, items, 4, true);
    return new Tape(ints(capacity, Float.floatToIntBits(loadFactor), n), items);
  }

  /** {@code int}s as {@code DataOutput.writeInt} writes them, one after the other. */
  private static byte[] ints(int... values) {
    byte[] b = new byte[4 * values.length];
    for (int i = 0; i < values.length; i++) {
      int v = values[i];
      b[4 * i] = (byte) (v >>> 24);
      b[4 * i + 1] = (byte) (v >>> 16);
      b[4 * i + 2] = (byte) (v >>> 8);
      b[4 * i + 3] = (byte) v;
    }
    return b;
  }
}
