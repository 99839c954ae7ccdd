package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.HookKind;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a class's own {@code readObject} gets from the stream Codese hands it on restore ({@code
 * load.ReplayStream}), side by side with {@code ObjectInputStream}: the arrays it sizes from the
 * data are checked against the limits and the filter before they are allocated (structure-fuzzer
 * finding I4, an {@code OutOfMemoryError}), and {@code GetField} answers a field the class has but
 * the data lacks with the caller's default (finding I5, an {@code IllegalArgumentException}). Runs
 * on JDK 17 and 25 alike.
 */
class HookDataTest {
  /** A length no default limit allows: 2^30 elements, 4 GiB of references. */
  private static final int HUGE = 1 << 30;

  /** The size the collections are captured with, and the marker replaced in their data. */
  private static final int SIZE = 5;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static Object collection(String kind) {
    List<String> five = new ArrayList<>();
    for (int i = 0; i < SIZE; i++) {
      five.add("e" + i);
    }
    return switch (kind) {
      // the JDK collections Codese fills keep readObject only as subclasses or with options
      case "ArrayList" -> new HookedArrayList<>(five);
      case "HashMap" -> {
        HashMap<String, String> m = new HashMap<>(16, 0.5f);
        for (String s : five) {
          m.put(s, s);
        }
        yield m;
      }
      case "HashSet" -> {
        HashSet<String> set = new HashSet<>(16, 0.5f);
        set.addAll(five);
        yield set;
      }
      case "PriorityQueue" -> {
        PriorityQueue<String> q = new PriorityQueue<>(Collections.reverseOrder());
        q.addAll(five);
        yield q;
      }
      case "ArrayDeque" -> new HookedArrayDeque<>(five);
      case "IdentityHashMap" -> {
        IdentityHashMap<String, String> m = new HookedIdentityHashMap<>();
        for (String s : five) {
          m.put(s, s);
        }
        yield m;
      }
      case "CopyOnWriteArrayList" -> new CopyOnWriteArrayList<>(five);
      // with an element first written inside it, so that its proxy's readObject restores it
      case "List.of" -> List.of("e0", "e1", "e2", "e3", new ArrayList<>());
      default -> throw new IllegalArgumentException(kind);
    };
  }

  /**
   * The snapshot of {@code root} with every 4-byte {@link #SIZE} in the data of the hooks of the
   * class {@code hooked} replaced by {@code size}: the collection's recorded size, as a crafted
   * file would claim it.
   */
  private static byte[] withSize(Object root, String hooked, int size) throws IOException {
    SnapshotEdit edit = SnapshotEdit.of(Codese.toBytes(root));
    int replaced = 0;
    for (int i = 0; ; i++) {
      Constant c;
      try {
        c = edit.constant(i);
      } catch (IndexOutOfBoundsException e) {
        break;
      }
      if (c instanceof Constant.Hook h
          && h.tape() != null
          && edit.classEntry(h.type()).name().equals(hooked)) {
        byte[] data = h.tape().data().clone();
        ByteBuffer b = ByteBuffer.wrap(data);
        for (int p = 0; p + 4 <= data.length; p++) {
          if (b.getInt(p) == SIZE) {
            b.putInt(p, size);
            replaced++;
          }
        }
        edit.setConstant(
            i, new Constant.Hook(h.kind(), h.type(), h.id(), new Tape(data, h.tape().items())));
      }
    }
    assertTrue(replaced > 0, "no size " + SIZE + " in the data of " + hooked);
    return edit.bytes();
  }

  private static String hookedClass(Object root) {
    return root.getClass().getName().startsWith("java.util.ImmutableCollections")
        ? "java.util.CollSer"
        : root instanceof HookedArrayList
                || root instanceof HookedArrayDeque
                || root instanceof HookedIdentityHashMap
            ? root.getClass().getSuperclass().getName()
            : root.getClass().getName();
  }

  /** An {@code ArrayList} restored through its {@code readObject}, not filled. */
  static final class HookedArrayList<E> extends ArrayList<E> {
    private static final long serialVersionUID = 1L;

    HookedArrayList(java.util.Collection<E> c) {
      super(c);
    }
  }

  /** An {@code IdentityHashMap} restored through its {@code readObject}, not filled. */
  static final class HookedIdentityHashMap<K, V> extends IdentityHashMap<K, V> {
    private static final long serialVersionUID = 1L;
  }

