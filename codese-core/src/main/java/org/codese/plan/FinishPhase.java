package org.codese.plan;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.codese.capture.Node;
import org.codese.jvm.SerialClass;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Constant.HookKind;
import org.codese.program.Tape;

/**
 * Plans the finish phase: per object, in the order Java deserialization completes objects, the
 * stores deferred to it and then its hooks (a {@code SLOT} hook per slot that is not direct, the
 * {@code EXTERNAL} or {@code RECORD} hook, and {@code RESOLVE} for classes with {@code
 * readResolve}), or for a JDK collection restored by a fill ({@link CollectionFill}) its fill.
 *
 * <p>Contract: {@link #node} is called in the graph's post order for every node that has deferred
 * stores or that the create phase marked ({@link PlanContext#hasFinish}: hooks or a fill), after
 * the create and set phases were planned (they defer stores to the same {@link FinishProgram}).
 */
final class FinishPhase {
  private final PlanContext cx;
  private final FinishProgram program;

  FinishPhase(PlanContext cx, FinishProgram program) {
    this.cx = cx;
    this.program = program;
  }

  /** Completes {@code node}: its deferred stores, then its hooks. */
  void node(Node node) {
    program.complete(node.id());
    CollectionFill fill = node instanceof Node.Instance ? cx.fill(node.id()) : null;
    ImmutableFill immutable = node instanceof Node.Instance ? cx.immutable(node.id()) : null;
    FactoryFill factory = node instanceof Node.Instance ? cx.factory(node.id()) : null;
    if (factory != null) {
      program.factory(
          cx.tables.typeWithSlots(((Node.Instance) node).type()),
          factory.kind(),
          node.id(),
          factory.refs(),
          cx.nullSlot);
    } else if (immutable != null) {
      program.immutable(
          cx.tables.type(ImmutableFill.COLL_SER),
          immutable.tag(),
          node.id(),
          immutable.refs(),
          cx.nullSlot);
    } else if (fill != null) {
      program.fill(node.id(), fill.refs(), cx.nullSlot);
    } else if (node instanceof Node.Instance i) {
      for (Node.SlotData data : i.slots()) {
        if (data != null) {
          Slot slot = data.slot();
          int t = cx.tables.typeWithFields(slot.type(), slot.fields());
          Tape tape =
              data.tape() != null
                  ? data.tape()
                  : fieldsTape(slot.fields(), data.prims(), data.refs());
          hook(HookKind.SLOT, t, i.id(), tape);
        }
      }
      resolve(i.type(), i.id());
    } else if (node instanceof Node.External e) {
      hook(HookKind.EXTERNAL, cx.tables.type(e.type().type()), e.id(), e.tape());
      resolve(e.type(), e.id());
    } else if (node instanceof Node.Record r) {
      List<SerialField> fields = r.type().recordFields();
      int t = cx.tables.typeWithFields(r.type().type(), fields);
      hook(HookKind.RECORD, t, r.id(), fieldsTape(fields, r.prims(), r.refs()));
      resolve(r.type(), r.id());
    }
  }

  private void resolve(SerialClass sc, int id) {
    if (sc.resolves()) {
      hook(HookKind.RESOLVE, cx.tables.type(sc.type()), id, null);
    }
  }

  private void hook(HookKind kind, int type, int id, Tape tape) {
    program.hook(cx.tables.constant(new Constant.Hook(kind, type, id, tape)));
  }

  /** A tape holding one default-fields record. */
  static Tape fieldsTape(List<SerialField> fields, long[] prims, int[] refs) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    try {
      for (int i = 0; i < prims.length; i++) {
        Types.write(out, Types.primitiveCode(fields.get(i).type()), prims[i]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int[] items = new int[2 + 2 * refs.length];
    items[0] = Tape.FIELDS;
    items[1] = refs.length;
    for (int i = 0; i < refs.length; i++) {
      items[2 + 2 * i] = Tape.OBJECT;
      items[3 + 2 * i] = refs[i];
    }
    return new Tape(bytes.toByteArray(), items);
  }
}
