package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot does not depend on the {@code --add-opens} options of the JVM that captured it (issue
 * 10, part 1): graphs of JDK classes captured in a child JVM started with the options restore in
 * another started without them, and the other way round, as snapshots and as object streams, each
 * compared with the JDK's round trip of the same graph. Only what cannot be captured without the
 * options at all (fields of a class that is not {@code Serializable}, in a package the JDK does not
 * open) needs them at restore too, and the rejection says so.
 */
class JvmFlagsTest {
  /** Every package of the graph's JDK classes, opened to the unnamed module. */
  private static final List<String> OPENS =
      List.of(
          "--add-opens",
          "java.base/java.util=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.lang=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.math=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.time=ALL-UNNAMED");

  /**
   * A graph of JDK classes: the issue's {@code HashMap<String, ArrayList<Integer>>}, classes with
   * their own {@code readObject} and, with no custom serialization methods at all, {@code
   * AtomicLong} and {@code AbstractMap.SimpleEntry}, whose fields a JVM with the options could set
   * directly.
   */
  record Holder(
      HashMap<String, ArrayList<Integer>> map,
      TreeMap<Integer, String> tree,
      EnumMap<TimeUnit, AtomicLong> counters,
      ConcurrentHashMap<UUID, BigDecimal> money,
      AbstractMap.SimpleEntry<String, List<Object>> entry,
      LocalDate day)
      implements Serializable {}

  static Holder graph() {
    HashMap<String, ArrayList<Integer>> map = new HashMap<>();
    map.put("a", new ArrayList<>(List.of(1, 2, 3)));
    map.put("b", new ArrayList<>(List.of(4)));
    TreeMap<Integer, String> tree = new TreeMap<>(Map.of(1, "one", 2, "two"));
    EnumMap<TimeUnit, AtomicLong> counters = new EnumMap<>(TimeUnit.class);
    counters.put(TimeUnit.SECONDS, new AtomicLong(7));
    ConcurrentHashMap<UUID, BigDecimal> money = new ConcurrentHashMap<>();
    money.put(new UUID(1, 2), new BigDecimal("12.50"));
    AbstractMap.SimpleEntry<String, List<Object>> entry =
        new AbstractMap.SimpleEntry<>("k", Arrays.asList(new AtomicLong(3), List.of(5, 6)));
    return new Holder(map, tree, counters, money, entry, LocalDate.of(2026, 11, 21));
  }

  /** A class that is not {@code Serializable}, holding one of a closed JDK package. */
  static final class Plain {
    Optional<String> value = Optional.of("x");
  }

  /**
   * The child JVM: {@code capture DIR} writes the graph as a snapshot ({@code graph.cdse}), an
   * object stream ({@code graph.cdss}) and, where it can, a {@link Plain} ({@code plain.cdse});
   * {@code restore DIR} restores the first two and prints whether each gives the JDK's round trip,
   * then what restoring the third gives.
   */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    if (args[0].equals("capture")) {
      Files.write(dir.resolve("graph.cdse"), Codese.toBytes(graph()));
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      try (CodeseOutputStream out = new CodeseOutputStream(stream)) {
        out.writeObject(graph());
        out.writeObject(new ArrayList<>(List.of(graph().map(), graph().entry())));
      }
      Files.write(dir.resolve("graph.cdss"), stream.toByteArray());
      try {
        Files.write(dir.resolve("plain.cdse"), Codese.toBytes(new Plain()));
      } catch (CaptureException e) {
        System.out.println("plain: " + e.getMessage());
      }
      return;
    }
    byte[] reference = jdkRoundTrip(graph());
    Object restored = Codese.fromBytes(Files.readAllBytes(dir.resolve("graph.cdse")));
    System.out.println("snapshot: " + same(reference, restored));
    try (CodeseInputStream in =
        new CodeseInputStream(
            new ByteArrayInputStream(Files.readAllBytes(dir.resolve("graph.cdss"))))) {
      Object first = in.readObject();
      Object second = in.readObject();
      System.out.println(
          "stream: "
              + same(reference, first)
              + " "
              + same(
                  jdkRoundTrip(new ArrayList<>(List.of(graph().map(), graph().entry()))), second));
    }
    Path plain = dir.resolve("plain.cdse");
    if (Files.exists(plain)) {
      try {
        Object p =
            Codese.fromBytes(
                Files.readAllBytes(plain),
                CodeseOptions.defaults()
                    .withAllowedClasses(Plain.class.getName(), "java.util.Optional"));
        System.out.println("plain: " + ((Plain) p).value.get());
      } catch (ClassMismatchException e) {
        System.out.println("plain: " + e.getMessage());
      }
    }
  }

  private static String same(byte[] reference, Object restored) throws IOException {
    String diff = JdkBytes.explainDifference(reference, JdkBytes.serialize(restored));
    return diff == null ? "same" : diff;
  }

  private static byte[] jdkRoundTrip(Object o) throws IOException {
    return JdkBytes.serialize(JdkBytes.deserialize(JdkBytes.serialize(o)));
  }

  private static String child(List<String> flags, String mode, Path dir) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(flags);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            JvmFlagsTest.class.getName(),
            mode,
            dir.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    assertEquals(0, p.exitValue(), "child JVM (" + mode + ", " + flags + ") failed:\n" + out);
    return out;
  }

  /** Captured in a child JVM with the options, and in one without them. */
  @TempDir static Path opened;

  @TempDir static Path closed;

  private static String capturedOpened;
  private static String capturedClosed;

  @BeforeAll
  static void captureBothWays() throws Exception {
    capturedOpened = child(OPENS, "capture", opened);
    capturedClosed = child(List.of(), "capture", closed);
  }

  /** The options change nothing in what capture writes: the same bytes, snapshot and stream. */
  @Test
  void theOptionsChangeNothingInWhatCaptureWrites() throws Exception {
    for (String file : List.of("graph.cdse", "graph.cdss")) {
      byte[] a = Files.readAllBytes(opened.resolve(file));
      byte[] b = Files.readAllBytes(closed.resolve(file));
      assertEquals(-1, JdkBytes.firstDifference(a, b), file + " differs at this offset");
    }
  }

  @Test
  void capturedWithAddOpensRestoresWithout() throws Exception {
    assertEquals("", capturedOpened);
    String out = child(List.of(), "restore", opened);
    assertTrue(out.startsWith("snapshot: same\nstream: same same\n"), out);
    // the one plan that needs the options: fields of a class that is not Serializable, which only
    // direct access reaches; the rejection names the option
    assertTrue(
        out.contains(
            "plain: java.util.Optional; field value cannot be set: module java.base does not open"
                + " package java.util to Codese in this JVM"),
        out);
    assertTrue(
        out.contains("restore it in a JVM started with that option (the class is not Serializable"),
        out);
    assertTrue(out.contains("--add-opens java.base/java.util=ALL-UNNAMED"), out);
    // ... and with them it restores
    assertTrue(child(OPENS, "restore", opened).endsWith("plain: x"));
  }

  @Test
  void capturedWithoutAddOpensRestoresWith() throws Exception {
    assertTrue(
        capturedClosed.startsWith("plain: cannot capture root.value (java.util.Optional)"),
        capturedClosed);
    assertEquals("snapshot: same\nstream: same same", child(OPENS, "restore", closed));
  }
}
