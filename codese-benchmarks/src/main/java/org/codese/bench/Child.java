package org.codese.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.codese.bench.graphs.Graphs;
import org.codese.bench.peers.Peer;
import org.codese.bench.peers.Peers;

/**
 * What one child JVM does; the parent ({@link Main}) starts a fresh JVM per sample and reads the
 * lines this prints that start with {@code @@}. The {@code restore} mode loads only the harness's
 * few classes and the peer it times.
 *
 * <ul>
 *   <li>{@code restore PEER FILE D}: time from reading FILE to the D-th restored graph;
 *   <li>{@code curve PEER FILE MAX}: cumulative time after 1, 2, 5, 10, ... MAX restores;
 *   <li>{@code mem PEER FILE}: peak heap and Metaspace while reading FILE and restoring once;
 *   <li>{@code capture GRAPH DIR WARM_MS PEER...}: first-call and warm capture time, writes files;
 *   <li>{@code verify GRAPH DIR PEER...}: restores each peer's file and checks it;
 *   <li>{@code stats GRAPH}: the paper's Figure 4 counts;
 *   <li>{@code streamwrite PEER FILE}: writes {@link StreamCase}'s many small objects;
 *   <li>{@code streamread PEER FILE}: reads them back, timed;
 *   <li>{@code fixtureprep DIR}: writes and records {@link FixtureCase}'s fixture in DIR;
 *   <li>{@code fixture VARIANT DIR TESTS}: runs its TESTS tests with JUnit, timed from start;
 *   <li>{@code checker PEER NODES STEPS EVERY}: the {@link ModelChecker} scenario with one peer.
 * </ul>
 */
public final class Child {
  /** when this class was initialised: the start of a {@code fixture} child's timing */
  private static final long STARTED = System.nanoTime();

  private Child() {}

  /**
   * @param args see the class comment
   * @throws Exception on failure; the parent reports the child's exit status
   */
  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "restore":
        restore(args[1], Path.of(args[2]), Integer.parseInt(args[3]));
        break;
      case "curve":
        curve(args[1], Path.of(args[2]), Integer.parseInt(args[3]));
        break;
      case "mem":
        mem(args[1], Path.of(args[2]));
        break;
      case "capture":
        for (String graph : args[1].split(",")) {
          capture(
              graph,
              Path.of(args[2]),
              Long.parseLong(args[3]),
              Arrays.asList(args).subList(4, args.length));
        }
        break;
      case "verify":
        for (String graph : args[1].split(",")) {
          verify(graph, Path.of(args[2]), Arrays.asList(args).subList(3, args.length));
        }
        break;
      case "stats":
        for (String graph : args[1].split(",")) {
          stats(graph);
        }
        break;
      case "streamwrite":
        System.out.println(
            "@@ "
                + StreamCase.write(args[1], Path.of(args[2]))
                + " "
                + Files.size(Path.of(args[2])));
        break;
      case "streamread":
        double[] read = StreamCase.read(args[1], Path.of(args[2]));
        System.out.println("@@ " + read[0] + " " + (long) read[1]);
        break;
      case "fixtureprep":
        FixtureCase.prepare(Path.of(args[1]));
        break;
      case "fixture":
        System.setProperty("codese.bench.fixture.tests", args[3]);
        long[] ran = FixtureCase.run(args[1], Path.of(args[2]));
        double ms = (System.nanoTime() - STARTED) / 1e6;
        System.out.println("@@ " + ms + " " + ran[0] + " " + ran[1]);
        break;
      case "checker":
        ModelChecker.Plan plan =
            new ModelChecker.Plan(
                Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        System.out.println("@@ " + ModelChecker.run(Peers.byName(args[1]), plan).line());
        break;
      default:
        throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }

  private static int threads(String peer) {
    return peer.endsWith("-2t") ? 2 : 1;
  }

  private static void restore(String peerName, Path file, int d) throws Exception {
    long start = System.nanoTime();
    Peer peer = Peers.byName(peerName);
    Peer.Restorer r = peer.open(file, threads(peerName));
    Object last = null;
    for (int i = 0; i < d; i++) {
      last = r.restore();
    }
    long elapsed = System.nanoTime() - start;
    // printed after timing; keeps the restored graph alive and named
    System.out.println("@@ " + elapsed / 1e6 + " " + last.getClass().getName());
  }

  private static void curve(String peerName, Path file, int max) throws Exception {
    long start = System.nanoTime();
    Peer.Restorer r = Peers.byName(peerName).open(file, threads(peerName));
    long[] marks = new long[64];
    int[] counts = new int[64];
    int m = 0;
    int next = 1;
    int step = 0;
    Object last = null;
    for (int i = 1; i <= max; i++) {
      last = r.restore();
      if (i == next || i == max) {
        marks[m] = System.nanoTime() - start;
        counts[m++] = i;
        // checkpoints 1, 2, 5, 10, 20, 50, ...
        step++;
        next = (step % 3 == 0 ? 1 : step % 3 == 1 ? 2 : 5) * pow10(step / 3);
      }
    }
    StringBuilder out = new StringBuilder("@@");
    for (int i = 0; i < m; i++) {
      out.append(' ').append(counts[i]).append(':').append(marks[i] / 1e6);
    }
    System.out.println(out + " " + last.getClass().getName());
  }

