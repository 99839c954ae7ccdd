package org.codese.compat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.codese.ClassNotAllowedException;
import org.codese.Codese;
import org.codese.CodeseInputStream;
import org.codese.CodeseOptions;
import org.codese.CodeseOutputStream;
import org.codese.format.SnapshotFile;
import org.codese.load.StreamReader;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.FilterCalls;
import org.junit.jupiter.api.Test;

/**
 * Snapshot and stream files committed with the project (src/test/resources/org/codese/compat), one
 * set per format version since version 1 (streams since version 3), that every build must still
 * read: a change that breaks the stored form fails here, not in a user's cache. Each file restores
 * to the graph its name stands for, compared by the JDK's serial form. When the format version
 * changes, record the files of the new version with {@code -Dcodese.compat.record=true} (run from
 * the module directory) and keep the old ones: they must load or fail with the format-version
 * message.
 */
class CompatibilityTest {
  private static final Path DIR = Path.of("src/test/resources/org/codese/compat");

  /** The graphs, by file name; each built the same way every time, of JDK and sample classes. */
  private static Map<String, Serializable> graphs() {
    Map<String, Serializable> g = new LinkedHashMap<>();
    g.put("rbt-200", RedBlackTree.random(200, 7));
    HashMap<String, List<Integer>> map = new HashMap<>();
    for (int i = 0; i < 50; i++) {
      map.put("k" + i, new ArrayList<>(List.of(i, i * i)));
    }
    g.put("hashmap", map);
    TreeMap<Integer, Object> mixed = new TreeMap<>();
    mixed.put(1, "text");
    mixed.put(2, new int[] {1, 2, 3});
    mixed.put(3, TimeUnit.SECONDS);
    mixed.put(4, 42L);
    mixed.put(5, new String[] {"a", null, "a"});
    mixed.put(6, java.math.BigDecimal.valueOf(314, 2));
    g.put("mixed", mixed);
    return g;
  }

