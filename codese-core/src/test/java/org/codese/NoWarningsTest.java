package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Capture and restore JDK classes in a child JVM started without any flag, and require that it
 * prints nothing on standard error: no {@code --add-opens} is needed and no warning (such as JDK
 * 24+'s warning about {@code sun.misc.Unsafe}) is printed, on whichever JDK runs the tests.
 */
class NoWarningsTest {
  /** A user class holding JDK classes, some closed to reflection. */
  record Holder(
      Map<String, List<Object>> map,
      TreeMap<Integer, String> tree,
      EnumMap<TimeUnit, AtomicLong> counters,
      ConcurrentHashMap<UUID, BigDecimal> money,
      LocalDate day)
      implements Serializable {}

  static Holder graph() {
    Map<String, List<Object>> map = new HashMap<>();
    map.put("a", new ArrayList<>(List.of(1, "x", 2.5)));
    map.put("b", Arrays.asList(StringBuilder.class, List.of(3, 4)));
    TreeMap<Integer, String> tree = new TreeMap<>(Map.of(1, "one", 2, "two"));
    EnumMap<TimeUnit, AtomicLong> counters = new EnumMap<>(TimeUnit.class);
    counters.put(TimeUnit.SECONDS, new AtomicLong(7));
    ConcurrentHashMap<UUID, BigDecimal> money = new ConcurrentHashMap<>();
    money.put(new UUID(1, 2), new BigDecimal("12.50"));
    return new Holder(map, tree, counters, money, LocalDate.of(2026, 11, 21));
  }

  /** The child JVM's program: prints the JDK bytes of original and restored graph as booleans. */
  public static void main(String[] args) throws Exception {
    Holder original = graph();
    Object restored = Codese.fromBytes(Codese.toBytes(original));
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(buffer)) {
      out.writeObject(original);
    }
    Object streamed;
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(buffer.toByteArray()))) {
      streamed = in.readObject();
    }
    byte[] reference = jdkRoundTrip(original);
    System.out.println(
        Arrays.equals(reference, jdk(restored)) && Arrays.equals(reference, jdk(streamed)));
  }

  private static byte[] jdk(Object o) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }

  private static byte[] jdkRoundTrip(Object o) throws Exception {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(jdk(o)))) {
      return jdk(in.readObject());
    }
  }

  @Test
  void childJvmPrintsNoWarningAndRestoresCorrectly() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                NoWarningsTest.class.getName())
            .start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals("", err, "the child JVM printed on standard error");
    assertEquals(0, p.exitValue());
    assertEquals("true", out, "restored graphs differ from the JDK's round trip");
  }
}
