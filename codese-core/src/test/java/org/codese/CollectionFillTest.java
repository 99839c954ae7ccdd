package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * JDK collections restored by fills through their public API ({@code program.Fills}) rather than by
 * replaying their {@code readObject}: the same JDK bytes as the JDK's own round trip at every size
 * around the hash tables' resize points, cycles and sharing, the cases that keep {@code
 * readObject}, and hostile files that misuse fills (format writer, checksums valid).
 */
class CollectionFillTest {
  /** Sizes around the tables' thresholds (12, 24, 48, ... of a 0.75 load factor). */
  private static final int[] SIZES = {0, 1, 2, 11, 12, 13, 24, 25, 47, 48, 49, 96, 100, 385, 3072};

  private static final List<Function<List<Integer>, Object>> MAKERS =
      List.of(
          ArrayList::new,
          ArrayDeque::new,
          LinkedList::new,
          HashSet::new,
          LinkedHashSet::new,
          TreeSet::new,
          keys -> map(new HashMap<>(), keys),
          keys -> map(new LinkedHashMap<>(), keys),
          keys -> map(new TreeMap<>(), keys));

  private static Map<Integer, String> map(Map<Integer, String> m, List<Integer> keys) {
    for (Integer k : keys) {
      m.put(k, "v" + k);
    }
    return m;
  }