  private static int pow10(int e) {
    int p = 1;
    for (int i = 0; i < e; i++) {
      p *= 10;
    }
    return p;
  }

  private static void mem(String peerName, Path file) throws Exception {
    List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
    long heapBefore = 0;
    long metaBefore = 0;
    for (MemoryPoolMXBean p : pools) {
      if (p.getType() == MemoryType.HEAP) {
        heapBefore += p.getUsage().getUsed();
      } else if (p.getName().equals("Metaspace")) {
        metaBefore = p.getUsage().getUsed();
      }
      p.resetPeakUsage();
    }
    long classesBefore = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
    Peer.Restorer r = Peers.byName(peerName).open(file, threads(peerName));
    Object last = r.restore();
    long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    long heapPeak = 0;
    long metaPeak = 0;
    for (MemoryPoolMXBean p : pools) {
      if (p.getType() == MemoryType.HEAP) {
        heapPeak += p.getPeakUsage().getUsed();
      } else if (p.getName().equals("Metaspace")) {
        metaPeak = p.getPeakUsage().getUsed();
      }
    }
    long classes =
        ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount() - classesBefore;
    System.out.println(
        "@@ "
            + heapBefore
            + " "
            + heapPeak
            + " "
            + metaBefore
            + " "
            + metaPeak
            + " "
            + classes
            + " "
            + allocated
            + " "
            + last.getClass().getName());
  }

  private static String oneLine(Throwable e) {
    String m = e.getClass().getSimpleName() + ": " + e.getMessage();
    m = m.replace('\n', ' ').replace('\r', ' ').replace(',', ';');
    return m.length() > 300 ? m.substring(0, 300) + "..." : m;
  }

  private static void capture(String graph, Path dir, long warmMs, List<String> peers)
      throws Exception {
    Object root = Graphs.build(graph);
    Files.createDirectories(dir);
    for (String name : peers) {
      Peer peer = Peers.byName(name);
      Path file = dir.resolve(graph + "." + peer.extension());
      try {
        long t0 = System.nanoTime();
        byte[] bytes = peer.capture(root);
        Files.write(file, bytes);
        double first = (System.nanoTime() - t0) / 1e6;
        // warm: repeat until WARM_MS have passed (at least 3 times when WARM_MS > 0)
        double[] warm = new double[1000];
        int n = 0;
        long until = System.nanoTime() + warmMs * 1_000_000L;
        while (warmMs > 0 && n < warm.length && (n < 3 || System.nanoTime() < until)) {
          long t = System.nanoTime();
          byte[] again = peer.capture(root);
          warm[n++] = (System.nanoTime() - t) / 1e6;
          if (again.length == 0) {
            throw new IllegalStateException("empty capture");
          }
        }
        Arrays.sort(warm, 0, n);
        double median = n == 0 ? Double.NaN : warm[n / 2];
        byte[] compressed = peer.captureCompressed(root);
        System.out.println(
            "@@ "
                + graph
                + " "
                + name
                + " ok "
                + first
                + " "
                + median
                + " "
                + n
                + " "
                + bytes.length
                + " "
                + (compressed == null ? -1 : compressed.length));
      } catch (Peer.NotApplicable e) {
        Files.deleteIfExists(file);
        System.out.println("@@ " + graph + " " + name + " n/a 0 0 0 0 -1 " + oneLine(e));
      } catch (Throwable e) {
        Files.deleteIfExists(file);
        System.out.println("@@ " + graph + " " + name + " failed 0 0 0 0 -1 " + oneLine(e));
      }
    }
  }

  private static void verify(String graph, Path dir, List<String> peers) throws Exception {
    Object root = Graphs.build(graph);
    Check check = new Check(root);
    for (String name : peers) {
      Peer peer = Peers.byName(name);
      Path file = dir.resolve(graph + "." + Peers.byName(Peers.fileOwner(name)).extension());
      if (!Files.exists(file)) {
        System.out.println("@@ " + graph + " " + name + " n/a no file");
        continue;
      }
      String verdict;
      try {
        Peer.Restorer r = peer.open(file, threads(name));
        verdict = check.verify(r.restore());
        if (verdict.startsWith("ok")) {
          // a second restore from the same prepared state must be right too
          String second = check.verify(r.restore());
          if (!second.startsWith("ok")) {
            verdict = "WRONG second restore: " + second;
          }
        }
      } catch (Throwable e) {
        verdict = "FAILED " + oneLine(e);
      }
      System.out.println(
          "@@ " + graph + " " + name + " " + verdict.replace('\n', ' ').replace(',', ';'));
    }
  }

  private static void stats(String graph) throws Exception {
    GraphWalk.Stats s = GraphWalk.stats(Graphs.build(graph));
    System.out.println(
        "@@ " + graph + " " + s.objects + " " + s.refs + " " + s.prims + " " + s.opaque);
  }
}
