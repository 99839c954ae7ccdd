package org.codese.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** PNG charts drawn with XChart: per graph, bars of #d=1, #d=10 and warm; the Figure 6 curve. */
final class Charts {
  private Charts() {}

  private static final List<String> PEERS =
      List.of("codese", "codese-2t", "jdk", "kryo", "fory", "fory-nocg", "floor");

  static void write(Results r, Path out) throws IOException {
    System.setProperty("java.awt.headless", "true");
    for (String g : r.graphs) {
      bars(r, g, out.resolve("fig-" + g));
    }
    curve(r, out.resolve("fig6-curve"));
  }

  /**
   * One chart per graph: #d=1, #d=10 and warm per peer, all in ms on a log axis. A peer is drawn
   * only if it has all three values (a peer that restored wrongly or failed has none).
   */
  private static void bars(Results r, String graph, Path file) throws IOException {
    List<String> measures = List.of("#d=1 (fresh JVM)", "#d=10 (fresh JVM)", "warm, 1 restore");
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(900)
            .height(500)
            .title(graph + ": restore time (median; warm from JMH)")
            .xAxisTitle("")
            .yAxisTitle("ms (log scale)")
            .build();
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setOverlapped(false);
    int series = 0;
    double min = Double.MAX_VALUE;
    for (String p : PEERS) {
      Results.Warm w = r.warm.get(Results.key(graph, p));
      List<Double> ys =
          List.of(
              r.freshMedian(graph, p, 1),
              r.freshMedian(graph, p, 10),
              w == null ? Double.NaN : w.usPerOp / 1000);
      boolean complete = true;
      for (double y : ys) {
        complete &= !Double.isNaN(y) && y > 0;
      }
      if (complete) {
        for (double y : ys) {
          min = Math.min(min, y);
        }
        chart.addSeries(p, measures, ys);
        series++;
      }
    }
    if (series > 0) {
      // XChart's log axis needs an explicit lower bound below the smallest bar
      chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
      try {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "chart of "
                + graph
                + ": "
                + e.getMessage()
                + " series "
                + chart.getSeriesMap().keySet(),
            e);
      }
    }
  }

  private static void curve(Results r, Path file) throws IOException {
    if (r.curve.isEmpty()) {
      return;
    }
    XYChart chart =
        new XYChartBuilder()
            .width(1000)
            .height(600)
            .title(
                "Figure 6: cumulative time vs restores, " + r.curveGraph + " (one fresh JVM each)")
            .xAxisTitle("number of restores (log)")
            .yAxisTitle("cumulative ms (log)")
            .build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    for (Map.Entry<String, List<double[]>> e : r.curve.entrySet()) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (double[] pt : e.getValue()) {
        xs.add(pt[0]);
        ys.add(pt[1]);
      }
      chart.addSeries(e.getKey(), xs, ys);
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
