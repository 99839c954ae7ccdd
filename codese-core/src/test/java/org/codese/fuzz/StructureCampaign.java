package org.codese.fuzz;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The structure fuzzer without Jazzer: a plain-Java driver for long campaigns (issue 15 asks for at
 * least a million executions per JDK). Input {@code i} of seed {@code S} is a few hundred random
 * bytes drawn from {@code SplittableRandom(mix(S, i))}, decoded by {@link Choices} exactly as a
 * Jazzer input would be, so a campaign is reproducible, resumable ({@code --resume}) and shardable
 * by seed (one output directory per seed). Findings are saved as the input bytes ({@code
 * .choices}), the mutated snapshot ({@code .cdse}, replayable on its own) and a description ({@code
 * .txt}), at most three per distinct signature; all counts go to {@code counts.properties}.
 *
 * <pre>
 * java [flags] -cp CLASSPATH org.codese.fuzz.StructureCampaign [options]
 *   --seed S          campaign seed (default 1); inputs are a function of (S, i)
 *   --runs N          inputs to run (default 1000000)
 *   --seconds T       stop after T seconds (over all restarts with --supervise)
 *   --from I          first input index (default 0)
 *   --resume          continue from the output directory's progress (next input, end)
 *   --out DIR         output root (default target/structure-fuzz); results in DIR/seed-S
 *   --supervise       restart the JVM after a fatal finding (a hang), until the run is done
 *   --replay FILE...  run inputs (.choices, Jazzer's crash-*) or snapshots and print their reports
 *   --minimize FILE   shrink a .cdse finding while its signature stays; writes FILE.min.cdse
 *   --signature SIG   with --minimize: the signature to keep (default: the finding's .txt)
 *   --write-corpus D  write 16 inputs with distinct outcomes and no finding into D, as the
 *                     regression corpus StructureFuzzTestInputs/mutateAndRestore (redo this
 *                     whenever the mutator or the seeds change: inputs are decoded by them)
 * </pre>
 *
 * A hang is fatal (the runaway worker cannot be stopped): the driver saves its progress and exits
 * with status 3, and {@code --supervise} starts a fresh JVM at the next input. If the JVM itself
 * dies (an input can corrupt memory: a String whose value is not a byte[]), the supervisor records
 * the input under way as a finding, with the JVM's hs_err file, and goes on after it.
 */
public final class StructureCampaign {
  private static final int FATAL = 3;
  private static final int KEEP_PER_SIGNATURE = 3;
  private static final String FULL_TRACES = "-XX:-OmitStackTraceInFastThrow";

  private final Map<String, Long> counts = new TreeMap<>();
  private final Path dir;
  private final long seed;
  private long end;

  private StructureCampaign(Path dir, long seed) {
    this.dir = dir;
    this.seed = seed;
  }

  public static void main(String[] args) throws Exception {
    long seed = 1;
    long runs = 1_000_000;
    long seconds = -1;
    long until = -1;
    long from = 0;
    boolean resume = false;
    boolean supervise = false;
    Path out = Path.of("target/structure-fuzz");
    List<String> replay = new ArrayList<>();
    String minimize = null;
    String signature = null;
    String corpus = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--runs" -> runs = Long.parseLong(args[++i]);
        case "--seconds" -> seconds = Long.parseLong(args[++i]);
        case "--until" -> until = Long.parseLong(args[++i]);
        case "--from" -> from = Long.parseLong(args[++i]);
        case "--resume" -> resume = true;
        case "--supervise" -> supervise = true;
        case "--out" -> out = Path.of(args[++i]);
        case "--minimize" -> minimize = args[++i];
        case "--signature" -> signature = args[++i];
        case "--write-corpus" -> corpus = args[++i];
        case "--replay" -> {
          while (i + 1 < args.length && !args[i + 1].startsWith("--")) {
            replay.add(args[++i]);
          }
        }
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; see the class comment of "
                    + StructureCampaign.class.getName());
      }
    }
    if (!replay.isEmpty()) {
      System.exit(replay(replay));
    }
    if (corpus != null) {
      writeCorpus(Path.of(corpus), seed);
      System.exit(0);
    }
    if (minimize != null) {
      minimize(Path.of(minimize), signature);
      System.exit(0);
    }
    Path dir = out.resolve("seed-" + seed);
    Files.createDirectories(dir.resolve("findings"));
    if (seconds >= 0 && until < 0) {
      until = System.currentTimeMillis() + seconds * 1000;
    }
    if (supervise) {
      System.exit(supervise(args, until, dir, seed));
    }
    if (!ManagementFactory.getRuntimeMXBean().getInputArguments().contains(FULL_TRACES)) {
      System.out.println(
          "warning: run with "
              + FULL_TRACES
              + ", or the JIT drops the stack traces"
              + " of frequent exceptions and findings cannot be told apart");
    }
    if (System.getProperty("codese.fuzz.timeLimitSeconds") == null) {
      // a hang costs this long plus a JVM restart; inputs that restore take milliseconds
      System.setProperty("codese.fuzz.timeLimitSeconds", "5");
    }
    StructureCampaign c = new StructureCampaign(dir, seed);
    c.snapshotOfCrash();
    long end = from + runs;
    if (resume) {
      long[] progress = c.load();
      if (progress[0] >= 0) {
        from = progress[0];
        end = progress[1] >= 0 ? progress[1] : from + runs;
      }
    }
    int status = c.run(from, end, until);
    System.out.flush();
    if (status == FATAL) {
      // a runaway worker may hold locks that shutdown hooks need: no hooks, no waiting
      StructureHarness.shared().close();
      Runtime.getRuntime().halt(FATAL);
    }
    System.exit(status);
  }

  /**
   * @return the bytes of input {@code i} of campaign {@code seed}
   */
  static byte[] input(long seed, long i) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L);
    byte[] b = new byte[8 + r.nextInt(248)];
    r.nextBytes(b);
    return b;
  }

  private int run(long from, long end, long until) throws IOException {
    this.end = end;
    StructureHarness h = StructureHarness.shared();
    long start = System.nanoTime();
    long deadline =
        until < 0 ? Long.MAX_VALUE : start + (until - System.currentTimeMillis()) * 1_000_000L;
    long lastReport = start;
    long done = 0;
    System.out.printf(
        "structure fuzz: seed %d, inputs %d..%d, JDK %s, %d seeds, results in %s%n",
        seed, from, end - 1, Runtime.version(), h.mutator().seeds().size(), dir);
    long i = from;
    int status = 0;
    // the input under way, in a file mapping that survives a crash of this JVM
    java.nio.MappedByteBuffer current;
    try (java.nio.channels.FileChannel ch =
        java.nio.channels.FileChannel.open(
            dir.resolve("current-input"),
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.READ,
            java.nio.file.StandardOpenOption.WRITE)) {
      current = ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, 8);
    }
    startWatchdog(current);
    while (i < end && System.nanoTime() < deadline) {
      heartbeat = System.nanoTime();
      current.putLong(0, i);
      byte[] in = input(seed, i);
      StructureHarness.Report r;
      try {
        r = h.runInput(in);
      } catch (Throwable t) {
        // the harness itself failed: the JVM was damaged by this input or an earlier one
        r =
            new StructureHarness.Report(
                "?",
                List.of(),
                new byte[0],
                List.of(),
                List.of(
                    new StructureHarness.Finding(
                        "I1", "I1 the harness failed", "running the" + " input threw " + t, t)),
                true);
      }
      record(r, in, i);
      i++;
      done++;
      if (r.fatal()) {
        status = FATAL;
        break;
      }
      long now = System.nanoTime();
      if (done % 1000 == 0) {
        save(i);
      }
      if (now - lastReport > 10_000_000_000L) {
        lastReport = now;
        save(i);
        System.out.printf(
            "%,d inputs (next %d), %.0f exec/s, %d distinct findings%n",
            done, i, done / ((now - start) / 1e9), findings());
      }
    }
    save(i);
    current.putLong(0, -1);
    double secs = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "%nran %,d inputs in %.1f s: %.0f exec/s (each input is two passes)%n",
        done, secs, done / secs);
    print();
    if (status == FATAL) {
      System.out.println(
          "fatal finding at input "
              + (i - 1)
              + "; the JVM must be restarted"
              + " (use --supervise, or --resume)");
    }
    return status;
  }

  private void record(StructureHarness.Report r, byte[] in, long i) throws IOException {
    add("executions", 1);
    for (StructureHarness.Pass p : r.passes()) {
      add("outcome " + p.name() + ": " + p.outcome(), 1);
      if (p.nanos() > StructureHarness.SLOW_MILLIS * 1_000_000) {
        add("note: a pass slower than " + StructureHarness.SLOW_MILLIS + " ms", 1);
      }
    }
    for (StructureHarness.Finding f : r.findings()) {
      long n = add("finding " + f.signature(), 1);
      if (n <= KEEP_PER_SIGNATURE) {
        String base =
            f.invariant()
                + "-"
                + Integer.toHexString(f.signature().hashCode())
                + "-"
                + seed
                + "-"
                + i;
        Path d = dir.resolve("findings");
        Files.write(d.resolve(base + ".choices"), in);
        Files.write(d.resolve(base + ".cdse"), r.snapshot());
        Files.writeString(d.resolve(base + ".txt"), describe(f, r, i), StandardCharsets.UTF_8);
        if (n == 1) {
          System.out.println(
              "NEW FINDING "
                  + f.signature()
                  + "\n    "
                  + f.detail()
                  + "\n    input "
                  + i
                  + " -> "
                  + d.resolve(base + ".cdse"));
        }
      }
    }
  }

  private String describe(StructureHarness.Finding f, StructureHarness.Report r, long i) {
    StringWriter s = new StringWriter();
    PrintWriter w = new PrintWriter(s);
    w.println("invariant: " + f.invariant());
    w.println("signature: " + f.signature());
    w.println("detail: " + f.detail());
    w.println("campaign seed " + seed + ", input " + i + ", JDK " + Runtime.version());
    w.println();
    w.println(r.describe());
    if (f.error() != null) {
      w.println();
      f.error().printStackTrace(w);
    }
    w.flush();
    return s.toString();
  }

  private volatile long heartbeat = System.nanoTime();

  /**
   * A daemon thread that ends this JVM with a finding when the main loop makes no progress for
   * twice the time limit plus 30 s: the judging on the main thread (the canaries) stuck on state an
   * input damaged, or a deadlock with a runaway worker (the time limit only covers the worker).
   */
  private void startWatchdog(java.nio.MappedByteBuffer current) {
    Thread main = Thread.currentThread();
    long limit = (2 * FuzzSupport.TIME_LIMIT_SECONDS + 30) * 1_000_000_000L;
    Thread w =
        new Thread(
            () -> {
              while (true) {
                try {
                  Thread.sleep(5_000);
                } catch (InterruptedException e) {
                  return;
                }
                if (System.nanoTime() - heartbeat > limit) {
                  long i = current.getLong(0);
                  StringBuilder st = new StringBuilder();
                  for (StackTraceElement e : main.getStackTrace()) {
                    st.append("\tat ").append(e).append('\n');
                  }
                  try {
                    String base = "I4-stuck-" + seed + "-" + i;
                    Path d = dir.resolve("findings");
                    Files.write(d.resolve(base + ".choices"), input(seed, i));
                    Files.writeString(
                        d.resolve(base + ".txt"),
                        "invariant: I4\nsignature: I4 the"
                            + " driver was stuck\ndetail: no progress for "
                            + limit / 1_000_000_000L
                            + " s on input "
                            + i
                            + " of seed "
                            + seed
                            + "; the main thread was at:\n"
                            + st);
                    add("finding I4 the driver was stuck", 1);
                    save(i + 1);
                  } catch (IOException | RuntimeException e) {
                    // nothing more can be done; the supervisor restarts from the last saved
                    // progress
                  }
                  System.out.println("watchdog: no progress on input " + i + "; ending this JVM");
                  System.out.flush();
                  Runtime.getRuntime().halt(FATAL);
                }
              }
            },
            "codese-fuzz-watchdog");
    w.setDaemon(true);
    w.start();
  }

  private synchronized long add(String key, long n) {
    return counts.merge(key, n, Long::sum);
  }

  private synchronized long findings() {
    return counts.keySet().stream().filter(k -> k.startsWith("finding ")).count();
  }

  private synchronized void print() {
    System.out.println("outcomes and findings (counts):");
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      System.out.printf("  %,12d  %s%n", e.getValue(), e.getKey());
    }
  }

  private synchronized void save(long next) throws IOException {
    Properties p = new Properties();
    p.setProperty("next", Long.toString(next));
    p.setProperty("end", Long.toString(end));
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      p.setProperty(e.getKey(), Long.toString(e.getValue()));
    }
    Path tmp = dir.resolve("counts.properties.tmp");
    try (var w = Files.newBufferedWriter(tmp)) {
      p.store(w, "structure fuzz, seed " + seed + ", JDK " + Runtime.version());
    }
    Files.move(
        tmp, dir.resolve("counts.properties"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * @return {next, end} from the saved progress, -1 where there is none
   */
  private long[] load() throws IOException {
    Path f = dir.resolve("counts.properties");
    if (!Files.exists(f)) {
      return new long[] {-1, -1};
    }
    Properties p = new Properties();
    try (var r = Files.newBufferedReader(f)) {
      p.load(r);
    }
    for (String k : p.stringPropertyNames()) {
      if (!k.equals("next") && !k.equals("end")) {
        counts.put(k, Long.parseLong(p.getProperty(k)));
      }
    }
    return new long[] {
      Long.parseLong(p.getProperty("next", "-1")), Long.parseLong(p.getProperty("end", "-1"))
    };
  }

  /**
   * Runs this driver in child JVMs with the same flags until the run is done: after a fatal finding
   * the next child resumes at the next input; after the JVM itself crashed (a signal), the input
   * under way is recorded as a finding and skipped.
   */
  private static int supervise(String[] args, long until, Path dir, long seed) throws Exception {
    List<String> base = new ArrayList<>();
    base.add(ProcessHandle.current().info().command().orElse("java"));
    base.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    if (!base.contains(FULL_TRACES)) {
      base.add(1, FULL_TRACES);
    }
    base.add(1, "-XX:ErrorFile=" + dir.toAbsolutePath().resolve("findings/hs_err_pid%p.log"));
    base.add("-cp");
    base.add(System.getProperty("java.class.path"));
    base.add(StructureCampaign.class.getName());
    boolean first = true;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--seconds") || args[i].equals("--until")) {
        i++;
      } else if (!args[i].equals("--supervise") && !args[i].equals("--resume")) {
        base.add(args[i]);
      } else if (args[i].equals("--resume")) {
        first = false;
      }
    }
    if (until >= 0) {
      base.add("--until");
      base.add(Long.toString(until));
    }
    for (int restarts = 0; ; restarts++) {
      List<String> cmd = new ArrayList<>(base);
      if (!first) {
        cmd.add("--resume");
      }
      first = false;
      Files.deleteIfExists(dir.resolve("current-input"));
      Process p = new ProcessBuilder(cmd).inheritIO().start();
      int status = p.waitFor();
      if (status != FATAL && status != 0 && !crashed(dir, seed, status, p.pid())) {
        return status;
      }
      if (status == 0) {
        return 0;
      }
      System.out.println(
          "supervisor: restarting after a fatal finding (" + (restarts + 1) + " restarts)");
    }
  }

  /**
   * After a child JVM died: records the input it was running as a finding ({@code .choices} and
   * {@code .txt}; the next child adds the {@code .cdse}) and moves the progress past it.
   *
   * @return whether there was an input under way
   */
  private static boolean crashed(Path dir, long seed, int status, long pid) throws IOException {
    Path marker = dir.resolve("current-input");
    if (!Files.exists(marker) || Files.size(marker) < 8) {
      return false;
    }
    long i = java.nio.ByteBuffer.wrap(Files.readAllBytes(marker)).getLong();
    if (i < 0) {
      return false;
    }
    String base = "I5-jvm-crash-" + seed + "-" + i;
    Path findings = dir.resolve("findings");
    Files.write(findings.resolve(base + ".choices"), input(seed, i));
    Files.writeString(
        findings.resolve(base + ".txt"),
        "invariant: I5\nsignature: I5 the JVM"
            + " crashed\ndetail: the JVM running input "
            + i
            + " of seed "
            + seed
            + " exited with"
            + " status "
            + status
            + "; see "
            + findings.resolve("hs_err_pid" + pid + ".log")
            + "\n");
    Files.writeString(dir.resolve("crashed-input"), Long.toString(i));
    StructureCampaign c = new StructureCampaign(dir, seed);
    long[] progress = c.load();
    c.end = progress[1];
    c.add("executions", 1);
    c.add("finding I5 the JVM crashed", 1);
    c.save(i + 1);
    System.out.println(
        "supervisor: the JVM crashed (status "
            + status
            + ") on input "
            + i
            + "; recorded in "
            + findings.resolve(base + ".txt"));
    return true;
  }

  /** Saves the snapshot of the input a crashed JVM was running, which only a harness can make. */
  private void snapshotOfCrash() throws IOException {
    Path marker = dir.resolve("crashed-input");
    if (!Files.exists(marker)) {
      return;
    }
    long i = Long.parseLong(Files.readString(marker).trim());
    StructureMutator.Mutant m =
        StructureHarness.shared().mutator().mutate(new Choices(input(seed, i)));
    Path base = dir.resolve("findings").resolve("I5-jvm-crash-" + seed + "-" + i);
    Files.write(base.resolveSibling(base.getFileName() + ".cdse"), m.bytes());
    Files.writeString(
        base.resolveSibling(base.getFileName() + ".txt"),
        "seed " + m.seed() + ", mutations:\n  " + String.join("\n  ", m.log()) + "\n",
        java.nio.file.StandardOpenOption.APPEND);
    Files.delete(marker);
  }

  private static int replay(List<String> files) throws IOException {
    StructureHarness h = StructureHarness.shared();
    int found = 0;
    for (String f : files) {
      byte[] b = Files.readAllBytes(Path.of(f));
      // a snapshot starts with the magic "CDSE"; anything else is an input of choices (.choices
      // files, Jazzer's crash-* files, the regression corpus)
      boolean snapshot =
          b.length >= 4 && (b[0] & 0xFF) == 'C' && b[1] == 'D' && b[2] == 'S' && b[3] == 'E';
      StructureHarness.Report r =
          snapshot ? h.run(Path.of(f).getFileName().toString(), List.of(), b) : h.runInput(b);
      System.out.println("== " + f);
      System.out.println(r.describe());
      for (StructureHarness.Finding x : r.findings()) {
        System.out.println("  signature: " + x.signature());
        if (x.error() != null) {
          x.error().printStackTrace(System.out);
        }
      }
      found += r.findings().isEmpty() ? 0 : 1;
    }
    return found == 0 ? 0 : 1;
  }

  /**
   * Greedy shrinking of a snapshot while a finding's signature stays: the one given, else the one
   * in the finding's {@code .txt} beside the file, else the file's first.
   */
  private static void minimize(Path file, String signature) throws IOException {
    StructureHarness h = StructureHarness.shared();
    byte[] best = Files.readAllBytes(file);
    List<String> want = signatures(h.run("min", List.of(), best));
    String name = file.getFileName().toString();
    Path txt = file.resolveSibling(name.replaceAll("\\.cdse$", ".txt"));
    if (signature == null && Files.exists(txt)) {
      for (String line : Files.readAllLines(txt)) {
        if (line.startsWith("signature: ")) {
          signature = line.substring("signature: ".length());
          break;
        }
      }
    }
    String target = signature != null ? signature : want.isEmpty() ? null : want.get(0);
    if (target == null || !want.contains(target)) {
      System.out.println(
          "finding " + target + " does not reproduce in " + file + "; it gives " + want);
      return;
    }
    System.out.println("keeping " + target + " (" + best.length + " bytes)");
    boolean progress = true;
    while (progress) {
      progress = false;
      for (byte[] candidate : StructureReducer.candidates(best)) {
        if (candidate.length < best.length
            && signatures(h.run("min", List.of(), candidate)).contains(target)) {
          best = candidate;
          progress = true;
          System.out.println("  " + best.length + " bytes");
          break;
        }
      }
    }
    Path out = file.resolveSibling(file.getFileName() + ".min.cdse");
    Files.write(out, best);
    System.out.println("wrote " + out + " (" + best.length + " bytes)");
  }

  /** Inputs of campaign {@code seed} that find nothing, one per pair of outcomes, stable. */
  private static void writeCorpus(Path dir, long seed) throws IOException {
    StructureHarness h = StructureHarness.shared();
    Files.createDirectories(dir);
    java.util.Set<String> taken = new java.util.HashSet<>();
    int n = 0;
    for (long i = 0; i < 10_000 && n < 16; i++) {
      byte[] in = input(seed, i);
      StructureHarness.Report r = h.runInput(in);
      if (!r.findings().isEmpty() || r.fatal() || r.passes().size() < 2) {
        continue;
      }
      String key = r.passes().get(0).outcome() + " / " + r.passes().get(1).outcome();
      if (!taken.add(key) || !h.runInput(in).findings().isEmpty()) {
        continue;
      }
      Files.write(dir.resolve(String.format("clean-%02d", n++)), in);
      System.out.println("input " + i + ": " + key + ", seed " + r.seed() + ", " + r.log());
    }
  }

  private static List<String> signatures(StructureHarness.Report r) {
    List<String> out = new ArrayList<>();
    for (StructureHarness.Finding f : r.findings()) {
      out.add(f.signature());
    }
    return out;
  }
}
