package org.codese.plan;

import java.util.LinkedHashMap;
import java.util.Map;
import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.jvm.SerialClass;
import org.codese.jvm.SerialField;
import org.codese.program.Constant;
import org.codese.program.Factories;
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

  /** Per object (by id minus the first id), whether it is late; {@code null} if none is. */
  private final boolean[] late;

  /** Whether any object of the graph is late: most graphs have none, and then none is asked. */
  private final boolean anyLate;

  /**
   * Whether the graph's arrays are made by a create program ({@link
   * org.codese.program.Grammar#STEP_ARRAYS}) rather than by a statement each: when it has at least
   * {@link #loopMin} of them, so that code does not grow with their number.
   */
  final boolean arraysAsData;

  /**
   * Per object (by id minus the first id), whether the finish phase has work for it besides
   * deferred stores: hooks or a fill. Marked by the create phase, so that the finish phase reads
   * only the nodes it completes.
   */
  private final boolean[] finishes;

  /** Per object (by id minus the first id), its collection fill, or {@code null}. */
  private final CollectionFill[] fills;

  /**
   * The id arrays of the allocation loops, by constant: a cluster loop over the same ids shares.
   */
  private final Map<Integer, int[]> allocLoopIds = new LinkedHashMap<>();

  /**
   * Whether the plan is of a whole snapshot, which makes immutable collections by {@link
   * ImmutableFill}s (snapshot format {@code Grammar.IMMUTABLE_VERSION}); a stream replays them.
   */
  private final boolean immutables;

  /**
   * Per node, its {@link ImmutableFill}, {@link #NOT_IMMUTABLE}, or {@code null} until asked;
   * {@code null} as a whole until a {@code CollSer} is asked about.
   */
  private Object[] immutableFills;

  private static final Object NOT_IMMUTABLE = new Object();

  PlanContext(Graph graph, int loopMin, boolean immutables) {
    this.immutables = immutables;
    this.graph = graph;
    this.loopMin = loopMin;
    this.nullSlot = graph.endId();
    this.late = graph.late();
    this.anyLate = late != null;
    this.fills = new CollectionFill[graph.nodes().size()];
    this.finishes = new boolean[fills.length];
    this.arraysAsData = graph.arrays() >= loopMin;
  }

  /** Notes that the finish phase has hooks or a fill to plan for object {@code id}. */
  void finishes(int id) {
    finishes[id - graph.firstId()] = true;
  }

  /** Whether {@link #finishes(int)} was noted for object {@code id}. */
  boolean hasFinish(int id) {
    return finishes[id - graph.firstId()];
  }

  /**
   * The immutable fill of {@code node}, or {@code null} if it is no {@code CollSer} to make as one
   * ({@link ImmutableFill#of}); decided once per node, by the create phase or by an enclosing
   * collection asking about its elements first.
   */
  ImmutableFill immutable(Node.Instance node) {
    if (!immutables
        || node.type().type() != ImmutableFill.COLL_SER
        || node.id() < graph.firstId()) {
      return null;
    }
    if (immutableFills == null) {
      immutableFills = new Object[graph.nodes().size()];
    }
    int at = node.id() - graph.firstId();
    if (immutableFills[at] == null) {
      ImmutableFill fill = ImmutableFill.of(node, graph, this);
      immutableFills[at] = fill == null ? NOT_IMMUTABLE : fill;
    }
    return immutableFills[at] instanceof ImmutableFill f ? f : null;
  }

  /**
   * Per node, its {@link FactoryFill}, or {@code null}; {@code null} as a whole until an object of
   * a factory class is asked about.
   */
  private FactoryFill[] factoryFills;

  /**
   * The class of the last instance {@link #factory(Node.Instance)} found to be no factory class.
   */
  private SerialClass noFactory;

  /**
   * The factory step of {@code node}, or {@code null} if it is of no {@link Factories} class or is
   * replayed ({@link FactoryFill#of}); the create phase asks once per instance, in id order, the
   * finish phase then by id.
   */
  FactoryFill factory(Node.Instance node) {
    if (!immutables || node.type() == noFactory || node.id() < graph.firstId()) {
      return null;
    }
    if (Factories.kind(node.type().type()) == Factories.NONE) {
      noFactory = node.type();
      return null;
    }
    FactoryFill fill = FactoryFill.of(node, graph, this);
    if (fill != null) {
      if (factoryFills == null) {
        factoryFills = new FactoryFill[graph.nodes().size()];
      }
      factoryFills[node.id() - graph.firstId()] = fill;
    }
    return fill;
  }

  /** {@link #factory(Node.Instance)} once decided, by id. */
  FactoryFill factory(int id) {
    return factoryFills != null ? factoryFills[id - graph.firstId()] : null;
  }

  /** {@link #immutable(Node.Instance)} once decided, by id. */
  ImmutableFill immutable(int id) {
    return immutableFills != null && immutableFills[id - graph.firstId()] instanceof ImmutableFill f
        ? f
        : null;
  }

  /** Whether any object of this graph is late. */
  boolean anyLate() {
    return anyLate;
  }

  /** Whether {@code id} is an object of this graph that is late. */
  boolean isLate(int id) {
    return anyLate && id >= graph.firstId() && late[id - graph.firstId()];
  }

  /**
   * The fill of object {@code id} of this graph, or {@code null} if its hooks restore it: known
   * once the create phase took the object ({@link #fill(Node.Instance)}).
   */
  CollectionFill fill(int id) {
    return fills[id - graph.firstId()];
  }

  /** The class of the last instance {@link #fill(Node.Instance)} found to be no fill class. */
  private SerialClass noFill;

  /**
   * Finds and remembers the fill of {@code node}, or {@code null} if its hooks restore it; the
   * create phase asks once per instance, in id order.
   */
  CollectionFill fill(Node.Instance node) {
    if (node.type() == noFill) {
      return null;
    }
    if (Fills.kind(node.type().type()) == Fills.NONE) {
      noFill = node.type();
      return null;
    }
    CollectionFill fill = CollectionFill.of(node, graph);
    fills[node.id() - graph.firstId()] = fill;
    return fill;
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
