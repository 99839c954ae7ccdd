package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.codese.samples.RedBlackTree;
import org.junit.jupiter.api.Test;

/**
 * Serialization filters (JEP 290 and 415) and load limits: the filter sees every class, array
 * length, the object count and the depth before any code runs, and a rejection leaves no object
 * behind.
 */
class FilterAndLimitsTest {
  /** Counts constructions: its no-arg constructor runs for every restored {@link Counted}. */
  public static class Base {
    static final AtomicInteger CONSTRUCTED = new AtomicInteger();

    public Base() {
      CONSTRUCTED.incrementAndGet();
    }
  }

  /** Serializable subclass: restoring it runs {@link Base}'s constructor, as the JDK does. */
  public static class Counted extends Base implements Serializable {
    private static final long serialVersionUID = 1L;
    int[] data = new int[40];
  }

  private static CodeseOptions filtered(String pattern) {
    return CodeseOptions.defaults()
        .withObjectInputFilter(ObjectInputFilter.Config.createFilter(pattern));
  }

  @Test
  void perCallFilterRejectsAClassAndNothingIsConstructed() throws Exception {
    byte[] snapshot = Codese.toBytes(new ArrayList<>(List.of(new Counted(), new Counted())));
    int before = Base.CONSTRUCTED.get();
    InvalidClassException e =
        assertThrows(
            InvalidClassException.class,
            () -> Codese.load(snapshot, filtered("!" + Counted.class.getName() + ";*")));
    assertTrue(e.getMessage().contains(Counted.class.getName()), e.getMessage());
    assertEquals(before, Base.CONSTRUCTED.get(), "a rejected snapshot constructed objects");
    try (Snapshot s = Codese.load(snapshot, filtered("*"))) {
      s.restore();
    }
    assertEquals(before + 2, Base.CONSTRUCTED.get(), "an accepted snapshot runs Base() twice");
  }

