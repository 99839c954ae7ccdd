package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.TestOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5: generated classes unload, one snapshot serves many threads at once, and writing a
 * snapshot file is atomic even when the writing JVM is killed.
 */
class TrustTest {
  /** A small class whose instances make each snapshot's code distinct. */
  record Tag(int n, String name, List<Integer> values) implements Serializable {}

  private static long metaspaceUsed() {
    System.gc();
    System.gc();
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getName().equals("Metaspace")) {
        used += pool.getUsage().getUsed();
      }
    }
    return used;
  }

  @Test
  void tenThousandSnapshotsLoadRestoreAndUnload() throws Exception {
    int n = 10_000;
    long[] used = new long[3];
    for (int i = 0; i < n; i++) {
      Map<String, Object> graph = new HashMap<>();
      graph.put("tag" + i, new Tag(i, "t" + i, List.of(i, i + 1)));
      graph.put("list", new ArrayList<>(List.of(i)));
      try (Snapshot s = Codese.load(Codese.toBytes(graph))) {
        assertEquals(graph, s.restore());
      }
      if (i == 999) {
        used[0] = metaspaceUsed();
      } else if (i == n / 2) {
        used[1] = metaspaceUsed();
      }
    }
    used[2] = metaspaceUsed();
    TestOutput.detail(
        String.format(
            "[metaspace] used after 1,000 / 5,001 / 10,000 snapshots:" + " %d / %d / %d KB",
            used[0] / 1024, used[1] / 1024, used[2] / 1024));
    // Each snapshot defines 3-4 hidden classes; kept alive, 9,000 more snapshots would add tens
    // of megabytes. Unloaded, Metaspace stays where it was after the first thousand.
    assertTrue(
        used[2] - used[0] < 8L << 20,
        "Metaspace grew from "
            + used[0] / 1024
            + " KB to "
            + used[2] / 1024
            + " KB: generated classes are not unloaded");
  }

  @Test
  void eightThreadsShareOneSnapshot() throws Exception {
    Map<String, Object> graph = new HashMap<>();
    graph.put("tree", RedBlackTree.random(30, 9));
    graph.put("list", new ArrayList<>(List.of("a", "b", 3)));
    graph.put("tag", new Tag(1, "one", List.of(1, 2)));
    graph.put("unit", TimeUnit.SECONDS);
    byte[] expected = jdk(graph);
    int threads = 8;
    int total = 100_000;
    AtomicInteger verified = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (Snapshot s = Codese.load(Codese.toBytes(graph))) {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < total / threads; i++) {
                    Object copy = s.restore();
                    if (copy == graph || !java.util.Arrays.equals(expected, jdk(copy))) {
                      throw new AssertionError("restore " + i + " differs");
                    }
                    verified.incrementAndGet();
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(total, verified.get());
  }

  private static byte[] jdk(Object o) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }

  @Test
  void failedCaptureLeavesTheOldFileAndNoTemporaryFile(@TempDir Path dir) throws Exception {
    Path target = dir.resolve("state.cdse");
    Codese.write(List.of("old"), target);
    byte[] before = Files.readAllBytes(target);
    assertThrows(
        CaptureException.class, () -> Codese.write(List.of("new", new Thread(() -> {})), target));
    assertArrayEquals(before, Files.readAllBytes(target));
    try (var files = Files.list(dir)) {
      assertEquals(List.of(target), files.toList());
    }
  }

  /**
   * Run in a child JVM: writes big snapshots to the same file until killed, printing "wrote" after
   * each one is complete.
   */
  public static void main(String[] args) throws Exception {
    Path target = Path.of(args[0]);
    RedBlackTree tree = RedBlackTree.random(200_000, 1);
    System.out.println("ready");
    System.out.flush();
    while (true) {
      Codese.write(tree, target);
      System.out.println("wrote");
      System.out.flush();
    }
  }

  /**
   * A writer killed while it rewrites a snapshot file leaves the last complete snapshot there. Each
   * round waits until the child wrote the file completely once, so the file exists whenever the
   * child is killed, then kills it at a different point of a later write; the file must then read
   * back as the whole tree, every round.
   */
  @Test
  void killedWriterNeverLeavesATruncatedFile(@TempDir Path dir) throws Exception {
    Path target = dir.resolve("tree.cdse");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    for (int round = 0; round < 3; round++) {
      Process p =
          new ProcessBuilder(
                  java.toString(),
                  "-Xmx1g",
                  "-cp",
                  System.getProperty("java.class.path"),
                  TrustTest.class.getName(),
                  target.toString())
              .redirectErrorStream(true)
              .start();
      List<String> output = new ArrayList<>();
      try {
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          output.add(line);
          if (line.equals("wrote")) {
            break;
          }
        }
        assertTrue(
            output.contains("wrote"), "the writer ended before it wrote a snapshot: " + output);
        Thread.sleep(200L * round); // into the next write, at a different point each round
      } finally {
        p.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
      }
      assertTrue(Files.exists(target), "round " + round);
      RedBlackTree copy = (RedBlackTree) Codese.read(target);
      assertEquals(200_000, copy.size(), "round " + round);
      assertTrue(copy.isValid(), "round " + round);
    }
  }
}
