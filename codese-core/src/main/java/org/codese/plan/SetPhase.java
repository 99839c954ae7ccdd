package org.codese.plan;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codese.capture.ClassRows;
import org.codese.jvm.Kind;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.codese.program.Constant;

/**
 * Plans the set phase: the field stores of direct slots, grouped by host, as {@link
 * Op.ClusterLoop}s over the objects of one class or as single stores.
 *
 * <p>Contract: {@link #slot} takes each direct slot in graph order; {@link #flush} then plans them,
 * clusters first, and defers every store of a reference to a late object to the {@link
 * FinishProgram}. Stores go with {@code putfield} in the nest of a class generated code may join
 * ({@link #nestable}) for fields that are not final, else through a reflective field constant in
 * Codese's own package (host -1). Other planners add their set-phase ops through {@link #ops}.
 */
final class SetPhase {
  /**
   * The most columns one cluster loop sets: each takes up to two locals, and the grammar uses only
   * locals below 256 (no {@code wide} instructions).
   */
  static final int MAX_COLUMNS = 100;

  private final PlanContext cx;
  private final FinishProgram finish;
  private final Map<Integer, List<Op>> byHost = new LinkedHashMap<>();

  /** {@link #byHost}'s lists by host + 1: the planner asks per store, a map lookup each. */
  private final List<List<Op>> byIndex = new ArrayList<>();

  private final Map<Class<?>, Cluster> clusters = new LinkedHashMap<>();

  /** In a segment, direct slots that refer to late objects: set one by one, not in a loop. */
  private final SlotEntries lateSlots = new SlotEntries(false);

  /** The slot of each of {@link #lateSlots}' entries. */
  private final List<Slot> lateSlotTypes = new ArrayList<>();

  /** The cluster {@link #slot} added to last: slots of one class mostly come in runs. */
  private Cluster lastCluster;

  /**
   * Objects whose slot of one class is set directly: the candidates for a {@link Op.ClusterLoop}.
   */
  private static final class Cluster {
    final Slot slot;
    final SlotEntries entries = new SlotEntries(true);

    Cluster(Slot slot) {
      this.slot = slot;
    }
  }

  SetPhase(PlanContext cx, FinishProgram finish) {
    this.cx = cx;
    this.finish = finish;
  }

  /** The set-phase ops of host {@code host} (a class-table index, or -1), to append to. */
  List<Op> ops(int host) {
    int k = host + 1;
    List<Op> ops = k < byIndex.size() ? byIndex.get(k) : null;
    if (ops == null) {
      while (byIndex.size() <= k) {
        byIndex.add(null);
      }
      ops = new ArrayList<>();
      byIndex.set(k, ops);
      byHost.put(host, ops);
    }
    return ops;
  }

  /** The hosts and their ops, in the order the hosts were first used. */
  Map<Integer, List<Op>> byHost() {
    return byHost;
  }

  /**
   * Takes the direct slot {@code slot} of object {@code id}, slot number {@code s} of its class,
   * whose fields are in row {@code row} of {@code rows}.
   */
  void slot(int id, Slot slot, ClassRows rows, int row, int s) {
    int primBase = rows.primBase(row, s);
    int refBase = rows.refBase(row, s);
    if (cx.loopMin == 1 && refersToLate(slot, rows, refBase)) {
      // in a segment, where loops set every field, a cluster loop would write null into the
      // late field before the finish phase writes the object: two stores into one field, one
      // more than the objects hold, which the program check refuses. A snapshot's loops keep
      // them: its objects leave enough fields unset, and setting each such object on its own
      // made the jdk-collections sample's code ten times larger (10 KB to 108 KB) and its cold
      // restore a third slower.
      lateSlots.add(id, rows, primBase, refBase);
      lateSlotTypes.add(slot);
      return;
    }
    Cluster c = lastCluster;
    if (c == null || c.slot != slot) {
      c = clusters.get(slot.type());
      if (c == null) {
        c = new Cluster(slot);
        clusters.put(slot.type(), c);
      }
      lastCluster = c;
    }
    c.entries.add(id, rows, primBase, refBase);
  }

