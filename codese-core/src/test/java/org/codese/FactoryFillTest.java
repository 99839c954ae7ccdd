package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Factories;
import org.codese.program.Grammar;
import org.codese.testkit.FilterCalls;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The {@code Collections} wrappers, empties and singletons, {@code Arrays.asList} and {@code
 * Collections.reverseOrder()} made by {@code STEP_FACTORY} steps instead of replaying the default
 * reads of their private final fields: the JDK round trip's bytes and classes for every kind,
 * sharing, what keeps the replay, the filter's view, and hostile files (format writer, checksums
 * valid).
 */
class FactoryFillTest {
  private static List<String> strings(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("s" + i * 7919 % 1009);
    }
    return out;
  }

  private static Map<String, Integer> map(int n) {
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < n; i++) {
      m.put("k" + i, i);
    }
    return m;
  }

  /** One object of every factory kind (the list ones of a random-access and a linked list). */
  static List<Object> everyKind() {
    List<Object> all = new ArrayList<>();
    all.add(Collections.unmodifiableCollection(new ArrayList<>(strings(3))));
    all.add(Collections.unmodifiableSet(new HashSet<>(strings(4))));
    all.add(Collections.unmodifiableSortedSet(new TreeSet<>(strings(5))));
    all.add(Collections.unmodifiableNavigableSet(new TreeSet<>(strings(2))));
    all.add(Collections.unmodifiableList(new ArrayList<>(strings(6))));
    all.add(Collections.unmodifiableList(new LinkedList<>(strings(2))));
    all.add(Collections.unmodifiableMap(map(5)));
    all.add(Collections.unmodifiableSortedMap(new TreeMap<>(map(4))));
    all.add(Collections.unmodifiableNavigableMap(new TreeMap<>(map(3))));
    all.add(Collections.synchronizedCollection(new ArrayList<>(strings(3))));
    all.add(Collections.synchronizedSet(new HashSet<>(strings(3))));
    all.add(Collections.synchronizedSortedSet(new TreeSet<>(strings(3))));
    all.add(Collections.synchronizedNavigableSet(new TreeSet<>(strings(3))));
    all.add(Collections.synchronizedList(new ArrayList<>(strings(3))));
    all.add(Collections.synchronizedList(new LinkedList<>(strings(3))));
    all.add(Collections.synchronizedMap(map(3)));
    all.add(Collections.synchronizedSortedMap(new TreeMap<>(map(3))));
    all.add(Collections.synchronizedNavigableMap(new TreeMap<>(map(3))));
    all.add(Collections.emptyList());
    all.add(Collections.emptySet());
    all.add(Collections.emptyMap());
    all.add(Collections.reverseOrder());
    all.add(Collections.singletonList("one"));
    all.add(Collections.singletonList(null));
    all.add(Collections.singleton(2));
    all.add(Collections.singletonMap("k", 3L));
    all.add(Arrays.asList("a", "b"));
    all.add(Arrays.asList(new Integer[] {1, 2}));
    all.add(Arrays.asList());
    all.add(java.util.EnumSet.of(java.util.concurrent.TimeUnit.DAYS, TimeUnit.SECONDS));
    all.add(java.util.EnumSet.noneOf(TimeUnit.class));
    all.add(java.util.EnumSet.allOf(Character.UnicodeScript.class)); // more than 64: a jumbo set
    List<Object> stable = new ArrayList<>();
    for (Object o : all) {
      stable.add(stable(o));
    }
    return stable;
  }

  /**
   * {@code o} after a JDK round trip: a hash collection made by its {@code readObject} has the
   * capacity a JDK round trip keeps, so that the JDK's bytes can serve as the oracle.
   */
  static Object stable(Object o) {
    try {
      return JdkBytes.deserialize(JdkBytes.serialize(o));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The factory kinds a snapshot of {@code root} makes, one entry per step, from its listing. */
  private static List<Integer> factorySteps(Object root) throws IOException {
    List<Integer> kinds = new ArrayList<>();
    SnapshotContents.read(Codese.toBytes(root))
        .list(
            new ProgramListener() {
              @Override
              public void create(int object, String type, String expression) {
                if (expression.endsWith("/* as " + type + " */")
                    && Factories.kind(type) != Factories.NONE) {
                  kinds.add(Factories.kind(type));
                }
              }
            });
    return kinds;
  }

  private static long hooks(Object root) throws IOException {
    return SnapshotFile.parse(Codese.toBytes(root)).constants().stream()
        .filter(c -> c instanceof Constant.Hook)
        .count();
  }

  @Test
  void everyKindRestoresToTheJdkRoundTripsBytesAndClassWithoutReplay() throws IOException {
    for (Object o : everyKind()) {
      String name = o.getClass().getName() + " " + o;
      List<Integer> kinds = factorySteps(o);
      assertEquals(1, kinds.size(), name + ": made by one factory step");
      // the JDK writes a random-access list wrapper as its plain form
      String written =
          o instanceof java.util.EnumSet<?>
              ? "java.util.EnumSet$SerializationProxy"
              : o.getClass().getName().replace("RandomAccessList", "List");
      assertEquals(Factories.kind(written), kinds.get(0), name);
      assertEquals(0, hooks(o), name + ": nothing replayed");
      RoundTrip.of(o)
          .name(name)
          .check(r -> assertEquals(o.getClass(), r.getClass(), name + ": the same class"))
          .run();
    }
    // the JDK writes a random-access wrapper as its plain form: every kind has an example
    List<Integer> all = factorySteps(everyKind());
    for (int k = 1; k <= Factories.LAST; k++) {
      assertTrue(all.contains(k), "kind " + k + " " + Factories.className(k));
    }
  }

  @Test
  void theEmptiesAndReverseOrderAreTheJdksConstants() throws IOException {
    Object[] root = {
      Collections.emptyList(),
      Collections.emptySet(),
      Collections.emptyMap(),
      Collections.reverseOrder()
    };
    Object[] r = (Object[]) Codese.fromBytes(Codese.toBytes(root));
    assertSame(Collections.emptyList(), r[0]);
    assertSame(Collections.emptySet(), r[1]);
    assertSame(Collections.emptyMap(), r[2]);
    assertSame(Collections.reverseOrder(), r[3]);
  }

  /** An object holding a list and an unmodifiable view of it, as classes often do. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    final List<String> items = new ArrayList<>();
    final List<String> view = Collections.unmodifiableList(items);
    Object extra;
  }

  @Test
  void aViewOfAListWrittenBeforeItWrapsThatList() throws IOException {
    Holder h = new Holder();
    h.items.addAll(strings(4));
    h.extra = h.view;
    assertEquals(List.of(Factories.UNMODIFIABLE_LIST), factorySteps(h));
    RoundTrip.of(h)
        .check(
            o -> {
              Holder r = (Holder) o;
              assertSame(r.view, r.extra);
              r.items.add("later");
              assertEquals(r.items, r.view, "the view shows its list");
            })
        .run();
  }

  @Test
  void aSharedWrapperAndASharedInnerKeepTheirIdentity() throws IOException {
    List<String> inner = new ArrayList<>(strings(3));
    List<String> view = Collections.unmodifiableList(inner);
    Object[] root = {view, Collections.synchronizedList(inner), view, inner, Arrays.asList(view)};
    RoundTrip.of(root)
        .check(
            o -> {
              Object[] r = (Object[]) o;
              assertSame(r[0], r[2]);
              assertSame(r[0], ((List<?>) r[4]).get(0));
              assertNotSame(r[0], r[1]);
              r[3].getClass(); // the inner list, written inside the first view
              ((List<Object>) r[3]).add("x");
              assertEquals(r[3], r[0]);
              assertEquals(r[3], r[1]);
            })
        .run();
  }

  @Test
  void aListHoldingItsOwnViewKeepsTheReplay() throws IOException {
    // the list, written inside the view, refers back to it before a factory could have made it
    List<Object> list = new ArrayList<>();
    Collection<Object> view = Collections.unmodifiableCollection(list);
    list.add(view);
    list.add("x");
    assertEquals(List.of(), factorySteps(view));
    RoundTrip.of(view).check(o -> assertSame(o, ((Collection<?>) o).iterator().next())).run();
    // written the other way round, the list first, the view may be made by its factory
    assertEquals(List.of(Factories.UNMODIFIABLE_COLLECTION), factorySteps(list));
    RoundTrip.of(list)
        .check(
            o -> {
              Collection<?> v = (Collection<?>) ((List<?>) o).get(0);
              assertSame(v, v.iterator().next());
            })
        .run();
  }

  /** A node that holds a wrapper of its children, who know their parent. */
  static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    Node parent;
    List<Node> children = Collections.emptyList();
  }

  @Test
  void objectsFirstWrittenInsideTheWrapperKeepTheReplay() throws IOException {
    Node root = new Node();
    Node child = new Node();
    child.parent = root;
    root.children = Collections.unmodifiableList(new ArrayList<>(List.of(child)));
    List<Integer> kinds = factorySteps(root);
    assertTrue(!kinds.contains(Factories.UNMODIFIABLE_LIST), kinds.toString());
    RoundTrip.of(root).check(o -> assertSame(o, ((Node) o).children.get(0).parent)).run();
  }

  @Test
  void aWrapperOfAWrapperKeepsTheReplayAndWrapsTwice() throws IOException {
    Set<String> inner = Collections.unmodifiableSet(new HashSet<>(strings(2)));
    Object outer = stable(Collections.unmodifiableCollection(Collections.synchronizedSet(inner)));
    RoundTrip.of(outer).run();
    // the JDK 17 factories return a wrapper of their own class unchanged: a JDK stream does not
    Object twice = stable(Collections.unmodifiableSet(inner));
    RoundTrip.of(twice).run();
  }

  /** JDK bytes of the JDK round trip and of Codese's restore must be equal. */
  private static void sameAsJdk(Object g) throws IOException {
    byte[] jdk = JdkBytes.serialize(JdkBytes.deserialize(JdkBytes.serialize(g)));
    byte[] codese = JdkBytes.serialize(Codese.fromBytes(Codese.toBytes(g)));
    assertArrayEquals(jdk, codese, () -> JdkBytes.explainDifference(jdk, codese));
  }

  /** A list whose readResolve returns an unmodifiable (random-access) view (a review's case). */
  static final class ResolvesToView extends java.util.AbstractList<String>
      implements Serializable, java.util.RandomAccess {
    private static final long serialVersionUID = 1L;
    final ArrayList<String> items = new ArrayList<>(List.of("a", "b"));

    @Override
    public String get(int i) {
      return items.get(i);
    }

    @Override
    public int size() {
      return items.size();
    }

    private Object readResolve() {
      return Collections.unmodifiableList(items);
    }
  }

  @Test
  void aViewOfAnObjectWhoseReadResolveReturnsAViewKeepsTheReplayAndWrapsTwice() throws IOException {
    // the unmodifiable factories return a view of their own class unchanged; a JDK stream wraps
    ResolvesToView u = new ResolvesToView();
    Object[] root = {u, Collections.unmodifiableList(u)};
    Object[] jdk = (Object[]) JdkBytes.deserialize(JdkBytes.serialize(root));
    assertEquals(jdk[0].getClass(), jdk[1].getClass(), "the JDK wraps the view once more");
    assertEquals(List.of(), factorySteps(root));
    sameAsJdk(root);
  }

  /** A record holding a list that holds a view of the record. */
  record Rec(List<Object> items) implements Serializable {}

  @Test
  void aViewOfARecordBeingReadHoldsNullAsInAJdkStream() throws IOException {
    List<Object> items = new ArrayList<>();
    Rec r = new Rec(items);
    items.add(Collections.singletonList(r));
    items.add(Collections.unmodifiableCollection(new RecordList(r)));
    Rec jdk = (Rec) JdkBytes.deserialize(JdkBytes.serialize(r));
    Rec back = (Rec) Codese.fromBytes(Codese.toBytes(r));
    assertEquals(((List<?>) jdk.items().get(0)).get(0), ((List<?>) back.items().get(0)).get(0));
    sameAsJdk(r);
  }

  /** A serializable list of one record. */
  static final class RecordList extends ArrayList<Object> {
    private static final long serialVersionUID = 1L;

    RecordList(Object o) {
      add(o);
    }
  }

  @Test
  void aFilterRejectingAWrappersSuperclassRejectsAsTheJdkDoes() throws IOException {
    Object[][] cases = {
      {
        Collections.unmodifiableList(new ArrayList<>(List.of("a"))),
        "java.util.Collections$UnmodifiableCollection"
      },
      {
        Collections.unmodifiableSortedSet(new TreeSet<>(List.of("a"))),
        "java.util.Collections$UnmodifiableSet"
      },
      {
        Collections.synchronizedSet(new HashSet<>(List.of("a"))),
        "java.util.Collections$SynchronizedCollection"
      },
    };
    for (Object[] c : cases) {
      FilterCalls.assertBothReject(c[0], (String) c[1]);
    }
  }

  /** An object whose one field, set, holds a set made by a step. */
  static final class WithSet implements Serializable {
    private static final long serialVersionUID = 1L;
    final Set<String> set;

    WithSet(Set<String> set) {
      this.set = set;
    }
  }

  @Test
  void objectsMadeByStepsHoldTheirReferencesInTheStoreCapacity() throws IOException {
    // each holder's field is stored null by the set phase's loop, then the view by the finish
    // program: two stores into one field, which only the view's own reference leaves room for
    // (a HashSet has no serializable field of its own to leave unset)
    List<Object> views = new ArrayList<>();
    List<Object> immutables = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      // every other one a plain set, so that the loop has a column for the field
      Set<String> plain = new HashSet<>(Set.of("p" + i));
      views.add(
          new WithSet(
              i % 2 == 0 ? plain : Collections.unmodifiableSet(new HashSet<>(Set.of("v")))));
      immutables.add(new WithSet(i % 2 == 0 ? plain : Set.of("i" + i)));
    }
    for (Object root : List.of(stable(views), stable(immutables))) {
      RoundTrip.of(root).run();
    }
  }

  @Test
  void aFilterRejectingOnlyWhatReadResolveReturnsRejectsAsTheJdkDoes() throws IOException {
    Object[][] cases = {
      {
        Collections.unmodifiableList(new ArrayList<>(List.of("a"))),
        "java.util.Collections$UnmodifiableRandomAccessList"
      },
      {
        Collections.synchronizedList(new ArrayList<>(List.of("a"))),
        "java.util.Collections$SynchronizedRandomAccessList"
      },
      {java.util.EnumSet.of(TimeUnit.DAYS), "java.util.RegularEnumSet"},
      {List.of("a", "b", "c"), "java.util.ImmutableCollections$ListN"},
      {Set.of("a"), "java.util.ImmutableCollections$Set12"},
    };
    for (Object[] c : cases) {
      FilterCalls.assertBothReject(c[0], (String) c[1]);
    }
    ObjectInputFilter noRandomAccess =
        ObjectInputFilter.Config.createFilter(
            "!java.util.Collections$UnmodifiableRandomAccessList");
    Object linked = Collections.unmodifiableList(new LinkedList<>(List.of("a")));
    assertEquals(
        linked,
        Codese.fromBytes(
            Codese.toBytes(linked),
            CodeseOptions.defaults().withObjectInputFilter(noRandomAccess)));
  }

  @Test
  void theSampleGraphsWrappersAreNoLongerReplayed() throws IOException {
    Object g = org.codese.samples.SampleGraphs.jdkCollections();
    List<String> replayed = new ArrayList<>();
    SnapshotContents.read(Codese.toBytes(g))
        .list(
            new ProgramListener() {
              @Override
              public void hook(int target, String type, String text, int refs, int prims) {
                if (type != null
                    && (type.contains("Unmodifiable")
                        || type.contains("Synchronized")
                        || type.contains("Singleton")
                        || type.contains("Empty"))) {
                  replayed.add(type);
                }
              }
            });
    assertEquals(List.of(), replayed);
    assertTrue(factorySteps(g).size() >= 100, "the sample graph's unmodifiable lists");
    RoundTrip.of(g).run();
  }

  @Test
  void theFilterIsAskedAboutTheWrapperClass() throws IOException {
    // and, where the JDK's readResolve returns another object, about that object's class
    for (Object o : everyKind()) {
      String suffix = o.getClass().getSimpleName();
      assertEquals(
          classCalls(FilterCalls.jdk(o, suffix), suffix),
          classCalls(FilterCalls.codese(o, suffix), suffix),
          suffix);
    }
  }

  /** The calls about classes named {@code ...suffix}, not about arrays. */
  private static List<String> classCalls(List<String> calls, String suffix) {
    List<String> out = new ArrayList<>();
    for (String c : calls) {
      if (c.substring(0, c.lastIndexOf('[')).endsWith(suffix)) {
        out.add(c);
      }
    }
    return out;
  }

  @Test
  void aFilterRejectingTheWrapperRejectsTheSnapshot() throws IOException {
    byte[] bytes = Codese.toBytes(Collections.unmodifiableList(new ArrayList<>(strings(2))));
    ObjectInputFilter no =
        ObjectInputFilter.Config.createFilter("!java.util.Collections$UnmodifiableList");
    assertThrows(
        java.io.InvalidClassException.class,
        () -> Codese.fromBytes(bytes, CodeseOptions.defaults().withObjectInputFilter(no)));
  }

  @Test
  void objectStreamsKeepReplayingThem() throws IOException, ClassNotFoundException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(everyKind());
    }
    try (CodeseInputStream in =
        new CodeseInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      assertArrayEquals(
          org.codese.testkit.JdkBytes.serialize(everyKind()),
          org.codese.testkit.JdkBytes.serialize(in.readObject()));
    }
  }

  /** Hostile snapshots that misuse the step, written by the format's own writer. */
  @Nested
  class Hostile {
    private final Object list = Collections.unmodifiableList(new ArrayList<>(strings(2)));

    /** An edit of {@code root}'s finish program at its first factory step. */
    private SnapshotEdit edited(Object root, java.util.function.ObjIntConsumer<int[]> change)
        throws IOException {
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(root));
      int at = e.constantIndex(c -> factoryStep(c) >= 0);
      int[] p = e.program(at);
      change.accept(p, factoryStep(e.constant(at)));
      e.setConstant(at, new Constant.PrimArray(p));
      return e;
    }

    private SnapshotEdit edited(Object root, Consumer<int[]> change) throws IOException {
      return edited(
          root,
          (p, s) -> {
            int[] step = Arrays.copyOfRange(p, s, p.length);
            change.accept(step);
            System.arraycopy(step, 0, p, s, step.length);
          });
    }

    /**
     * Where the first factory step of finish program {@code c} starts, or -1 if {@code c} is no
     * finish program holding one.
     */
    private int factoryStep(Constant c) {
      if (!(c instanceof Constant.PrimArray pa && pa.array() instanceof int[] p)) {
        return -1;
      }
      int first = -1;
      int i = 0;
      while (i < p.length) {
        int size;
        if (p[i] == Grammar.STEP_HOOK) {
          size = 2;
        } else if (p[i] == Grammar.STEP_FIELD || p[i] == Grammar.STEP_ELEMENT) {
          size = 4;
        } else if (p[i] == Grammar.STEP_FILL && i + 2 < p.length) {
          size = 3 + p[i + 2];
        } else if ((p[i] == Grammar.STEP_FACTORY || p[i] == Grammar.STEP_IMMUTABLE)
            && i + 4 < p.length) {
          first = first < 0 && p[i] == Grammar.STEP_FACTORY ? i : first;
          size = 5 + p[i + 4];
        } else {
          return -1;
        }
        i += size;
      }
      return i == p.length ? first : -1;
    }

    @Test
    void theUneditedSnapshotRestores() throws IOException {
      assertEquals(list, Codese.fromBytes(edited(list, p -> {}).bytes()));
    }

    @Test
    void theStepIsOutsideTheGrammarBeforeItsFormat() throws IOException {
      SnapshotFile f = SnapshotFile.parse(Codese.toBytes(Collections.emptyList()));
      SnapshotFile older = SnapshotEdit.relabel(f, Grammar.FACTORY_VERSION - 1);
      String m =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(older.bytes()))
              .getMessage();
      assertMentions(m, "finish step " + Grammar.STEP_FACTORY + " at 0 is unknown");
    }

    @Test
    void aClassOtherThanTheKindsIsRefused() throws IOException {
      Object[] root = {list, Collections.singletonList("x")};
      int singleton =
          SnapshotEdit.of(Codese.toBytes(root))
              .classIndex(Collections.singletonList("x").getClass());
      // the singleton list's class for the unmodifiable list's kind
      assertMentions(
          (edited(root, p -> p[1] = singleton)).unsafeRejection(),
          "(java.util.Collections$SingletonList), not as java.util.Collections$UnmodifiableList");
    }

    @Test
    void aClassIndexOutsideTheTableIsRefused() throws IOException {
      for (int t : new int[] {-1, 1_000_000}) {
        assertMentions(
            (edited(list, p -> p[1] = t)).unsafeRejection(),
            "makes an object by Collections.unmodifiableList as class " + t + ", not as");
      }
    }

    @Test
    void anUnknownKindIsRefused() throws IOException {
      for (int k : new int[] {0, Factories.LAST + 1, -3}) {
        assertMentions(
            (edited(list, p -> p[2] = k)).unsafeRejection(),
            "makes an object by unknown factory kind " + k);
      }
    }

    @Test
    void anotherNumberOfArgumentsIsRefused() throws IOException {
      assertMentions(
          (edited(list, p -> p[4] = 0)).unsafeRejection(),
          "makes an object by Collections.unmodifiableList of 0 references");
    }

    @Test
    void aSlotMadeBeforeIsRefused() throws IOException {
      assertMentions((edited(list, p -> p[3] = p[5])).unsafeRejection(), "which is filled already");
    }

    @Test
    void aCountNearTheLargestIntIsRefusedNotThrown() throws IOException {
      for (int n : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 4, Integer.MAX_VALUE - 5}) {
        SnapshotEdit e = edited(list, p -> p[4] = n);
        assertMentions(e.unsafeRejection(), "is unknown or cut short");
        assertThrows(
            CorruptSnapshotException.class,
            () -> SnapshotContents.read(e.bytes()).list(new ProgramListener() {}));
      }
    }

    @Test
    void aSlotOutsideTheTableIsRefused() throws IOException {
      assertMentions(
          (edited(list, p -> p[5] = 1_000_000)).unsafeRejection(),
          "reads table slot 1000000, outside the table");
    }

    @Test
    void anArraysAsListOfAnotherObjectIsRefused() throws IOException {
      // the array list of the root, made by its constructor and filled, is no Object[]
      Object[] root = {Arrays.asList("a"), new ArrayList<>(List.of("b"))};
      String m = (edited(root, p -> p[5] = p[3] + 3)).unsafeRejection();
      assertMentions(m, "where a java.lang.Object[] belongs");
    }

    @Test
    void anArgumentOfAnotherTypeFailsWithTheCastsException() throws IOException {
      // an unmodifiable list of a string: the checks type the argument as Object only
      Object[] root = {list, "not a list"};
      int string = -1;
      for (int id = 0; id < 40; id++) {
        int slot = id;
        try {
          Codese.fromBytes(edited(root, p -> p[5] = slot).bytes());
        } catch (RestoreException x) {
          assertInstanceOf(ClassCastException.class, x.getCause(), x.toString());
          string = id;
        } catch (IOException | RuntimeException x) {
          // another slot: not a string
        }
      }
      assertTrue(string >= 0, "some slot holds the string");
    }

    @Test
    void anEnumSetOfANonEnumOrAForeignOrNullElementFailsAsReadResolveFails() throws IOException {
      // an enum set of TimeUnit next to a string, a Thread.State constant and a list
      Object[] root = {
        java.util.EnumSet.of(TimeUnit.DAYS), "s", Thread.State.NEW, new ArrayList<>(List.of(1))
      };
      int nullSlot = nullSlot(root);
      List<Class<?>> causes = new ArrayList<>();
      for (int slot = 0; slot <= nullSlot; slot++) {
        for (int arg = 0; arg < 2; arg++) {
          int at = arg;
          int to = slot;
          SnapshotEdit e = edited(root, p -> p[5 + at] = to);
          try {
            Codese.fromBytes(e.bytes());
          } catch (RestoreException x) {
            causes.add(x.getCause().getClass());
          } catch (UnsafeSnapshotException | InvalidObjectException x) {
            // refused by the checks: fine too
          }
        }
      }
      assertTrue(causes.contains(ClassCastException.class), causes.toString());
      assertTrue(causes.contains(NullPointerException.class), causes.toString());
    }

    @Test
    void aFactoryStepCutShortAtTheProgramsEndIsRefusedAndTheListingThrowsTyped()
        throws IOException {
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(list));
      int at = e.constantIndex(c -> factoryStep(c) >= 0);
      int[] p = e.program(at);
      int[] cut = Arrays.copyOf(p, p.length + 4);
      System.arraycopy(p, factoryStep(e.constant(at)), cut, p.length, 4); // no count, no refs
      e.setConstant(at, new Constant.PrimArray(cut));
      assertMentions(e.unsafeRejection(), "is unknown or cut short");
      assertThrows(
          CorruptSnapshotException.class,
          () -> SnapshotContents.read(e.bytes()).list(new ProgramListener() {}));
    }

    @Test
    void aFactoryStepInAStreamSegmentIsRefused() throws Exception {
      byte[] stream = SnapshotEdit.stream(Codese.toBytes(list));
      try (CodeseInputStream in = new CodeseInputStream(new java.io.ByteArrayInputStream(stream))) {
        Exception x = assertThrows(Exception.class, in::readObject);
        String all = x + " " + x.getCause();
        assertTrue(all.contains("makes an object by a factory in an object stream's segment"), all);
      }
    }

    @Test
    void anArraysAsListOfASlotThatHoldsNoArrayIsRefused() throws IOException {
      // the immutable list's slot, made by its own finish step: no array this snapshot made
      Object[] root = {Arrays.asList("a"), List.of("b", "c", "d")};
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(root));
      int at = e.constantIndex(c -> factoryStep(c) >= 0);
      int[] p = e.program(at);
      int f = factoryStep(e.constant(at));
      int m = 0;
      while (p[m] != Grammar.STEP_IMMUTABLE) {
        m +=
            p[m] == Grammar.STEP_FILL ? 3 + p[m + 2] : p[m] == Grammar.STEP_HOOK ? 2 : 5 + p[m + 4];
      }
      p[f + 5] = p[m + 3];
      e.setConstant(at, new Constant.PrimArray(p));
      assertMentions(e.unsafeRejection(), "which holds no array this snapshot made");
    }

    @Test
    void aNullArgumentIsRefusedAsTheFactoryRefusesIt() throws IOException {
      // the table's last slot, one past the objects, holds null
      for (Object root : List.of(list, Arrays.asList("a", "b"))) {
        int nullSlot = nullSlot(root);
        SnapshotEdit e = edited(root, p -> p[5] = nullSlot);
        InvalidObjectException x =
            assertThrows(InvalidObjectException.class, () -> Codese.fromBytes(e.bytes()));
        assertMentions(x.getMessage(), "of null");
      }
    }

    private int nullSlot(Object root) throws IOException {
      return SnapshotFile.parse(Codese.toBytes(root)).tableSize();
    }

    @Test
    void aWrapperOfItsOwnClassIsRefused() throws IOException {
      // the second step wraps the list the first step made: the factory would return it
      Object[] root = {list, Collections.unmodifiableList(new ArrayList<>(strings(1)))};
      SnapshotEdit e =
          edited(
              root,
              (p, s) -> {
                int second = s + 5 + p[s + 4];
                while (p[second] != Grammar.STEP_FACTORY) {
                  second += p[second] == Grammar.STEP_FILL ? 3 + p[second + 2] : 4;
                }
                p[second + 5] = p[s + 3];
              });
      InvalidObjectException x =
          assertThrows(InvalidObjectException.class, () -> Codese.fromBytes(e.bytes()));
      assertMentions(x.getMessage(), "of an object of its own class");
    }
  }
}
