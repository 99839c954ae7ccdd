package org.codese.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's comparison with the previous run of the same JDK (issue 8 item 6). */
class RegressionsTest {
  private static final String JDK = "-jdk" + Runtime.version().feature();

  /** Writes a run with one graph: Codese's and JDK's #d=1 samples and warm times. */
  private static Path run(Path base, String name, double codese, double jdk) throws Exception {
    Path dir = Files.createDirectories(base.resolve(name));
    Files.writeString(
        dir.resolve("fresh.csv"),
        "graph,peer,d,sample,ms\n"
            + ("g,codese,1,1," + codese + "\ng,codese,1,2," + (codese + 2) + "\n")
            + ("g,codese,1,3," + (codese - 2) + "\n")
            + ("g,jdk,1,1," + jdk + "\n"));
    Files.writeString(
        dir.resolve("warm.csv"),
        "graph,peer,us_per_restore,error_99.9,alloc_bytes_per_restore\n"
            + ("g,codese," + codese + ",0,0\ng,jdk," + jdk + ",0,0\n"));
    return dir;
  }

  private static String section(Path out) {
    StringWriter s = new StringWriter();
    try (PrintWriter w = new PrintWriter(s)) {
      Regressions.write(w, out, false);
    }
    return s.toString();
  }

  @Test
  void theLatestEarlierFullRunOfThisJdkIsThePreviousOne(@TempDir Path base) throws Exception {
    run(base, "bench-2026-01-01" + JDK, 10, 20);
    Path expected = run(base, "bench-2026-01-02" + JDK, 10, 20);
    run(base, "bench-2026-01-03" + JDK + "-quick", 10, 20);
    run(base, "bench-2026-01-02-jdk1" + Runtime.version().feature(), 10, 20);
    Path now = run(base, "bench-2026-01-04" + JDK, 10, 20);
    run(base, "bench-2026-01-05" + JDK, 10, 20);
    assertEquals(expected, Regressions.previous(now));
    assertNull(Regressions.previous(run(base, "bench-2025-12-31" + JDK, 10, 20)));
  }

  @Test
  void slowerInItselfAndRelativeToJdkIsFlagged(@TempDir Path base) throws Exception {
    run(base, "bench-2026-01-01" + JDK, 10, 20);
    String report = section(run(base, "bench-2026-01-02" + JDK, 15, 20));
    assertTrue(report.contains("**Regression** in 2 figures"), report);
    assertTrue(report.contains("| g | #d=1 | 10.0 | 15.0 | 1.50x | 1.50x |"), report);
  }

  @Test
  void aMachineSlowerAsAWholeIsNotARegression(@TempDir Path base) throws Exception {
    run(base, "bench-2026-01-01" + JDK, 10, 20);
    assertTrue(section(run(base, "bench-2026-01-02" + JDK, 15, 30)).contains("**No regression.**"));
    run(base, "bench-2026-02-01" + JDK, 10, 20);
    assertTrue(section(run(base, "bench-2026-02-02" + JDK, 11, 20)).contains("**No regression.**"));
  }

  @Test
  void withoutAPreviousRunTheSectionSaysSo(@TempDir Path base) throws Exception {
    assertTrue(
        section(run(base, "bench-2026-01-01" + JDK, 10, 20)).contains("No earlier full run"));
  }
}
