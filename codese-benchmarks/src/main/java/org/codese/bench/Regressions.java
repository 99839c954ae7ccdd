package org.codese.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Compares this run's Codese figures with the previous full run of the same JDK feature release in
 * the same results folder (issue 8 item 6), and writes a report section that names every graph
 * where Codese got slower. Figures of two runs on a shared machine differ by load, so a graph is
 * flagged only if Codese's own time grew by {@link #THRESHOLD} or more <em>and</em> its time
 * relative to JDK deserialization in the same run grew as much: a machine that is slower as a whole
 * moves both peers. It is a line in the report, not a failed build.
 */
final class Regressions {
  /**
   * How many times slower a figure must be, both in itself and relative to JDK's, to be flagged.
   */
  static final double THRESHOLD = 1.20;

  /** The measures compared: file, column of the figure, fresh-JVM restore count (or warm). */
  private static final String[][] MEASURES = {
    {"#d=1", "fresh.csv", "1"}, {"#d=10", "fresh.csv", "10"}, {"warm", "warm.csv", ""}
  };

  private Regressions() {}

  /**
   * Writes the section; never throws for a missing or unreadable previous run, which it reports.
   *
   * @param w the report
   * @param out this run's folder, its CSV files already written
   * @param quick whether this run is a quick one, whose figures are indicative only
   */
  static void write(PrintWriter w, Path out, boolean quick) {
    w.println("## Against the previous run");
    w.println();
    Path previous;
    try {
      previous = previous(out);
    } catch (IOException e) {
      w.println("The results folder could not be listed: " + e.getMessage());
      w.println();
      return;
    }
    if (previous == null) {
      w.println("No earlier full run of this JDK in " + out.getParent() + " to compare with.");
      w.println();
      return;
    }
    List<String> flagged = new ArrayList<>();
    int compared = 0;
    try {
      for (String[] m : MEASURES) {
        Map<String, double[]> now = figures(out.resolve(m[1]), m[2]);
        Map<String, double[]> before = figures(previous.resolve(m[1]), m[2]);
        for (Map.Entry<String, double[]> e : now.entrySet()) {
          double[] b = before.get(e.getKey());
          if (b == null || b[0] <= 0 || e.getValue()[0] <= 0) {
            continue;
          }
          compared++;
          double own = e.getValue()[0] / b[0];
          double relative = Double.NaN;
          if (b[1] > 0 && e.getValue()[1] > 0) {
            relative = (e.getValue()[0] / e.getValue()[1]) / (b[0] / b[1]);
          }
          if (own >= THRESHOLD && !(relative < THRESHOLD)) {
            flagged.add(
                String.format(
                    Locale.ROOT,
                    "| %s | %s | %.3g | %.3g | %.2fx | %s |",
                    e.getKey(),
                    m[0],
                    b[0],
                    e.getValue()[0],
                    own,
                    Double.isNaN(relative)
                        ? "no JDK figure"
                        : String.format(Locale.ROOT, "%.2fx", relative)));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      w.println("The previous run " + previous.getFileName() + " could not be read: " + e);
      w.println();
      return;
    }
    w.println(
        "Codese's medians (#d=1 and #d=10 in ms, warm in µs) against "
            + previous.getFileName()
            + ", "
            + compared
            + " figures compared; flagged where Codese is "
            + THRESHOLD
            + "x slower or more both in itself and relative to JDK deserialization in the same"
            + " run."
            + (quick ? " This is a quick run: its figures are indicative only." : ""));
    w.println();
    if (flagged.isEmpty()) {
      w.println("**No regression.**");
    } else {
      w.println("**Regression** in " + flagged.size() + " figures:");
      w.println();
      w.println("| graph | measure | before | now | now/before | relative to JDK |");
      w.println("|---|---|---:|---:|---:|---:|");
      flagged.forEach(w::println);
    }
    w.println();
  }

  /** The latest other full run of this JDK beside {@code out}, or {@code null}. */
  static Path previous(Path out) throws IOException {
    Path base = out.toAbsolutePath().getParent();
    String feature = "-jdk" + Runtime.version().feature();
    String self = out.getFileName().toString();
    Path best = null;
    try (Stream<Path> dirs = Files.list(base)) {
      for (Path p : (Iterable<Path>) dirs::iterator) {
        String name = p.getFileName().toString();
        if (!name.startsWith("bench-")
            || name.equals(self)
            || name.contains("-quick")
            || !Files.isRegularFile(p.resolve("fresh.csv"))) {
          continue;
        }
        int at = name.indexOf(feature);
        boolean sameJdk =
            at > 0
                && (at + feature.length() == name.length()
                    || name.charAt(at + feature.length()) == '-');
        if (sameJdk
            && name.compareTo(self) < 0
            && (best == null || name.compareTo(best.getFileName().toString()) > 0)) {
          best = p;
        }
      }
    }
    return best;
  }

  /**
   * Codese's and JDK's median per graph: from {@code fresh.csv} the samples of {@code d} restores,
   * from {@code warm.csv} (when {@code d} is empty) the time per restore.
   */
  static Map<String, double[]> figures(Path csv, String d) throws IOException {
    Map<String, List<Double>> codese = new TreeMap<>();
    Map<String, List<Double>> jdk = new TreeMap<>();
    if (!Files.isRegularFile(csv)) {
      return new TreeMap<>();
    }
    List<String> lines = Files.readAllLines(csv);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      double value;
      if (d.isEmpty()) {
        value = Double.parseDouble(f[2]);
      } else if (f.length >= 5 && f[2].equals(d)) {
        value = Double.parseDouble(f[4]);
      } else {
        continue;
      }
      if (f[1].equals("codese")) {
        codese.computeIfAbsent(f[0], k -> new ArrayList<>()).add(value);
      } else if (f[1].equals("jdk")) {
        jdk.computeIfAbsent(f[0], k -> new ArrayList<>()).add(value);
      }
    }
    Map<String, double[]> result = new TreeMap<>();
    for (Map.Entry<String, List<Double>> e : codese.entrySet()) {
      List<Double> j = jdk.get(e.getKey());
      result.put(
          e.getKey(),
          new double[] {Results.median(e.getValue()), j == null ? 0 : Results.median(j)});
    }
    return result;
  }
}
