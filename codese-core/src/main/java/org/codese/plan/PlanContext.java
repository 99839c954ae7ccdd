package org.codese.plan;

import java.util.LinkedHashMap;
import java.util.Map;
import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.jvm.SerialClass;
import org.codese.jvm.SerialField;
import org.codese.program.Constant;
import org.codese.program.Fills;

/**
 * What the phase planners of one graph share: the graph, its tables, which objects are late, the
 * loop threshold, and the id arrays of allocation loops.
 *
 * <p>Contract: an object is <em>late</em> when its identity is known only after its hooks ran
 * (records, classes with {@code readResolve}); references to late objects are stored in the finish
 * phase. Constants are numbered in the order they are first asked for, which is what makes a
 * snapshot's bytes depend on the planners' call order.
 */
final class PlanContext {
  final Graph graph;
  final Tables tables = new Tables();

  /** The fewest like allocations, strings, boxes or slots that become a loop over data. */
  final int loopMin;

  /** The table's last slot, always {@code null}: a reference column's entry for no object. */
  final int nullSlot;

  private final boolean[] late;

  /** Whether any object of the graph is late: most graphs have none, and then none is asked. */
  private final boolean anyLate;

  /**
   * Whether the graph's arrays are made by a create program ({@link
   * org.codese.program.Grammar#STEP_ARRAYS}) rather than by a statement each: when it has at least
   * {@link #loopMin} of them, so that code does not grow with their number.
   */
  final boolean arraysAsData;

  /** Per object (by id minus the first id), its collection fill, or {@code null}. */
  private final CollectionFill[] fills;

  /**
   * The id arrays of the allocation loops, by constant: a cluster loop over the same ids shares.
   */
  private final Map<Integer, int[]> allocLoopIds = new LinkedHashMap<>();

  PlanContext(Graph graph, int loopMin) {
    this.graph = graph;
    this.loopMin = loopMin;
    this.nullSlot = graph.endId();
    this.late = new boolean[graph.nodes().size()];
    this.fills = new CollectionFill[late.length];
    int arrays = 0;
    boolean someLate = false;
    int first = graph.firstId();
    SerialClass noFill = null; // the class of the last instance that was no fill class
    for (Node node : graph.nodes()) {
      arrays += node instanceof Node.Array ? 1 : 0;
      boolean isLate = isLate(node);
      late[node.id() - first] = isLate;
      someLate |= isLate;
      if (node instanceof Node.Instance i && i.type() != noFill) {
        if (Fills.kind(i.type().type()) == Fills.NONE) {
          noFill = i.type();
        } else {
          fills[node.id() - first] = CollectionFill.of(i);
        }
      }
    }
    this.anyLate = someLate;
    this.arraysAsData = arrays >= loopMin;
  }

  private static boolean isLate(Node node) {
    if (node instanceof Node.Record) {
      return true;
    } else if (node instanceof Node.Instance i) {
      return i.type().resolves();
    } else if (node instanceof Node.External e) {
      return e.type().resolves();
    }
    return false;
  }

  /** Whether {@code id} is an object of this graph that is late. */
  boolean isLate(int id) {
    return anyLate && id >= graph.firstId() && late[id - graph.firstId()];
  }

  /** The fill of object {@code id} of this graph, or {@code null} if its hooks restore it. */
  CollectionFill fill(int id) {
    return fills[id - graph.firstId()];
  }

  /** A new {@code int[]} constant. */
  int intArray(int[] values) {
    return tables.constant(new Constant.PrimArray(values));
  }

  /** A new {@code int[]} constant of an allocation loop's ids, which later loops may share. */
  int allocLoopIds(int[] ids) {
    int k = intArray(ids);
    allocLoopIds.put(k, ids);
    return k;
  }

  /**
   * The constant of an allocation loop's ids when {@code ids} are the same, else a new one: the
   * snapshot then carries them once, and the loader knows the cluster's objects from the loop.
   */
  int sharedIds(int[] ids) {
    for (Map.Entry<Integer, int[]> e : allocLoopIds.entrySet()) {
      if (java.util.Arrays.equals(e.getValue(), ids)) {
        return e.getKey();
      }
    }
    return intArray(ids);
  }

  /** The reflective field constant of {@code f} of class-table entry {@code type}. */
  int setter(int type, SerialField f) {
    return tables.constant(new Constant.Setter(type, f.name(), f.descriptor()));
  }
}