  private boolean refersToLate(Slot slot, ClassRows rows, int refBase) {
    int n = slot.fields().size() - slot.primitiveCount();
    for (int r = 0; r < n; r++) {
      int ref = rows.ref(refBase + r);
      if (ref >= 0 && cx.isLate(ref)) {
        return true;
      }
    }
    return false;
  }

  /** Plans the slots taken: clusters of {@code loopMin} or more as loops, the rest one by one. */
  void flush() {
    for (Cluster c : clusters.values()) {
      if (c.entries.size() >= cx.loopMin) {
        clusterLoop(c);
      } else {
        directSlots(c.slot, c.entries, 0, c.entries.size());
      }
    }
    for (int i = 0; i < lateSlots.size(); i++) {
      directSlots(lateSlotTypes.get(i), lateSlots, i, i + 1);
    }
  }

  /**
   * Sets a cluster's fields in one loop, one column per field that is not at its default value
   * everywhere: with {@code putfield} in the class's nest where it may join it, through {@code
   * Field.set*} for final fields and classes it may not join. References to late objects are
   * deferred, their column entry left {@code null}.
   */
  private void clusterLoop(Cluster c) {
    Slot slot = c.slot;
    int t = cx.tables.typeWithFields(slot.type(), slot.fields());
    SlotShape shape = SlotShape.of(slot);
    String owner = shape.owner;
    List<SerialField> fields = slot.fields();
    int nPrims = slot.primitiveCount();
    List<Op.Column> columns = new ArrayList<>();
    for (int f = 0; f < fields.size(); f++) {
      SerialField sf = fields.get(f);
      boolean reflective = !shape.direct(f);
      Kind kind = f < nPrims ? Kind.primitive(sf.type()) : Kind.REFERENCE;
      int size = c.entries.size();
      Object column = f < nPrims ? Array.newInstance(sf.type(), size) : new int[size];
      boolean any = fillColumn(c, t, sf, kind, f, nPrims, column);
      if (any || cx.loopMin == 1) {
        // a stream segment sets every field, so that its code does not depend on which values
        // are zero and segments of one class share their classes
        columns.add(
            new Op.Column(
                sf.name(),
                sf.descriptor(),
                shape.cast(f),
                kind,
                cx.tables.constant(new Constant.PrimArray(column)),
                reflective ? cx.setter(t, sf) : -1));
      }
    }
    int ids = cx.sharedIds(c.entries.ids());
    for (int from = 0; from < columns.size(); from += MAX_COLUMNS) {
      List<Op.Column> part = columns.subList(from, Math.min(columns.size(), from + MAX_COLUMNS));
      boolean anyPutfield = false;
      for (Op.Column col : part) {
        anyPutfield |= !col.reflective();
      }
      ops(anyPutfield ? t : -1)
          .add(new Op.ClusterLoop(anyPutfield ? owner : null, ids, List.copyOf(part)));
    }
  }

  /**
   * Fills one column of a cluster loop with the values of field {@code f}, {@code sf}: primitives
   * by kind, or table indices for references, deferring references to late objects.
   *
   * @return whether any value is not the default
   */
  private boolean fillColumn(
      Cluster c, int t, SerialField sf, Kind kind, int f, int nPrims, Object column) {
    if (kind.isPrimitive()) {
      return column instanceof int[] ints
          ? fillInts(c.entries, f, ints)
          : fillPrimitives(c.entries, f, column);
    }
    boolean any = false;
    int[] refs = (int[]) column;
    int r = f - nPrims;
    SlotEntries entries = c.entries;
    ClassRows only = entries.only();
    if (only != null && !cx.anyLate()) {
      // one class's rows and nothing deferred: read from its array, not through each entry's rows
      int[] ids = only.refs();
      int nullSlot = cx.nullSlot;
      for (int j = 0; j < refs.length; j++) {
        int value = ids[entries.refBase(j) + r];
        refs[j] = value >= 0 ? value : nullSlot;
        any |= value >= 0;
      }
      return any;
    }
    for (int j = 0; j < refs.length; j++) {
      int value = entries.ref(j, r);
      refs[j] = cx.nullSlot;
      if (value >= 0 && cx.isLate(value)) {
        finish.deferField(entries.id(j), cx.setter(t, sf), value);
      } else if (value >= 0) {
        refs[j] = value;
        any = true;
      }
    }
    return any;
  }

