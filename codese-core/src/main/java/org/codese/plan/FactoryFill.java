package org.codese.plan;

import java.util.List;
import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.program.Factories;
import org.codese.program.Grammar;

/**
 * An object of a {@link Factories} class (a {@code Collections} wrapper, empty or singleton, an
 * {@code Arrays.asList}), made in the finish phase by a {@link Grammar#STEP_FACTORY} step with the
 * class's public factory instead of replaying the default reads of its private final fields and its
 * {@code readResolve}: its kind and the ids of the factory's arguments.
 *
 * <p>{@link #of} accepts only what the factory makes exactly as {@code ObjectInputStream} restores
 * it: every reference field of a wrapper holds the same non-null object, not itself a wrapper of
 * the factories nor a record or an object with its own {@code readResolve} (the unmodifiable
 * factories return a wrapper of their own class unchanged), and a synchronized wrapper's mutex is
 * the wrapper itself (what its factory sets); no primitive field. The object is made only once its
 * arguments are complete, so nothing written inside it may refer back to it before it exists: each
 * argument is written before it, or refers to nothing (a string, box, value, enum constant, global
 * reference or primitive array), or is a JDK collection restored by a fill, an immutable collection
 * or an {@code Object[]} whose elements are each written before the object or refer to nothing.
 * Anything else keeps the replay.
 *
 * @param kind the {@link Factories} kind
 * @param refs the factory's arguments, in order
 */
record FactoryFill(int kind, int[] refs) {
  /**
   * @param node a captured object of a {@link Factories} class
   * @param graph its graph
   * @param cx the plan's context, for the arguments' fills
   * @return how to make it, or {@code null} if it is replayed
   */
  static FactoryFill of(Node.Instance node, Graph graph, PlanContext cx) {
    int kind = Factories.kind(node.type().type());
    if (kind == Factories.NONE) {
      return null;
    }
    boolean wraps = Factories.wraps(kind);
    int[] args = new int[Factories.arity(kind)];
    int taken = 0;
    int wrapped = Integer.MIN_VALUE;
    List<Slot> slots = node.type().slots();
    for (int s = 0; s < slots.size(); s++) {
      Slot slot = slots.get(s);
      int[] refs = refs(slot, node.slots()[s]);
      if (refs == null) {
        return null;
      }
      List<SerialField> fields = slot.fields();
      for (int r = 0; r < refs.length; r++) {
        if (!wraps) {
          if (taken == args.length) {
            return null;
          }
          args[taken++] = refs[r];
        } else if (fields.get(r).name().equals("mutex")) {
          if (refs[r] != node.id()) {
            return null;
          }
        } else if (wrapped == Integer.MIN_VALUE || wrapped == refs[r]) {
          wrapped = refs[r];
        } else {
          return null;
        }
      }
    }
    if (wraps) {
      if (wrapped < 0 || isWrapper(graph.node(wrapped)) || mayResolve(graph.node(wrapped))) {
        return null;
      }
      args[taken++] = wrapped;
    }
    if (taken != args.length
        || (kind == Factories.ARRAY_LIST && !isObjectArray(graph, args[0]))
        || (kind == Factories.ENUM_SET && !isEnumSetProxy(graph, args))) {
      return null;
    }
    for (int a : args) {
      if (a >= node.id() && !closed(graph, a, node.id(), cx)) {
        return null;
      }
    }
    return new FactoryFill(kind, args);
  }

  /**
   * The reference field values of one slot's data, or {@code null} where the slot has primitive
   * fields, is direct (its fields then in rows, which only a class whose module is open to Codese
   * has) or wrote anything but its default fields.
   */
  private static int[] refs(Slot slot, Node.SlotData data) {
    if (slot.primitiveCount() > 0) {
      return null;
    } else if (data == null) {
      return slot.fields().isEmpty() ? new int[0] : null;
    } else if (data.tape() == null) {
      return data.refs();
    }
    TapeCursor in = new TapeCursor(data.tape());
    int n = slot.fields().size();
    return in.fields(n, 0) ? in.lastRefs(n) : null;
  }

  private static boolean isWrapper(Node n) {
    return n instanceof Node.Instance i && Factories.wraps(Factories.kind(i.type().type()));
  }

  /** Whether an {@code EnumSet}'s proxy holds an enum class and an array of its constants. */
  private static boolean isEnumSetProxy(Graph graph, int[] args) {
    if (!(args[0] >= 0
        && graph.node(args[0]) instanceof Node.Constant c
        && c.value() instanceof Class<?> type
        && type.isEnum()
        && isObjectArray(graph, args[1]))) {
      return false;
    }
    for (int e : (int[]) ((Node.Array) graph.node(args[1])).elements()) {
      if (e < 0
          || !(graph.node(e) instanceof Node.Constant k)
          || !(k.value() instanceof Enum<?> constant)
          || constant.getDeclaringClass() != type) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code n} may be restored as an object of a class the plan cannot know, or as {@code
   * null} while the wrapper is made: a record (a reference to one still being read is {@code null}
   * in a JDK stream, and a wrapper of it holds {@code null}) or an object whose class has its own
   * {@code readResolve} (which may return a wrapper of the wrapper's class, which the unmodifiable
   * factories would return unchanged where a JDK stream wraps it once more).
   */
  private static boolean mayResolve(Node n) {
    return n instanceof Node.Record
        || (n instanceof Node.Instance i
            && i.type().resolves()
            && Factories.kind(i.type().type()) == Factories.NONE)
        || (n instanceof Node.External e && e.type().resolves());
  }

  private static boolean isObjectArray(Graph graph, int id) {
    return id >= 0
        && graph.node(id) instanceof Node.Array a
        && !a.type().getComponentType().isPrimitive();
  }

  /**
   * Whether object {@code id}, written inside the object {@code self} makes, can refer to nothing
   * written inside it: refers to nothing, or holds only objects written before {@code self} and
   * objects that refer to nothing.
   */
  private static boolean closed(Graph graph, int id, int self, PlanContext cx) {
    Node n = graph.node(id);
    if (Leaves.refersToNothing(n)) {
      return true;
    }
    int[] held;
    if (n instanceof Node.Array a) {
      held = (int[]) a.elements();
    } else if (n instanceof Node.Instance i && cx.immutable(i) != null) {
      held = cx.immutable(i).refs();
    } else if (n instanceof Node.Instance i && cx.fill(i) != null) {
      held = cx.fill(i).refs();
    } else {
      return false;
    }
    for (int e : held) {
      if (e >= self && !Leaves.refersToNothing(graph.node(e))) {
        return false;
      }
    }
    return true;
  }
}
