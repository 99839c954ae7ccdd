package org.codese.plan;

import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.program.Grammar;

/**
 * A {@code List.of}, {@code Set.of} or {@code Map.of} collection, which a JDK stream holds as its
 * serial proxy {@code java.util.CollSer}, made in the finish phase by a {@link
 * Grammar#STEP_IMMUTABLE} step instead of replaying the proxy's {@code readObject} and {@code
 * readResolve}: its tag (1 list, 2 set, 3 map) and the ids of its elements (key and value pairs for
 * a map), in the order the proxy's {@code writeObject} wrote them.
 *
 * <p>{@link #of} accepts only the exact shape that {@code writeObject} writes, with the three tags
 * {@code readResolve} turns into {@code List.of}, {@code Set.of} and a map, no {@code null}
 * element, and only elements that cannot refer back to the collection before it is made: objects
 * written before it (complete, or an ancestor whose reference is stored after the collection is
 * made), objects that refer to nothing (strings, boxes, values, enum constants, global references,
 * primitive arrays) and immutable collections accepted by the same rule. In a JDK stream, a
 * reference back to the collection from inside its elements would find the proxy itself; such a
 * graph keeps the replay.
 *
 * @param tag the proxy's tag
 * @param refs the element ids
 */
record ImmutableFill(int tag, int[] refs) {
  /** {@code java.util.CollSer}, package-private in {@code java.base}. */
  static final Class<?> COLL_SER = collSer();

  private static Class<?> collSer() {
    try {
      return Class.forName("java.util.CollSer", false, null);
    } catch (ClassNotFoundException e) {
      return null; // a JDK without it writes no such proxy
    }
  }

  /**
   * @param node a captured object of class {@code CollSer}
   * @param graph its graph
   * @param cx the plan's context, for the elements' own decisions
   * @return its immutable fill, or {@code null} if its hooks restore it
   */
  static ImmutableFill of(Node.Instance node, Graph graph, PlanContext cx) {
    Node.SlotData[] slots = node.slots();
    if (slots.length != 1 || slots[0] == null || slots[0].tape() == null) {
      return null;
    }
    TapeCursor in = new TapeCursor(slots[0].tape());
    // the default field tag, then the number of elements
    if (!in.fields(0, 0) || !in.has(4)) {
      return null;
    }
    int tag = in.nextInt();
    if (tag < Grammar.IMMUTABLE_LIST || tag > Grammar.IMMUTABLE_MAP || !in.block(4)) {
      return null;
    }
    int n = in.nextInt();
    int[] refs = n < 0 || (tag == Grammar.IMMUTABLE_MAP && n % 2 != 0) ? null : in.lastRefs(n);
    if (refs == null) {
      return null;
    }
    for (int r : refs) {
      if (r < 0 || (r > node.id() && !cannotReferBack(graph, r, cx))) {
        return null;
      }
    }
    return new ImmutableFill(tag, refs);
  }

  /** Whether object {@code id}, written inside the collection, can refer to nothing before it. */
  private static boolean cannotReferBack(Graph graph, int id, PlanContext cx) {
    Node n = graph.node(id);
    return Leaves.refersToNothing(n) || (n instanceof Node.Instance i && cx.immutable(i) != null);
  }
}
