package org.codese.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.codese.bench.graphs.Graphs;
import org.codese.bench.jmh.WarmCapture;
import org.codese.bench.jmh.WarmRestore;
import org.codese.bench.peers.Peers;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The one command: runs every figure in child JVMs and writes a dated results folder.
 *
 * <p>Usage: {@code java -jar codese-benchmarks/target/codese-benchmarks.jar [--quick] [--out DIR]}.
 * Exits non-zero if a child JVM fails unexpectedly or, in {@code --quick} mode, if a peer that
 * restored a graph correctly before now restores it wrongly (the CI smoke test).
 */
public final class Main {
  private final boolean quick;

  /** The graphs of a {@code --graphs} run, or {@code null} for all (or the quick set). */
  private final List<String> only;

  private final Path out;
  private final Path work;
  private final String java;
  private final Path harness;
  private final List<Path> libs;
  private final Results r = new Results();
  private final long started = System.nanoTime();

  private Main(boolean quick, Path out, Path work, List<String> only) throws IOException {
    this.quick = quick;
    this.only = only;
    this.out = out;
    this.work = work;
    this.java = ProcessHandle.current().info().command().orElse("java");
    Path jar;
    try {
      jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    Path classes = jar.resolveSibling("classes");
    Path lib = jar.resolveSibling("lib");
    if (Files.isRegularFile(jar) && Files.isDirectory(classes) && Files.isDirectory(lib)) {
      harness = classes;
      try (Stream<Path> s = Files.list(lib)) {
        libs = s.sorted().toList();
      }
    } else {
      harness = jar;
      libs = List.of();
    }
  }

  /**
   * @param args {@code [--quick] [--out DIR] [--graphs NAME,...]}: {@code --graphs} runs the full
   *     measurements on the named graphs only
   * @throws Exception if the run cannot complete
   */
  public static void main(String[] args) throws Exception {
    boolean quick = false;
    List<String> only = null;
    Path base = Path.of("results");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick":
          quick = true;
          break;
        case "--out":
          base = Path.of(args[++i]);
          break;
        case "--graphs":
          only = List.of(args[++i].split(","));
          for (String g : only) {
            if (!Graphs.all().contains(g)) {
              System.err.println("unknown graph " + g + "; the graphs are " + Graphs.all());
              System.exit(2);
            }
          }
          break;
        default:
          System.err.println(
              "usage: java -jar codese-benchmarks.jar [--quick] [--out DIR] [--graphs NAME,...]");
          System.exit(2);
      }
    }
    String name =
        "bench-" + LocalDate.now() + "-jdk" + Runtime.version().feature() + (quick ? "-quick" : "");
    Path out = base.resolve(name);
    if (Files.exists(out)) {
      out =
          base.resolve(name + "-" + LocalTime.now().format(DateTimeFormatter.ofPattern("HHmmss")));
    }
    Files.createDirectories(out);
    Path work = Files.createTempDirectory("codese-bench");
    int status;
    try {
      status = new Main(quick, out, work, only).run();
    } finally {
      deleteTree(work);
    }
    System.exit(status);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private void log(String message) {
    System.out.printf("[%6.1fs] %s%n", (System.nanoTime() - started) / 1e9, message);
  }

  /** graphs of 100,000 objects or more get one fresh JVM at #d=2 and #d=10 */
  private static boolean large(String graph) {
    return graph.equals("rbt-100000") || big(graph);
  }

  private static boolean big(String graph) {
    return graph.equals("rbt-1000000") || graph.equals("rbt-4000000");
  }

  // ---------------------------------------------------------------------------------- children

  /** Libraries every child needs: the graphs' own; peers' jars are added per peer. */
  /** JMH warm-up iterations of 0.5 s per fork outside quick mode. */
  static final int WARMUP_ITERATIONS = 8;

  private static final List<String> GRAPH_LIBS =
      List.of(
          "codese-samples",
          "commons-math3",
          "guava",
          "failureaccess",
          "commons-collections4",
          "jgrapht",
          "jheaps",
          "apfloat",
          "asm",
          "javaparser");

  private static List<String> peerLibs(String peer) {
    switch (Peers.fileOwner(peer)) {
      case "codese":
        return List.of("codese-core");
      case "kryo":
        return List.of("kryo", "reflectasm", "minlog", "objenesis");
      case "fory":
      case "fory-nocg":
        return List.of("fory-core", "janino", "commons-compiler");
      default:
        return List.of();
    }
  }