  private static List<Integer> keys(int n) {
    List<Integer> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(i * 7919 % 100_003 - 500);
    }
    return keys;
  }

  /**
   * What the JDK's own round trip makes of {@code o}: a hash set's capacity is what its {@code
   * readObject} computes, not what it had, so only a round-tripped set is a fair original.
   */
  private static Object jdkCopy(Object o) {
    try {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
        out.writeObject(o);
      }
      try (java.io.ObjectInputStream in =
          new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
        return in.readObject();
      }
    } catch (IOException | ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  /** How many hook constants a snapshot of {@code root} has. */
  private static long hooks(Object root) throws IOException {
    return SnapshotFile.parse(Codese.toBytes(root)).constants().stream()
        .filter(c -> c instanceof Constant.Hook)
        .count();
  }

  private static long sized(Object root) throws IOException {
    return SnapshotFile.parse(Codese.toBytes(root)).constants().stream()
        .filter(c -> c instanceof Constant.Sized)
        .count();
  }

  @Test
  void everyFilledClassRestoresToTheJdkRoundTripsBytesAtEverySize() {
    for (Function<List<Integer>, Object> maker : MAKERS) {
      for (int n : SIZES) {
        Object root = jdkCopy(maker.apply(keys(n)));
        RoundTrip.of(root).name(root.getClass().getSimpleName() + " of " + n).run();
      }
    }
  }

  @Test
  void filledCollectionsRunNoHook() throws IOException {
    for (Function<List<Integer>, Object> maker : MAKERS) {
      Object root = maker.apply(keys(40));
      assertEquals(0, hooks(root), root.getClass().getName());
      assertEquals(1, sized(root), root.getClass().getName());
    }
    // the graph of the issue: a map of lists, one allocation loop per kind and no hook at all
    Map<String, List<Integer>> index = new HashMap<>();
    for (int i = 0; i < 500; i++) {
      index.put("k" + i, new ArrayList<>(keys(i % 10)));
    }
    assertEquals(0, hooks(index));
    RoundTrip.of(index).run();
  }

  @Test
  void cyclesThroughACollectionAndSharedElementsSurvive() {
    List<Object> self = new ArrayList<>();
    self.add(self);
    self.add("x");
    RoundTrip.of(self).check(o -> assertSame(o, ((List<?>) o).get(0))).run();

    Map<Object, Object> map = new HashMap<>();
    Holder h = new Holder();
    h.map = map;
    map.put("holder", h);
    map.put("same", h);
    RoundTrip.of(map)
        .check(
            o -> {
              Map<?, ?> m = (Map<?, ?>) o;
              assertSame(m.get("holder"), m.get("same"));
              assertSame(m, ((Holder) m.get("holder")).map);
            })
        .run();

    TreeMap<String, Object> tree = new TreeMap<>();
    tree.put("a", tree);
    tree.put("b", jdkCopy(new LinkedHashSet<>(List.of("p", "q"))));
    RoundTrip.of(tree).check(o -> assertSame(o, ((Map<?, ?>) o).get("a"))).run();
  }

  /** Holds a map that holds it. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Map<Object, Object> map;
  }

  /** A key whose hash code depends on a field the set phase sets. */
  static final class Key implements Serializable {
    private static final long serialVersionUID = 1L;
    String name;

    Key(String name) {
      this.name = name;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.name.equals(name);
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }
  }

  @Test
  void keysAreCompleteWhenTheMapIsFilled() {
    Map<Key, Integer> m = new HashMap<>();
    java.util.Set<Key> s = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      m.put(new Key("k" + i), i);
      s.add(new Key("s" + i));
    }
    RoundTrip.of(jdkCopy(new ArrayList<>(List.of(m, s))))
        .check(
            o -> {
              @SuppressWarnings("unchecked")
              Map<Key, Integer> r = (Map<Key, Integer>) ((List<?>) o).get(0);
              assertEquals(42, r.get(new Key("k42")));
              assertTrue(((java.util.Set<?>) ((List<?>) o).get(1)).contains(new Key("s7")));
            })
        .run();
  }

  /** A subclass that counts its puts: a fill must not call it, readObject does not. */
  static final class CountingMap extends HashMap<String, String> {
    private static final long serialVersionUID = 1L;
    static int puts;

    @Override
    public String put(String k, String v) {
      puts++;
      return super.put(k, v);
    }
  }

  @Test
  void whatAFillCannotReproduceKeepsReadObject() throws IOException {
    HashMap<String, String> loadFactor = new HashMap<>(16, 0.5f);
    LinkedHashMap<String, String> accessOrder = new LinkedHashMap<>(16, 0.75f, true);
    TreeMap<String, String> comparator = new TreeMap<>(Comparator.reverseOrder());
    TreeSet<String> sortedBy = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    HashSet<String> setLoadFactor = new HashSet<>(16, 2f);
    CountingMap subclass = new CountingMap();
    List<Object> all =
        List.of(loadFactor, accessOrder, comparator, sortedBy, setLoadFactor, subclass);
    for (Object o : all) {
      for (String k : List.of("b", "a", "C")) {
        if (o instanceof Map<?, ?> m) {
          @SuppressWarnings("unchecked")
          Map<String, String> sm = (Map<String, String>) m;
          sm.put(k, k + k);
        } else {
          @SuppressWarnings("unchecked")
          Collection<String> c = (Collection<String>) o;
          c.add(k);
        }
      }
      accessOrder.get("b");
      assertEquals(0, sized(o), o.getClass().getName());
      assertTrue(hooks(o) > 0, o.getClass().getName());
      RoundTrip.of(jdkCopy(o)).name(o.getClass().getName()).run();
    }
    int before = CountingMap.puts;
    Codese.fromBytes(Codese.toBytes(subclass));
    assertEquals(before, CountingMap.puts, "readObject puts through putVal, never put");
  }

  @Test
  void theFilterIsAskedAboutTheStorageReadObjectWouldAllocate() throws IOException {
    HashMap<Integer, Integer> map = new HashMap<>();
    for (int i = 0; i < 100; i++) {
      map.put(i, i);
    }
    List<String> seen = new ArrayList<>();
    ObjectInputFilter recording =
        info -> {
          if (info.serialClass() != null && info.serialClass().isArray()) {
            seen.add(info.serialClass().getComponentType().getName() + "[" + info.arrayLength());
          }
          return ObjectInputFilter.Status.UNDECIDED;
        };
    Codese.fromBytes(
        Codese.toBytes(map), CodeseOptions.defaults().withObjectInputFilter(recording));
    assertTrue(seen.contains("java.util.Map$Entry[256"), seen.toString());
    ObjectInputFilter rejecting = ObjectInputFilter.Config.createFilter("maxarray=255;java.**;!*");
    assertThrows(
        java.io.InvalidClassException.class,
        () ->
            Codese.fromBytes(
                Codese.toBytes(map), CodeseOptions.defaults().withObjectInputFilter(rejecting)));
  }

  /** Hostile snapshots that misuse fills, written by the format's own writer, checksums valid. */
  @Nested
  class Hostile {
    private final Map<String, String> two = new HashMap<>(Map.of("a", "x", "b", "y"));

    private int[] steps(SnapshotEdit e) {
      return e.program(e.fillProgram());
    }

    @Test
    void theUneditedSnapshotRestores() throws IOException {
      assertEquals(two, Codese.fromBytes(SnapshotEdit.ofGraph(two).bytes()));
    }

    @Test
    void aFillOfAnObjectMadeByTheSerializationConstructorIsRejected() throws IOException {
      SnapshotEdit e =
          SnapshotEdit.ofGraph(two)
              .renameCalls(Grammar.NEW_COLLECTION_METHOD, Grammar.ALLOCATE_METHOD);
      int k = e.sizedIndex();
      e.setConstant(
          k, new Constant.Allocator(((Constant.Sized) e.constant(k)).type(), Constant.Mode.SERIAL));
      assertMentions(
          e.unsafeRejection(),
          "fills slot 0, which holds no JDK collection this snapshot made to be filled");
    }

    @Test
    void aCollectionMakerPassedToTheAllocationEntryIsRejected() throws IOException {
      SnapshotEdit e =
          SnapshotEdit.ofGraph(two)
              .renameCalls(Grammar.NEW_COLLECTION_METHOD, Grammar.ALLOCATE_METHOD);
      assertMentions(
          e.unsafeRejection(),
          "allocates with constant " + e.sizedIndex() + ", which is a collection maker");
    }

    @Test
    void anAllocatorPassedToTheCollectionEntryIsRejected() throws IOException {
      Holder h = new Holder();
      h.map = new HashMap<>(Map.of("a", "b"));
      SnapshotEdit e =
          SnapshotEdit.ofGraph(h)
              .renameCalls(Grammar.ALLOCATE_METHOD, Grammar.NEW_COLLECTION_METHOD);
      int k =
          e.constantIndex(
              c -> c instanceof Constant.Allocator a && a.type() == e.classIndex(Holder.class));
      assertMentions(
          e.unsafeRejection(),
          "makes a collection with constant " + k + ", which is not a collection maker");
    }

    @Test
    void theCollectionEntryIsOutsideTheGrammarBeforeFormatEight() throws IOException {
      SnapshotFile f = SnapshotFile.parse(Codese.toBytes(two));
      SnapshotFile older = SnapshotEdit.relabel(f, Grammar.COLLECTION_VERSION - 1);
      String m =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(older.bytes()))
              .getMessage();
      assertTrue(m.contains("Entry.newCollection") && m.contains("does not allow"), m);
    }

    @Test
    void aCollectionConstructorOfAnotherClassIsRejected() throws IOException {
      Holder h = new Holder();
      h.map = new HashMap<>(Map.of("a", "b"));
      SnapshotEdit e = SnapshotEdit.ofGraph(h);
      int k = e.sizedIndex();
      e.setConstant(k, new Constant.Sized(e.classIndex(Holder.class), -1));
      assertMentions(
          e.unsafeRejection(), "allocates " + Holder.class.getTypeName() + " with a collection");
    }

    @Test
    void anInitialCapacityOutOfProportionIsRejectedBeforeAnythingIsAllocated() throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(two);
      int k = e.sizedIndex();
      e.setConstant(k, new Constant.Sized(((Constant.Sized) e.constant(k)).type(), 1 << 28));
      assertMentions(
          e.unsafeRejection(),
          "makes a java.util.HashMap of initial capacity 268435456 for 2 elements");
    }

    @Test
    void aCollectionNeverFilledIsRejected() throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(two);
      e.setConstant(e.fillProgram(), new Constant.PrimArray(new int[0]));
      assertMentions(e.unsafeRejection(), "never fills them");
    }

    @Test
    void aSecondFillIsRejected() throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(two);
      int[] p = steps(e);
      int[] twice = Arrays.copyOf(p, 2 * p.length);
      System.arraycopy(p, 0, twice, p.length, p.length);
      e.setConstant(e.fillProgram(), new Constant.PrimArray(twice));
      assertMentions(e.unsafeRejection(), "(it was filled before)");
    }

    @Test
    void aMapIsFilledWithWholePairs() throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(two);
      int[] p = steps(e);
      p[2] = 3;
      int[] cut = Arrays.copyOf(p, 6);
      e.setConstant(e.fillProgram(), new Constant.PrimArray(cut));
      assertMentions(e.unsafeRejection(), "with 3 references, not whole elements");
    }

    @Test
    void aFillReadsOnlyTableSlots() throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(two);
      int[] p = steps(e);
      p[4] = 1_000_000;
      e.setConstant(e.fillProgram(), new Constant.PrimArray(p));
      assertMentions(e.unsafeRejection(), "reads table slot 1000000, outside the table");
      int[] longer = Arrays.copyOf(steps(e), steps(e).length);
      longer[2] = 1 << 20;
      e.setConstant(e.fillProgram(), new Constant.PrimArray(longer));
      assertMentions(e.unsafeRejection(), "is unknown or cut short");
    }

    @Test
    void theStorageOfAFilledListCountsAgainstTheArrayLimit() throws IOException {
      List<Integer> ten = new ArrayList<>(keys(10));
      SnapshotEdit e = SnapshotEdit.ofGraph(ten);
      int k = e.sizedIndex();
      e.setConstant(k, new Constant.Sized(((Constant.Sized) e.constant(k)).type(), 40));
      CodeseOptions tight =
          CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxArrayLength(30));
      InvalidObjectException x =
          assertThrows(InvalidObjectException.class, () -> Codese.load(e.bytes(), tight));
      assertMentions(x.getMessage(), "storage holds 40 elements, beyond the limit of 30");
      assertEquals(ten, Codese.fromBytes(e.bytes()));
    }

    @Test
    void aFillOfAStringSlotIsRejected() throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(two);
      int[] p = steps(e);
      p[1] = p[3]; // a key: a string this snapshot made, not a collection
      e.setConstant(e.fillProgram(), new Constant.PrimArray(p));
      assertMentions(
          e.unsafeRejection(), "which holds no JDK collection this snapshot made to be filled");
    }
  }

  @Test
  void formatThreeHasNoFills() throws IOException {
    Predicate<Constant> fill = c -> c instanceof Constant.Sized;
    SnapshotFile f =
        SnapshotFile.parse(
            SnapshotEdit.of(Codese.toBytes(new ArrayList<>(List.of(1, 2))))
                .renameCalls(Grammar.NEW_COLLECTION_METHOD, Grammar.ALLOCATE_METHOD)
                .bytes());
    assertTrue(f.constants().stream().anyMatch(fill));
    // format 3's code names what format 4's does; only its data may not hold fills
    SnapshotFile older = SnapshotEdit.relabel(f, Grammar.FILL_VERSION - 1);
    String m =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(older.bytes())).getMessage();
    assertTrue(m.contains("from format version " + Grammar.FILL_VERSION + " on"), m);
  }
}
