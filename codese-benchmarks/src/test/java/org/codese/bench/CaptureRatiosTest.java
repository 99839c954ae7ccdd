package org.codese.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codese.bench.CaptureRatios.Measure;
import org.codese.bench.CaptureRatios.Row;
import org.junit.jupiter.api.Test;

/** The capture table's ratios, geometric means and targets (issue 9). */
class CaptureRatiosTest {
  private static Results.Capture ok(double first, double warm, long bytes) {
    Results.Capture c = new Results.Capture();
    c.status = "ok";
    c.firstMs = first;
    c.warmMs = warm;
    c.bytes = bytes;
    return c;
  }

  private static Results.Capture status(String s) {
    Results.Capture c = new Results.Capture();
    c.status = s;
    return c;
  }

  private static Map<String, Results.Capture> caps(Object... peerAndCapture) {
    Map<String, Results.Capture> m = new LinkedHashMap<>();
    for (int i = 0; i < peerAndCapture.length; i += 2) {
      m.put((String) peerAndCapture[i], (Results.Capture) peerAndCapture[i + 1]);
    }
    return m;
  }

  @Test
  void ratiosAreCodeseOverJdkAndOverTheLowestPeerPerMeasure() {
    Row row =
        CaptureRatios.row(
            "g",
            caps(
                "codese", ok(150, 6, 2000),
                "jdk", ok(100, 2, 1000),
                "kryo", ok(120, 3, 500),
                "fory", ok(400, 1.5, 800)),
            Map.of());
    assertEquals(1.5, row.toJdk(Measure.FIRST).value(), 1e-9);
    assertEquals(3.0, row.toJdk(Measure.WARM).value(), 1e-9);
    assertEquals(2.0, row.toJdk(Measure.SIZE).value(), 1e-9);
    assertEquals("jdk", row.toBest(Measure.FIRST).peer());
    assertEquals(1.5, row.toBest(Measure.FIRST).value(), 1e-9);
    assertEquals("fory", row.toBest(Measure.WARM).peer());
    assertEquals(4.0, row.toBest(Measure.WARM).value(), 1e-9);
    assertEquals("kryo", row.toBest(Measure.SIZE).peer());
    assertEquals(4.0, row.toBest(Measure.SIZE).value(), 1e-9);
    assertEquals(50, row.firstExtraMs(), 1e-9);
    assertTrue(row.excluded().isEmpty());
  }

  @Test
  void failedAndWrongPeersAreLeftOutAndSaySo() {
    Row row =
        CaptureRatios.row(
            "g",
            caps(
                "codese", ok(150, 6, 2000),
                "jdk", status("n/a"),
                "kryo", ok(120, 1, 100),
                "fory", status("failed"),
                "fory-nocg", ok(300, 3, 1000)),
            Map.of("kryo", "WRONG jdk-bytes differ"));
    assertFalse(row.toJdk(Measure.WARM).present());
    assertEquals("fory-nocg", row.toBest(Measure.WARM).peer());
    assertEquals(2.0, row.toBest(Measure.WARM).value(), 1e-9);
    assertEquals(2.0, row.toBest(Measure.SIZE).value(), 1e-9);
    assertEquals(
        List.of("jdk: n/a", "kryo: restored wrongly", "fory: failed capture"), row.excluded());
  }

  @Test
  void earlyAndWarmAreSeparateMeasures() {
    Results.Capture codese = ok(150, 2, 2000);
    codese.earlyMs = 8;
    Results.Capture jdk = ok(100, 1, 1000);
    jdk.earlyMs = 2;
    Row row = CaptureRatios.row("g", caps("codese", codese, "jdk", jdk), Map.of());
    assertEquals(4.0, row.toJdk(Measure.EARLY).value(), 1e-9);
    assertEquals(2.0, row.toJdk(Measure.WARM).value(), 1e-9);
    Results.Capture untimed = ok(150, Double.NaN, 2000);
    assertFalse(
        CaptureRatios.row("g", caps("codese", untimed, "jdk", jdk), Map.of())
            .toJdk(Measure.WARM)
            .present());
  }

  @Test
  void aGraphCodeseFailedHasNoRatios() {
    Row row =
        CaptureRatios.row("g", caps("codese", status("failed"), "jdk", ok(100, 2, 1000)), Map.of());
    for (Measure m : Measure.values()) {
      assertFalse(row.toJdk(m).present());
      assertFalse(row.toBest(m).present());
    }
    assertEquals(List.of("codese: failed capture"), row.excluded());
  }