  private static boolean matches(Path jar, List<String> prefixes) {
    String f = jar.getFileName().toString();
    for (String p : prefixes) {
      if (f.startsWith(p + "-")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The class path of a timing child: the harness, the peer's jars, the graphs' libraries, and
   * nothing else, so that a JVM timing one peer does not search the others' jars.
   */
  private String classPath(String peer) {
    if (libs.isEmpty()) {
      return harness.toString();
    }
    List<String> cp = new ArrayList<>();
    cp.add(harness.toString());
    List<String> mine = peerLibs(peer);
    for (Path jar : libs) {
      if (matches(jar, mine)) {
        cp.add(jar.toString());
      }
    }
    for (Path jar : libs) {
      if (matches(jar, GRAPH_LIBS) && !matches(jar, mine)) {
        cp.add(jar.toString());
      }
    }
    return String.join(File.pathSeparator, cp);
  }

  private String fullClassPath() {
    List<String> cp = new ArrayList<>();
    cp.add(harness.toString());
    for (Path jar : libs) {
      cp.add(jar.toString());
    }
    return String.join(File.pathSeparator, cp);
  }

  /** A finished child: its {@code @@} lines, its exit status and its whole-process wall time. */
  private static final class Run {
    final List<String> lines = new ArrayList<>();
    final List<String> other = new ArrayList<>();
    int status;
    double wallMs;
  }

  private Run child(String classPath, List<String> jvmArgs, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-Xmx8g");
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(Child.class.getName());
    cmd.addAll(Arrays.asList(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    Run run = new Run();
    long t0 = System.nanoTime();
    Process p = pb.start();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("@@ ")) {
          run.lines.add(line.substring(3));
        } else if (run.other.size() < 40) {
          run.other.add(line);
        }
      }
    }
    run.status = p.waitFor();
    run.wallMs = (System.nanoTime() - t0) / 1e6;
    if (run.status != 0) {
      String what =
          String.join(" ", args)
              + " exited "
              + run.status
              + ": "
              + String.join(" | ", run.other.subList(0, Math.min(6, run.other.size())));
      r.errors.add(what);
      log("child failed: " + what);
    }
    return run;
  }

  // ---------------------------------------------------------------------------------- the run

  private int run() throws Exception {
    List<String> graphs = new ArrayList<>();
    if (only != null) {
      graphs.addAll(only);
    } else if (quick) {
      graphs.add("rbt-100");
      graphs.add("rbt-1000");
      graphs.addAll(Graphs.REAL.keySet());
    } else {
      graphs.addAll(Graphs.all());
    }
    r.graphs.addAll(graphs);
    for (String p : Peers.ALL) {
      r.peerConfigs.put(p, Peers.byName(p).config());
    }
    log(
        "JDK "
            + Runtime.version()
            + ", "
            + Runtime.getRuntime().availableProcessors()
            + " cores, "
            + (quick ? "quick" : "full")
            + " mode"
            + (only != null ? " on " + only : "")
            + "; results in "
            + out);

    captureAll(graphs);
    statsAll(graphs);
    verifyAll(graphs);

    checkKnownFailures(graphs);

    List<String> timed = quick ? List.of("rbt-1000") : graphs;
    freshAll(timed);
    memoryAll(quick ? List.of("rbt-1000") : graphs);
    curve("rbt-100", quick ? 1_000 : 100_000);
    streams(quick ? 3 : 7);
    fixtures(quick ? 20 : FixtureCase.TESTS, quick ? 1 : 3);
    warmAll(quick ? List.of("rbt-1000") : graphs);
    warmCaptures(quick ? List.of("rbt-1000") : graphs);
    mergeJmhLogs();
    if (only == null) {
      modelChecker(quick ? ModelChecker.Plan.QUICK : ModelChecker.Plan.FULL);
    }

    log("writing report");
    new Report(r, out, quick, Runtime.version().toString()).write();
    Charts.write(r, out);
    log("done: " + out.resolve("report.md"));
    boolean wrongCodese = false;
    for (String g : graphs) {
      String v = r.verdicts(g).get("codese");
      if (v == null || !v.startsWith("ok")) {
        wrongCodese = true;
      }
    }
    if (wrongCodese) {
      log("Codese did not restore every graph correctly: see report.md");
    }
    if (!r.unexpected.isEmpty()) {
      log("peers that restored wrongly and are not known to: " + r.unexpected);
    }
    return r.errors.isEmpty() && !wrongCodese && r.unexpected.isEmpty() ? 0 : 1;
  }

  private void checkKnownFailures(List<String> graphs) throws IOException {
    java.util.Set<String> known = new java.util.HashSet<>();
    try (java.io.InputStream in = Main.class.getResourceAsStream("known-failures.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        line = line.trim();
        if (!line.isEmpty() && !line.startsWith("#")) {
          known.add(line.replaceAll("\\s+", " "));
        }
      }
    }
    for (String g : graphs) {
      for (String p : Peers.ALL) {
        String v = r.verdicts(g).getOrDefault(p, "");
        boolean bad = !v.startsWith("ok") && !v.startsWith("n/a");
        if (bad && !known.contains(g + " " + p)) {
          r.unexpected.add(g + " " + p);
        } else if (!bad && known.contains(g + " " + p)) {
          r.nowPassing.add(g + " " + p);
        }
      }
    }
  }

  /** Peers that write files; codese-2t restores Codese's. */
  private static List<String> capturingPeers() {
    List<String> ps = new ArrayList<>();
    for (String p : Peers.ALL) {
      if (Peers.fileOwner(p).equals(p)) {
        ps.add(p);
      }
    }
    return ps;
  }

  private void captureAll(List<String> graphs) throws Exception {
    List<String> peers = capturingPeers();
    if (quick) {
      log("capture: all graphs and peers in one JVM (first-call times are not from fresh JVMs)");
      List<String> args =
          new ArrayList<>(List.of("capture", String.join(",", graphs), work.toString(), "0"));
      args.addAll(peers);
      parseCaptures(child(fullClassPath(), List.of(), args.toArray(new String[0])));
    } else {
      for (String g : graphs) {
        for (String p : peers) {
          log("capture " + g + " " + p + " (fresh JVM)");
          parseCaptures(
              child(
                  fullClassPath(),
                  List.of(),
                  "capture",
                  g,
                  work.toString(),
                  big(g) ? "1" : "1000",
                  p));
        }
      }
    }
    for (Map<String, Results.Capture> m : r.captures.values()) {
      for (Map.Entry<String, Results.Capture> e : m.entrySet()) {
        Results.Capture c = e.getValue();
        if (c.status.equals("ok")) {
          c.gzipBytes = gzipSize(work.resolve(fileOf(findGraph(m), e.getKey())));
        }
      }
    }
  }

  private String findGraph(Map<String, Results.Capture> m) {
    for (Map.Entry<String, Map<String, Results.Capture>> e : r.captures.entrySet()) {
      if (e.getValue() == m) {
        return e.getKey();
      }
    }
    throw new IllegalStateException();
  }

  private static String fileOf(String graph, String peer) {
    return graph + "." + Peers.byName(Peers.fileOwner(peer)).extension();
  }

  private static long gzipSize(Path file) throws IOException {
    CountingStream count = new CountingStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(count, 1 << 16)) {
      Files.copy(file, gz);
    }
    return count.n;
  }

  private static final class CountingStream extends OutputStream {
    long n;

    @Override
    public void write(int b) {
      n++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      n += len;
    }
  }

  private void parseCaptures(Run run) {
    for (String line : run.lines) {
      String[] f = line.split(" ", 9);
      Results.Capture c = new Results.Capture();
      c.status = f[2];
      c.firstMs = Double.parseDouble(f[3]);
      c.earlyMs = Double.parseDouble(f[4]);
      c.earlyRuns = Integer.parseInt(f[5]);
      c.bytes = Long.parseLong(f[6]);
      c.compressedBytes = Long.parseLong(f[7]);
      c.message = f.length > 8 ? f[8] : "";
      r.captures.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], c);
    }
  }

  private static final List<String> OPENS =
      List.of(
          "java.lang",
          "java.util",
          "java.util.concurrent",
          "java.util.concurrent.atomic",
          "java.util.concurrent.locks",
          "java.math",
          "java.time",
          "java.time.zone",
          "java.net",
          "java.lang.invoke",
          "java.util.regex",
          "java.nio",
          "java.io",
          "java.lang.ref");

  private void statsAll(List<String> graphs) throws Exception {
    log(
        "Figure 4 statistics (one JVM with java.base opened to reflection, used for counting only)");
    List<String> jvm = new ArrayList<>();
    for (String p : OPENS) {
      jvm.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
    }
    Run run = child(fullClassPath(), jvm, "stats", String.join(",", graphs));
    for (String line : run.lines) {
      String[] f = line.split(" ");
      r.stats.put(
          f[0],
          new long[] {
            Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4])
          });
    }
  }

  private void verifyAll(List<String> graphs) throws Exception {
    List<String> groups = new ArrayList<>();
    if (quick) {
      groups.add(String.join(",", graphs));
    } else {
      groups.addAll(graphs);
    }
    for (String group : groups) {
      log("verify " + group);
      List<String> args = new ArrayList<>(List.of("verify", group, work.toString()));
      args.addAll(Peers.ALL);
      Run run = child(fullClassPath(), List.of(), args.toArray(new String[0]));
      for (String line : run.lines) {
        String[] f = line.split(" ", 3);
        r.verdicts.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], f[2]);
      }
    }
    for (String g : graphs) {
      for (String p : Peers.ALL) {
        Results.Capture c = r.captures.getOrDefault(g, Map.of()).get(Peers.fileOwner(p));
        String v = r.verdicts(g).get(p);
        if (c != null && !c.status.equals("ok")) {
          r.verdicts
              .computeIfAbsent(g, k -> new LinkedHashMap<>())
              .put(p, (c.status.equals("n/a") ? "n/a " : "FAILED capture: ") + c.message);
        } else if (v == null) {
          r.verdicts.computeIfAbsent(g, k -> new LinkedHashMap<>()).put(p, "FAILED no verdict");
        }
      }
    }
  }

  /**
   * The peers timed on a graph: those that restored it correctly; Fory without code generation only
   * where Fory with it did not; Codese with 2 threads not on the smallest trees.
   */
  List<String> timedPeers(String graph) {
    List<String> ps = new ArrayList<>();
    for (String p : Peers.ALL) {
      if (!r.ok(graph, p)) {
        continue;
      }
      if (p.equals("fory-nocg") && r.ok(graph, "fory")) {
        continue;
      }
      if (p.equals("codese-2t") && (graph.equals("rbt-10") || graph.equals("rbt-100"))) {
        continue;
      }
      ps.add(p);
    }
    return ps;
  }

  private void freshAll(List<String> graphs) throws Exception {
    int d1 = quick ? 2 : 5;
    for (int d : new int[] {1, 2, 10}) {
      int max = d == 1 ? d1 : quick ? 1 : 3;
      for (int s = 0; s < max; s++) {
        for (String g : graphs) {
          if (d > 1 && s > 0 && large(g)) {
            continue;
          }
          for (String p : timedPeers(g)) {
            log("#d=" + d + " sample " + (s + 1) + "/" + max + " " + g + " " + p);
            Run run =
                child(
                    classPath(p),
                    List.of(),
                    "restore",
                    p,
                    work.resolve(fileOf(g, p)).toString(),
                    Integer.toString(d));
            if (run.status == 0 && !run.lines.isEmpty()) {
              r.fresh
                  .computeIfAbsent(Results.key(g, p, d), k -> new ArrayList<>())
                  .add(Double.parseDouble(run.lines.get(0).split(" ")[0]));
              if (d == 1) {
                r.wall.computeIfAbsent(Results.key(g, p), k -> new ArrayList<>()).add(run.wallMs);
              }
            }
          }
        }
      }
    }
  }

  private void memoryAll(List<String> graphs) throws Exception {
    for (String g : graphs) {
      for (String p : timedPeers(g)) {
        log("memory " + g + " " + p);
        Run run = child(classPath(p), List.of(), "mem", p, work.resolve(fileOf(g, p)).toString());
        if (run.status == 0 && !run.lines.isEmpty()) {
          String[] f = run.lines.get(0).split(" ");
          Results.Memory m = new Results.Memory();
          m.heapBefore = Long.parseLong(f[0]);
          m.heapPeak = Long.parseLong(f[1]);
          m.metaBefore = Long.parseLong(f[2]);
          m.metaPeak = Long.parseLong(f[3]);
          m.classes = Long.parseLong(f[4]);
          m.allocated = Long.parseLong(f[5]);
          r.memory.put(Results.key(g, p), m);
        }
      }
    }
  }

  private void curve(String graph, int max) throws Exception {
    r.curveGraph = graph;
    for (String p : timedPeers(graph)) {
      log("Figure 6 curve " + graph + " " + p + " up to " + max + " restores");
      Run run =
          child(
              classPath(p),
              List.of(),
              "curve",
              p,
              work.resolve(fileOf(graph, p)).toString(),
              Integer.toString(max));
      if (run.status == 0 && !run.lines.isEmpty()) {
        List<double[]> points = new ArrayList<>();
        for (String pt : run.lines.get(0).split(" ")) {
          int colon = pt.indexOf(':');
          if (colon > 0) {
            points.add(
                new double[] {
                  Double.parseDouble(pt.substring(0, colon)),
                  Double.parseDouble(pt.substring(colon + 1))
                });
          }
        }
        r.curve.put(p, points);
      }
    }
  }

  /**
   * {@link StreamCase}: each peer writes its stream in one child JVM, then {@code samples} fresh
   * JVMs read it; a reader whose checksum differs from the JDK's is an error.
   */
  private void streams(int samples) throws Exception {
    for (String p : StreamCase.PEERS) {
      log("many small objects over one stream: " + p);
      Path file = work.resolve("stream-" + p + ".bin");
      Run w = child(classPath(p), List.of(), "streamwrite", p, file.toString());
      if (w.status != 0 || w.lines.isEmpty()) {
        continue;
      }
      String[] f = w.lines.get(0).split(" ");
      double[] facts = {Double.parseDouble(f[1]), Double.parseDouble(f[0]), Double.NaN};
      r.streamFiles.put(p, facts);
      List<Double> reads = new ArrayList<>();
      for (int i = 0; i < samples; i++) {
        Run run = child(classPath(p), List.of(), "streamread", p, file.toString());
        if (run.status == 0 && !run.lines.isEmpty()) {
          String[] g = run.lines.get(0).split(" ");
          reads.add(Double.parseDouble(g[0]));
          facts[2] = Double.parseDouble(g[1]);
        }
      }
      r.streamReads.put(p, reads);
      double[] jdk = r.streamFiles.get("jdk");
      if (jdk != null && jdk != facts && jdk[2] != facts[2]) {
        r.errors.add("stream case: " + p + " read checksum " + facts[2] + ", the JDK " + jdk[2]);
      }
    }
  }

  /**
   * {@link FixtureCase}: records the fixture once, then runs each variant's {@code tests} tests in
   * {@code samples} fresh JVMs each; a run with a failed test is an error.
   */
  private void fixtures(int tests, int samples) throws Exception {
    r.fixtureTests = tests;
    Path dir = work.resolve("fixtures");
    Files.createDirectories(dir);
    log("test fixtures: writing and recording the fixture");
    if (child(fullClassPath(), List.of(), "fixtureprep", dir.toString()).status != 0) {
      return;
    }
    for (int s = 0; s < samples; s++) {
      for (String v : FixtureCase.VARIANTS) {
        log("test fixtures: " + tests + " tests, " + v + ", sample " + (s + 1) + "/" + samples);
        Run run =
            child(
                fullClassPath(), List.of(), "fixture", v, dir.toString(), Integer.toString(tests));
        if (run.status != 0 || run.lines.isEmpty()) {
          continue;
        }
        String[] f = run.lines.get(0).split(" ");
        if (Long.parseLong(f[1]) != tests || Long.parseLong(f[2]) != 0) {
          r.errors.add("fixture case " + v + ": " + f[1] + " tests passed, " + f[2] + " failed");
          continue;
        }
        r.fixtureRuns.computeIfAbsent(v, k -> new ArrayList<>()).add(Double.parseDouble(f[0]));
      }
    }
  }

  /**
   * {@link ModelChecker}: one fresh JVM per peer; a child that fails gives a failed outcome, and
   * Codese failing the scenario fails the run.
   */
  private void modelChecker(ModelChecker.Plan plan) throws Exception {
    r.checkerPlan = plan;
    for (String p : ModelChecker.PEERS) {
      log("model checker " + p + ": " + plan);
      Run run =
          child(
              classPath(p),
              List.of(),
              "checker",
              p,
              Integer.toString(plan.nodes()),
              Integer.toString(plan.steps()),
              Integer.toString(plan.restoreEvery()));
      ModelChecker.Outcome o =
          run.status == 0 && !run.lines.isEmpty()
              ? ModelChecker.Outcome.parse(run.lines.get(0))
              : ModelChecker.Outcome.failed("the child JVM exited " + run.status);
      r.checker.put(p, o);
      if (p.equals("codese") && !o.ok()) {
        r.errors.add("model checker: Codese failed: " + o.message());
      }
    }
  }

  /**
   * The warm steady state of capture, JMH ({@link WarmCapture}), for every peer whose capture of
   * the graph succeeded; big graphs get 3 warm-up and 3 measured iterations (each at least one
   * capture).
   */
  private void warmCaptures(List<String> graphs) throws Exception {
    for (String g : graphs) {
      Map<String, Results.Capture> caps = r.captures.getOrDefault(g, Map.of());
      for (String p : capturingPeers()) {
        Results.Capture c = caps.get(p);
        if (c == null || !c.status.equals("ok")) {
          continue;
        }
        log("warm capture (JMH) " + g + " " + p);
        ChainedOptionsBuilder o =
            new OptionsBuilder()
                .include(WarmCapture.class.getName() + ".capture")
                .param("graph", g)
                .param("peer", p)
                .forks(1)
                .jvmArgsAppend("-Xmx8g")
                .shouldFailOnError(true)
                .output(out.resolve("jmh-log.txt").toString() + ".capture." + g + "." + p);
        int warmups = quick ? 1 : big(g) ? 3 : WARMUP_ITERATIONS;
        int measured = quick ? 2 : big(g) ? 3 : 4;
        o.warmupIterations(warmups)
            .warmupTime(TimeValue.milliseconds(500))
            .measurementIterations(measured)
            .measurementTime(TimeValue.milliseconds(quick ? 300 : 500));
        try {
          for (RunResult rr : new Runner(o.build()).run()) {
            Result<?> primary = rr.getPrimaryResult();
            c.warmMs = micros(primary, primary.getScore()) / 1000;
            c.warmError = micros(primary, primary.getScoreError()) / 1000;
          }
        } catch (Exception e) {
          r.errors.add("JMH capture " + g + " " + p + ": " + e);
          log("JMH failed: " + e);
        }
      }
    }
  }

  private void warmAll(List<String> graphs) throws Exception {
    for (String g : graphs) {
      for (String p : timedPeers(g)) {
        log("warm (JMH, -prof gc) " + g + " " + p);
        ChainedOptionsBuilder o =
            new OptionsBuilder()
                .include(WarmRestore.class.getName() + ".restore")
                .param("file", work.resolve(fileOf(g, p)).toString())
                .param("peer", p)
                .forks(1)
                .jvmArgsAppend("-Xmx8g")
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(true)
                .output(out.resolve("jmh-log.txt").toString() + "." + g + "." + p);
        if (quick) {
          o.warmupIterations(1)
              .warmupTime(TimeValue.milliseconds(500))
              .measurementIterations(2)
              .measurementTime(TimeValue.milliseconds(300));
        } else {
          // 4 s: a graph whose restores replay many JDK readObjects (jdk-collections) reaches its
          // steady state only after about 2.5 s of restores on 2 cores (DESIGN section 9)
          o.warmupIterations(WARMUP_ITERATIONS)
              .warmupTime(TimeValue.milliseconds(500))
              .measurementIterations(4)
              .measurementTime(TimeValue.milliseconds(500));
        }
        try {
          Collection<RunResult> results = new Runner(o.build()).run();
          for (RunResult rr : results) {
            Results.Warm w = new Results.Warm();
            Result<?> primary = rr.getPrimaryResult();
            w.usPerOp = micros(primary, primary.getScore());
            w.error = micros(primary, primary.getScoreError());
            for (Map.Entry<String, Result> e : rr.getSecondaryResults().entrySet()) {
              if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                w.allocBytesPerOp = e.getValue().getScore();
              }
            }
            r.warm.put(Results.key(g, p), w);
          }
        } catch (Exception e) {
          r.errors.add("JMH " + g + " " + p + ": " + e);
          log("JMH failed: " + e);
        }
      }
    }
  }

  /** A figure of JMH result {@code r} in µs (the benchmarks report µs or ms per operation). */
  private static double micros(Result<?> r, double figure) {
    return r.getScoreUnit().startsWith("ms") ? figure * 1000 : figure;
  }

  /** JMH's per-benchmark logs (warm restores and captures) go into one file. */
  private void mergeJmhLogs() throws IOException {
    Path logFile = out.resolve("jmh-log.txt");
    try (OutputStream all = Files.newOutputStream(logFile)) {
      try (Stream<Path> s = Files.list(out)) {
        for (Path p : s.sorted().toList()) {
          if (p.getFileName().toString().startsWith("jmh-log.txt.")) {
            Files.copy(p, all);
            Files.delete(p);
          }
        }
      }
    }
  }
}
