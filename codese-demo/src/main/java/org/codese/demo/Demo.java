package org.codese.demo;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import org.codese.Codese;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;

/**
 * The main job: captures the built-in sample graphs with Codese, restores them from their snapshot
 * files, checks every restore, and prints Codese's times and sizes next to JDK serialization's.
 *
 * <p>A restore is correct when JDK serialization of the restored graph gives exactly the bytes it
 * gives for the original graph (the CoDeSe paper's check), and when the graph's own checks pass.
 * The process exits with 0 only if every check passed.
 */
public final class Demo {
  private static final int TREE_SIZE = 100_000;
  private static final long TREE_SEED = 42L;

  private Demo() {}

  /**
   * A graph to capture: how to build it, and what else to check on a restored copy ({@code check}
   * returns why the copy is wrong, or {@code null}; {@code checkName} says what it checks).
   */
  private record Sample(
      String name,
      String fileName,
      Supplier<Object> build,
      Function<Object, String> check,
      String checkName) {}

  /** What one sample's run measured; a time or size is -1 where that step did not run. */
  private static final class Result {
    final String name;
    long objects = -1;
    long captureNanos = -1;
    long restoreNanos = -1;
    long snapshotBytes = -1;
    long jdkWriteNanos = -1;
    long jdkReadNanos = -1;
    long jdkBytes = -1;
    String failure;

    Result(String name) {
      this.name = name;
    }
  }

  /**
   * Runs the demo.
   *
   * @param args at most one argument: the directory for the snapshot files, {@code demo-out} by
   *     default; it is created if missing
   * @throws IOException if the output directory cannot be created
   */
  public static void main(String[] args) throws IOException {
    if (args.length > 1 || (args.length == 1 && args[0].startsWith("-"))) {
      System.err.println(
          "usage: java -jar codese-demo.jar [output-directory]   (default: demo-out)");
      System.exit(2);
    }
    Path dir = Path.of(args.length == 1 ? args[0] : "demo-out");
    Files.createDirectories(dir);

    List<Sample> samples =
        List.of(
            new Sample(
                "red-black tree",
                "red-black-tree",
                () -> RedBlackTree.random(TREE_SIZE, TREE_SEED),
                Demo::checkTree,
                String.format(Locale.ROOT, "a valid red-black tree of %,d keys", TREE_SIZE)),
            new Sample(
                "jdk collections",
                "jdk-collections",
                SampleGraphs::jdkCollections,
                restored -> null,
                null));

    System.out.printf(
        Locale.ROOT,
        "Codese demo on Java %s (%s), snapshot files in %s%n",
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        dir.toAbsolutePath().normalize());
    System.out.println(
        "Each time below is a single cold run in one JVM, not a benchmark: nothing is");
    System.out.println(
        "warmed up, and the first graph also pays for loading the classes both libraries"
            + " use.");
    System.out.println();

    List<Result> results = new ArrayList<>();
    for (Sample sample : samples) {
      results.add(run(sample, dir));
    }
    printTable(results);

    System.out.println();
    boolean ok = true;
    for (int i = 0; i < results.size(); i++) {
      Result r = results.get(i);
      String checkName = samples.get(i).checkName();
      if (r.failure == null) {
        System.out.println(
            "check "
                + r.name
                + ": OK, the restored graph's JDK serialization equals the original's"
                + (checkName == null ? "" : ", and it is " + checkName));
      } else {
        ok = false;
        System.out.println("check " + r.name + ": FAILED: " + r.failure);
      }
    }
    System.out.println(ok ? "All checks passed." : "Some checks FAILED.");
    System.exit(ok ? 0 : 1);
  }

  private static Result run(Sample sample, Path dir) {
    Result r = new Result(sample.name());
    Object original = sample.build().get();
    Path snapshot = dir.resolve(sample.fileName() + ".cdse");
    Path serialized = dir.resolve(sample.fileName() + ".ser");
    Object restored = null;
    String step = "capture";
    try {
      long start = System.nanoTime();
      Codese.write(original, snapshot);
      r.captureNanos = System.nanoTime() - start;
      r.snapshotBytes = Files.size(snapshot);

      step = "restore";
      start = System.nanoTime();
      restored = Codese.read(snapshot);
      r.restoreNanos = System.nanoTime() - start;
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      fail(r, step, e);
    }
    try {
      step = "JDK serialization";
      long start = System.nanoTime();
      try (ObjectOutputStream out =
          new ObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(serialized)))) {
        out.writeObject(original);
      }
      r.jdkWriteNanos = System.nanoTime() - start;
      r.jdkBytes = Files.size(serialized);