  @Test
  void geometricMeansCoverOnlyGraphsWithTheRatio() {
    assertEquals(4.0, CaptureRatios.geomean(List.of(2.0, 8.0)), 1e-9);
    assertTrue(Double.isNaN(CaptureRatios.geomean(List.of())));
    List<Row> rows =
        List.of(
            CaptureRatios.row("a", caps("codese", ok(1, 2, 10), "jdk", ok(1, 1, 10)), Map.of()),
            CaptureRatios.row("b", caps("codese", ok(1, 8, 10), "jdk", ok(1, 1, 10)), Map.of()),
            CaptureRatios.row(
                "c",
                caps("codese", ok(1, 3, 10), "jdk", status("n/a"), "kryo", ok(1, 1, 10)),
                Map.of()));
    CaptureRatios.Mean toJdk = CaptureRatios.mean(rows, Measure.WARM, false);
    assertEquals(4.0, toJdk.value(), 1e-9);
    assertEquals(2, toJdk.graphs());
    CaptureRatios.Mean toBest = CaptureRatios.mean(rows, Measure.WARM, true);
    assertEquals(Math.cbrt(2 * 8 * 3), toBest.value(), 1e-9);
    assertEquals(3, toBest.graphs());
  }

  @Test
  void compressedSizeIsCodesesCompressedSnapshotAgainstEachPeersOwnBytes() {
    Results.Capture codese = ok(150, 6, 2000);
    codese.compressedBytes = 450;
    Results.Capture kryo = ok(120, 3, 500);
    Row row =
        CaptureRatios.row(
            "g", caps("codese", codese, "jdk", ok(100, 2, 1000), "kryo", kryo), Map.of());
    assertEquals(0.45, row.toJdk(Measure.COMPRESSED).value(), 1e-9);
    assertEquals("kryo", row.toBest(Measure.COMPRESSED).peer());
    assertEquals(0.9, row.toBest(Measure.COMPRESSED).value(), 1e-9);
    // the plain size is unchanged by the compressed figure
    assertEquals(2.0, row.toJdk(Measure.SIZE).value(), 1e-9);
    String target = CaptureRatios.targets(List.of(row), true).get(4);
    assertTrue(target.startsWith("with compression"), target);
    assertTrue(target.contains("**met** (0.45x over 1 graphs)"), target);
  }

  @Test
  void targetsNameTheGraphsBreakingThem() {
    List<Row> rows =
        List.of(
            CaptureRatios.row(
                "small", caps("codese", ok(120, 1, 900), "jdk", ok(100, 1, 1000)), Map.of()),
            CaptureRatios.row(
                "slow", caps("codese", ok(200, 4, 1600), "jdk", ok(100, 1, 1000)), Map.of()));
    List<String> t = CaptureRatios.targets(rows, true);
    assertEquals(6, t.size());
    assertTrue(t.get(0).contains("**not met** (2.00x over 2 graphs)"), t.get(0));
    assertTrue(t.get(1).contains("**not met**") && t.get(1).endsWith("broken by slow (4.00x)"));
    assertTrue(t.get(2).contains("**not met** (1.20x over 2 graphs)"), t.get(2));
    assertTrue(t.get(3).endsWith("broken by slow (1.60x)"), t.get(3));
    // no compressed form recorded: the plain bytes count
    assertTrue(t.get(4).contains("**not met** (1.20x over 2 graphs)"), t.get(4));
    assertTrue(t.get(5).endsWith("broken by slow (+100 ms)"), t.get(5));
    assertFalse(t.get(5).contains("small"));
    assertTrue(CaptureRatios.targets(rows, false).get(5).contains("not judged"));
    Results.Capture small = ok(140, 1.4, 1000);
    small.compressedBytes = 500;
    List<String> met =
        CaptureRatios.targets(
            List.of(
                CaptureRatios.row("g", caps("codese", small, "jdk", ok(100, 1, 1000)), Map.of())),
            true);
    for (String line : met) {
      assertTrue(line.contains("**met**"), line);
    }
  }

  @Test
  void theReportShowsTheHeadlineAndTheRatioTable() {
    Results r = new Results();
    r.graphs.add("g");
    Results.Capture codese = ok(150, 6, 2000);
    codese.earlyMs = 10;
    Results.Capture jdk = ok(100, 2, 1000);
    jdk.earlyMs = 4;
    r.captures.put("g", caps("codese", codese, "jdk", jdk));
    StringWriter s = new StringWriter();
    try (PrintWriter w = new PrintWriter(s)) {
      CaptureTable t = new CaptureTable(r, false);
      t.headline(w);
      t.section(w);
    }
    String md = s.toString();
    assertTrue(md.contains("| warm (JMH) | 3.00 (1) | 3.00 (1) |"), md);
    assertTrue(md.contains("| early (first second) | 2.50 (1) | 2.50 (1) |"), md);
    assertTrue(
        md.contains(
            "| g | 1.50 | 1.50 jdk | +50 | 2.50 | 2.50 jdk | 3.00 | 3.00 jdk | 2.00 | 2.00 jdk"
                + " | 2.00 | 2.00 jdk |  |"),
        md);
  }
}
