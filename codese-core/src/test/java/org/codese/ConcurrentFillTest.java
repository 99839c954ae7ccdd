package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import org.codese.capture.Capturer;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.testkit.FilterCalls;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code ConcurrentHashMap} restored by a fill ({@code program.Fills}) rather than by replaying its
 * {@code readObject}: the JDK round trip's bytes (table length and per-bin order, tree bins
 * included) for keys of many kinds and sizes, what keeps {@code readObject}, that the sixteen
 * segments its {@code writeObject} writes are not made, and hostile files (format writer, checksums
 * valid).
 */
class ConcurrentFillTest {
  private static final int[] SIZES = {0, 1, 2, 8, 9, 11, 12, 13, 23, 24, 47, 48, 49, 100, 10_000};

  private static Object jdkCopy(Object o) {
    try {
      return JdkBytes.deserialize(JdkBytes.serialize(o));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static long count(Object root, Class<? extends Constant> kind) throws IOException {
    return SnapshotFile.parse(Codese.toBytes(root)).constants().stream()
        .filter(kind::isInstance)
        .count();
  }

  /** Whether a snapshot of {@code root} names class {@code name} in its class table. */
  private static boolean names(Object root, String name) throws IOException {
    for (ClassEntry c : SnapshotFile.parse(Codese.toBytes(root)).classes()) {
      if (c.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether snapshot {@code f} makes a {@code Segment}: an allocator of that class (the class table
   * lists it anyway, so that the filter is asked about it as a JDK stream asks).
   */
  private static boolean makesSegments(SnapshotFile f) {
    return f.constants().stream()
        .anyMatch(
            c ->
                c instanceof Constant.Allocator a
                    && f.classes().get(a.type()).name().endsWith("$Segment"));
  }

  /** A map of {@code n} mappings, keys from {@code key}, values some shared and some not. */
  private static ConcurrentHashMap<Object, Object> map(int n, IntFunction<Object> key) {
    ConcurrentHashMap<Object, Object> m = new ConcurrentHashMap<>();
    String shared = "shared";
    for (int i = 0; i < n; i++) {
      m.put(key.apply(i), i % 3 == 0 ? shared : "v" + i);
    }
    return m;
  }

  /** How many hooks of class {@code ConcurrentHashMap} (its readObject) a snapshot of root runs. */
  private static long replays(Object root) throws IOException {
    SnapshotFile f = SnapshotFile.parse(Codese.toBytes(root));
    return f.constants().stream()
        .filter(
            c ->
                c instanceof Constant.Hook h
                    && f.classes().get(h.type()).name().equals(ConcurrentHashMap.class.getName()))
        .count();
  }

  /**
   * Asserts that {@code m} is a fill (no readObject, one maker, no segment) and restores to the
   * JDK's bytes.
   */
  private static void assertFilledAsTheJdkRestores(Object m, String name) throws IOException {
    assertEquals(0, replays(m), name + ": readObject replays");
    assertEquals(1, count(m, Constant.Sized.class), name + ": makers");
    assertTrue(!makesSegments(SnapshotFile.parse(Codese.toBytes(m))), name + ": segments");
    // the JDK's own round trip sizes the table for the mappings: what a fill must match
    RoundTrip.of(jdkCopy(m)).name(name).run();
    assertArrayEquals(
        JdkBytes.serialize(jdkCopy(m)),
        JdkBytes.serialize(Codese.fromBytes(Codese.toBytes(m))),
        name + ": as made");
  }

  enum Suit {
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES
  }

  record Point(int x, String y) implements Serializable {}

  /** A key whose hash code is the same for all: every key in one bin, a tree bin from nine. */
  static final class Collider implements Serializable, Comparable<Collider> {
    private static final long serialVersionUID = 1L;
    final int id;

    Collider(int id) {
      this.id = id;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Collider c && c.id == id;
    }

    @Override
    public int hashCode() {
      return 42;
    }

    @Override
    public int compareTo(Collider o) {
      return Integer.compare(id, o.id);
    }
  }

  /** {@link Collider} that does not compare: a tree bin of it orders by identity hash. */
  static final class PlainCollider implements Serializable {
    private static final long serialVersionUID = 1L;
    final int id;

    PlainCollider(int id) {
      this.id = id;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PlainCollider c && c.id == id;
    }

    @Override
    public int hashCode() {
      return 7;
    }
  }

  @Test
  void stringAndIntegerKeysRestoreToTheJdkRoundTripsBytesAtEverySize() throws IOException {
    for (int n : SIZES) {
      assertFilledAsTheJdkRestores(map(n, i -> "k" + i), "String keys, " + n);
      assertFilledAsTheJdkRestores(map(n, i -> i * 7919 - 500), "Integer keys, " + n);
    }
  }

  @Test
  void enumAndRecordKeysAreFilledWhereTheTableTakesTrees() throws IOException {
    assertFilledAsTheJdkRestores(map(4, i -> Suit.values()[i]), "enum keys");
    for (int n : new int[] {1, 8, 24, 100}) {
      assertFilledAsTheJdkRestores(map(n, i -> new Point(i, "p" + i)), "record keys, " + n);
    }
    // 9 to 23 mappings of keys whose hash the plan does not know: a table too short for a tree
    ConcurrentHashMap<Object, Object> records = map(12, i -> new Point(i, "p" + i));
    assertEquals(1, replays(records));
    assertEquals(0, count(records, Constant.Sized.class));
    RoundTrip.of(jdkCopy(records)).run();
  }

  @Test
  void collidingKeysMakeTheTreeBinsReadObjectMakes() throws IOException {
    // a table of 64 or more: the fill puts the bin's last nine in order, then the others back
    for (int n : new int[] {9, 10, 24, 30, 100}) {
      ConcurrentHashMap<Object, Object> m = map(n, i -> "k" + i);
      for (int i = 0; i < n; i++) {
        m.put(new Collider(i), "c" + i);
        m.put(new PlainCollider(i), i % 2 == 0 ? m : "p" + i);
      }
      assertFilledAsTheJdkRestores(m, "colliding keys in " + 3 * n + " mappings");
    }
    // a short table with a crowded bin keeps readObject (keys of unknown hash) ...
    ConcurrentHashMap<Object, Object> small = map(10, Collider::new);
    assertEquals(1, replays(small));
    RoundTrip.of(jdkCopy(small)).run();
    // ... as do strings that collide: their hashes are known, and too many share a bin
    ConcurrentHashMap<Object, Object> strings = new ConcurrentHashMap<>();
    for (String s : collidingStrings(12)) {
      strings.put(s, s);
    }
    assertEquals(1, replays(strings));
    RoundTrip.of(jdkCopy(strings)).run();
    strings.remove(collidingStrings(12).get(0));
    strings.remove(collidingStrings(12).get(1));
    strings.remove(collidingStrings(12).get(2));
    strings.remove(collidingStrings(12).get(3)); // eight in the bin: a list, filled
    assertFilledAsTheJdkRestores(strings, "eight colliding strings");
  }

  /** {@code n} strings of one hash code ("Aa" and "BB" hash alike), n at most 16. */
  private static List<String> collidingStrings(int n) {
    List<String> out = new ArrayList<>();
    for (int bits = 0; out.size() < n; bits++) {
      StringBuilder b = new StringBuilder();
      for (int k = 0; k < 4; k++) {
        b.append((bits >> k & 1) == 0 ? "Aa" : "BB");
      }
      out.add(b.toString());
    }
    return out;
  }

  /** A key whose equality and hash follow a field changed after it was put: equal keys result. */
  static final class Mutable implements Serializable {
    private static final long serialVersionUID = 1L;
    int v;
    final boolean collides;

    Mutable(int v, boolean collides) {
      this.v = v;
      this.collides = collides;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Mutable m && m.v == v && m.collides == collides;
    }

    @Override
    public int hashCode() {
      return collides ? 11 : v;
    }
  }

  @Test
  void equalKeysKeepTheLastWrittenAsReadObjectKeepsIt() throws IOException {
    // keys changed after they were put: the map writes equal keys, readObject keeps the last
    for (int colliders : new int[] {0, 10, 14}) {
      ConcurrentHashMap<Object, Object> m = map(30, i -> "k" + i);
      List<Mutable> plain = new ArrayList<>();
      List<Mutable> colliding = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        plain.add(new Mutable(100 + i, false));
        m.put(plain.get(i), "m" + i);
      }
      for (int i = 0; i < colliders; i++) {
        colliding.add(new Mutable(i, true));
        m.put(colliding.get(i), "c" + i);
      }
      plain.get(3).v = 105;
      plain.get(7).v = 105;
      if (colliders > 0) {
        colliding.get(1).v = 4; // 10 colliders, 8 distinct: a list bin; 14: 12, a tree bin
        colliding.get(8).v = 4;
      }
      String name = colliders + " colliding keys, some equal";
      assertEquals(0, replays(m), name);
      assertArrayEquals(
          JdkBytes.serialize(jdkCopy(m)),
          JdkBytes.serialize(Codese.fromBytes(Codese.toBytes(m))),
          name);
    }
  }

  /**
   * A key that resolves to null: the JDK's readObject stops reading at it. Of a fixed hash, so that
   * it is written among the others at a place of its own, not of its identity hash.
   */
  static final class Vanishing implements Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int hashCode() {
      return 31;
    }

    private Object readResolve() {
      return null;
    }
  }

  @Test
  void aKeyThatResolvesToNullEndsTheFillAsItEndsReadObject() throws IOException {
    ConcurrentHashMap<Object, Object> m = map(40, i -> "k" + i);
    m.put(new Vanishing(), "gone");
    ConcurrentHashMap<?, ?> jdk = (ConcurrentHashMap<?, ?>) jdkCopy(m);
    assertTrue(jdk.size() < m.size() - 1, "the JDK drops the pairs after it too");
    assertEquals(0, replays(m));
    ConcurrentHashMap<?, ?> restored =
        (ConcurrentHashMap<?, ?>) Codese.fromBytes(Codese.toBytes(m));
    // the same mappings; the table is sized for every pair written, not only those read
    assertEquals(jdk, restored);
  }

  /** Holds a map and a value of it. */
  static final class Owner implements Serializable {
    private static final long serialVersionUID = 1L;
    ConcurrentHashMap<Object, Object> map = new ConcurrentHashMap<>();
    Object shared;
  }

  @Test
  void aMapThatHoldsItselfAndCyclesThroughValuesSurvive() throws IOException {
    Owner o = new Owner();
    o.shared = new ArrayList<>(List.of("s"));
    o.map.put("self", o.map);
    o.map.put("owner", o);
    o.map.put("a", o.shared);
    o.map.put("b", o.shared);
    assertEquals(0, replays(o));
    RoundTrip.of(jdkCopy(o))
        .check(
            x -> {
              Owner r = (Owner) x;
              assertSame(r.map, r.map.get("self"));
              assertSame(r, r.map.get("owner"));
              assertSame(r.shared, r.map.get("a"));
              assertSame(r.shared, r.map.get("b"));
            })
        .run();
    // a map that is its own key: its readObject hashes it while empty, put would not
    ConcurrentHashMap<Object, Object> ownKey = new ConcurrentHashMap<>();
    ownKey.put(ownKey, "me");
    assertEquals(1, replays(ownKey));
  }

  @Test
  void theFilterIsAskedAboutNoArrayReadObjectAllocates() throws IOException {
    ConcurrentHashMap<Integer, Integer> m = new ConcurrentHashMap<>();
    for (int i = 0; i < 100; i++) {
      m.put(i, i);
    }
    // readObject allocates its table without asking; a JDK stream holds the segments' array,
    // which the snapshot does not make but lists, so that the filter is asked about the class
    // and the array class with the stream's length, 16, as the JDK (FilterParityTest; and with the
    // snapshot's longest array length, as every array class)
    List<String> jdk = FilterCalls.jdk(m, "Segment");
    assertEquals(
        List.of(
            "java.util.concurrent.ConcurrentHashMap$Segment[-1",
            "java.util.concurrent.ConcurrentHashMap$Segment[16"),
        jdk);
    List<String> codese = FilterCalls.codese(m, "Segment");
    assertTrue(codese.containsAll(jdk), codese.toString());
  }

  @Test
  void theTapeItsWriteObjectWritesIsFilledToo() throws Exception {
    // a stream's capture runs writeObject: its segments are objects of the snapshot, the map a fill
    ConcurrentHashMap<Object, Object> m = map(30, i -> "k" + i);
    Capturer running = Capturer.runningEveryWriteObject(CodeseOptions.defaults());
    running.writeObject(m, false);
    SnapshotFile ran = Pipeline.toFile(running.drain());
    SnapshotFile known = SnapshotFile.parse(Codese.toBytes(m));
    for (SnapshotFile f : List.of(ran, known)) {
      assertEquals(
          1, f.constants().stream().filter(c -> c instanceof Constant.Sized).count(), "makers");
      assertEquals(
          0,
          f.constants().stream()
              .filter(
                  c ->
                      c instanceof Constant.Hook h
                          && f.classes().get(h.type()).name().equals(m.getClass().getName()))
              .count(),
          "readObject replays");
    }
    assertTrue(makesSegments(ran));
    assertTrue(!makesSegments(known));
    assertArrayEquals(
        JdkBytes.serialize(jdkCopy(m)), JdkBytes.serialize(Codese.fromBytes(ran.bytes())));
  }

  /** A value that, when captured, adds mappings to its map: a writer changing it meanwhile. */
  static final class Grower implements Serializable {
    private static final long serialVersionUID = 1L;
    transient ConcurrentHashMap<Object, Object> map;

    private Object writeReplace() {
      for (int i = 0; i < 50; i++) {
        map.putIfAbsent("grown" + i, "g");
      }
      return "grower";
    }
  }

  @Test
  void aMapChangedWhileCapturedIsCapturedAsItsWriteObjectWouldWalkIt() throws IOException {
    ConcurrentHashMap<Object, Object> m = map(20, i -> "k" + i);
    Grower g = new Grower();
    g.map = m;
    m.put("grower", g);
    ConcurrentHashMap<?, ?> r = (ConcurrentHashMap<?, ?>) Codese.fromBytes(Codese.toBytes(m));
    // every mapping it had before holds; of those added meanwhile, the ones the walk met
    for (int i = 0; i < 20; i++) {
      assertEquals(m.get("k" + i), r.get("k" + i));
    }
    assertEquals("grower", r.get("grower"));
    assertTrue(r.size() > 21 && r.size() <= m.size(), r.size() + " of " + m.size());
  }

  /** A subclass: its methods may differ, so it keeps readObject. */
  static final class Sub extends ConcurrentHashMap<Object, Object> {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void aSubclassKeepsReadObject() throws IOException {
    Sub s = new Sub();
    s.put("a", "b");
    assertEquals(0, count(s, Constant.Sized.class));
    assertEquals(1, replays(s));
    RoundTrip.of(jdkCopy(s)).run();
  }

  @Test
  void theListingShowsTheFillAsPuts() throws IOException {
    List<String> fills = new ArrayList<>();
    SnapshotContents.read(Codese.toBytes(new ConcurrentHashMap<>(Map.of("k", "v"))))
        .list(
            new ProgramListener() {
              @Override
              public void fill(int object, String type, String statement, int references) {
                fills.add(type + ": " + statement.replaceAll("o[0-9]+", "o"));
              }
            });
    assertEquals(List.of("java.util.concurrent.ConcurrentHashMap: o.put(o, o);"), fills);
  }

  /** Hostile snapshots that misuse the fill, written by the format's own writer. */
  @Nested
  class Hostile {

    @Test
    void aCapacityOtherThanTheNumberOfPairsIsRefused() throws IOException {
      ConcurrentHashMap<String, String> m = new ConcurrentHashMap<>(Map.of("a", "x", "b", "y"));
      for (int capacity : new int[] {-1, 0, 1, 3, 1 << 30}) {
        SnapshotEdit e = SnapshotEdit.ofGraph(m);
        int k = e.sizedIndex();
        e.setConstant(k, new Constant.Sized(((Constant.Sized) e.constant(k)).type(), capacity));
        String message =
            assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
        assertMentions(
            message,
            "makes a java.util.concurrent.ConcurrentHashMap of initial capacity "
                + capacity
                + " for 2 pairs");
      }
      SnapshotEdit empty = SnapshotEdit.ofGraph(new ConcurrentHashMap<>());
      int k = empty.sizedIndex();
      empty.setConstant(k, new Constant.Sized(((Constant.Sized) empty.constant(k)).type(), 16));
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(empty.bytes()))
              .getMessage(),
          "of initial capacity 16 for 0 pairs");
    }

    @Test
    void aMakerOfASubclassIsRefusedBeforeAnythingRuns() throws IOException {
      SnapshotEdit e =
          SnapshotEdit.ofGraph(new ConcurrentHashMap<>(Map.of("a", "x")))
              .rename(ConcurrentHashMap.class, Sub.class.getName());
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
          "allocates "
              + Sub.class.getName()
              + " with a collection constructor (constant 0); only the JDK collections");
    }

    @Test
    void halfAPairIsRefused() throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(new ConcurrentHashMap<>(Map.of("a", "x")));
      int at = e.fillProgram();
      int[] p = e.program(at);
      int[] q = java.util.Arrays.copyOf(p, p.length - 1);
      q[2] = 1;
      e.setConstant(at, new Constant.PrimArray(q));
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
          "fills a java.util.concurrent.ConcurrentHashMap with 1 references, not whole elements");
    }

