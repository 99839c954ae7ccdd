package org.codese.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Codese's capture against JDK serialization's and the best peer's, per graph: first call, warm and
 * size, each as Codese's figure over the other's (above 1: Codese is slower or larger), and the
 * issue-9 targets they are held to. Pure computation, tested by {@code CaptureRatiosTest}.
 */
final class CaptureRatios {
  private CaptureRatios() {}

  /** the peers Codese's capture is compared with (the hand-written floor is not a peer) */
  static final List<String> PEERS = List.of("jdk", "kryo", "fory", "fory-nocg");

  /** issue 9: warm capture geometric mean at most this times JDK's */
  static final double WARM_MEAN = 1.5;

  /** issue 9: no graph's warm capture above this times JDK's */
  static final double WARM_MAX = 3.0;

  /** issue 9: the first capture in a fresh JVM at most JDK's plus this many ms */
  static final double FIRST_EXTRA_MS = 50;

  /** issue 9: size geometric mean at most JDK's bytes */
  static final double SIZE_MEAN = 1.0;

  /** issue 9: no graph's size above this times JDK's */
  static final double SIZE_MAX = 1.5;

  /** issue 9: with compression, size geometric mean at most this times JDK's bytes */
  static final double COMPRESSED_MEAN = 0.6;

  /** What is compared. */
  enum Measure {
    FIRST("first call"),
    EARLY("early (first second)"),
    WARM("warm (JMH)"),
    SIZE("size"),
    /**
     * The smallest form each peer writes of itself: Codese with {@code withCompression}, a peer
     * without such an option as it writes by default (JDK serialization has none).
     */
    COMPRESSED("size, compressed");

    final String label;

    Measure(String label) {
      this.label = label;
    }

    double of(Results.Capture c) {
      switch (this) {
        case FIRST:
          return c.firstMs;
        case EARLY:
          return c.earlyMs;
        case WARM:
          return c.warmMs;
        case COMPRESSED:
          return c.compressedBytes > 0 ? c.compressedBytes : c.bytes;
        default:
          return c.bytes;
      }
    }
  }

  /**
   * Codese over one other peer for one measure.
   *
   * @param value Codese's figure over the peer's, NaN if there is none
   * @param peer the peer (for the best peer: the one with the lowest figure), empty if none
   */
  record Ratio(double value, String peer) {
    static final Ratio NONE = new Ratio(Double.NaN, "");

    boolean present() {
      return !Double.isNaN(value);
    }
  }

  /**
   * One graph's ratios.
   *
   * @param graph the graph
   * @param codese Codese's capture, null if Codese failed or restored it wrongly
   * @param jdk JDK serialization's, null if excluded
   * @param toJdk per measure (by ordinal), Codese over JDK
   * @param toBest per measure, Codese over the best peer that counts
   * @param excluded peers left out, each with why ("fory: failed capture")
   */
  record Row(
      String graph,
      Results.Capture codese,
      Results.Capture jdk,
      Ratio[] toJdk,
      Ratio[] toBest,
      List<String> excluded) {

    Ratio toJdk(Measure m) {
      return toJdk[m.ordinal()];
    }

    Ratio toBest(Measure m) {
      return toBest[m.ordinal()];
    }

    /** Codese's first call minus JDK's, in ms; NaN if either is missing */
    double firstExtraMs() {
      return codese == null || jdk == null ? Double.NaN : codese.firstMs - jdk.firstMs;
    }
  }

  /**
   * A peer's capture counts if it succeeded and, where the suite verified the peer's restore, the
   * restore was right (bytes a peer cannot restore correctly are not a fair size).
   *
   * @return null if it counts, else why not
   */
  static String whyNot(Results.Capture c, String verdict) {
    if (c == null) {
      return "no capture";
    }
    if (!c.status.equals("ok")) {
      return c.status.equals("n/a") ? "n/a" : "failed capture";
    }
    if (verdict != null && !verdict.startsWith("ok")) {
      return verdict.startsWith("WRONG") ? "restored wrongly" : "failed restore";
    }
    return null;
  }

  /**
   * @param graph the graph
   * @param captures each peer's capture of it
   * @param verdicts each peer's restore verdict (may lack peers)
   * @return the graph's ratios
   */
  static Row row(
      String graph, Map<String, Results.Capture> captures, Map<String, String> verdicts) {
    List<String> excluded = new ArrayList<>();
    Results.Capture codese = captures.get("codese");
    String codeseWhy = whyNot(codese, verdicts.get("codese"));
    if (codeseWhy != null) {
      excluded.add("codese: " + codeseWhy);
      codese = null;
    }
    Results.Capture jdk = null;
    List<String> counted = new ArrayList<>();
    for (String p : PEERS) {
      String why = whyNot(captures.get(p), verdicts.get(p));
      if (why == null) {
        counted.add(p);
        if (p.equals("jdk")) {
          jdk = captures.get(p);
        }
      } else if (captures.containsKey(p)) {
        excluded.add(p + ": " + why);
      }
    }
    Measure[] ms = Measure.values();
    Ratio[] toJdk = new Ratio[ms.length];
    Ratio[] toBest = new Ratio[ms.length];
    for (Measure m : ms) {
      toJdk[m.ordinal()] = Ratio.NONE;
      toBest[m.ordinal()] = Ratio.NONE;
      if (codese == null) {
        continue;
      }
      double c = m.of(codese);
      if (jdk != null) {
        toJdk[m.ordinal()] = ratio(c, m.of(jdk), "jdk");
      }
      String bestPeer = null;
      double best = Double.NaN;
      for (String p : counted) {
        double v = m.of(captures.get(p));
        if (v > 0 && (bestPeer == null || v < best)) {
          best = v;
          bestPeer = p;
        }
      }
      if (bestPeer != null) {
        toBest[m.ordinal()] = ratio(c, best, bestPeer);
      }
    }
    return new Row(graph, codese, jdk, toJdk, toBest, excluded);
  }

