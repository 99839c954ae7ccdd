package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.Date;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.codese.corpus.Corpus;
import org.codese.corpus.Types.Color;
import org.codese.corpus.Types.Op;
import org.codese.corpus.Types.Point;
import org.codese.program.Factories;
import org.codese.program.Fills;
import org.codese.testkit.FilterCalls;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filter parity (SECURITY.md, I2): for every JDK-serializable graph of the corpus and one graph of
 * every value, box, fill, factory and immutable-collection kind, every class {@code
 * ObjectInputStream}'s filter is asked about reading the graph's JDK bytes is asked of Codese's
 * filter too, restoring its snapshot and reading it from an object stream, and every array class
 * with at least the longest length the JDK asks with. Codese may ask about more. Then, per gap this
 * test found, a filter that rejects only that class makes both refuse.
 */
class FilterParityTest {

  /** A named graph, built fresh for each run. */
  record Graph(String name, Supplier<Object> graph, List<String> allowed) {
    @Override
    public String toString() {
      return name;
    }

    CodeseOptions options() {
      return allowed.isEmpty()
          ? CodeseOptions.defaults()
          : CodeseOptions.defaults().withAllowedClasses(allowed.toArray(String[]::new));
    }
  }

  private static Graph graph(String name, Supplier<Object> graph) {
    return new Graph(name, graph, List.of());
  }

  static List<Graph> graphs() {
    List<Graph> all = new ArrayList<>();
    for (Corpus.Case c : Corpus.all()) {
      if (c.jdk() == RoundTrip.Jdk.SERIALIZABLE) {
        all.add(new Graph("corpus " + c.name(), c.graph(), c.allowed()));
      }
    }
    all.addAll(values());
    all.addAll(boxes());
    all.addAll(fills());
    all.addAll(factories());
    all.addAll(immutables());
    all.addAll(others());
    all.addAll(moreJdk());
    all.add(graph("sample jdk-collections", org.codese.samples.SampleGraphs::jdkCollections));
    all.add(graph("sample rbt-100", () -> org.codese.samples.RedBlackTree.random(100, 7)));
    return all;
  }

  /** One graph per value kind of {@code program.Values}: alone, and in an array. */
  private static List<Graph> values() {
    Object[] values = {
      new UUID(1, 2),
      LocalDate.of(2026, 11, 28),
      LocalTime.of(12, 30, 5, 7),
      LocalDateTime.of(2026, 11, 28, 12, 30),
      Instant.ofEpochSecond(1_700_000_000L, 5),
      Duration.ofSeconds(90, 3),
      BigInteger.valueOf(-123_456_789L),
      new Date(1_700_000_000_123L),
      new BigDecimal(BigInteger.valueOf(31_415), 4),
      ZoneOffset.ofHours(2),
      OffsetDateTime.of(2026, 11, 28, 12, 30, 0, 0, ZoneOffset.ofHours(-5)),
      OffsetTime.of(12, 30, 0, 0, ZoneOffset.ofHours(3)),
      Period.of(1, 2, 3),
      Year.of(2026),
      YearMonth.of(2026, 11),
      MonthDay.of(11, 28),
      ZoneId.of("Europe/Paris"),
      ZonedDateTime.of(2026, 11, 28, 12, 30, 0, 0, ZoneId.of("Europe/Paris")),
      ZonedDateTime.of(2026, 11, 28, 12, 30, 0, 0, ZoneOffset.ofHours(1)),
      BigInteger.ONE.shiftLeft(200).subtract(BigInteger.TEN),
      new BigDecimal(BigInteger.ONE.shiftLeft(100), 7)
    };
    List<Graph> out = new ArrayList<>();
    for (Object v : values) {
      String name = "value " + v.getClass().getSimpleName() + " " + v;
      out.add(graph(name, () -> v));
      out.add(graph(name + " in an array", () -> new Object[] {v, v}));
    }
    out.add(graph("values all in a list", () -> new ArrayList<>(Arrays.asList(values))));
    return out;
  }

