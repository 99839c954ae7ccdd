package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Vector;
import java.util.function.Function;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.testkit.FilterCalls;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code Vector}, {@code PriorityQueue}, {@code Hashtable} and {@code IdentityHashMap} restored by
 * fills ({@code program.Fills}) rather than by replaying their {@code readObject}: the JDK round
 * trip's bytes at every size (table lengths, storage capacity, heap order), what keeps {@code
 * readObject}, the filter's view of their storage, and hostile files (format writer, checksums
 * valid).
 */
class MoreCollectionFillTest {
  private static final int[] SIZES = {0, 1, 2, 3, 11, 12, 13, 20, 21, 24, 25, 47, 48, 49, 100, 385};

  private static final List<Function<List<Integer>, Object>> MAKERS =
      List.of(
          Vector::new,
          keys -> {
            PriorityQueue<Integer> q = new PriorityQueue<>();
            q.addAll(keys);
            return q;
          },
          keys -> {
            Hashtable<Integer, String> t = new Hashtable<>();
            keys.forEach(k -> t.put(k, "v" + k));
            return t;
          });

  private static List<Integer> keys(int n) {
    List<Integer> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(i * 7919 % 100_003 - 500);
    }
    return keys;
  }

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

  @Test
  void everyClassRestoresToTheJdkRoundTripsBytesAtEverySize() throws IOException {
    for (Function<List<Integer>, Object> maker : MAKERS) {
      for (int n : SIZES) {
        Object original = maker.apply(keys(n));
        String name = original.getClass().getSimpleName() + " of " + n;
        assertEquals(0, count(original, Constant.Hook.class), name);
        assertEquals(1, count(original, Constant.Sized.class), name);
        // as the JDK's own round trip leaves it (a Hashtable's table length is what readObject
        // computes), and a Vector's capacity and a queue's heap order as written
        RoundTrip.of(jdkCopy(original)).name(name).run();
        if (!(original instanceof Hashtable)) {
          RoundTrip.of(original).name(name + ", as made").run();
        }
      }
    }
  }

  /** An enum with a constant of its own class body, whose class is not the key type. */
  enum Color {
    RED,
    GREEN {
      @Override
      public String toString() {
        return "green";
      }
    },
    BLUE,
    CYAN,
    MAGENTA
  }

  /** A holder of an enum map whose values may refer back to it. */
  static final class Palette implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final java.util.EnumMap<Color, Object> map = new java.util.EnumMap<>(Color.class);
  }

  @Test
  void anEnumMapIsMadeWithItsKeyTypeAndFilled() throws IOException {
    for (int n = 0; n <= Color.values().length; n++) {
      java.util.EnumMap<Color, Object> m = new java.util.EnumMap<>(Color.class);
      for (int i = n - 1; i >= 0; i--) {
        m.put(Color.values()[i], i == 2 ? null : "v" + i);
      }
      assertEquals(0, count(m, Constant.Hook.class), "of " + n);
      assertEquals(1, count(m, Constant.Sized.class), "of " + n);
      RoundTrip.of(m).name("EnumMap of " + n).run();
    }
    Palette p = new Palette();
    p.map.put(Color.GREEN, p);
    p.map.put(Color.RED, p.map);
    RoundTrip.of(p)
        .check(
            o -> {
              Palette r = (Palette) o;
              assertSame(r, r.map.get(Color.GREEN));
              assertSame(r.map, r.map.get(Color.RED));
            })
        .run();
  }

  @Test
  void aBitSetHasTheWordsAndSizeItsReadObjectGivesIt() throws IOException {
    List<java.util.BitSet> sets = new ArrayList<>();
    sets.add(new java.util.BitSet());
    sets.add(new java.util.BitSet(0));
    sets.add(new java.util.BitSet(1000)); // sticky: its empty words are written
    java.util.BitSet sticky = new java.util.BitSet(1000);
    sticky.set(3);
    sticky.set(130);
    sets.add(sticky);
    java.util.BitSet grown = new java.util.BitSet();
    grown.set(70);
    grown.set(5000);
    grown.clear(5000); // no longer sticky, trimmed when written
    sets.add(grown);
    sets.add(java.util.BitSet.valueOf(new long[] {1, 0, -1}));
    sets.add(java.util.BitSet.valueOf(new long[] {0, 0, 0, Long.MIN_VALUE}));
    for (java.util.BitSet b : sets) {
      String name = "BitSet " + b + " of size " + b.size();
      assertEquals(0, count(b, Constant.Hook.class), name);
      java.util.BitSet jdk = (java.util.BitSet) jdkCopy(b);
      RoundTrip.of(b)
          .name(name)
          .check(o -> assertEquals(jdk.size(), ((java.util.BitSet) o).size(), name + ": size"))
          .run();
    }
  }

  @Test
  void theListingShowsEachFillAsItsCalls() throws IOException {
    Hashtable<String, String> table = new Hashtable<>(Map.of("k", "v"));
    Vector<String> vector = new Vector<>(List.of("e"));
    List<String> fills = new ArrayList<>();
    SnapshotContents.read(Codese.toBytes(new Object[] {table, vector}))
        .list(
            new ProgramListener() {
              @Override
              public void fill(int object, String type, String statement, int references) {
                fills.add(type + ": " + statement.replaceAll("o[0-9]+", "o"));
              }
            });
    assertEquals(
        List.of("java.util.Hashtable: o.put(o, o);", "java.util.Vector: o.add(o);"), fills);
  }

  @Test
  void aVectorKeepsItsCapacityAndSharedElements() {
    Vector<Object> v = new Vector<>(40);
    String shared = new String("shared");
    v.add(shared);
    v.add(shared);
    v.add(v);
    RoundTrip.of(v)
        .check(
            o -> {
              Vector<?> r = (Vector<?>) o;
              assertEquals(40, r.capacity());
              assertSame(r.get(0), r.get(1));
              assertSame(r, r.get(2));
            })
        .run();
  }

  @Test
  void anIdentityHashMapKeepsItsMappingsByIdentity() throws IOException {
    for (int n : SIZES) {
      IdentityHashMap<Object, Object> m = new IdentityHashMap<>();
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String k = new String("k" + (i % 5)); // equal keys, distinct objects
        keys.add(k);
        m.put(k, i % 3 == 0 ? null : keys);
      }
      m.put(null, "null key");
      assertEquals(0, count(m, Constant.Hook.class));
      Holder h = new Holder(m, keys);
      Holder r = (Holder) Codese.fromBytes(Codese.toBytes(h));
      assertEquals(n + 1, r.map.size());
      assertEquals("null key", r.map.get(null));
      for (int i = 0; i < n; i++) {
        Object k = r.keys.get(i);
        assertTrue(r.map.containsKey(k), "key " + i);
        assertEquals(i % 3 == 0 ? null : r.keys, r.map.get(k));
        if (i % 3 != 0) {
          assertSame(r.keys, r.map.get(k));
        }
      }
    }
    // one mapping has one order: the bytes are the JDK round trip's
    IdentityHashMap<Object, Object> one = new IdentityHashMap<>();
    one.put("k", List.of(1));
    RoundTrip.of(one).run();
  }

  /** A holder of an identity map and, in order, its keys (their identities are the point). */
  static final class Holder implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final IdentityHashMap<Object, Object> map;
    final List<String> keys;

    Holder(IdentityHashMap<Object, Object> map, List<String> keys) {
      this.map = map;
      this.keys = keys;
    }
  }

  @Test
  void aQueueWhoseArrayIsNoHeapKeepsReadObject() throws IOException {
    java.util.Date d1 = new java.util.Date(1);
    java.util.Date d2 = new java.util.Date(2);
    java.util.Date d3 = new java.util.Date(3);
    PriorityQueue<java.util.Date> q = new PriorityQueue<>(List.of(d1, d2, d3));
    assertEquals(0, count(q, Constant.Hook.class), "a heap of dates");
    d1.setTime(3); // changed after they were added: the array [3, 2, 1] is no heap
    d3.setTime(1);
    assertTrue(count(q, Constant.Hook.class) > 0);
    // readObject's heapify orders it as the JDK does
    assertArrayEquals(
        JdkBytes.serialize(jdkCopy(q)), JdkBytes.serialize(Codese.fromBytes(Codese.toBytes(q))));
    // elements whose compareTo is not the JDK's are not compared at capture
    PriorityQueue<Rank> ranks = new PriorityQueue<>(List.of(new Rank(2), new Rank(1)));
    assertTrue(count(ranks, Constant.Hook.class) > 0);
    RoundTrip.of(ranks).run();
  }

  /** An element of a priority queue with its own ordering. */
  record Rank(int value) implements Comparable<Rank>, java.io.Serializable {
    @Override
    public int compareTo(Rank o) {
      return Integer.compare(value, o.value);
    }
  }

  @Test
  void aVectorsCapacityIncrementIsLostAsTheJdkLosesIt() throws IOException {
    // Vector.readObject reads only the count and the storage: the increment the stream holds
    // is not restored, and the JDK's own round trip of such a vector writes 0
    Vector<String> increment = new Vector<>(4, 3);
    increment.add("a");
    assertEquals(0, count(increment, Constant.Hook.class));
    assertArrayEquals(
        JdkBytes.serialize(jdkCopy(increment)),
        JdkBytes.serialize(Codese.fromBytes(Codese.toBytes(increment))));
  }

  @Test
  void whatAFillCannotReproduceKeepsReadObject() throws IOException {
    Vector<String> roomy = new Vector<>(1000);
    PriorityQueue<String> ordered = new PriorityQueue<>(Comparator.reverseOrder());
    Hashtable<String, String> loadFactor = new Hashtable<>(16, 0.5f);
    java.util.Properties subclass = new java.util.Properties();
    for (String k : List.of("b", "a", "C")) {
      roomy.add(k);
      ordered.add(k);
      loadFactor.put(k, k + k);
      subclass.put(k, k + k);
    }
    for (Object o : List.of(roomy, ordered, loadFactor, subclass)) {
      assertEquals(0, count(o, Constant.Sized.class), o.getClass().getName());
      assertTrue(count(o, Constant.Hook.class) > 0, o.getClass().getName());
      RoundTrip.of(jdkCopy(o)).name(o.getClass().getName()).run();
    }
  }

  @Test
  void theFilterIsAskedAboutTheStorageReadObjectWouldAllocate() throws IOException {
    Hashtable<Integer, Integer> table = new Hashtable<>();
    IdentityHashMap<Integer, Integer> identity = new IdentityHashMap<>();
    PriorityQueue<Integer> queue = new PriorityQueue<>();
    Vector<Integer> vector = new Vector<>(150);
    for (int i = 0; i < 100; i++) {
      table.put(i, i);
      identity.put(1000 + i, i);
      queue.add(i);
      vector.add(i);
    }
    // the stream's storage copy is an array object, whose class the JDK asks about first (-1)
    List<String> jdkVector = FilterCalls.jdk(vector, "[]");
    jdkVector.remove("java.lang.Object[-1");
    assertEquals(jdkVector, FilterCalls.codese(vector, "[]"));
    assertEquals(FilterCalls.jdk(table, "[]"), FilterCalls.codese(table, "[]"));
    assertEquals(FilterCalls.jdk(identity, "[]"), FilterCalls.codese(identity, "[]"));
    assertEquals(FilterCalls.jdk(queue, "[]"), FilterCalls.codese(queue, "[]"));
  }

  /** Hostile snapshots that misuse these fills, written by the format's own writer. */
  @Nested
  class Hostile {

    @Test
    void aPriorityQueueOfCapacityZeroIsRejectedBeforeAnythingRuns() throws IOException {
      PriorityQueue<Integer> q = new PriorityQueue<>(List.of(3, 1, 2));
      SnapshotEdit e = SnapshotEdit.ofGraph(q);
      int k = e.sizedIndex();
      e.setConstant(k, new Constant.Sized(((Constant.Sized) e.constant(k)).type(), 0));
      String m =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
      assertMentions(m, "makes a java.util.PriorityQueue of initial capacity 0");
      assertMentions(m, "which its constructor refuses");
    }

    @Test
    void anEnumMapKeyedByAClassThatIsNoEnumIsRefused() throws IOException {
      java.util.EnumMap<Color, String> root = new java.util.EnumMap<>(Map.of(Color.RED, "r"));
      for (int key : new int[] {-1, 1_000_000, -2}) {
        SnapshotEdit e = SnapshotEdit.ofGraph(root);
        int k = e.sizedIndex();
        int type = ((Constant.Sized) e.constant(k)).type();
        int notEnum = key == -2 ? type : key; // -2: EnumMap itself, a class but no enum
        e.setConstant(k, new Constant.Sized(type, notEnum));
        String m =
            assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
        assertMentions(m, "makes an java.util.EnumMap keyed by class " + notEnum);
        assertMentions(m, "which is no enum class of the table");
      }
    }

    @Test
    void aKeyOfAnotherTypeFailsAsReadObjectFails() throws IOException {
      Object[] root = {new java.util.EnumMap<>(Map.of(Color.RED, "r")), Grammar.class.getName()};
      SnapshotEdit e = SnapshotEdit.ofGraph(root);
      int at = e.fillProgram();
      int[] p = e.program(at);
      p[3] = p[4]; // the key is the value, a String
      e.setConstant(at, new Constant.PrimArray(p));
      // EnumMap.put's own type check, which its readObject would have failed on
      RestoreException x = assertThrows(RestoreException.class, () -> Codese.fromBytes(e.bytes()));
      assertInstanceOf(ClassCastException.class, x.getCause());
    }

    @Test
    void aBitSetIsFilledFromOneLongArrayOfItsSizeOnly() throws IOException {
      java.util.BitSet b = new java.util.BitSet(640); // 10 words, sticky
      b.set(5);
      Object[] root = {b, new long[] {1, 2}, "x"};
      SnapshotEdit e = SnapshotEdit.ofGraph(root);
      int k = e.sizedIndex();
      int type = ((Constant.Sized) e.constant(k)).type();
      e.setConstant(k, new Constant.Sized(type, 641));
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
          "makes a java.util.BitSet of 641 bits for 10 words");
      for (int change = 0; change < 2; change++) {
        SnapshotEdit f = SnapshotEdit.ofGraph(root);
        int at = f.fillProgram();
        int[] p = f.program(at);
        int c = change;
        int[] q =
            c == 0
                ? new int[] {p[0], p[1], 2, p[3], p[3]} // two references
                : new int[] {p[0], p[1], 1, 0}; // the root Object[], no long[]
        f.setConstant(at, new Constant.PrimArray(q));
        assertMentions(
            assertThrows(UnsafeSnapshotException.class, () -> Codese.load(f.bytes())).getMessage(),
            "fills a java.util.BitSet with "
                + (c == 0 ? 2 : 1)
                + " references, not with one long[]");
      }
    }

    @Test
    void aFillCountNearTheLargestIntIsRefusedNotThrown() throws IOException {
      for (int n : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 2, Integer.MAX_VALUE - 3}) {
        SnapshotEdit e = SnapshotEdit.ofGraph(new Vector<>(List.of("a", "b")));
        int at = e.fillProgram();
        int[] p = e.program(at);
        p[2] = n;
        e.setConstant(at, new Constant.PrimArray(p));
        String m =
            assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
        assertMentions(m, "is unknown or cut short");
        assertThrows(
            CorruptSnapshotException.class,
            () -> SnapshotContents.read(e.bytes()).list(new ProgramListener() {}));
      }
    }

    @Test
    void aKeyPutTwiceFailsAsReadObjectFails() throws IOException {
      for (Map<Object, Object> m :
          List.<Map<Object, Object>>of(new Hashtable<>(), new IdentityHashMap<>())) {
        m.put("a", "x");
        m.put("b", "y");
        SnapshotEdit e = SnapshotEdit.ofGraph(m);
        int[] p = e.program(e.fillProgram());
        p[5] = p[3]; // the second pair's key is the first's
        e.setConstant(e.fillProgram(), new Constant.PrimArray(p));
        StreamCorruptedException x =
            assertThrows(StreamCorruptedException.class, () -> Codese.fromBytes(e.bytes()));
        assertMentions(x.getMessage(), "puts a key into a " + m.getClass().getName() + " twice");
      }
    }

    @Test
    void aNullInAHashtableFailsAsReadObjectFails() throws IOException {
      Pair pair = new Pair();
      pair.table.put("a", "x");
      pair.identity.put("k", null); // a null the snapshot fills with, for the edit to point at
      SnapshotEdit e = SnapshotEdit.ofGraph(pair);
      int at = e.fillProgram();
      int[] p = e.program(at);
      // two fill steps {STEP_FILL, target, 2, key, value}: the identity map's value is the null
      assertEquals(10, p.length, java.util.Arrays.toString(p));
      int identity = p[4] > p[9] ? 0 : 5;
      int table = 5 - identity;
      assertEquals(Grammar.STEP_FILL, p[table]);
      p[table + 4] = p[identity + 4];
      e.setConstant(at, new Constant.PrimArray(p));
      StreamCorruptedException x =
          assertThrows(StreamCorruptedException.class, () -> Codese.fromBytes(e.bytes()));
      assertMentions(x.getMessage(), "puts a null value into a Hashtable");
    }
  }

  /** A Hashtable and an identity map with a null value. */
  static final class Pair implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final Hashtable<Object, Object> table = new Hashtable<>();
    final IdentityHashMap<Object, Object> identity = new IdentityHashMap<>();
  }

  @Test
  void aFilterRejectingAFilledCollectionsSuperclassRejectsAsTheJdkDoes() throws IOException {
    // a JDK stream holds the superclass's descriptor too, and asks the filter about it
    Object[][] cases = {
      {new java.util.LinkedHashMap<>(java.util.Map.of("a", 1)), "java.util.HashMap"},
      {new java.util.LinkedHashSet<>(java.util.List.of("a")), "java.util.HashSet"},
    };
    for (Object[] c : cases) {
      org.codese.testkit.FilterCalls.assertBothReject(c[0], (String) c[1]);
    }
  }
}
