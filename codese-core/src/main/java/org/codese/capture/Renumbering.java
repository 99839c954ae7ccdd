package org.codese.capture;

import org.codese.program.Tape;

/**
 * The ids of a stream segment's objects moved from the order of discovery to the order of
 * completion ({@link Capturer#drain} with hooks): ids of the segment go through a permutation, ids
 * of earlier segments (and {@code -1} for {@code null}) stay.
 *
 * <p>Contract: {@code perm[id - firstId]} is the new id of segment object {@code id}. Arrays of ids
 * and tape items are renumbered in place; nodes are made anew with their new ids.
 */
final class Renumbering {
  private final int[] perm;
  private final int firstId;

  /**
   * @param perm per object of the segment, by id minus {@code firstId}, its new id
   * @param firstId the segment's first id
   */
  Renumbering(int[] perm, int firstId) {
    this.perm = perm;
    this.firstId = firstId;
  }

  /**
   * @return the new id of {@code id}
   */
  int id(int id) {
    return id >= firstId ? perm[id - firstId] : id;
  }

  /** Renumbers ids in place. */
  void refs(int[] refs) {
    for (int i = 0; i < refs.length; i++) {
      refs[i] = id(refs[i]);
    }
  }

  /** Renumbers the object references of a tape's items, in place. */
  void items(int[] items) {
    for (int i = 0; i < items.length; i += 2) {
      if (items[i] == Tape.OBJECT || items[i] == Tape.BACK_REFERENCE) {
        items[i + 1] = id(items[i + 1]);
      }
    }
  }

  /**
   * @return {@code node} with its new id and the references it holds renumbered (those held in
   *     arrays, tapes and class rows renumbered in place)
   */
  Node node(Node node) {
    int id = id(node.id());
    if (node instanceof Node.Text t) {
      return new Node.Text(id, t.value());
    } else if (node instanceof Node.Box b) {
      return new Node.Box(id, b.value(), b.cached(), b.kind(), b.bits());
    } else if (node instanceof Node.Constant c) {
      return new Node.Constant(id, c.value());
    } else if (node instanceof Node.Value v) {
      return new Node.Value(
          id, v.value(), v.streamClass(), v.kind(), v.ref() < 0 ? -1 : id(v.ref()));
    } else if (node instanceof Node.Global g) {
      return new Node.Global(id, g.value(), g.owner(), g.name());
    } else if (node instanceof Node.Array a) {
      if (!a.type().getComponentType().isPrimitive()) {
        refs((int[]) a.elements());
      }
      return new Node.Array(id, a.type(), a.elements());
    } else if (node instanceof Node.Record r) {
      refs(r.refs());
      return new Node.Record(id, r.type(), r.prims(), r.refs());
    } else if (node instanceof Node.External e) {
      items(e.tape().items());
      return new Node.External(id, e.type(), e.tape());
    }
    Node.Instance i = (Node.Instance) node;
    for (Node.SlotData d : i.slots()) {
      if (d != null && d.refs() != null) {
        refs(d.refs());
      }
      if (d != null && d.tape() != null) {
        items(d.tape().items());
      }
    }
    ClassRows rows = i.rows();
    if (rows != null) {
      int base = rows.refBase(i.row(), 0);
      for (int k = base; k < base + rows.refWidth(); k++) {
        rows.setRef(k, id(rows.ref(k)));
      }
    }
    return new Node.Instance(id, i.type(), i.slots(), rows, i.row());
  }
}