  /**
   * The graphs of snapshot format {@code version}: {@link #graphs()}, and from format 5 on, which
   * makes them from data, dates, times and UUIDs; from format 11 on, {@code BigInteger}s; from
   * format 12 on, {@code BigDecimal}s and {@code java.util.Date}s.
   */
  private static Map<String, Serializable> graphs(int version) {
    Map<String, Serializable> g = graphs();
    if (version >= Grammar.VALUE_VERSION) {
      ArrayList<Object> values = new ArrayList<>();
      java.time.LocalDate day = java.time.LocalDate.of(2026, 11, 27);
      values.add(day);
      values.add(day);
      values.add(java.time.LocalDateTime.of(day, java.time.LocalTime.of(7, 30, 15, 123)));
      values.add(java.time.LocalTime.NOON);
      values.add(java.time.Instant.ofEpochSecond(1_800_000_000L, 42));
      values.add(java.time.Duration.ofMillis(-1500));
      values.add(new java.util.UUID(0x1234_5678_9abc_def0L, -7));
      g.put("values", values);
    }
    if (version >= Grammar.PROXY_VERSION) {
      g.put("proxies", proxies());
    }
    if (version >= Grammar.BIG_INTEGER_VERSION) {
      ArrayList<Object> big = new ArrayList<>();
      java.math.BigInteger one = java.math.BigInteger.valueOf(1);
      big.add(one);
      big.add(one);
      big.add(java.math.BigInteger.valueOf(-16));
      big.add(java.math.BigInteger.valueOf(Long.MIN_VALUE));
      big.add(java.math.BigInteger.valueOf(Long.MAX_VALUE));
      big.add(java.math.BigInteger.ONE.shiftLeft(64)); // no long: replayed
      big.add(java.math.BigDecimal.valueOf(-271_828, 5));
      g.put("big", big);
    }
    if (version >= Grammar.DECIMAL_VERSION) {
      ArrayList<Object> decimals = new ArrayList<>();
      java.math.BigInteger shared = java.math.BigInteger.valueOf(-123_456_789);
      java.math.BigDecimal price = new java.math.BigDecimal(shared, 4);
      decimals.add(price);
      decimals.add(shared); // the decimal's own BigInteger
      decimals.add(price);
      decimals.add(java.math.BigDecimal.valueOf(7, -3));
      decimals.add(java.math.BigDecimal.ZERO);
      decimals.add(new java.math.BigDecimal("12345678901234567890.5")); // no long: replayed
      java.util.Date day = new java.util.Date(1_795_000_000_000L);
      decimals.add(day);
      decimals.add(day);
      decimals.add(new java.util.Date(Long.MIN_VALUE));
      g.put("decimals", decimals);
    }
    if (version >= Grammar.FACTORY_VERSION) {
      ArrayList<Object> made = new ArrayList<>();
      ArrayList<Object> items = new ArrayList<>(List.of("a", "b"));
      made.add(items);
      made.add(java.util.Collections.unmodifiableList(items)); // a view of a list written before
      made.add(java.util.Collections.synchronizedSet(new java.util.TreeSet<>(List.of(3, 1))));
      made.add(java.util.Collections.emptyMap());
      made.add(java.util.Collections.singletonList("one"));
      made.add(java.util.Arrays.asList(4L, 5L));
      g.put("factories", made);
      ArrayList<Object> times = new ArrayList<>();
      java.time.ZoneId paris = java.time.ZoneId.of("Europe/Paris");
      java.time.LocalDateTime t = java.time.LocalDateTime.of(2026, 11, 28, 10, 45, 1, 2);
      times.add(java.time.ZonedDateTime.of(t, paris));
      times.add(paris);
      times.add(java.time.ZoneOffset.ofHours(-3));
      times.add(java.time.OffsetDateTime.of(t, java.time.ZoneOffset.ofHours(9)));
      times.add(java.time.OffsetTime.of(t.toLocalTime(), java.time.ZoneOffset.UTC));
      times.add(java.time.Period.of(1, -2, 3));
      times.add(java.time.Year.of(1999));
      times.add(java.time.YearMonth.of(2000, 2));
      times.add(java.time.MonthDay.of(12, 31));
      g.put("times", times);
      ArrayList<Object> words = new ArrayList<>();
      java.math.BigInteger huge =
          java.math.BigInteger.ONE.shiftLeft(200).subtract(java.math.BigInteger.TEN);
      words.add(huge.negate());
      words.add(new java.math.BigDecimal(huge, 7));
      words.add(java.math.BigInteger.ONE.shiftLeft(63));
      g.put("bigwords", words);
    }
    return g;
  }

  /** An interface of the proxies graph, of the tests' own. */
  public interface Named {
    String name();
  }

  /** A serializable invocation handler that holds state and its proxy. */
  static final class Handler implements java.lang.reflect.InvocationHandler, Serializable {
    private static final long serialVersionUID = 7L;
    final String name;
    Object self;

    Handler(String name) {
      this.name = name;
    }

    @Override
    public Object invoke(Object proxy, java.lang.reflect.Method m, Object[] args) {
      return m.getName().equals("run") ? null : name;
    }
  }

  /**
   * Dynamic proxies (format 7 on): of one and of two interfaces, shared, one in a cycle through its
   * handler.
   */
  private static ArrayList<Object> proxies() {
    ClassLoader l = CompatibilityTest.class.getClassLoader();
    Handler h = new Handler("first");
    Object a =
        java.lang.reflect.Proxy.newProxyInstance(
            l, new Class<?>[] {Named.class, java.util.function.Supplier.class}, h);
    h.self = a;
    Object b =
        java.lang.reflect.Proxy.newProxyInstance(
            l, new Class<?>[] {Runnable.class}, new Handler("second"));
    return new ArrayList<>(List.of(a, b, a));
  }

  private static String snapshotName(int version, String graph) {
    return "v" + version + "-" + graph + ".cdse";
  }

  private static String streamName(int version) {
    return "stream-v" + version + ".cdse";
  }

  /** The first stream version whose files were committed: the compact segments of version 3. */
  private static final int FIRST_COMMITTED_STREAM = 3;