  private static Ratio ratio(double codese, double other, String peer) {
    if (!(codese > 0) || !(other > 0) || Double.isInfinite(codese) || Double.isInfinite(other)) {
      return Ratio.NONE;
    }
    return new Ratio(codese / other, peer);
  }

  /**
   * A geometric mean and how many graphs it covers.
   *
   * @param value the mean, NaN if it covers none
   * @param graphs the graphs that had the ratio
   */
  record Mean(double value, int graphs) {}

  /**
   * @param rows the graphs' ratios
   * @param m the measure
   * @param toBest over the best peer, else over JDK
   * @return the geometric mean over the graphs that have the ratio
   */
  static Mean mean(List<Row> rows, Measure m, boolean toBest) {
    List<Double> xs = new ArrayList<>();
    for (Row r : rows) {
      Ratio x = toBest ? r.toBest(m) : r.toJdk(m);
      if (x.present()) {
        xs.add(x.value());
      }
    }
    return new Mean(geomean(xs), xs.size());
  }

  /**
   * @param xs positive numbers
   * @return their geometric mean, NaN for none
   */
  static double geomean(List<Double> xs) {
    if (xs.isEmpty()) {
      return Double.NaN;
    }
    double s = 0;
    for (double x : xs) {
      s += Math.log(x);
    }
    return Math.exp(s / xs.size());
  }

  /**
   * The issue-9 targets against JDK serialization, each with the graphs breaking it.
   *
   * @param rows the graphs' ratios
   * @param firstFresh whether first calls were timed in fresh JVMs (else that target is not judged)
   * @return one line per target: the target, whether it holds, and the graphs breaking it
   */
  static List<String> targets(List<Row> rows, boolean firstFresh) {
    List<String> lines = new ArrayList<>();
    lines.add(
        meanVerdict(
            "warm capture geometric mean ≤ " + WARM_MEAN + "x JDK's",
            mean(rows, Measure.WARM, false),
            WARM_MEAN));
    lines.add(over(rows, Measure.WARM, WARM_MAX, "no graph's warm capture above " + WARM_MAX));
    lines.add(
        meanVerdict(
            "size geometric mean ≤ JDK's bytes", mean(rows, Measure.SIZE, false), SIZE_MEAN));
    lines.add(over(rows, Measure.SIZE, SIZE_MAX, "no graph's size above " + SIZE_MAX));
    lines.add(
        meanVerdict(
            "with compression, size geometric mean ≤ " + COMPRESSED_MEAN + "x JDK's bytes",
            mean(rows, Measure.COMPRESSED, false),
            COMPRESSED_MEAN));
    List<String> slowFirst = new ArrayList<>();
    int judged = 0;
    for (Row r : rows) {
      double extra = r.firstExtraMs();
      if (!Double.isNaN(extra)) {
        judged++;
        if (extra > FIRST_EXTRA_MS) {
          slowFirst.add(r.graph() + " (+" + Math.round(extra) + " ms)");
        }
      }
    }
    String first = "first capture ≤ JDK's + " + Math.round(FIRST_EXTRA_MS) + " ms";
    if (!firstFresh) {
      lines.add(first + ": not judged (first calls not timed in fresh JVMs in this mode)");
    } else if (judged == 0) {
      lines.add(first + ": not judged (no graph has both figures)");
    } else {
      lines.add(verdict(first, slowFirst.isEmpty(), judged + " graphs") + broken(slowFirst));
    }
    return lines;
  }

  private static String meanVerdict(String target, Mean mean, double max) {
    if (mean.graphs() == 0) {
      return target + ": not judged (no graph has both figures)";
    }
    return verdict(
        target, mean.value() <= max, fmt(mean.value()) + "x over " + mean.graphs() + " graphs");
  }

  private static String over(List<Row> rows, Measure m, double max, String target) {
    List<String> bad = new ArrayList<>();
    int judged = 0;
    for (Row r : rows) {
      Ratio x = r.toJdk(m);
      if (x.present()) {
        judged++;
        if (x.value() > max) {
          bad.add(r.graph() + " (" + fmt(x.value()) + "x)");
        }
      }
    }
    if (judged == 0) {
      return target + "x JDK's: not judged (no graph has both figures)";
    }
    return verdict(target + "x JDK's", bad.isEmpty(), judged + " graphs") + broken(bad);
  }

  private static String verdict(String target, boolean met, String detail) {
    return target + ": **" + (met ? "met" : "not met") + "** (" + detail + ")";
  }

  private static String broken(List<String> graphs) {
    return graphs.isEmpty() ? "" : "; broken by " + String.join(", ", graphs);
  }

  static String fmt(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "n/a" : String.format("%.2f", v);
  }
}