  /** Every box class, cached and not, alone, in an array and in a list. */
  private static List<Graph> boxes() {
    Object[][] boxes = {
      {5, 100_000},
      {5L, 1L << 40},
      {(short) 5, (short) 1000},
      {(byte) 5, (byte) -100},
      {'a', '\u4e2d'},
      {true, false},
      {1.5f, Float.NaN},
      {2.5d, -0.0d}
    };
    List<Graph> out = new ArrayList<>();
    for (Object[] pair : boxes) {
      for (Object b : pair) {
        String name = "box " + b.getClass().getSimpleName() + " " + b;
        out.add(graph(name, () -> b));
        out.add(graph(name + " in an array", () -> new Object[] {b}));
        out.add(graph(name + " in a list", () -> new ArrayList<>(List.of(b))));
      }
    }
    return out;
  }

  /** Every fill class of {@code program.Fills}, empty and with elements. */
  private static List<Graph> fills() {
    List<Graph> out = new ArrayList<>();
    List<Supplier<Object>> empty =
        List.of(
            ArrayList::new,
            ArrayDeque::new,
            LinkedList::new,
            HashMap::new,
            LinkedHashMap::new,
            HashSet::new,
            LinkedHashSet::new,
            TreeMap::new,
            TreeSet::new,
            Vector::new,
            PriorityQueue::new,
            Hashtable::new,
            IdentityHashMap::new,
            () -> new EnumMap<>(Color.class),
            BitSet::new,
            ConcurrentHashMap::new);
    for (Supplier<Object> s : empty) {
      Object e = s.get();
      if (Fills.kind(e.getClass()) == Fills.NONE) {
        throw new AssertionError(e.getClass() + " is not a fill class");
      }
      out.add(graph("fill " + e.getClass().getSimpleName() + " empty", s));
      out.add(
          graph(
              "fill " + e.getClass().getSimpleName() + " with elements",
              () -> {
                Object c = s.get();
                fill(c);
                return c;
              }));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static void fill(Object c) {
    if (c instanceof EnumMap<?, ?> m) {
      ((EnumMap<Color, Object>) m).put(Color.RED, "r");
      ((EnumMap<Color, Object>) m).put(Color.BLUE, 7);
    } else if (c instanceof Map<?, ?> m) {
      for (int i = 0; i < 20; i++) {
        ((Map<Object, Object>) m).put("k" + i, i);
      }
    } else if (c instanceof BitSet b) {
      b.set(3);
      b.set(200);
    } else {
      for (int i = 0; i < 20; i++) {
        ((java.util.Collection<Object>) c).add("e" + i);
      }
    }
  }

  /** One object of every factory kind of {@code program.Factories}, and the empties. */
  private static List<Graph> factories() {
    List<Graph> out = new ArrayList<>();
    List<Object> every = FactoryFillTest.everyKind();
    every.add(Collections.unmodifiableList(new ArrayList<>()));
    every.add(Collections.unmodifiableMap(new HashMap<>()));
    every.add(Arrays.asList());
    every.add(EnumSet.noneOf(Color.class));
    every.add(EnumSet.allOf(Op.class));
    for (int i = 0; i < every.size(); i++) {
      Object o = every.get(i);
      String name = "factory " + i + " " + o.getClass().getName();
      out.add(graph(name, () -> o));
    }
    Set<Integer> kinds = new HashSet<>();
    for (Object o : every) {
      kinds.add(Factories.kind(o.getClass()));
    }
    for (int k = 1; k <= Factories.LAST; k++) {
      if (k != Factories.ENUM_SET && !kinds.contains(k)) {
        throw new AssertionError("no graph of factory kind " + Factories.className(k));
      }
    }
    return out;
  }

  /** The immutable collections of {@code List.of}, {@code Set.of}, {@code Map.of}: every size. */
  private static List<Graph> immutables() {
    List<Graph> out = new ArrayList<>();
    out.add(graph("immutable List.of()", List::of));
    out.add(graph("immutable List.of(1)", () -> List.of("a")));
    out.add(graph("immutable List.of(2)", () -> List.of("a", "b")));
    out.add(graph("immutable List.of(5)", () -> List.of("a", "b", "c", "d", "e")));
    out.add(graph("immutable Set.of()", Set::of));
    out.add(graph("immutable Set.of(1)", () -> Set.of("a")));
    out.add(graph("immutable Set.of(2)", () -> Set.of("a", "b")));
    out.add(graph("immutable Set.of(5)", () -> Set.of("a", "b", "c", "d", "e")));
    out.add(graph("immutable Map.of()", Map::of));
    out.add(graph("immutable Map.of(1)", () -> Map.of("a", 1)));
    out.add(graph("immutable Map.of(3)", () -> Map.of("a", 1, "b", 2, "c", 3)));
    out.add(graph("immutable List.copyOf", () -> List.copyOf(new ArrayList<>(List.of(1, 2)))));
    out.add(
        graph("immutable empties in an array", () -> new Object[] {List.of(), Set.of(), Map.of()}));
    return out;
  }

  /** Enums, records, proxies, strings in arrays, boxes in fields. */
  private static List<Graph> others() {
    List<Graph> out = new ArrayList<>();
    out.add(graph("enum in an array", () -> new Color[] {Color.RED, Color.RED}));
    out.add(graph("enum with a constant body", () -> Op.TIMES));
    out.add(graph("record", () -> new Point(1, 2)));
    out.add(graph("records in a list", () -> new ArrayList<>(List.of(new Point(1, 2)))));
    out.add(graph("strings in an array", () -> new String[] {"a", "b", ""}));
    out.add(graph("strings in an Object[]", () -> new Object[] {"a", "b"}));
    out.add(graph("proxy", FilterParityTest::proxy));
    out.add(graph("proxies in an array", () -> new Object[] {proxy(), proxy()}));
    out.add(graph("Class objects", () -> new Object[] {String.class, int.class, Color.class}));
    out.add(
        graph(
            "Class objects of subclasses",
            () ->
                new Object[] {
                  LinkedHashMap.class, Integer.class, Op.PLUS.getClass(), Sub.class, Thread.class
                }));
    out.add(
        graph(
            "ObjectStreamClass objects",
            () ->
                new Object[] {
                  java.io.ObjectStreamClass.lookup(LinkedHashSet.class),
                  java.io.ObjectStreamClass.lookup(Sub.class)
                }));
    out.add(graph("a subclass of an empty serializable base", Sub::new));
    out.add(graph("boxes a writeObject writes", WritesBoxes::new));
    out.add(
        graph(
            "typed box arrays",
            () ->
                new Object[] {
                  new Integer[] {1, 200_000},
                  new Number[] {2L, 3.5f},
                  new Boolean[] {true},
                  new Character[0]
                }));
    out.add(
        graph(
            "many boxes and many arrays (loops and a create program)",
            () -> {
              List<Object> l = new ArrayList<>();
              for (int i = 0; i < 300; i++) {
                l.add(i * 1_000);
                l.add((double) i);
                l.add(new Integer[] {i});
                l.add(new long[] {i, i});
              }
              return l;
            }));
    out.add(
        graph(
            "many values",
            () -> {
              List<Object> l = new ArrayList<>();
              for (int i = 0; i < 100; i++) {
                l.add(LocalDate.ofEpochDay(i));
                l.add(BigInteger.valueOf(i).shiftLeft(i));
                l.add(new BigDecimal(BigInteger.valueOf(i), i % 5));
                l.add(new UUID(i, -i));
              }
              return l;
            }));
    out.add(
        graph(
            "readResolve returning other classes",
            () -> new Object[] {new ResolvesTo(0), new ResolvesTo(1), new ResolvesTo(2)}));
    out.add(
        graph(
            "HashSet and Hashtable grown then emptied",
            () -> {
              HashSet<Object> s = new HashSet<>();
              Hashtable<Object, Object> t = new Hashtable<>();
              for (int i = 0; i < 300; i++) {
                s.add("s" + i);
                t.put("t" + i, "v");
              }
              s.clear();
              t.clear();
              s.add("x");
              return new Object[] {s, t};
            }));
    out.add(
        graph(
            "hash collections of another load factor",
            () -> {
              HashSet<Object> s = new HashSet<>(4, 0.25f);
              HashMap<Object, Object> m = new HashMap<>(4, 0.25f);
              Hashtable<Object, Object> t = new Hashtable<>(4, 0.25f);
              for (int i = 0; i < 40; i++) {
                s.add("s" + i);
                m.put("m" + i, "v");
                t.put("t" + i, "v");
              }
              return new Object[] {s, m, t};
            }));
    return out;
  }

  /** Writes boxes and a box array of its own with {@code writeObject}, reads them back. */
  static final class WritesBoxes implements Serializable {
    private static final long serialVersionUID = 1L;
    transient Object[] kept;

    private void writeObject(java.io.ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeObject(7L);
      out.writeObject('q');
      out.writeObject(new Short[] {1, 2});
    }

    private void readObject(java.io.ObjectInputStream in)
        throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      kept = new Object[] {in.readObject(), in.readObject(), in.readObject()};
    }
  }

  /** Its {@code readResolve} returns an object of another class, by {@code kind}. */
  static final class ResolvesTo implements Serializable {
    private static final long serialVersionUID = 1L;
    final int kind;

    ResolvesTo(int kind) {
      this.kind = kind;
    }

    private Object readResolve() {
      return switch (kind) {
        case 0 -> new long[9];
        case 1 -> new java.util.BitSet(3);
        default -> java.util.concurrent.TimeUnit.SECONDS;
      };
    }
  }

  /** A serializable class with no fields, as a base. */
  static class EmptyBase implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** A subclass of {@link EmptyBase}. */
  static final class Sub extends EmptyBase {
    private static final long serialVersionUID = 1L;
    int x = 3;
  }

  /** Serializable JDK classes beyond the fills and factories, each replayed or otherwise made. */
  private static List<Graph> moreJdk() {
    List<Supplier<Object>> made =
        List.of(
            () -> new java.util.concurrent.CopyOnWriteArrayList<>(List.of("a", 1)),
            () -> new java.util.concurrent.CopyOnWriteArraySet<>(List.of("a", 2L)),
            () -> new java.util.concurrent.PriorityBlockingQueue<>(List.of(3, 1, 2)),
            () -> new java.util.concurrent.ArrayBlockingQueue<>(4, false, List.of("x")),
            () -> new java.util.concurrent.LinkedBlockingQueue<>(List.of("y", 'c')),
            () -> new java.util.concurrent.LinkedBlockingDeque<>(List.of(1.5)),
            () -> new java.util.concurrent.ConcurrentLinkedQueue<>(List.of((short) 4)),
            () -> new java.util.concurrent.ConcurrentSkipListMap<>(Map.of("k", (byte) 1)),
            () -> new java.util.concurrent.ConcurrentSkipListSet<>(List.of(9, 8)),
            () -> new java.util.concurrent.atomic.AtomicIntegerArray(new int[] {1, 2}),
            () -> new java.util.concurrent.atomic.AtomicReferenceArray<>(new Object[] {"r", 3}),
            () -> new java.util.concurrent.atomic.LongAdder(),
            () -> Collections.checkedList(new ArrayList<>(List.of("c")), String.class),
            () -> Collections.checkedMap(new TreeMap<>(Map.of(1, 2)), Integer.class, Integer.class),
            () -> new java.util.Stack<>(),
            () -> new java.util.GregorianCalendar(2026, 10, 28),
            () -> java.util.TimeZone.getTimeZone("Europe/Paris"),
            () -> java.util.Currency.getInstance("EUR"),
            () -> java.util.Locale.CANADA_FRENCH,
            () -> java.util.regex.Pattern.compile("a+b"),
            () -> new java.io.File("/tmp/x"),
            () -> java.net.URI.create("http://example.com/a"),
            () -> new StringBuilder("sb"),
            () -> new java.util.Random(42),
            () -> java.util.OptionalInt.empty().isPresent() ? null : new java.util.Vector<>(),
            () -> new IllegalStateException("boom", new RuntimeException("cause")),
            () -> new java.text.SimpleDateFormat("yyyy-MM-dd"),
            () -> java.nio.charset.StandardCharsets.UTF_8.name(),
            () -> new java.util.TreeMap<>(Collections.reverseOrder()),
            () -> new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER),
            () -> java.time.DayOfWeek.MONDAY,
            () -> java.util.concurrent.TimeUnit.SECONDS,
            () -> new java.util.concurrent.atomic.AtomicLong(5),
            () -> new java.util.Properties(),
            () -> new java.util.WeakHashMap<>().isEmpty() ? new java.util.LinkedList<>() : null);
    List<Graph> out = new ArrayList<>();
    for (Supplier<Object> s : made) {
      out.add(graph("jdk " + s.get().getClass().getName(), s));
    }
    return out;
  }