  @Test
  void committedSnapshotsOfEveryFormatVersionStillRestore() throws Exception {
    record();
    int checked = 0;
    for (int v = SnapshotFile.OLDEST_VERSION; v <= SnapshotFile.VERSION; v++) {
      for (Map.Entry<String, Serializable> e : graphs(v).entrySet()) {
        byte[] file = read(snapshotName(v, e.getKey()));
        assertEquals(v, SnapshotFile.parse(file).version(), e.getKey());
        Object restored = Codese.fromBytes(file);
        assertArrayEquals(jdkForm(e.getValue()), jdkForm(restored), v + " " + e.getKey());
        checked++;
      }
    }
    int expected = 0;
    for (int v = SnapshotFile.OLDEST_VERSION; v <= SnapshotFile.VERSION; v++) {
      expected += graphs(v).size();
    }
    assertEquals(expected, checked);
  }

  @Test
  void committedSnapshotsOfEveryFormatVersionAskTheFilterWhatTheJdkAsks() throws Exception {
    // what the loader asks where the class table lists no class (boxes, Enum, the arrays a
    // readObject checks) it asks from the snapshot's code and kinds: old files too
    // (FilterParityTest)
    for (int v = SnapshotFile.OLDEST_VERSION; v <= SnapshotFile.VERSION; v++) {
      for (Map.Entry<String, Serializable> e : graphs(v).entrySet()) {
        List<String> missing =
            FilterCalls.notCovered(
                FilterCalls.jdkAsked(e.getValue()),
                FilterCalls.codeseAsked(
                    read(snapshotName(v, e.getKey())), CodeseOptions.defaults()));
        assertTrue(missing.isEmpty(), snapshotName(v, e.getKey()) + ": " + missing);
      }
    }
  }

  @Test
  void committedObjectStreamsOfEveryVersionAskTheFilterWhatTheJdkAsks() throws Exception {
    List<Serializable> written = new ArrayList<>(graphs().values());
    Map<Class<?>, Long> jdk = FilterCalls.jdkAskedStream(written);
    for (int v = FIRST_COMMITTED_STREAM; v <= StreamReader.STREAM_VERSION; v++) {
      Map<Class<?>, Long> asked = new LinkedHashMap<>();
      try (ObjectInputStream in =
          new CodeseInputStream(new ByteArrayInputStream(read(streamName(v))))) {
        in.setObjectInputFilter(
            info -> {
              if (info.serialClass() != null) {
                asked.merge(info.serialClass(), info.arrayLength(), Math::max);
              }
              return java.io.ObjectInputFilter.Status.UNDECIDED;
            });
        for (int i = 0; i < written.size(); i++) {
          in.readObject();
        }
      }
      List<String> missing = FilterCalls.notCovered(jdk, asked);
      assertTrue(missing.isEmpty(), streamName(v) + ": " + missing);
    }
  }

  @Test
  void anOlderFileThatListsNoSuperclassIsStillRefusedByAFilterRejectingIt() throws Exception {
    // v13-factories was recorded before the class table listed a factory-made object's
    // superclasses: the loader asks about them from the class (the JDK's descriptor chain)
    byte[] file = read(snapshotName(Grammar.FACTORY_VERSION, "factories"));
    String superclass = "java.util.Collections$UnmodifiableCollection";
    assertTrue(
        SnapshotFile.parse(file).classes().stream().noneMatch(e -> e.name().equals(superclass)),
        "the file lists " + superclass + ": not the case this test is about");
    java.io.ObjectInputFilter rejecting =
        java.io.ObjectInputFilter.Config.createFilter("!" + superclass);
    assertTrue(
        FilterCalls.jdkRejects(graphs(Grammar.FACTORY_VERSION).get("factories"), rejecting),
        "the JDK does not reject it: not a fair case");
    assertThrows(
        java.io.InvalidClassException.class,
        () -> Codese.fromBytes(file, CodeseOptions.defaults().withObjectInputFilter(rejecting)));
  }

