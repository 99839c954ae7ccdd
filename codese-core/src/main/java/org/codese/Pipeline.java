package org.codese;

import java.io.IOException;
import org.codese.capture.Capturer;
import org.codese.capture.Graph;
import org.codese.emit.CodeCache;
import org.codese.emit.Emitted;
import org.codese.format.SnapshotFile;
import org.codese.plan.Plan;
import org.codese.plan.Planner;

/** Capture, plan and emit, in that order: from a live graph to a snapshot. */
final class Pipeline {
  private Pipeline() {}

  static SnapshotFile capture(Object root, CodeseOptions options) throws IOException {
    Capturer capturer = new Capturer(options);
    capturer.writeObject(root, false);
    return toFile(capturer.drain());
  }

  /** Plans {@code graph} and emits the plan; {@code graph} is {@linkplain #emit released}. */
  static SnapshotFile toFile(Graph graph) {
    return emit(Planner.plan(graph), graph);
  }

  /**
   * A segment of an object stream: planned so that like segments get identical code; {@code graph}
   * is {@linkplain #emit released}.
   */
  static SnapshotFile toSegment(Graph graph) {
    return emit(Planner.planSegment(graph), graph);
  }

  /**
   * {@linkplain Graph#release Releases} {@code planned}, which {@code plan} was made from and which
   * nothing reads again, then emits the plan.
   */
  private static SnapshotFile emit(Plan plan, Graph planned) {
    planned.release();
    Emitted code = CodeCache.emit(plan);
    return new SnapshotFile(
        System.getProperty("java.version"),
        plan.firstId(),
        plan.tableSize(),
        plan.depth(),
        plan.classes(),
        plan.constants(),
        code.classFiles(),
        code.placements(),
        plan.items());
  }
}
