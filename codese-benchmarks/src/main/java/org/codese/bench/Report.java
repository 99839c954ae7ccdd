package org.codese.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import org.codese.bench.graphs.Graphs;
import org.codese.bench.peers.Peers;

/** Writes the CSV files and the markdown report (laid out like the paper's Figure 5). */
final class Report {
  /** the peers compared with Codese, in column order */
  static final List<String> PEERS = List.of("jdk", "kryo", "fory", "fory-nocg", "floor");

  private final Results r;
  private final Path out;
  private final boolean quick;
  private final String jdk;

  Report(Results r, Path out, boolean quick, String jdk) {
    this.r = r;
    this.out = out;
    this.quick = quick;
    this.jdk = jdk;
  }

  void write() throws IOException {
    writeCsv();
    try (PrintWriter w =
        new PrintWriter(
            Files.newBufferedWriter(out.resolve("report.md"), StandardCharsets.UTF_8))) {
      markdown(w);
    }
  }

  // ------------------------------------------------------------------------------------- CSV

  private void writeCsv() throws IOException {
    List<String> stream = new ArrayList<>(List.of("peer,objects,bytes,write_ms,sample,read_ms"));
    for (Map.Entry<String, double[]> e : r.streamFiles.entrySet()) {
      List<Double> reads = r.streamReads.getOrDefault(e.getKey(), List.of());
      for (int i = 0; i < reads.size(); i++) {
        stream.add(
            e.getKey()
                + ","
                + StreamCase.N
                + ","
                + (long) e.getValue()[0]
                + ","
                + e.getValue()[1]
                + ","
                + (i + 1)
                + ","
                + reads.get(i));
      }
    }
    Files.write(out.resolve("stream.csv"), stream);
    List<String> fixture = new ArrayList<>(List.of("variant,tests,nodes,sample,total_ms"));
    for (Map.Entry<String, List<Double>> e : r.fixtureRuns.entrySet()) {
      for (int i = 0; i < e.getValue().size(); i++) {
        fixture.add(
            e.getKey()
                + ","
                + r.fixtureTests
                + ","
                + FixtureCase.NODES
                + ","
                + (i + 1)
                + ","
                + e.getValue().get(i));
      }
    }
    Files.write(out.resolve("fixture.csv"), fixture);
    List<String> lines = new ArrayList<>();
    lines.add("graph,objects,reference_fields_set,primitive_fields_set,opaque_objects");
    for (String g : r.graphs) {
      long[] s = r.stats.get(g);
      if (s != null) {
        lines.add(g + "," + s[0] + "," + s[1] + "," + s[2] + "," + s[3]);
      }
    }
    Files.write(out.resolve("graphs.csv"), lines);

    lines = new ArrayList<>(List.of("graph,peer,verdict"));
    for (String g : r.graphs) {
      for (Map.Entry<String, String> e : r.verdicts(g).entrySet()) {
        lines.add(g + "," + e.getKey() + "," + e.getValue().replace(',', ';'));
      }
    }
    Files.write(out.resolve("correctness.csv"), lines);

    lines = new ArrayList<>(List.of("graph,peer,d,sample,ms"));
    for (Map.Entry<String, List<Double>> e : r.fresh.entrySet()) {
      String[] k = e.getKey().split("\\|");
      for (int i = 0; i < e.getValue().size(); i++) {
        lines.add(k[0] + "," + k[1] + "," + k[2] + "," + (i + 1) + "," + e.getValue().get(i));
      }
    }
    Files.write(out.resolve("fresh.csv"), lines);

    lines = new ArrayList<>(List.of("graph,peer,sample,whole_process_ms"));
    for (Map.Entry<String, List<Double>> e : r.wall.entrySet()) {
      String[] k = e.getKey().split("\\|");
      for (int i = 0; i < e.getValue().size(); i++) {
        lines.add(k[0] + "," + k[1] + "," + (i + 1) + "," + e.getValue().get(i));
      }
    }
    Files.write(out.resolve("wall.csv"), lines);

    lines =
        new ArrayList<>(List.of("graph,peer,us_per_restore,error_99.9,alloc_bytes_per_restore"));
    for (Map.Entry<String, Results.Warm> e : r.warm.entrySet()) {
      String[] k = e.getKey().split("\\|");
      Results.Warm w = e.getValue();
      lines.add(k[0] + "," + k[1] + "," + w.usPerOp + "," + w.error + "," + w.allocBytesPerOp);
    }
    Files.write(out.resolve("warm.csv"), lines);

    new CaptureTable(r, quick).writeCsv(out);
    ModelCheckerReport.writeCsv(r, out);

    lines = new ArrayList<>(List.of("graph,peer,restores,cumulative_ms"));
    for (Map.Entry<String, List<double[]>> e : r.curve.entrySet()) {
      for (double[] pt : e.getValue()) {
        lines.add(r.curveGraph + "," + e.getKey() + "," + (long) pt[0] + "," + pt[1]);
      }
    }
    Files.write(out.resolve("curve.csv"), lines);

    lines =
        new ArrayList<>(
            List.of(
                "graph,peer,heap_used_before,heap_peak,metaspace_before,metaspace_peak,classes_loaded,"
                    + "allocated_by_main_thread"));
    for (Map.Entry<String, Results.Memory> e : r.memory.entrySet()) {
      String[] k = e.getKey().split("\\|");
      Results.Memory m = e.getValue();
      lines.add(
          k[0]
              + ","
              + k[1]
              + ","
              + m.heapBefore
              + ","
              + m.heapPeak
              + ","
              + m.metaBefore
              + ","
              + m.metaPeak
              + ","
              + m.classes
              + ","
              + m.allocated);
    }
    Files.write(out.resolve("memory.csv"), lines);
  }