    @Test
    void aKeyWrittenTwiceKeepsTheLaterValueAsReadObjectDoes() throws IOException {
      ConcurrentHashMap<String, String> m = new ConcurrentHashMap<>(Map.of("a", "x", "b", "y"));
      SnapshotEdit e = SnapshotEdit.ofGraph(m);
      int at = e.fillProgram();
      int[] p = e.program(at);
      p[5] = p[3]; // the second pair's key is the first's
      e.setConstant(at, new Constant.PrimArray(p));
      Map<?, ?> r = (Map<?, ?>) Codese.fromBytes(e.bytes());
      assertEquals(Map.of(m.keySet().iterator().next(), m.values().toArray()[1]), r);
    }

    @Test
    void aNullKeyOrValueIsRefused() throws IOException {
      for (int which = 0; which < 2; which++) {
        Map<String, String> withNull = new java.util.HashMap<>();
        withNull.put("k", null); // a null the snapshot fills with, for the edit to point at
        Object[] root = {new ConcurrentHashMap<>(Map.of("a", "x")), withNull};
        SnapshotEdit e = SnapshotEdit.ofGraph(root);
        int at = e.fillProgram();
        int[] p = e.program(at);
        // two fill steps {STEP_FILL, target, 2, key, value}; the null slot is the table's last
        assertEquals(10, p.length, java.util.Arrays.toString(p));
        int nullSlot = Math.max(Math.max(p[3], p[4]), Math.max(p[8], p[9]));
        int concurrent = p[4] == nullSlot ? 5 : 0;
        p[concurrent + 3 + which] = nullSlot;
        e.setConstant(at, new Constant.PrimArray(p));
        assertMentions(
            assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
            "fills a java.util.concurrent.ConcurrentHashMap with null (slot "
                + nullSlot
                + ") at "
                + which);
      }
    }
  }

  @Test
  void aFilterRejectingTheSegmentsOrTheirLocksRejectsAsTheJdkDoes() throws IOException {
    // a JDK stream holds the segments' and locks' descriptors, which a fill does not make
    java.util.concurrent.ConcurrentHashMap<String, Integer> m =
        new java.util.concurrent.ConcurrentHashMap<>(Map.of("a", 1, "b", 2));
    for (String c :
        List.of(
            "java.util.concurrent.ConcurrentHashMap$Segment",
            "java.util.concurrent.locks.ReentrantLock",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer")) {
      org.codese.testkit.FilterCalls.assertBothReject(m, c);
    }
  }
}