  @Test
  void committedObjectStreamsOfEveryVersionStillRead() throws Exception {
    record();
    for (int v = FIRST_COMMITTED_STREAM; v <= StreamReader.STREAM_VERSION; v++) {
      try (ObjectInputStream in =
          new CodeseInputStream(new ByteArrayInputStream(read(streamName(v))))) {
        for (Serializable expected : graphs().values()) {
          assertArrayEquals(jdkForm(expected), jdkForm(in.readObject()), "stream version " + v);
        }
        assertEquals(12345, in.readInt());
        assertEquals("end", in.readUTF());
      }
    }
  }

  /**
   * The graph of the files of global references (format {@link Grammar#GLOBAL_VERSION} on): a map
   * ordered by the JDK's constant {@code String.CASE_INSENSITIVE_ORDER}, captured with static
   * constants, which it restores as that very comparator.
   */
  private static TreeMap<String, Integer> statics() {
    TreeMap<String, Integer> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    m.put("b", 2);
    m.put("A", 1);
    m.put("c", 3);
    return m;
  }

  private static final CodeseOptions STATICS = CodeseOptions.defaults().withStaticConstants(true);

  @Test
  void committedSnapshotsOfStaticConstantsStillRestore() throws Exception {
    record();
    for (int v = Grammar.GLOBAL_VERSION; v <= SnapshotFile.VERSION; v++) {
      byte[] file = read(snapshotName(v, "statics"));
      SnapshotFile parsed = SnapshotFile.parse(file);
      assertEquals(v, parsed.version());
      assertTrue(
          parsed.constants().stream().anyMatch(k -> k instanceof Constant.StaticRef),
          parsed.constants()::toString);
      TreeMap<?, ?> restored = (TreeMap<?, ?>) Codese.fromBytes(file, STATICS);
      assertSame(String.CASE_INSENSITIVE_ORDER, restored.comparator());
      assertArrayEquals(jdkForm(statics()), jdkForm(restored), "version " + v);
      assertThrows(ClassNotAllowedException.class, () -> Codese.fromBytes(file));
    }
  }

  /** A reader that logs the classes its {@code resolveClass} is asked about. */
  static final class Asking extends CodeseInputStream {
    final List<String> asked = new ArrayList<>();

    Asking(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(java.io.ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      asked.add(desc.getName());
      return super.resolveClass(desc);
    }
  }

  /** The same reader of the JDK's streams. */
  static final class JdkAsking extends ObjectInputStream {
    final List<String> asked = new ArrayList<>();

    JdkAsking(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(java.io.ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      asked.add(desc.getName());
      return super.resolveClass(desc);
    }
  }

  /**
   * Committed streams read through a subclass that overrides {@code resolveClass} (issue 10, part
   * 3): they restore the same graphs; a stream of format 5 asks it about the classes the JDK's
   * reader asks about for the same graphs, in the same order; earlier formats, which record no
   * class descriptors, still ask it about every class they name, each once.
   */
  @Test
  void committedObjectStreamsReadThroughResolveClass() throws Exception {
    ByteArrayOutputStream jdk = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(jdk)) {
      for (Serializable g : graphs().values()) {
        out.writeObject(g);
      }
    }
    List<String> jdkAsked;
    try (JdkAsking in = new JdkAsking(new ByteArrayInputStream(jdk.toByteArray()))) {
      for (int i = 0; i < graphs().size(); i++) {
        in.readObject();
      }
      jdkAsked = in.asked;
    }
    for (int v = FIRST_COMMITTED_STREAM; v <= StreamReader.STREAM_VERSION; v++) {
      try (Asking in = new Asking(new ByteArrayInputStream(read(streamName(v))))) {
        for (Serializable expected : graphs().values()) {
          assertArrayEquals(jdkForm(expected), jdkForm(in.readObject()), "stream version " + v);
        }
        if (v >= StreamReader.DESCRIBING_STREAM_VERSION) {
          assertEquals(jdkAsked, in.asked, "stream version " + v);
        } else {
          assertEquals(new java.util.HashSet<>(in.asked).size(), in.asked.size(), "each once");
          assertTrue(in.asked.contains("java.util.HashMap"), in.asked.toString());
          assertTrue(in.asked.contains(RedBlackTree.class.getName()), in.asked.toString());
        }
      }
    }
  }