  @Test
  void filterSeesEveryClassObjectCountArrayLengthAndDepth() throws Exception {
    RedBlackTree tree = RedBlackTree.random(200, 5);
    byte[] snapshot = Codese.toBytes(List.of(tree, new int[300]));
    Set<String> classes = new TreeSet<>();
    long[] max = new long[3];
    ObjectInputFilter recorder =
        info -> {
          if (info.serialClass() != null) {
            classes.add(info.serialClass().getName());
          }
          max[0] = Math.max(max[0], info.references());
          max[1] = Math.max(max[1], info.arrayLength());
          max[2] = Math.max(max[2], info.depth());
          return ObjectInputFilter.Status.UNDECIDED;
        };
    Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(recorder)).close();
    assertTrue(classes.contains(RedBlackTree.class.getName()), classes.toString());
    assertTrue(classes.contains(RedBlackTree.Node.class.getName()), classes.toString());
    assertTrue(classes.contains("[I"), classes.toString());
    assertTrue(max[0] >= 201, "references " + max[0]);
    assertTrue(max[1] >= 300, "array length " + max[1]);
    assertTrue(max[2] >= 8, "depth " + max[2]);
  }

  @Test
  void filterLimitsOnReferencesAndDepthReject() throws Exception {
    byte[] snapshot = Codese.toBytes(RedBlackTree.random(100, 1));
    assertThrows(InvalidClassException.class, () -> Codese.load(snapshot, filtered("maxrefs=50")));
    assertThrows(InvalidClassException.class, () -> Codese.load(snapshot, filtered("maxdepth=3")));
    Codese.load(snapshot, filtered("maxrefs=500;maxdepth=1000")).close();
  }

  @Test
  void streamFilterIsCheckedPerSegment() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject("fine");
      out.flush();
      out.writeObject(new Counted());
    }
    int before = Base.CONSTRUCTED.get();
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      in.setObjectInputFilter(
          ObjectInputFilter.Config.createFilter("!" + Counted.class.getName() + ";*"));
      assertEquals("fine", in.readObject());
      assertThrows(InvalidClassException.class, in::readObject);
    }
    assertEquals(before, Base.CONSTRUCTED.get());
  }

  @Test
  void limitsRejectBeforeAllocating() throws Exception {
    byte[] snapshot = Codese.toBytes(new Object[] {RedBlackTree.random(100, 2), new long[500]});
    CodeseLimits d = CodeseLimits.defaults();
    assertThrows(
        InvalidObjectException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withLimits(d.withMaxObjects(50))));
    assertThrows(
        InvalidObjectException.class,
        () ->
            Codese.load(snapshot, CodeseOptions.defaults().withLimits(d.withMaxArrayLength(100))));
    assertThrows(
        InvalidObjectException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withLimits(d.withMaxBytes(100))));
    assertThrows(
        InvalidObjectException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withLimits(d.withMaxClasses(1))));
    assertThrows(
        InvalidObjectException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withLimits(d.withMaxDepth(2))));
    Codese.load(snapshot, CodeseOptions.defaults().withLimits(d)).close();
  }

  @Test
  void manyZeroFilledArraysCountTogether() throws Exception {
    List<byte[]> arrays = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      arrays.add(new byte[1 << 20]);
    }
    byte[] snapshot = Codese.toBytes(arrays);
    assertTrue(snapshot.length < 64 * 1024, "zero-filled arrays should cost little space");
    CodeseOptions limited =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxArrayLength(10 << 20));
    InvalidObjectException e =
        assertThrows(InvalidObjectException.class, () -> Codese.load(snapshot, limited));
    assertTrue(e.getMessage().contains("total array elements"), e.getMessage());
    Codese.load(snapshot).close();
  }

  @Test
  void limitsRejectInvalidValues() {
    assertThrows(IllegalArgumentException.class, () -> CodeseLimits.defaults().withMaxObjects(0));
    assertThrows(IllegalArgumentException.class, () -> CodeseLimits.defaults().withMaxBytes(-1));
  }

  /** What {@link Stand#readResolve} returns. */
  public static final class Target implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** Stands for a {@link Target} in the stream. */
  public static final class Stand implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object readResolve() {
      return new Target();
    }
  }

  /**
   * As {@code ObjectInputStream} since JDK 17, the filter is asked about the class of what a {@code
   * readResolve} returned: a filter that rejects it rejects the restore.
   */
  @Test
  void whatReadResolveReturnsIsFiltered() throws Exception {
    List<Object> graph = new ArrayList<>(List.of(new Stand(), "x"));
    String pattern = "!" + Target.class.getName() + ";*";
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (var out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(graph);
    }
    try (var in = new java.io.ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      in.setObjectInputFilter(ObjectInputFilter.Config.createFilter(pattern));
      InvalidClassException jdk = assertThrows(InvalidClassException.class, in::readObject);
      assertTrue(jdk.getMessage().contains("REJECTED"), jdk.getMessage());
    }
    Snapshot s = Codese.load(Codese.toBytes(graph), filtered(pattern));
    InvalidClassException codese = assertThrows(InvalidClassException.class, s::restore);
    assertTrue(codese.getMessage().contains(Target.class.getName()), codese.getMessage());
    assertTrue(
        ((List<?>) Codese.load(Codese.toBytes(graph), filtered("*")).restore()).get(0)
            instanceof Target);
  }

  /**
   * Run in a child JVM: {@code args[0]} is how the JVM-wide filter is set ({@code none}, {@code
   * filter} or {@code factory} through {@code ObjectInputFilter.Config}; properties come from the
   * command line), {@code args[1]} a snapshot and {@code args[2]} the JDK serialization of the same
   * red-black tree. Prints whether Codese, then {@code ObjectInputStream}, rejected it.
   */
  public static void main(String[] args) throws Exception {
    if (args[0].equals("replace")) {
      replaceAfterLoad(Path.of(args[1]));
      return;
    }
    if (args[0].equals("filter")) {
      ObjectInputFilter.Config.setSerialFilter(
          ObjectInputFilter.Config.createFilter("!" + RedBlackTree.Node.class.getName() + ";*"));
    } else if (args[0].equals("factory")) {
      ObjectInputFilter.Config.setSerialFilterFactory(new NoNodesFactory());
    }
    String codese;
    try {
      Codese.load(Path.of(args[1])).restore();
      codese = "ACCEPTED";
    } catch (InvalidClassException e) {
      codese = "REJECTED";
    }
    String jdk;
    try (var in =
        new java.io.ObjectInputStream(
            new ByteArrayInputStream(java.nio.file.Files.readAllBytes(Path.of(args[2]))))) {
      in.readObject();
      jdk = "ACCEPTED";
    } catch (InvalidClassException e) {
      jdk = "REJECTED";
    }
    System.out.println(codese + " " + jdk);
  }

  /**
   * Loads a snapshot whose restore replays a {@code readObject}, waits for the load's background
   * work to end, then replaces the JVM-wide filter factory, which {@code ObjectInputFilter.Config}
   * allows until a stream is made; prints {@code REPLACED}, or the exception.
   */
  private static void replaceAfterLoad(Path snapshot) throws Exception {
    Codese.load(snapshot).close();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("codese-")) {
        t.join(60_000);
      }
    }
    try {
      ObjectInputFilter.Config.setSerialFilterFactory(new NoNodesFactory());
      System.out.println("REPLACED");
    } catch (IllegalStateException e) {
      System.out.println(e);
    }
  }

  /**
   * Loading a snapshot leaves the JVM-wide filter factory replaceable, as it is before the first
   * {@code ObjectInputStream} is made, although the load sets up the filter configuration ahead of
   * the replay stream its restore will make.
   */
  @Test
  void loadingLeavesTheFilterFactoryReplaceable(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path snapshot = dir.resolve("big.cdse");
    Codese.write(
        new ArrayList<>(List.of(new java.math.BigInteger("123456789012345678901234567890"))),
        snapshot);
    List<String> cmd =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            FilterAndLimitsTest.class.getName(),
            "replace",
            snapshot.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    assertEquals(
        "REPLACED", new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());
  }

  /** A filter factory (JEP 415) that rejects the red-black tree's node class everywhere. */
  public static final class NoNodesFactory
      implements java.util.function.BinaryOperator<ObjectInputFilter> {
    @Override
    public ObjectInputFilter apply(ObjectInputFilter current, ObjectInputFilter requested) {
      return info ->
          info.serialClass() == RedBlackTree.Node.class
              ? ObjectInputFilter.Status.REJECTED
              : ObjectInputFilter.Status.UNDECIDED;
    }
  }

  private static String child(Path dir, String mode, String... jvmOptions) throws Exception {
    RedBlackTree tree = RedBlackTree.random(10, 1);
    Path snapshot = dir.resolve("rbt.cdse");
    Path ser = dir.resolve("rbt.ser");
    Codese.write(tree, snapshot);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (var out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(tree);
    }
    java.nio.file.Files.write(ser, bytes.toByteArray());
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of(jvmOptions));
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            FilterAndLimitsTest.class.getName(),
            mode,
            snapshot.toString(),
            ser.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
  }

  /**
   * The JVM-wide filter and factory, however they are set, are honoured as {@code
   * ObjectInputStream} honours them, in a fresh JVM where Codese decides whether to consult them
   * without setting up the configuration (issue 8 item 3): as system properties, as security
   * properties, and set by the program through {@code ObjectInputFilter.Config}.
   */
  @Test
  void jvmWideFilterAndFilterFactoryAreHonoured(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    String node = RedBlackTree.Node.class.getName();
    assertEquals("ACCEPTED ACCEPTED", child(dir, "none"));
    assertEquals("REJECTED REJECTED", child(dir, "none", "-Djdk.serialFilter=!" + node + ";*"));
    assertEquals(
        "REJECTED REJECTED",
        child(dir, "none", "-Djdk.serialFilterFactory=" + NoNodesFactory.class.getName()));
    assertEquals("REJECTED REJECTED", child(dir, "filter"));
    assertEquals("REJECTED REJECTED", child(dir, "factory"));
    Path security = dir.resolve("filter.security");
    java.nio.file.Files.writeString(security, "jdk.serialFilter=!" + node + ";*\n");
    assertEquals("REJECTED REJECTED", child(dir, "none", "-Djava.security.properties=" + security));
    Path factory = dir.resolve("factory.security");
    java.nio.file.Files.writeString(
        factory, "jdk.serialFilterFactory=" + NoNodesFactory.class.getName() + "\n");
    assertEquals("REJECTED REJECTED", child(dir, "none", "-Djava.security.properties=" + factory));
  }

  /**
   * As {@code ObjectInputStream} asks about a class that is not an array (with array length -1) and
   * about an array class with an array's length: Codese asks about each array class once, with the
   * longest array of it the snapshot may create, and never gives a class that is not an array a
   * length.
   */
  @Test
  void theFilterIsToldArrayLengthsForArrayClassesOnly() throws Exception {
    List<Object> graph = new ArrayList<>(List.of(new int[] {1, 2, 3, 4, 5}, new Counted()));
    graph.add(new String[] {"a", "b"});
    List<String> asked = new ArrayList<>();
    ObjectInputFilter record =
        info -> {
          Class<?> c = info.serialClass();
          if (c != null) {
            asked.add(c.getTypeName() + " " + info.arrayLength());
          }
          return ObjectInputFilter.Status.UNDECIDED;
        };
    Codese.fromBytes(Codese.toBytes(graph), CodeseOptions.defaults().withObjectInputFilter(record));
    assertTrue(asked.contains(Counted.class.getTypeName() + " -1"), asked::toString);
    assertTrue(asked.contains(ArrayList.class.getTypeName() + " -1"), asked::toString);
    for (String a : asked) {
      boolean array = a.contains("[]");
      assertEquals(array, !a.endsWith(" -1"), "array classes with a length, others -1: " + asked);
    }
    for (String a : asked) {
      if (a.startsWith("int[] ")) {
        long length = Long.parseLong(a.substring(6));
        assertTrue(length >= 5, "at least the longest int[] of the graph: " + asked);
      }
    }
  }
}