  /** An {@code ArrayDeque} restored through its {@code readObject}, not filled. */
  static final class HookedArrayDeque<E> extends ArrayDeque<E> {
    private static final long serialVersionUID = 1L;

    HookedArrayDeque(java.util.Collection<E> c) {
      super(c);
    }
  }

  private static int size(Object collectionOrMap) {
    return collectionOrMap instanceof java.util.Map<?, ?> m
        ? m.size()
        : ((java.util.Collection<?>) collectionOrMap).size();
  }

  /** Runs {@code restore} and returns how many bytes this thread allocated meanwhile. */
  private static long allocatedBy(Runnable restore) {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    restore.run();
    return THREADS.getCurrentThreadAllocatedBytes() - before;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ArrayList",
        "HashMap",
        "HashSet",
        "PriorityQueue",
        "ArrayDeque",
        "IdentityHashMap",
        "CopyOnWriteArrayList",
        "List.of"
      })
  void aCollectionSizeBeyondTheLimitIsRejectedBeforeItsArrayIsAllocated(String kind)
      throws IOException {
    Object root = collection(kind);
    byte[] hostile = withSize(root, hookedClass(root), HUGE);
    try (Snapshot s = Codese.load(hostile)) {
      InvalidObjectException[] thrown = new InvalidObjectException[1];
      long allocated =
          allocatedBy(() -> thrown[0] = assertThrows(InvalidObjectException.class, s::restore));
      String m = thrown[0].getMessage();
      assertTrue(
          m.contains("beyond the limit of " + CodeseLimits.defaults().maxArrayLength())
              && m.contains("CodeseLimits.withMaxArrayLength")
              && m.contains(".readObject"),
          m);
      // no side effect: the 4 GiB array was never allocated
      assertTrue(allocated < 64L << 20, kind + ": the restore allocated " + allocated + " bytes");
    }
    // the same snapshot with its honest size restores
    assertEquals(size(root), size(Codese.fromBytes(Codese.toBytes(root))));
  }

  @Test
  void theLimitIsCodeseLimitsMaxArrayLength() throws IOException {
    // with a comparator, so that readObject restores it (a natural-order queue is a fill)
    java.util.Queue<Integer> thousand = new PriorityQueue<>(Collections.reverseOrder());
    thousand.addAll(Collections.nCopies(1000, 7));
    byte[] bytes = Codese.toBytes(thousand);
    CodeseOptions tight =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxArrayLength(999));
    InvalidObjectException e =
        assertThrows(InvalidObjectException.class, () -> Codese.fromBytes(bytes, tight));
    assertTrue(
        e.getMessage()
            .contains(
                "java.util.PriorityQueue.readObject asks for an array of 1000"
                    + " elements (java.lang.Object[])"),
        e.getMessage());
    CodeseOptions enough =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxArrayLength(1000));
    assertEquals(
        new ArrayList<>(thousand),
        new ArrayList<>((java.util.Queue<?>) Codese.fromBytes(bytes, enough)));
  }

  @Test
  void theFilterSeesTheArraysAsObjectInputStreamsFilterDoes() throws Exception {
    HashMap<Integer, Integer> map = new HashMap<>();
    for (int i = 0; i < 1000; i++) {
      map.put(i, i);
    }
    ObjectInputFilter maxArray = ObjectInputFilter.Config.createFilter("maxarray=1000");
    // ObjectInputStream: HashMap.readObject's checkArray of a 2048-entry table is rejected
    ByteArrayOutputStream jdk = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(jdk)) {
      out.writeObject(map);
    }
    ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(jdk.toByteArray()));
    in.setObjectInputFilter(maxArray);
    InvalidClassException jdkRejection = assertThrows(InvalidClassException.class, in::readObject);
    // Codese: the same check, the same exception
    byte[] bytes = Codese.toBytes(map);
    InvalidClassException rejection =
        assertThrows(
            InvalidClassException.class,
            () ->
                Codese.fromBytes(bytes, CodeseOptions.defaults().withObjectInputFilter(maxArray)));
    assertEquals(jdkRejection.getMessage(), rejection.getMessage());
    assertEquals("filter status: REJECTED", rejection.getMessage());
    assertEquals(
        map,
        Codese.fromBytes(
            bytes,
            CodeseOptions.defaults()
                .withObjectInputFilter(ObjectInputFilter.Config.createFilter("maxarray=2048"))));
  }

  /** The class as written: one field. Same name length as {@link V2}, same serialVersionUID. */
  static final class V1 implements Serializable {
    private static final long serialVersionUID = 1L;
    int a = 7;
  }

  /**
   * The class as read: two more fields, and a {@code readObject} that asks for all of them, for one
   * it does not have, and for one with the wrong type, and records what it got.
   */
  static final class V2 implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
    int b = -1;
    String s = "initial";
    transient boolean bDefaulted;
    transient boolean sDefaulted;
    transient String unknownField;
    transient String wrongType;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      ObjectInputStream.GetField f = in.readFields();
      a = f.get("a", -2);
      b = f.get("b", 42);
      s = (String) f.get("s", "default");
      bDefaulted = f.defaulted("b");
      sDefaulted = f.defaulted("s");
      unknownField = rejection(() -> f.get("c", 0));
      wrongType = rejection(() -> f.get("a", 0L));
    }

    private static String rejection(IoCall call) throws IOException {
      try {
        call.run();
        return "none";
      } catch (IllegalArgumentException e) {
        return "IllegalArgumentException";
      }
    }

    String seen() {
      return "a="
          + a
          + " b="
          + b
          + " s="
          + s
          + " bDefaulted="
          + bDefaulted
          + " sDefaulted="
          + sDefaulted
          + " c: "
          + unknownField
          + ", a as long: "
          + wrongType;
    }
  }

  /** A {@code GetField} call. */
  interface IoCall {
    void run() throws IOException;
  }

  @Test
  void getFieldDefaultsAFieldTheDataLacksAsObjectInputStreamDoes() throws Exception {
    // ObjectInputStream: a stream of V1 (field a only) read as V2
    ByteArrayOutputStream jdk = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(jdk)) {
      out.writeObject(new V1());
    }
    byte[] stream = replace(jdk.toByteArray(), V1.class.getName(), V2.class.getName());
    V2 fromJdk = (V2) new ObjectInputStream(new ByteArrayInputStream(stream)).readObject();
    assertEquals(
        "a=7 b=42 s=default bDefaulted=true sDefaulted=true"
            + " c: IllegalArgumentException, a as long: IllegalArgumentException",
        fromJdk.seen());

    // Codese: a snapshot whose class entry for V2 records field a only
    Crafted c = new Crafted();
    int v2 =
        c.type(
            new ClassEntry(V2.class.getName(), List.of(new FieldEntry("a", "I", true)), 1L, true));
    int alloc = c.constant(new Constant.Allocator(v2, Mode.SERIAL));
    int hook =
        c.constant(
            new Constant.Hook(
                HookKind.SLOT,
                v2,
                0,
                new Tape(new byte[] {0, 0, 0, 7}, new int[] {Tape.FIELDS, 0})));
    int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
    c.code(0, ch -> ch.alloc(0, alloc));
    c.code(2, ch -> ch.runSteps(steps));
    V2 fromCodese = (V2) Codese.fromBytes(c.bytes());
    assertEquals(fromJdk.seen(), fromCodese.seen());
  }

  @Test
  void getFieldReadsTheRecordedFieldsAsBefore() throws IOException {
    V2 v = new V2();
    v.a = 1;
    v.b = 2;
    v.s = "three";
    V2 back = (V2) Codese.fromBytes(Codese.toBytes(v));
    assertEquals(
        "a=1 b=2 s=three bDefaulted=false sDefaulted=false"
            + " c: IllegalArgumentException, a as long: IllegalArgumentException",
        back.seen());
    assertFalse(back.bDefaulted);
  }

  private static byte[] replace(byte[] bytes, String from, String to) {
    byte[] f = from.getBytes(StandardCharsets.UTF_8);
    byte[] t = to.getBytes(StandardCharsets.UTF_8);
    assertEquals(f.length, t.length);
    byte[] out = bytes.clone();
    for (int i = 0; i + f.length <= out.length; i++) {
      if (java.util.Arrays.equals(out, i, i + f.length, f, 0, f.length)) {
        System.arraycopy(t, 0, out, i, t.length);
        return out;
      }
    }
    throw new AssertionError(from + " not in the stream");
  }
}