      step = "JDK deserialization";
      start = System.nanoTime();
      try (ObjectInputStream in =
          new ObjectInputStream(new BufferedInputStream(Files.newInputStream(serialized)))) {
        in.readObject();
      }
      r.jdkReadNanos = System.nanoTime() - start;

      step = "check";
      r.objects = countObjects(original);
      if (r.failure == null) {
        r.failure = check(original, restored, Files.readAllBytes(serialized), sample.check());
      }
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      fail(r, step, e);
    }
    return r;
  }

  private static void fail(Result r, String step, Throwable e) {
    if (r.failure == null) {
      r.failure = step + " threw " + e;
    }
    System.err.println(r.name + ": " + step + " failed:");
    e.printStackTrace();
  }

  private static String check(
      Object original, Object restored, byte[] expected, Function<Object, String> graphCheck)
      throws IOException {
    if (restored == null) {
      return "restore returned null";
    }
    if (restored == original) {
      return "restore returned the captured object itself, not a copy";
    }
    if (restored.getClass() != original.getClass()) {
      return "restored root is a "
          + restored.getClass().getName()
          + ", expected a "
          + original.getClass().getName();
    }
    byte[] actual = jdkBytes(restored);
    if (!Arrays.equals(expected, actual)) {
      return String.format(
          Locale.ROOT,
          "JDK serialization of the restored graph differs from the original's at byte %,d"
              + " (restored: %,d bytes, original: %,d bytes)",
          Arrays.mismatch(expected, actual),
          actual.length,
          expected.length);
    }
    return graphCheck.apply(restored);
  }

  private static String checkTree(Object restored) {
    RedBlackTree tree = (RedBlackTree) restored;
    if (tree.size() != TREE_SIZE) {
      return "restored tree has size " + tree.size() + ", expected " + TREE_SIZE;
    }
    return tree.isValid()
        ? null
        : "restored tree is not a valid red-black tree (isValid() is false)";
  }

  private static byte[] jdkBytes(Object root) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(root);
    }
    return bytes.toByteArray();
  }

  /** Counts the distinct objects JDK serialization writes for the graph: its serial form. */
  private static long countObjects(Object root) throws IOException {
    long[] count = {0};
    try (ObjectOutputStream out =
        new ObjectOutputStream(OutputStream.nullOutputStream()) {
          {
            enableReplaceObject(true);
          }

          @Override
          protected Object replaceObject(Object obj) {
            count[0]++;
            return obj;
          }
        }) {
      out.writeObject(root);
    }
    return count[0];
  }

  private static void printTable(List<Result> results) {
    String format = "%-16s %9s | %10s %10s %12s | %10s %10s %12s | %10s%n";
    System.out.printf(
        Locale.ROOT,
        "%-26s | %-34s | %-34s | %10s%n",
        "",
        "Codese",
        "JDK serialization",
        "restore");
    System.out.printf(
        Locale.ROOT,
        format,
        "graph",
        "objects*",
        "capture",
        "restore",
        "size",
        "write",
        "read",
        "size",
        "JDK/Codese");
    for (Result r : results) {
      String ratio =
          r.restoreNanos > 0 && r.jdkReadNanos > 0
              ? String.format(Locale.ROOT, "%.2fx", (double) r.jdkReadNanos / r.restoreNanos)
              : "-";
      System.out.printf(
          Locale.ROOT,
          format,
          r.name,
          count(r.objects),
          millis(r.captureNanos),
          millis(r.restoreNanos),
          bytes(r.snapshotBytes),
          millis(r.jdkWriteNanos),
          millis(r.jdkReadNanos),
          bytes(r.jdkBytes),
          ratio);
    }
    System.out.println("* objects as JDK serialization counts them (its serial form).");
    System.out.println("Times include reading or writing the file; sizes are the files' sizes.");
  }

  private static String count(long n) {
    return n < 0 ? "-" : String.format(Locale.ROOT, "%,d", n);
  }

  private static String millis(long nanos) {
    return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
  }

  private static String bytes(long n) {
    return n < 0 ? "-" : String.format(Locale.ROOT, "%,d B", n);
  }
}
