package org.codese.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.capture.Nodes;
import org.codese.program.Phase;
import org.codese.program.Placement;

/**
 * Turns a captured {@link Graph} into a {@link Plan}, with one planner per phase: {@link
 * CreatePhase}, {@link SetPhase} and {@link FinishPhase}, which share a {@link PlanContext} and
 * defer stores into a {@link FinishProgram}.
 *
 * <p>Objects whose identity is only known after their hooks ran (records, classes with {@code
 * readResolve}) are <em>late</em>: stores of references to them are deferred from the set phase to
 * the finish phase, just before the referring object's own hooks, which is when Java
 * deserialization would make them.
 */
public final class Planner {
  /**
   * Groups of at least this many like statements become one counted loop over data instead of
   * straight-line code: loops are compiled on stack replacement during their first run, while
   * straight-line code runs interpreted once.
   */
  static final int LOOP_MIN = 32;

  private Planner() {}

  /**
   * @param graph a captured graph or stream segment
   * @return its restore program
   */
  public static Plan plan(Graph graph) {
    return run(graph, LOOP_MIN, true);
  }

  /**
   * Plans a segment of an object stream: allocations, strings, boxes and the slots of one class
   * become loops over data from any number on, and such a loop sets every field, zero or not, so
   * that the code holds neither ids nor values and segments of the same shape get byte-identical
   * classes, which the stream sends and defines once (stream format 3).
   *
   * @param graph a stream segment
   * @return its restore program
   */
  public static Plan planSegment(Graph graph) {
    return run(graph, 1, false);
  }

  /**
   * Plans the phases in the order that numbers the constants: every node's create and set ops, the
   * grouped creations, the set-phase stores, then the finish phase in post order.
   */
  private static Plan run(Graph graph, int loopMin, boolean snapshot) {
    PlanContext cx = new PlanContext(graph, loopMin, snapshot);
    FinishProgram program = new FinishProgram(graph.firstId(), graph.nodes().size());
    SetPhase set = new SetPhase(cx, program);
    CreatePhase create = new CreatePhase(cx, set, program);
    List<Node> nodes = graph.nodes();
    for (int i = 0, n = nodes.size(); i < n; i++) {
      // a plain object is a column entry (Nodes), planned from its class's rows without a node
      Node node = Nodes.rawNode(nodes, i);
      if (Nodes.isTemplate(node)) {
        create.plain(graph.firstId() + i, (Node.Instance) node, Nodes.rowOf(nodes, i));
      } else {
        create.node(node);
      }
    }
    create.flush();
    set.flush();
    FinishPhase finish = new FinishPhase(cx, program);
    for (int id : graph.postOrder()) {
      // most objects have nothing to complete: their nodes are not read again
      if (cx.hasFinish(id) || program.hasDeferred(id)) {
        finish.node(graph.nodes().get(id - graph.firstId()));
      }
    }
    List<Section> sections = new ArrayList<>();
    sections.add(new Section(new Placement(Phase.CREATE, Placement.CODESE), create.ops()));
    // loops rather than lambdas here and in the other planners: each lambda's first use costs a
    // fresh JVM about a millisecond of bootstrapping, paid by the first capture
    for (Map.Entry<Integer, List<Op>> e : set.byHost().entrySet()) {
      sections.add(new Section(new Placement(Phase.SET, e.getKey()), e.getValue()));
    }
    sections.add(
        new Section(
            new Placement(Phase.FINISH, Placement.CODESE),
            program.isEmpty()
                ? List.of()
                : List.of(new Op.RunSteps(cx.intArray(program.toArray())))));
    return new Plan(
        graph.firstId(),
        graph.endId(),
        sections,
        cx.tables.constants(),
        cx.tables.classes(),
        graph.items(),
        graph.depth());
  }
}