  // -------------------------------------------------------------------------------- markdown

  static String ms(double v) {
    if (Double.isNaN(v)) {
      return "";
    }
    return v >= 100
        ? String.format("%.0f", v)
        : v >= 10 ? String.format("%.1f", v) : String.format("%.2f", v);
  }

  private static String ratio(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format("%.2f", v);
  }

  /** The measure's value for a graph and peer, NaN if none. */
  private interface Measure extends BiFunction<String, String, Double> {}

  private double bestPeer(Measure m, String g) {
    double best = Double.NaN;
    for (String p : List.of("jdk", "kryo", "fory", "fory-nocg")) {
      double v = m.apply(g, p);
      if (!Double.isNaN(v) && (Double.isNaN(best) || v < best)) {
        best = v;
      }
    }
    return best;
  }

  private String bestPeerName(Measure m, String g) {
    double best = bestPeer(m, g);
    for (String p : List.of("jdk", "kryo", "fory", "fory-nocg")) {
      if (m.apply(g, p) == best) {
        return p;
      }
    }
    return "";
  }

  /** Figure 5 style table: times per peer, then ratios peer/Codese, best/Codese, Codese/floor. */
  private void figure5(
      PrintWriter w,
      String title,
      String unit,
      Measure m,
      BiFunction<String, String, String> cell,
      List<String> slower) {
    w.println("### " + title);
    w.println();
    w.println(
        "| graph | codese | jdk | kryo | fory | fory-nocg | floor | jdk/codese | kryo/codese"
            + " | fory/codese | best peer/codese | codese/floor |");
    w.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    List<List<Double>> ratios = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ratios.add(new ArrayList<>());
    }
    for (String g : r.graphs) {
      double c = m.apply(g, "codese");
      boolean any = !Double.isNaN(c);
      for (String p : PEERS) {
        any |= !Double.isNaN(m.apply(g, p));
      }
      if (!any) {
        continue;
      }
      StringBuilder row = new StringBuilder("| " + g + " | " + cell.apply(g, "codese"));
      for (String p : PEERS) {
        row.append(" | ").append(cell.apply(g, p));
      }
      double fory = r.ok(g, "fory") ? m.apply(g, "fory") : m.apply(g, "fory-nocg");
      double[] rs = {
        m.apply(g, "jdk") / c,
        m.apply(g, "kryo") / c,
        fory / c,
        bestPeer(m, g) / c,
        c / m.apply(g, "floor")
      };
      for (int i = 0; i < rs.length; i++) {
        row.append(" | ").append(ratio(rs[i]));
        if (!Double.isNaN(rs[i])) {
          ratios.get(i).add(rs[i]);
        }
      }
      w.println(row + " |");
      double best = bestPeer(m, g);
      if (!Double.isNaN(c) && !Double.isNaN(best) && best < c) {
        slower.add(
            title
                + ": "
                + g
                + " — "
                + bestPeerName(m, g)
                + " "
                + ms(best)
                + " "
                + unit
                + " vs Codese "
                + ms(c)
                + " "
                + unit);
      }
    }
    StringBuilder gm = new StringBuilder("| **geometric mean** | | | | | | ");
    for (List<Double> rs : ratios) {
      gm.append(" | **")
          .append(ratio(CaptureRatios.geomean(rs)))
          .append("** (")
          .append(rs.size())
          .append(")");
    }
    w.println(gm + " |");
    w.println();
    w.println(
        "Times in "
            + unit
            + ". Ratios above 1 mean Codese is faster (codese/floor: how many"
            + " times the floor Codese takes). fory/codese uses Fory with code generation where it"
            + " restored correctly, else without. Geometric means over the graphs that have both"
            + " values (count in parentheses).");
    w.println();
  }

  private String freshCell(String g, String p, int d) {
    List<Double> xs = r.fresh.get(Results.key(g, p, d));
    if (xs == null || xs.isEmpty()) {
      return verdictMark(g, p);
    }
    if (xs.size() == 1) {
      return ms(xs.get(0));
    }
    return ms(Results.median(xs))
        + " ["
        + ms(Collections.min(xs))
        + "–"
        + ms(Collections.max(xs))
        + "]";
  }

  private String verdictMark(String g, String p) {
    String v = r.verdicts(g).get(p);
    if (v == null || v.startsWith("ok")) {
      return "";
    }
    if (v.startsWith("n/a")) {
      return "n/a";
    }
    return v.startsWith("WRONG") ? "wrong" : "failed";
  }

  /** {@link StreamCase}: bytes and cold read time, JDK against Codese. */
  private void streams(PrintWriter w) {
    if (r.streamFiles.isEmpty()) {
      return;
    }
    w.println("## Many small objects over one stream");
    w.println();
    w.println(
        StreamCase.N
            + " small messages, one `writeObject` each, read back one `readObject`"
            + " each in a fresh JVM (time from opening the file to the last object; median [min-max]"
            + " of "
            + r.streamReads.getOrDefault("jdk", List.of()).size()
            + " JVMs).");
    w.println();
    w.println("| peer | bytes | bytes per object | write ms (one JVM) | read ms |");
    w.println("|---|---:|---:|---:|---:|");
    for (Map.Entry<String, double[]> e : r.streamFiles.entrySet()) {
      double[] f = e.getValue();
      List<Double> reads = r.streamReads.getOrDefault(e.getKey(), List.of());
      w.printf(
          "| %s | %d | %.1f | %.1f | %s |%n",
          e.getKey(),
          (long) f[0],
          f[0] / StreamCase.N,
          f[1],
          reads.isEmpty()
              ? "n/a"
              : String.format(
                  "%.1f [%.1f-%.1f]",
                  Results.median(reads), Collections.min(reads), Collections.max(reads)));
    }
    double[] jdk = r.streamFiles.get("jdk");
    double[] codese = r.streamFiles.get("codese");
    if (jdk != null && codese != null) {
      w.println();
      w.printf(
          "Codese/JDK: bytes %.2fx, read time %.2fx (medians).%n",
          codese[0] / jdk[0],
          Results.median(r.streamReads.get("codese")) / Results.median(r.streamReads.get("jdk")));
    }
    w.println();
  }

  /** {@link FixtureCase}: total time of a test class whose every test needs a fresh fixture. */
  private void fixtures(PrintWriter w) {
    if (r.fixtureRuns.isEmpty()) {
      return;
    }
    w.println("## Test fixtures");
    w.println();
    w.println(
        r.fixtureTests
            + " JUnit 5 tests, each needing a fresh copy of a "
            + String.format("%,d", FixtureCase.NODES)
            + "-node red-black tree that it changes, run by"
            + " the JUnit launcher in a fresh JVM; total time from the JVM's main to the last test"
            + " (median [min-max] of "
            + r.fixtureRuns.values().iterator().next().size()
            + " JVMs). build: `@BeforeEach` builds the tree; jdk: `@BeforeEach` deserializes bytes"
            + " read once; codese: a codese-junit `@Fixture` field (loaded once, restored per test).");
    w.println();
    w.println("| fixture | total ms | total / tests (ms) | time / codese |");
    w.println("|---|---:|---:|---:|");
    double codese = Results.median(r.fixtureRuns.get("codese"));
    for (Map.Entry<String, List<Double>> e : r.fixtureRuns.entrySet()) {
      List<Double> runs = e.getValue();
      double median = Results.median(runs);
      w.printf(
          "| %s | %.0f [%.0f-%.0f] | %.2f | %.2f |%n",
          e.getKey(),
          median,
          Collections.min(runs),
          Collections.max(runs),
          median / r.fixtureTests,
          median / codese);
    }
    w.println();
  }

  private void markdown(PrintWriter w) {
    w.println("# Codese benchmarks" + (quick ? " (quick mode)" : ""));
    w.println();
    w.println(
        "JDK "
            + jdk
            + " ("
            + System.getProperty("java.vm.name")
            + "), "
            + Runtime.getRuntime().availableProcessors()
            + " cores, "
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.arch")
            + ". Written by `java -jar"
            + " codese-benchmarks/target/codese-benchmarks.jar"
            + (quick ? " --quick" : "")
            + "`.");
    w.println();
    w.println(
        "All figures come from this one run, peers side by side. The machine is small and"
            + " shared, so compare ratios within this report rather than absolute times across"
            + " reports."
            + (quick
                ? " Quick mode is a smoke test: few samples, tiny JMH runs, first-call"
                    + " capture times not from fresh JVMs; do not quote its figures."
                : ""));
    w.println();

    w.println("## Peers");
    w.println();
    for (Map.Entry<String, String> e : r.peerConfigs.entrySet()) {
      w.println("- **" + e.getKey() + "**: " + e.getValue());
    }
    w.println();
    w.println("A hand-written floor exists only for the red-black trees and MediaContent.");
    w.println();

    w.println("## Graphs (the paper's Figure 4)");
    w.println();
    w.println(
        "| graph | built with | #objects | #reference fields set | #primitive fields set |"
            + " not walked |");
    w.println("|---|---|---:|---:|---:|---:|");
    for (String g : r.graphs) {
      long[] s = r.stats.get(g);
      w.println(
          "| "
              + g
              + " | "
              + Graphs.describe(g)
              + " | "
              + (s == null ? "| | |" : s[0] + " | " + s[1] + " | " + s[2] + " | " + s[3])
              + " |");
    }
    w.println();
    w.println(
        "Counted by a reflective walk of the original graph (in a JVM with java.base opened"
            + " for this count only): every reachable object and array; reference fields and"
            + " reference-array slots that are not null; primitive fields and primitive-array"
            + " elements that are not zero/false. \"not walked\": objects whose fields could not be"
            + " read; counted, not descended.");
    w.println();

    w.println("## Correctness");
    w.println();
    w.println(
        "Every peer's restored graph (two restores from one prepared state) is checked"
            + " before anything is timed; a peer that restores wrongly or fails is reported here and"
            + " not timed. jdk-bytes: the JDK bytes of the restored graph equal those of the graph"
            + " JDK deserialization restores from the original's bytes; jdk-bytes-normalized: equal"
            + " after one more JDK round trip of both (JDK serialization records a HashMap's table"
            + " capacity, which differs when a peer rebuilds the map by insertion); structural: for"
            + " graphs JDK serialization cannot write, same classes, field values, sharing and cycles"
            + " (transient fields skipped).");
    w.println();
    w.println("| graph | " + String.join(" | ", Peers.ALL) + " |");
    w.println("|---|" + "---|".repeat(Peers.ALL.size()));
    List<String> failures = new ArrayList<>();
    for (String g : r.graphs) {
      StringBuilder row = new StringBuilder("| " + g);
      for (String p : Peers.ALL) {
        String v = r.verdicts(g).getOrDefault(p, "");
        String shortV =
            v.startsWith("ok") ? v : v.startsWith("n/a") ? "n/a" : "**" + v.split(" ")[0] + "**";
        row.append(" | ").append(shortV);
        if (!v.startsWith("ok") && !v.startsWith("n/a")) {
          failures.add(g + " / " + p + ": " + v);
        }
      }
      w.println(row + " |");
    }
    w.println();
    if (!failures.isEmpty()) {
      w.println("Failures and wrong restores:");
      w.println();
      for (String f : failures) {
        w.println("- " + f);
      }
      w.println();
    }

    w.println(
        "Failures not in known-failures.txt (these make the run fail): "
            + (r.unexpected.isEmpty() ? "none." : String.join(", ", r.unexpected)));
    if (!r.nowPassing.isEmpty()) {
      w.println();
      w.println(
          "Listed in known-failures.txt but correct in this run: "
              + String.join(", ", r.nowPassing)
              + ".");
    }
    w.println();

    List<String> slower = new ArrayList<>();
    StringBuilder headline = new StringBuilder();
    w.println("## Headline: geometric mean of peer time / Codese time");
    w.println();
    w.println("| measure | jdk | kryo | fory | best peer | floor (codese/floor) |");
    w.println("|---|---:|---:|---:|---:|---:|");
    Measure d1 = (g, p) -> r.freshMedian(g, p, 1);
    Measure d2 = (g, p) -> r.freshMedian(g, p, 2);
    Measure d10 = (g, p) -> r.freshMedian(g, p, 10);
    Measure wall = (g, p) -> Results.median(r.wall.get(Results.key(g, p)));
    Measure warm =
        (g, p) -> {
          Results.Warm x = r.warm.get(Results.key(g, p));
          return x == null ? Double.NaN : x.usPerOp;
        };
    for (Object[] row :
        new Object[][] {
          {"#d=1 (fresh JVM)", d1},
          {"#d=1 whole process", wall},
          {"#d=2", d2},
          {"#d=10", d10},
          {"warm (JMH)", warm}
        }) {
      Measure m = (Measure) row[1];
      w.print("| " + row[0]);
      for (int i = 0; i < 5; i++) {
        List<Double> rs = new ArrayList<>();
        for (String g : r.graphs) {
          double c = m.apply(g, "codese");
          double other;
          switch (i) {
            case 0:
              other = m.apply(g, "jdk");
              break;
            case 1:
              other = m.apply(g, "kryo");
              break;
            case 2:
              other = r.ok(g, "fory") ? m.apply(g, "fory") : m.apply(g, "fory-nocg");
              break;
            case 3:
              other = bestPeer(m, g);
              break;
            default:
              other = c * c / m.apply(g, "floor");
          }
          double x = other / c;
          if (!Double.isNaN(x)) {
            rs.add(i == 4 ? c / m.apply(g, "floor") : x);
          }
        }
        w.print(" | " + ratio(CaptureRatios.geomean(rs)) + " (" + rs.size() + ")");
      }
      w.println(" |");
    }
    w.println();
    w.println(
        "Above 1: Codese is faster (floor column: Codese's time over the floor's). Counts of"
            + " graphs in parentheses.");
    w.println();
    fixedCost(w);
    w.print(headline);
    new CaptureTable(r, quick).headline(w);
    ModelCheckerReport.headline(w, r);

    w.println("## Figure 5: restore time");
    w.println();
    w.println(
        "Fresh JVM per sample; the time runs from reading the file to the last restored"
            + " graph and includes each peer's one-time set-up (loading a Codese snapshot, creating"
            + " the Kryo or Fory instance). #d restores in one JVM are cumulative. Cells: median"
            + " [min–max] over the JVMs ("
            + (quick ? "2" : "5")
            + " for #d=1, "
            + (quick ? "1" : "3")
            + " for #d=2 and #d=10, 1 for RBT ≥ 100,000 at #d=2 and #d=10). JMH: one fork per graph"
            + " and peer, "
            + (quick
                ? "1 warm-up iteration of 0.5 s, 2 measured of 0.3 s"
                : Main.WARMUP_ITERATIONS
                    + " warm-up iterations and 4 measured, 0.5 s each (at least one restore each)")
            + ", -Xmx8g like every child JVM.");
    w.println();
    figure5(w, "#d=1", "ms", d1, (g, p) -> freshCell(g, p, 1), slower);
    figure5(
        w,
        "#d=1 whole process (JVM start to exit, measured by the parent)",
        "ms",
        wall,
        (g, p) -> {
          List<Double> xs = r.wall.get(Results.key(g, p));
          return xs == null ? verdictMark(g, p) : ms(Results.median(xs));
        },
        slower);
    figure5(w, "#d=2", "ms", d2, (g, p) -> freshCell(g, p, 2), slower);
    figure5(w, "#d=10", "ms", d10, (g, p) -> freshCell(g, p, 10), slower);
    figure5(
        w,
        "warm steady state per restore (JMH, average time)",
        "µs",
        warm,
        (g, p) -> {
          Results.Warm x = r.warm.get(Results.key(g, p));
          return x == null ? verdictMark(g, p) : ms(x.usPerOp);
        },
        slower);

    w.println("### Allocation per warm restore (JMH -prof gc, gc.alloc.rate.norm)");
    w.println();
    w.println(
        "| graph | "
            + String.join(" | ", List.of("codese", "jdk", "kryo", "fory", "fory-nocg", "floor"))
            + " |");
    w.println("|---|---:|---:|---:|---:|---:|---:|");
    for (String g : r.graphs) {
      StringBuilder row = new StringBuilder("| " + g);
      boolean any = false;
      for (String p : List.of("codese", "jdk", "kryo", "fory", "fory-nocg", "floor")) {
        Results.Warm x = r.warm.get(Results.key(g, p));
        any |= x != null;
        row.append(" | ")
            .append(
                x == null || Double.isNaN(x.allocBytesPerOp)
                    ? ""
                    : String.format("%,.0f B", x.allocBytesPerOp));
      }
      if (any) {
        w.println(row + " |");
      }
    }
    w.println();

    w.println("## Parallel restore (the paper's #t): Codese with 1 and 2 threads");
    w.println();
    w.println(
        "| graph | #d=1 t=1 | #d=1 t=2 | #d=10 t=1 | #d=10 t=2 | warm t=1 (µs) | warm t=2 (µs)"
            + " | speed-up #d=1 | speed-up #d=10 | speed-up warm |");
    w.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (String g : r.graphs) {
      double a1 = d1.apply(g, "codese");
      double b1 = d1.apply(g, "codese-2t");
      if (Double.isNaN(b1) && !r.warm.containsKey(Results.key(g, "codese-2t"))) {
        continue;
      }
      double a10 = d10.apply(g, "codese");
      double b10 = d10.apply(g, "codese-2t");
      double aw = warm.apply(g, "codese");
      double bw = warm.apply(g, "codese-2t");
      w.println(
          "| "
              + g
              + " | "
              + ms(a1)
              + " | "
              + ms(b1)
              + " | "
              + ms(a10)
              + " | "
              + ms(b10)
              + " | "
              + ms(aw)
              + " | "
              + ms(bw)
              + " | "
              + ratio(a1 / b1)
              + " | "
              + ratio(a10 / b10)
              + " | "
              + ratio(aw / bw)
              + " |");
    }
    w.println();

    new CaptureTable(r, quick).section(w);
    ModelCheckerReport.section(w, r);

    w.println("## Figure 6: cumulative time against number of restores (" + r.curveGraph + ")");
    w.println();
    w.println(
        "One fresh JVM per peer; the cumulative time from reading the file is read after 1,"
            + " 2, 5, 10, 20, 50, ... restores. See `fig6-curve.png`.");
    w.println();
    List<String> curvePeers = new ArrayList<>(r.curve.keySet());
    w.println("| restores | " + String.join(" | ", curvePeers) + " |");
    w.println("|---:|" + "---:|".repeat(curvePeers.size()));
    if (!curvePeers.isEmpty()) {
      List<double[]> first = r.curve.get(curvePeers.get(0));
      for (int i = 0; i < first.size(); i++) {
        StringBuilder row = new StringBuilder("| " + String.format("%,d", (long) first.get(i)[0]));
        for (String p : curvePeers) {
          List<double[]> pts = r.curve.get(p);
          row.append(" | ").append(i < pts.size() ? ms(pts.get(i)[1]) : "");
        }
        w.println(row + " |");
      }
    }
    w.println();

    streams(w);
    fixtures(w);
    w.println("## Memory during one restore in a fresh JVM");
    w.println();
    w.println(
        "Peaks are reset after the JVM starts; the peak is read after reading the file and"
            + " restoring once. Heap peak: the sum of the heap pools' peak usage (an upper bound of"
            + " the simultaneous peak); G1 updates its pools' usage only at garbage collections, so"
            + " it reads 0 where no collection happened. Allocated: bytes allocated by the restoring"
            + " thread (other threads of a parallel restore not counted). Classes: classes loaded"
            + " meanwhile.");
    w.println();
    w.println(
        "| graph | peer | heap before (MB) | heap peak (MB) | Metaspace before (MB) |"
            + " Metaspace peak (MB) | classes loaded | allocated (MB) |");
    w.println("|---|---|---:|---:|---:|---:|---:|---:|");
    for (Map.Entry<String, Results.Memory> e : r.memory.entrySet()) {
      String[] k = e.getKey().split("\\|");
      Results.Memory m = e.getValue();
      w.println(
          "| "
              + k[0]
              + " | "
              + k[1]
              + " | "
              + mb(m.heapBefore)
              + " | "
              + mb(m.heapPeak)
              + " | "
              + mb(m.metaBefore)
              + " | "
              + mb(m.metaPeak)
              + " | "
              + m.classes
              + " | "
              + mb(m.allocated)
              + " |");
    }
    w.println();

    Regressions.write(w, out, quick);

    w.println("## Where Codese is slower than a peer");
    w.println();
    if (slower.isEmpty()) {
      w.println("Nowhere in this run.");
    }
    for (String s : slower) {
      w.println("- " + s);
    }
    w.println();
    if (!r.errors.isEmpty()) {
      w.println("## Errors of the harness");
      w.println();
      for (String e : r.errors) {
        w.println("- " + e.replace('\n', ' '));
      }
      w.println();
    }
    w.println(
        "Charts: `fig-<graph>.png` (#d=1, #d=10 and warm per peer, log scale; a peer is"
            + " drawn where it has all three), `fig6-curve.png`. Raw data: the CSV files beside this report; JMH output in"
            + " `jmh-log.txt`.");
  }

  /**
   * The fixed cold cost (issue 8 item 3) on the first graph with a floor figure: each peer's #d=1
   * median minus the floor's, and the classes its restore loaded in a fresh JVM.
   */
  private void fixedCost(PrintWriter w) {
    for (String g : r.graphs) {
      double floor = r.freshMedian(g, "floor", 1);
      if (Double.isNaN(floor)) {
        continue;
      }
      StringBuilder line = new StringBuilder();
      for (String p : List.of("codese", "jdk", "kryo", "fory")) {
        double t = r.freshMedian(g, p, 1);
        Results.Memory m = r.memory.get(Results.key(g, p));
        if (!Double.isNaN(t)) {
          line.append(line.length() == 0 ? "" : "; ")
              .append(p)
              .append(String.format(Locale.ROOT, " %.1f ms", t - floor))
              .append(m == null ? "" : ", " + m.classes + " classes loaded");
        }
      }
      w.println(
          "Fixed cold cost, "
              + g
              + " at #d=1 (fresh JVM, median minus the floor's "
              + String.format(Locale.ROOT, "%.1f", floor)
              + " ms; classes loaded during the restore, from the memory table): "
              + line
              + ".");
      w.println();
      return;
    }
  }

  private static String mb(long bytes) {
    return String.format("%.1f", bytes / 1048576.0);
  }
}