  /** A reader that logs each descriptor {@code resolveClass} gets, with its serialVersionUID. */
  static final class SuidAsking extends CodeseInputStream {
    final List<String> asked = new ArrayList<>();

    SuidAsking(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(java.io.ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      asked.add(desc.getName() + " " + desc.getSerialVersionUID());
      return super.resolveClass(desc);
    }
  }

  /**
   * The descriptors {@code resolveClass} gets carry the stream's serialVersionUIDs: from stream
   * format 5 on, the JDK's for the same graphs. Earlier formats record no descriptors, and no value
   * for a class that declares none or whose value capture could not read (the JDK's own classes
   * then): their descriptors carry 0 there (README, "Differences from the JDK streams"), the
   * recorded value elsewhere.
   */
  @Test
  void committedObjectStreamsGiveResolveClassTheSerialVersionUids() throws Exception {
    ByteArrayOutputStream jdk = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(jdk)) {
      for (Serializable g : graphs().values()) {
        out.writeObject(g);
      }
    }
    List<String> jdkAsked = new ArrayList<>();
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(jdk.toByteArray())) {
          @Override
          protected Class<?> resolveClass(java.io.ObjectStreamClass desc)
              throws IOException, ClassNotFoundException {
            jdkAsked.add(desc.getName() + " " + desc.getSerialVersionUID());
            return super.resolveClass(desc);
          }
        }) {
      for (int i = 0; i < graphs().size(); i++) {
        in.readObject();
      }
    }
    for (int v = FIRST_COMMITTED_STREAM; v <= StreamReader.STREAM_VERSION; v++) {
      try (SuidAsking in = new SuidAsking(new ByteArrayInputStream(read(streamName(v))))) {
        for (int i = 0; i < graphs().size(); i++) {
          in.readObject();
        }
        if (v >= StreamReader.DESCRIBING_STREAM_VERSION) {
          assertEquals(jdkAsked, in.asked, "stream version " + v);
          continue;
        }
        for (String asked : in.asked) {
          String name = asked.substring(0, asked.indexOf(' '));
          Class<?> c = Class.forName(name, false, getClass().getClassLoader());
          long now = c.isArray() ? 0L : java.io.ObjectStreamClass.lookup(c).getSerialVersionUID();
          assertTrue(
              asked.equals(name + " 0") || asked.equals(name + " " + now),
              "stream version " + v + ": " + asked);
        }
      }
    }
  }

  /** Writes the files if {@code codese.compat.record} asks for it. */
  private static void record() throws IOException {
    if (!Boolean.getBoolean("codese.compat.record")) {
      return;
    }
    Files.createDirectories(DIR);
    for (Map.Entry<String, Serializable> e : graphs(SnapshotFile.VERSION).entrySet()) {
      Files.write(
          DIR.resolve(snapshotName(SnapshotFile.VERSION, e.getKey())),
          Codese.toBytes(e.getValue()));
    }
    Files.write(
        DIR.resolve(snapshotName(SnapshotFile.VERSION, "statics")),
        Codese.toBytes(statics(), STATICS));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new CodeseOutputStream(bytes)) {
      for (Serializable g : graphs().values()) {
        out.writeObject(g);
      }
      out.writeInt(12345);
      out.writeUTF("end");
    }
    Files.write(DIR.resolve(streamName(StreamReader.STREAM_VERSION)), bytes.toByteArray());
  }

  private static byte[] read(String name) throws IOException {
    try (InputStream in = CompatibilityTest.class.getResourceAsStream(name)) {
      assertTrue(
          in != null,
          "missing committed file "
              + name
              + " of this format version:"
              + " record it with -Dcodese.compat.record=true and commit it");
      return in.readAllBytes();
    }
  }

  private static byte[] jdkForm(Object o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }
}