  /** {@link #fillColumn} for an {@code int} field: the common case, without a type test each. */
  private static boolean fillInts(SlotEntries entries, int f, int[] column) {
    boolean any = false;
    ClassRows only = entries.only();
    if (only != null) {
      long[] bits = only.prims();
      for (int j = 0; j < column.length; j++) {
        int v = (int) bits[entries.primBase(j) + f];
        column[j] = v;
        any |= v != 0;
      }
      return any;
    }
    for (int j = 0; j < column.length; j++) {
      int bits = (int) entries.prim(j, f);
      column[j] = bits;
      any |= bits != 0;
    }
    return any;
  }

  private static boolean fillPrimitives(SlotEntries entries, int f, Object column) {
    boolean any = false;
    ClassRows only = entries.only();
    if (only != null && column instanceof boolean[] flags) {
      // a boolean column, the other common case: no type test per element
      long[] bits = only.prims();
      for (int j = 0; j < flags.length; j++) {
        boolean v = bits[entries.primBase(j) + f] != 0;
        flags[j] = v;
        any |= v;
      }
      return any;
    }
    for (int j = 0; j < entries.size(); j++) {
      long bits = entries.prim(j, f);
      if (bits != 0) {
        Types.setBits(column, j, bits);
        any = true;
      }
    }
    return any;
  }

  /**
   * Sets the slot {@code slot} of entries {@code from} to {@code to} of {@code entries} one object
   * after the other, field by field, selecting the object again whenever the host changes.
   */
  private void directSlots(Slot slot, SlotEntries entries, int from, int to) {
    int t = cx.tables.typeWithFields(slot.type(), slot.fields());
    SlotShape shape = SlotShape.of(slot);
    List<SerialField> fields = slot.fields();
    int nPrims = slot.primitiveCount();
    List<Op> direct = null;
    List<Op> reflective = null;
    for (int j = from; j < to; j++) {
      int id = entries.id(j);
      int selectedHost = Integer.MIN_VALUE;
      for (int f = 0; f < fields.size(); f++) {
        long bits = f < nPrims ? entries.prim(j, f) : 0;
        int ref = f < nPrims ? -1 : entries.ref(j, f - nPrims);
        if (f < nPrims ? bits == 0 : ref < 0) {
          continue;
        }
        SerialField sf = fields.get(f);
        if (ref >= 0 && cx.isLate(ref)) {
          finish.deferField(id, cx.setter(t, sf), ref);
          continue;
        }
        List<Op> ops;
        Op put;
        int host;
        if (shape.direct(f)) {
          ops = direct == null ? direct = ops(t) : direct;
          put =
              new Op.PutDirect(
                  shape.owner,
                  sf.name(),
                  shape.descriptor(f),
                  shape.cast(f),
                  shape.kind(f),
                  bits,
                  ref);
          host = t;
        } else {
          ops = reflective == null ? reflective = ops(-1) : reflective;
          put = new Op.PutField(cx.setter(t, sf), shape.kind(f), bits, ref);
          host = -1;
        }
        if (host != selectedHost) {
          ops.add(new Op.Select(id, host == t ? shape.owner : null));
          selectedHost = host;
        }
        ops.add(put);
      }
    }
  }
}
