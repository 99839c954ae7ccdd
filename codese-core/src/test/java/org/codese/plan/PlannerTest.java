package org.codese.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.codese.CodeseOptions;
import org.codese.capture.Capturer;
import org.codese.emit.Emitted;
import org.codese.emit.Emitter;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;
import org.codese.testkit.Box;
import org.codese.verify.GrammarCheck;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the planner and the emitter, beside the black-box corpus: what a plan holds for
 * small graphs whose right plan is known (two phases, defaults omitted, sharing, the loop
 * threshold), and that the emitter turns plans into classes the grammar check accepts, one per
 * phase and host and more only past the per-class limit.
 */
class PlannerTest {
  private static Plan plan(Object root) throws IOException {
    Capturer c = new Capturer(CodeseOptions.defaults());
    c.writeObject(root, false);
    return Planner.plan(c.drain());
  }

  private static List<Op> ops(Plan p, int phase) {
    List<Op> out = new ArrayList<>();
    for (Section s : p.sections()) {
      if (s.phase().ordinal() == phase) {
        out.addAll(s.ops());
      }
    }
    return out;
  }

  private static long count(List<Op> ops, Class<? extends Op> kind) {
    return ops.stream().filter(kind::isInstance).count();
  }

  private static Box[] boxes(int n) {
    Box[] out = new Box[n];
    for (int i = 0; i < n; i++) {
      out[i] = new Box(i + 1);
    }
    return out;
  }

  /** Objects are created in phase 0 and linked in phase 1, so a cycle needs no order. */
  @Test
  void aCycleIsCreatedThenLinked() throws IOException {
    Box a = new Box(1);
    Box b = new Box(2);
    a.ref = b;
    b.ref = a;
    Plan p = plan(a);
    List<Op> create = ops(p, 0);
    assertEquals(2, count(create, Op.Alloc.class), create.toString());
    assertEquals(
        0,
        create.stream()
            .filter(
                o ->
                    o instanceof Op.Select || o instanceof Op.PutField || o instanceof Op.PutDirect)
            .count());
    List<Op> set = ops(p, 1);
    assertTrue(count(set, Op.Select.class) >= 2, set.toString());
  }

  /** A field at its default value is not set; a shared object is allocated once. */
  @Test
  void defaultsAreOmittedAndSharingKept() throws IOException {
    Box zero = new Box(0); // v == 0, ref == null: nothing to set
    Object[] root = {zero, zero};
    Plan p = plan(root);
    assertEquals(1, count(ops(p, 0), Op.Alloc.class));
    for (Op o : ops(p, 1)) {
      if (o instanceof Op.Select s) {
        assertTrue(!s.cast().contains("Box"), "the default box is selected: " + ops(p, 1));
      }
    }
  }

  /** Like allocations become a loop from the planner's threshold on, not below it. */
  @Test
  void likeAllocationsBecomeALoopFromTheThresholdOn() throws IOException {
    Plan below = plan(boxes(Planner.LOOP_MIN - 1));
    assertEquals(0, count(ops(below, 0), Op.AllocLoop.class));
    assertEquals(Planner.LOOP_MIN - 1, count(ops(below, 0), Op.Alloc.class));
    Plan at = plan(boxes(Planner.LOOP_MIN));
    assertEquals(1, count(ops(at, 0), Op.AllocLoop.class));
    assertEquals(0, count(ops(at, 0), Op.Alloc.class));
  }

  /**
   * The emitter makes a class per section (phase and host), which the grammar check accepts with
   * the statements the plan has; a plan with more ops than one class may hold is split.
   */
  @Test
  void emittedClassesFollowTheGrammarOnePerSectionUntilFull() throws IOException {
    for (int n : new int[] {10, 12_000}) {
      List<Object> root = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        root.add(i % 2 == 0 ? new Box(i) : "s" + i); // interleaved: few loops, many ops
      }
      Plan p = plan(root);
      Emitted code = Emitter.emit(p);
      SnapshotFile file =
          new SnapshotFile(
              "17",
              p.firstId(),
              p.tableSize(),
              p.depth(),
              p.classes(),
              p.constants(),
              code.classFiles(),
              code.placements(),
              p.items());
      GrammarCheck.Result r = GrammarCheck.check(file);
      assertEquals(List.of(), r.violations());
      int ops = 0;
      for (Section s : p.sections()) {
        ops += s.ops().size();
      }
      int classes = code.classFiles().size();
      assertTrue(classes >= p.sections().size(), classes + " classes");
      assertTrue(
          classes <= p.sections().size() + ops / Grammar.MAX_OPS_PER_CLASS,
          classes + " classes for " + ops + " ops");
    }
  }
}
