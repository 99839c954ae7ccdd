package org.codese.capture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import org.codese.program.Tape;

/**
 * The tapes of JDK collections whose {@code writeObject} writes what their public API tells, made
 * without running it: an {@code ArrayList} (its size as a default field and as an {@code int}, then
 * the elements) and a {@code TreeMap} in natural order (a {@code null} comparator as its default
 * field, the size, then each key and value). The tape and the order in which the elements are given
 * ids are exactly those of running the class's {@code writeObject} on a {@link CaptureStream},
 * without the stream, its data stream and the reflective read of the size field.
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
    if (obj.getClass() == ArrayList.class) {
      return arrayList(capturer, children, id, ((ArrayList<?>) obj).toArray());
    } else if (obj.getClass() == TreeMap.class && ((TreeMap<?, ?>) obj).comparator() == null) {
      return naturalTreeMap(capturer, children, id, (TreeMap<?, ?>) obj);
    }
    return null;
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
      items[5 + 2 * i] = capturer.referenceNow(children, id, elements[i], i, false);
    }
    return new Tape(twoInts(n, n), items);
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
      items[at + 1] = capturer.referenceNow(children, id, e.getKey(), k++, false);
      items[at + 2] = Tape.OBJECT;
      items[at + 3] = capturer.referenceNow(children, id, e.getValue(), k++, false);
      at += 4;
    }
    if (at != items.length) {
      throw new java.util.ConcurrentModificationException("TreeMap changed while captured");
    }
    return new Tape(
        new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n}, items);
  }

  /** Two {@code int}s as {@code DataOutput} writes them. */
  private static byte[] twoInts(int a, int b) {
    return new byte[] {
      (byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8), (byte) a,
      (byte) (b >>> 24), (byte) (b >>> 16), (byte) (b >>> 8), (byte) b
    };
  }
}
