package org.codese.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The report's model-checker parts ({@link ModelChecker}): a headline line, a section, a CSV. */
final class ModelCheckerReport {
  private ModelCheckerReport() {}

  /**
   * @return the peers whose total time is not above Codese's, or null if Codese has no total
   */
  static List<String> notSlower(Map<String, ModelChecker.Outcome> outcomes) {
    ModelChecker.Outcome codese = outcomes.get("codese");
    if (codese == null || !codese.ok()) {
      return null;
    }
    List<String> peers = new ArrayList<>();
    for (Map.Entry<String, ModelChecker.Outcome> e : outcomes.entrySet()) {
      ModelChecker.Outcome o = e.getValue();
      if (!e.getKey().equals("codese") && o.ok() && o.totalMs() <= codese.totalMs()) {
        peers.add(e.getKey());
      }
    }
    return peers;
  }

  private static String plan(ModelChecker.Plan p) {
    return String.format(
        "%,d nodes, %,d steps, a restore every %d", p.nodes(), p.steps(), p.restoreEvery());
  }

  /** One headline line: Codese's total, each peer's total over it, whether the target holds. */
  static void headline(PrintWriter w, Results r) {
    if (r.checkerPlan == null || r.checker.isEmpty()) {
      return;
    }
    ModelChecker.Outcome codese = r.checker.get("codese");
    StringBuilder line = new StringBuilder("Model checker (" + plan(r.checkerPlan) + "): ");
    List<String> notSlower = notSlower(r.checker);
    if (notSlower == null) {
      line.append("Codese **failed**")
          .append(codese == null ? "" : ": " + codese.message())
          .append("; target not met.");
    } else {
      line.append(String.format("Codese %.0f ms in total; peer / Codese:", codese.totalMs()));
      for (Map.Entry<String, ModelChecker.Outcome> e : r.checker.entrySet()) {
        if (!e.getKey().equals("codese")) {
          ModelChecker.Outcome o = e.getValue();
          line.append(' ')
              .append(e.getKey())
              .append(' ')
              .append(
                  o.ok() ? CaptureRatios.fmt(o.totalMs() / codese.totalMs()) : "failed (left out)")
              .append(',');
        }
      }
      line.setLength(line.length() - 1);
      line.append(". Issue 9's target, faster in total than every peer: **")
          .append(notSlower.isEmpty() ? "met" : "not met")
          .append("**")
          .append(
              notSlower.isEmpty() ? "" : " (not faster than " + String.join(", ", notSlower) + ")")
          .append('.');
    }
    w.println(line);
    w.println();
  }

  /** The section: the scenario, then one row per peer. */
  static void section(PrintWriter w, Results r) {
    if (r.checkerPlan == null) {
      return;
    }
    ModelChecker.Plan p = r.checkerPlan;
    w.println(
        "## Model checker: capture after every step, restore every " + p.restoreEvery() + "th");
    w.println();
    w.println(
        String.format(
            "A red-black tree of %,d nodes (the suite's rbt graph, seed 42) changes %,d times; each"
                + " step inserts one random key and gives %d leaves another key that keeps the"
                + " order (seeded, the same for every peer), then captures the whole tree to bytes."
                + " Every %dth capture (%,d in all) is restored and compared with the live tree:"
                + " size, a checksum of keys and colours in order, parent links and the red-black"
                + " invariants; a peer whose restore differs fails and gets no times. One fresh JVM"
                + " per peer, one engine for the whole run (one Kryo, one Fory instance; Codese"
                + " `toBytes`, and `fromBytes` per restore). Total: making the engine, every capture"
                + " (the first, cold, included) and every restore; editing and checking the tree"
                + " are not in it.",
            p.nodes(), p.steps(), ModelChecker.CHANGES, p.restoreEvery(), p.restores()));
    w.println();
    w.println(
        "| peer | total (ms) | set-up (ms) | captures (ms) | per capture (ms) | restores (ms) |"
            + " per restore (ms) | last capture (B) | total / codese total |");
    w.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    ModelChecker.Outcome codese = r.checker.get("codese");
    double base = codese != null && codese.ok() ? codese.totalMs() : Double.NaN;
    for (Map.Entry<String, ModelChecker.Outcome> e : r.checker.entrySet()) {
      ModelChecker.Outcome o = e.getValue();
      if (!o.ok()) {
        w.println("| " + e.getKey() + " | **failed**: " + o.message() + " | | | | | | | |");
        continue;
      }
      w.println(
          "| "
              + e.getKey()
              + " | "
              + Report.ms(o.totalMs())
              + " | "
              + Report.ms(o.setupMs())
              + " | "
              + Report.ms(o.captureMs())
              + " | "
              + Report.ms(o.captureMs() / p.steps())
              + " | "
              + Report.ms(o.restoreMs())
              + " | "
              + Report.ms(o.restoreMs() / Math.max(1, p.restores()))
              + " | "
              + String.format("%,d", o.lastBytes())
              + " | "
              + CaptureRatios.fmt(o.totalMs() / base)
              + " |");
    }
    w.println();
    w.println(
        "Above 1 in the last column: the peer takes longer than Codese. Raw figures in"
            + " `model-checker.csv`.");
    w.println();
  }

  /** model-checker.csv: one row per peer. */
  static void writeCsv(Results r, Path out) throws IOException {
    if (r.checkerPlan == null) {
      return;
    }
    ModelChecker.Plan p = r.checkerPlan;
    List<String> lines =
        new ArrayList<>(
            List.of(
                "peer,nodes,steps,restore_every,status,total_ms,setup_ms,capture_ms,restore_ms,"
                    + "edit_ms,last_capture_bytes,message"));
    for (Map.Entry<String, ModelChecker.Outcome> e : r.checker.entrySet()) {
      ModelChecker.Outcome o = e.getValue();
      lines.add(
          String.join(
              ",",
              e.getKey(),
              Integer.toString(p.nodes()),
              Integer.toString(p.steps()),
              Integer.toString(p.restoreEvery()),
              o.status(),
              o.ok() ? Double.toString(o.totalMs()) : "",
              o.ok() ? Double.toString(o.setupMs()) : "",
              o.ok() ? Double.toString(o.captureMs()) : "",
              o.ok() ? Double.toString(o.restoreMs()) : "",
              o.ok() ? Double.toString(o.editMs()) : "",
              Long.toString(o.lastBytes()),
              o.message().replace(',', ';')));
    }
    Files.write(out.resolve("model-checker.csv"), lines);
  }
}