  /** A handler for {@link #proxy}. */
  static final class Handler implements InvocationHandler, Serializable {
    private static final long serialVersionUID = 1L;
    final String tag = "h";

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      return method.getName().equals("compareTo") ? 0 : tag;
    }
  }

  private static Object proxy() {
    return Proxy.newProxyInstance(
        FilterParityTest.class.getClassLoader(),
        new Class<?>[] {Comparable.class, Serializable.class},
        new Handler());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("graphs")
  void aSnapshotIsAskedAboutEveryClassTheJdkIs(Graph g) throws IOException {
    Object graph = g.graph().get();
    List<String> missing =
        FilterCalls.notCovered(
            FilterCalls.jdkAsked(graph), FilterCalls.codeseAsked(graph, g.options()));
    assertTrue(missing.isEmpty(), g.name() + ": " + missing);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("graphs")
  void anObjectStreamIsAskedAboutEveryClassTheJdkIs(Graph g) throws IOException {
    Object graph = g.graph().get();
    List<String> missing =
        FilterCalls.notCovered(
            FilterCalls.jdkAsked(graph), FilterCalls.streamAsked(graph, g.options()));
    assertTrue(missing.isEmpty(), g.name() + ": " + missing);
  }

  @Test
  void anObjectStreamOfSeveralGraphsIsAskedAboutEveryClassTheJdkIs() throws IOException {
    // later graphs of a shape seen before reuse the first one's class table (SegmentMemo)
    List<Object> graphs = new ArrayList<>();
    for (Graph g : List.of(boxes().get(0), boxes().get(3), immutables().get(0))) {
      graphs.add(g.graph().get());
      graphs.add(g.graph().get());
    }
    graphs.add(List.of());
    graphs.add(new Object[] {Color.RED, 5, 6L});
    graphs.add(new Object[] {Color.RED, 5, 6L});
    for (int i = 0; i < graphs.size(); i++) {
      List<Object> written = graphs.subList(i, graphs.size());
      Map<Class<?>, Long> jdk = FilterCalls.jdkAskedStream(written);
      Map<Class<?>, Long> codese = FilterCalls.streamAsked(written, CodeseOptions.defaults());
      List<String> missing = FilterCalls.notCovered(jdk, codese);
      assertTrue(missing.isEmpty(), "from graph " + i + ": " + missing);
    }
  }

  @Test
  void aTimeValueIsNotAskedAboutTheSuperclassItsStreamClassStandsFor() throws IOException {
    // a JDK stream writes java.time.Ser for a ZoneOffset or a ZoneRegion, never ZoneId
    ObjectInputFilter noZoneId = ObjectInputFilter.Config.createFilter("!java.time.ZoneId");
    for (Object v : new Object[] {ZoneOffset.ofHours(2), ZoneId.of("Europe/Paris")}) {
      assertTrue(!FilterCalls.jdkRejects(v, noZoneId), "the JDK rejects " + v);
      assertTrue(!FilterCalls.codeseRejects(v, noZoneId), "Codese rejects " + v);
    }
  }

  @Test
  void theComparisonSeesAMissingClassAndAShortArray() {
    Map<Class<?>, Long> jdk = Map.of(Number.class, -1L, Object[].class, 3L);
    assertTrue(FilterCalls.notCovered(jdk, jdk).isEmpty());
    assertTrue(
        FilterCalls.notCovered(jdk, Map.of(Object[].class, 3L)).get(0).contains("Number"),
        "a class not asked");
    assertTrue(
        FilterCalls.notCovered(jdk, Map.of(Number.class, -1L, Object[].class, 2L))
            .get(0)
            .contains("length 2"),
        "a shorter array");
  }

  /**
   * Per gap the parity test found: a filter that rejects only what the JDK's reader asks about and
   * Codese did not makes {@code ObjectInputStream} and Codese (snapshot and object stream) refuse,
   * and Codese before anything of the snapshot ran.
   */
  @Nested
  class Hostile {
    private static ObjectInputFilter rejecting(Class<?> c) {
      return ObjectInputFilter.Config.createFilter("!" + c.getName());
    }

    /** Rejects only arrays of class {@code c} of at least {@code min} and at most {@code max}. */
    private static ObjectInputFilter arrays(Class<?> c, long min, long max) {
      return info ->
          info.serialClass() == c && info.arrayLength() >= min && info.arrayLength() <= max
              ? ObjectInputFilter.Status.REJECTED
              : ObjectInputFilter.Status.UNDECIDED;
    }

    @Test
    void aFilterRejectingNumberRejectsEveryNumericBox() throws IOException {
      for (Object box : new Object[] {5, 100_000, 5L, (short) 7, (byte) 1, 1.5f, 2.5d}) {
        FilterCalls.assertBothReject(
            new Object[] {box}, rejecting(Number.class), "Number, for a " + box.getClass());
        FilterCalls.assertBothReject(
            box, rejecting(Number.class), "Number, for a root " + box.getClass());
      }
    }

    /**
     * A crafted snapshot whose code stores one box by {@code valueOf}, outside any loop (Codese's
     * own snapshots box in loops or as values): the filter is asked about its class and {@code
     * Number} all the same.
     */
    @Test
    void aSingleBoxTheCodeStoresIsAskedAbout() throws IOException {
      for (Class<?> rejected : new Class<?>[] {Number.class, Integer.class}) {
        org.codese.testkit.Crafted c = new org.codese.testkit.Crafted();
        c.code(0, ch -> ch.storeCachedBox(0, "java/lang/Integer", 'I', 7));
        byte[] snapshot = c.bytes();
        assertEquals(7, Codese.fromBytes(snapshot));
        assertThrows(
            InvalidClassException.class,
            () ->
                Codese.fromBytes(
                    snapshot, CodeseOptions.defaults().withObjectInputFilter(rejecting(rejected))),
            rejected.getName());
      }
    }

    /** A {@code Class} object of a box class: a JDK stream holds its descriptor chain. */
    @Test
    void aClassObjectOfABoxClassAsksAboutNumber() throws IOException {
      FilterCalls.assertBothReject(
          new Object[] {Integer.class}, rejecting(Number.class), "Number, for Integer.class");
    }

    @Test
    void aFilterRejectingABoxClassRejectsItsBoxes() throws IOException {
      for (Object box : new Object[] {7, 100_000, 5L, (short) 7, (byte) 1, 'c', true, 1.5f, 2.5d}) {
        FilterCalls.assertBothReject(
            new ArrayList<>(List.of(box)), rejecting(box.getClass()), box.getClass().getName());
      }
    }

    @Test
    void aRejectedBoxStopsTheRestoreBeforeAnyHookRuns() throws IOException {
      Counted.reads.set(0);
      Counted c = new Counted();
      c.value = 100_000;
      byte[] snapshot = Codese.toBytes(c);
      assertThrows(
          InvalidClassException.class,
          () ->
              Codese.fromBytes(
                  snapshot,
                  CodeseOptions.defaults().withObjectInputFilter(rejecting(Number.class))));
      assertEquals(0, Counted.reads.get(), "readObject ran");
      assertEquals(c.value, ((Counted) Codese.fromBytes(snapshot)).value);
      assertEquals(1, Counted.reads.get(), "readObject runs without the filter");
    }

    @Test
    void aFilterRejectingEnumRejectsEnumsAndTheirClasses() throws IOException {
      Object[] graphs = {
        Color.RED,
        new Object[] {Op.TIMES},
        new EnumMap<>(Color.class),
        EnumSet.of(Color.BLUE),
        new Object[] {Color.class},
        new Object[] {Op.PLUS.getClass()}
      };
      for (Object g : graphs) {
        FilterCalls.assertBothReject(g, rejecting(Enum.class), "java.lang.Enum, for " + g);
      }
      // a constant body's Class object: the JDK holds the enum's descriptor too
      FilterCalls.assertBothReject(
          new Object[] {Op.PLUS.getClass()}, rejecting(Op.class), Op.class.getName());
    }

    @Test
    void aFilterRejectingASuperclassRejectsAClassObjectOfItsSubclass() throws IOException {
      FilterCalls.assertBothReject(
          new Object[] {LinkedHashMap.class}, rejecting(HashMap.class), "java.util.HashMap");
      FilterCalls.assertBothReject(
          new Object[] {java.io.ObjectStreamClass.lookup(Sub.class)},
          rejecting(EmptyBase.class),
          EmptyBase.class.getName());
      FilterCalls.assertBothReject(
          new Object[] {Integer.class}, rejecting(Number.class), "Number, for Integer.class");
    }

    @Test
    void aFilterRejectingAnEmptyObjectArrayRejectsEmptyImmutablesAndQueues() throws IOException {
      Object[] graphs = {List.of(), Set.of(), Map.of(), new PriorityQueue<>()};
      for (Object g : graphs) {
        FilterCalls.assertBothReject(
            g, arrays(Object[].class, 0, 0), "Object[0], for a " + g.getClass().getName());
      }
    }

    @Test
    void anArrayDequeIsAskedAboutItsSizePlusOne() throws IOException {
      for (int size : new int[] {0, 1, 5, 40}) {
        ArrayDeque<Object> d = new ArrayDeque<>();
        for (int i = 0; i < size; i++) {
          d.add("e" + i);
        }
        // rejects only the length the JDK's reader asks about beyond the elements
        FilterCalls.assertBothReject(
            d, arrays(Object[].class, size + 1, size + 1), "Object[" + (size + 1) + "]");
      }
    }

    @Test
    void aConcurrentHashMapIsAskedAboutItsSegmentsLength() throws IOException {
      Class<?> segments = Fills.concurrentSegments();
      for (int size : new int[] {0, 1, 3}) {
        ConcurrentHashMap<Object, Object> m = new ConcurrentHashMap<>();
        for (int i = 0; i < size; i++) {
          m.put("k" + i, i);
        }
        FilterCalls.assertBothReject(
            m,
            arrays(segments, Fills.CONCURRENT_SEGMENTS, Fills.CONCURRENT_SEGMENTS),
            "Segment[" + Fills.CONCURRENT_SEGMENTS + "], for " + size + " pairs");
      }
    }
  }

  /** Counts its {@code readObject} runs; holds a box. */
  static final class Counted implements Serializable {
    private static final long serialVersionUID = 1L;
    static final java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();
    Integer value;

    private void readObject(java.io.ObjectInputStream in)
        throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      reads.incrementAndGet();
    }
  }
}
