package org.codese.plan;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.jvm.Kind;
import org.codese.jvm.SerialClass;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Constant.HookKind;
import org.codese.program.Tape;

/**
 * Turns a captured {@link Graph} into a {@link Plan}.
 *
 * <p>Objects whose identity is only known after their hooks ran (records, classes with {@code
 * readResolve}) are <em>late</em>: stores of references to them are deferred from the set phase to
 * the finish phase, just before the referring object's own hooks, which is when Java
 * deserialization would make them.
 */
public final class Planner {
  /** Primitive arrays with more non-default elements than this travel as cloned constants. */
  static final int INLINE_ARRAY_ELEMENTS = 16;

  /** The longest string, in modified UTF-8 bytes, that fits a class-file constant. */
  static final int MAX_CONSTANT_UTF8 = 65_535;

  /**
   * Groups of at least this many like statements become one counted loop over data instead of
   * straight-line code: loops are compiled on stack replacement during their first run, while
   * straight-line code runs interpreted once.
   */
  static final int LOOP_MIN = 32;

  /**
   * The most columns one cluster loop sets: each takes up to two locals, and the grammar uses only
   * locals below 256 (no {@code wide} instructions).
   */
  static final int MAX_COLUMNS = 100;

  private final Graph graph;
  private final Tables tables = new Tables();
  private final boolean[] late;
  private final List<Op> create = new ArrayList<>();
  private final java.util.Map<Integer, List<Op>> set = new java.util.LinkedHashMap<>();
  private final FinishProgram finish;
  private final Map<Integer, IntList> allocs = new LinkedHashMap<>();

  /**
   * The id arrays of the allocation loops, by constant: a cluster loop over the same ids shares.
   */
  private final Map<Integer, int[]> allocLoopIds = new LinkedHashMap<>();

  private final IntList stringIds = new IntList();
  private final List<String> strings = new ArrayList<>();
  private final Map<Class<?>, Cluster> clusters = new LinkedHashMap<>();

  /** In a segment, direct slots that refer to late objects: set one by one, not in a loop. */
  private final IntList lateSlotIds = new IntList();

  private final List<Node.SlotData> lateSlots = new ArrayList<>();
  private final Map<Integer, Boxes> boxes = new LinkedHashMap<>();
  private final int nullSlot;

  /** The fewest like allocations, strings, boxes or slots that become a loop over data. */
  private final int loopMin;

  /**
   * Objects whose slot of one class is set directly: the candidates for a {@link Op.ClusterLoop}.
   */
  private static final class Cluster {
    final Slot slot;
    final IntList ids = new IntList();
    final List<Node.SlotData> data = new ArrayList<>();

    Cluster(Slot slot) {
      this.slot = slot;
    }
  }

  /**
   * Boxes of one primitive kind made alike, all with {@code valueOf} or all with {@code new}: the
   * candidates for a {@link Op.BoxLoop}.
   */
  private static final class Boxes {
    final Kind type;
    final boolean cached;
    final IntList ids = new IntList();
    final List<Object> values = new ArrayList<>();

    Boxes(Kind type, boolean cached) {
      this.type = type;
      this.cached = cached;
    }
  }

  private Planner(Graph graph, int loopMin) {
    this.graph = graph;
    this.loopMin = loopMin;
    int n = graph.nodes().size();
    this.late = new boolean[n];
    this.finish = new FinishProgram(graph.firstId(), n);
    this.nullSlot = graph.endId();
    for (Node node : graph.nodes()) {
      late[node.id() - graph.firstId()] = isLate(node);
    }
  }

  /**
   * @param graph a captured graph or stream segment
   * @return its restore program
   */
  public static Plan plan(Graph graph) {
    return new Planner(graph, LOOP_MIN).run();
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
    return new Planner(graph, 1).run();
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

  private boolean isLate(int id) {
    return id >= graph.firstId() && late[id - graph.firstId()];
  }

  private Plan run() {
    for (Node node : graph.nodes()) {
      planCreateAndSet(node);
    }
    flushAllocs();
    flushStrings();
    flushBoxes();
    for (Cluster c : clusters.values()) {
      if (c.ids.size() >= loopMin) {
        clusterLoop(c);
      } else {
        for (int i = 0; i < c.ids.size(); i++) {
          directSlot(c.ids.get(i), c.data.get(i));
        }
      }
    }
    for (int i = 0; i < lateSlots.size(); i++) {
      directSlot(lateSlotIds.get(i), lateSlots.get(i));
    }
    for (int id : graph.postOrder()) {
      planFinish(graph.nodes().get(id - graph.firstId()));
    }
    List<Section> sections = new ArrayList<>();
    sections.add(new Section(0, -1, create));
    set.forEach((host, ops) -> sections.add(new Section(1, host, ops)));
    sections.add(new Section(2, -1, finishProgram()));
    return new Plan(
        graph.firstId(),
        graph.endId(),
        sections,
        tables.constants(),
        tables.classes(),
        graph.items(),
        graph.depth());
  }

  /** The finish phase as one {@link Op.RunSteps}, or nothing when it has no step. */
  private List<Op> finishProgram() {
    return finish.isEmpty() ? List.of() : List.of(new Op.RunSteps(intArray(finish.toArray())));
  }

  private List<Op> set(int host) {
    return set.computeIfAbsent(host, h -> new ArrayList<>());
  }

  /**
   * Whether generated code may be a nestmate of {@code c} and set its fields with {@code putfield}:
   * {@code c} must be in Codese's own module (on the class path, the same class loader), so that
   * the loader has full privilege access to it.
   */
  private static boolean nestable(Class<?> c) {
    return c.getModule() == Planner.class.getModule()
        && !c.isHidden()
        && c.getClassLoader() == Planner.class.getClassLoader();
  }

  private void planCreateAndSet(Node node) {
    int id = node.id();
    if (node instanceof Node.Text t) {
      if (modifiedUtf8Length(t.value()) <= MAX_CONSTANT_UTF8) {
        stringIds.add(id);
        strings.add(t.value());
      } else {
        create.add(new Op.NewString(id, null, tables.constant(new Constant.Text(t.value()))));
      }
    } else if (node instanceof Node.Box b) {
      Kind kind = Kind.primitive(unboxed(b.value().getClass()));
      Boxes group =
          boxes.computeIfAbsent(
              kind.descriptor() * 2 + (b.cached() ? 1 : 0), k -> new Boxes(kind, b.cached()));
      group.ids.add(id);
      group.values.add(b.value());
    } else if (node instanceof Node.Constant c) {
      create.add(new Op.LoadConstant(id, constantOf(c.value())));
    } else if (node instanceof Node.Array a) {
      array(a);
    } else if (node instanceof Node.External e) {
      int t = tables.type(e.type().type());
      allocs
          .computeIfAbsent(
              tables.constant(new Constant.Allocator(t, Constant.Mode.EXTERNAL)),
              k -> new IntList())
          .add(id);
    } else if (node instanceof Node.Instance i) {
      instance(i);
    }
  }

  static int modifiedUtf8Length(String s) {
    int n = s.length();
    if (n > MAX_CONSTANT_UTF8) {
      return n;
    }
    int len = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      len += (c >= 0x0001 && c <= 0x007F) ? 1 : (c <= 0x07FF ? 2 : 3);
    }
    return len;
  }

  private int constantOf(Object value) {
    if (value instanceof Class<?> c) {
      return tables.constant(new Constant.TypeRef(tables.type(c)));
    }
    if (value instanceof java.io.ObjectStreamClass osc) {
      return tables.constant(new Constant.StreamClassRef(tables.type(osc.forClass())));
    }
    Enum<?> e = (Enum<?>) value;
    return tables.constant(new Constant.EnumRef(tables.type(e.getDeclaringClass()), e.name()));
  }

  private static Class<?> unboxed(Class<?> box) {
    try {
      return (Class<?>) box.getField("TYPE").get(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("not a box class: " + box, e);
    }
  }

  private void array(Node.Array a) {
    tables.type(a.type());
    Class<?> comp = a.type().getComponentType();
    String desc = Types.descriptor(a.type());
    if (comp.isPrimitive()) {
      Kind kind = Kind.primitive(comp);
      int len = Array.getLength(a.elements());
      int nonDefault = 0;
      for (int i = 0; i < len && nonDefault <= INLINE_ARRAY_ELEMENTS; i++) {
        nonDefault += Types.bits(Array.get(a.elements(), i)) != 0 ? 1 : 0;
      }
      if (nonDefault > INLINE_ARRAY_ELEMENTS) {
        create.add(
            new Op.CloneArray(a.id(), tables.constant(new Constant.PrimArray(a.elements())), desc));
        return;
      }
      create.add(new Op.NewArray(a.id(), kind, -1, len));
      boolean selected = false;
      for (int i = 0; i < len; i++) {
        long bits = Types.bits(Array.get(a.elements(), i));
        if (bits != 0) {
          if (!selected) {
            set(-1).add(new Op.Select(a.id(), desc));
            selected = true;
          }
          set(-1).add(new Op.PutElement(kind, i, bits, -1));
        }
      }
      return;
    }
    int maker =
        comp == Object.class ? -1 : tables.constant(new Constant.ArrayMaker(tables.type(a.type())));
    int[] refs = (int[]) a.elements();
    create.add(new Op.NewArray(a.id(), Kind.REFERENCE, maker, refs.length));
    String objDesc = "[Ljava/lang/Object;";
    if (refs.length >= LOOP_MIN) {
      int[] column = new int[refs.length];
      for (int i = 0; i < refs.length; i++) {
        column[i] = nullSlot;
        if (refs[i] >= 0 && isLate(refs[i])) {
          finish.deferElement(a.id(), i, refs[i]);
        } else if (refs[i] >= 0) {
          column[i] = refs[i];
        }
      }
      set(-1).add(new Op.ElementLoop(a.id(), intArray(column)));
      return;
    }
    boolean selected = false;
    for (int i = 0; i < refs.length; i++) {
      if (refs[i] < 0) {
        continue;
      }
      if (isLate(refs[i])) {
        finish.deferElement(a.id(), i, refs[i]);
      } else {
        if (!selected) {
          set(-1).add(new Op.Select(a.id(), objDesc));
          selected = true;
        }
        set(-1).add(new Op.PutElement(Kind.REFERENCE, i, 0, refs[i]));
      }
    }
  }

  private void instance(Node.Instance node) {
    SerialClass sc = node.type();
    Constant.Mode mode =
        sc.alloc() == SerialClass.Alloc.SERIAL ? Constant.Mode.SERIAL : Constant.Mode.BARE;
    int allocator = tables.constant(new Constant.Allocator(tables.type(sc.type()), mode));
    allocs.computeIfAbsent(allocator, k -> new IntList()).add(node.id());
    for (Node.SlotData data : node.slots()) {
      Slot slot = data.slot();
      if (!slot.direct()) {
        continue;
      }
      if (loopMin == 1 && refersToLate(data)) {
        // in a segment, where loops set every field, a cluster loop would write null into the
        // late field before the finish phase writes the object: two stores into one field, one
        // more than the objects hold, which the program check refuses. A snapshot's loops keep
        // them: its objects leave enough fields unset, and setting each such object on its own
        // made the jdk-collections sample's code ten times larger (10 KB to 108 KB) and its cold
        // restore a third slower.
        lateSlotIds.add(node.id());
        lateSlots.add(data);
        continue;
      }
      Cluster c = clusters.computeIfAbsent(slot.type(), k -> new Cluster(slot));
      c.ids.add(node.id());
      c.data.add(data);
    }
  }

  private boolean refersToLate(Node.SlotData data) {
    for (int ref : data.refs()) {
      if (ref >= 0 && isLate(ref)) {
        return true;
      }
    }
    return false;
  }

  private void flushAllocs() {
    allocs.forEach(
        (allocator, ids) -> {
          if (ids.size() >= loopMin) {
            int[] values = ids.toArray();
            int k = intArray(values);
            allocLoopIds.put(k, values);
            create.add(new Op.AllocLoop(allocator, k));
          } else {
            for (int i = 0; i < ids.size(); i++) {
              create.add(new Op.Alloc(ids.get(i), allocator));
            }
          }
        });
  }

  private void flushStrings() {
    if (stringIds.size() >= loopMin) {
      create.add(
          new Op.StringLoop(
              intArray(stringIds.toArray()),
              tables.constant(new Constant.Texts(strings.toArray(new String[0])))));
    } else {
      for (int i = 0; i < stringIds.size(); i++) {
        create.add(new Op.NewString(stringIds.get(i), strings.get(i), -1));
      }
    }
  }

  private void flushBoxes() {
    for (Boxes group : boxes.values()) {
      int n = group.ids.size();
      if (n >= loopMin) {
        Object values = Array.newInstance(group.type.type(), n);
        for (int i = 0; i < n; i++) {
          Array.set(values, i, group.values.get(i));
        }
        create.add(
            new Op.BoxLoop(
                group.type,
                group.cached,
                intArray(group.ids.toArray()),
                tables.constant(new Constant.PrimArray(values))));
      } else {
        for (int i = 0; i < n; i++) {
          create.add(
              new Op.NewBox(
                  group.ids.get(i), group.type, Types.bits(group.values.get(i)), group.cached));
        }
      }
    }
  }

  /**
   * The constant of an allocation loop's ids when {@code ids} are the same, else a new one: the
   * snapshot then carries them once, and the loader knows the cluster's objects from the loop.
   */
  private int sharedIds(int[] ids) {
    for (Map.Entry<Integer, int[]> e : allocLoopIds.entrySet()) {
      if (Arrays.equals(e.getValue(), ids)) {
        return e.getKey();
      }
    }
    return intArray(ids);
  }

  private int intArray(int[] values) {
    return tables.constant(new Constant.PrimArray(values));
  }

  /**
   * Sets a cluster's fields in one loop, one column per field that is not at its default value
   * everywhere: with {@code putfield} in the class's nest where it may join it, through {@code
   * Field.set*} for final fields and classes it may not join. References to late objects are
   * deferred, their column entry left {@code null}.
   */
  private void clusterLoop(Cluster c) {
    Slot slot = c.slot;
    int t = tables.typeWithFields(slot.type(), slot.fields());
    boolean nest = nestable(slot.type());
    String owner = Types.internalName(slot.type());
    List<SerialField> fields = slot.fields();
    int n = c.ids.size();
    int nPrims = slot.primitiveCount();
    List<Op.Column> columns = new ArrayList<>();
    for (int f = 0; f < fields.size(); f++) {
      SerialField sf = fields.get(f);
      boolean reflective = !nest || Modifier.isFinal(sf.field().getModifiers());
      Kind kind = f < nPrims ? Kind.primitive(sf.type()) : Kind.REFERENCE;
      Object column = f < nPrims ? Array.newInstance(sf.type(), n) : new int[n];
      boolean any = false;
      for (int j = 0; j < n; j++) {
        Node.SlotData d = c.data.get(j);
        if (f < nPrims) {
          long bits = d.prims()[f];
          if (bits != 0) {
            Array.set(column, j, Types.box(kind.descriptor(), bits));
            any = true;
          }
        } else {
          int ref = d.refs()[f - nPrims];
          ((int[]) column)[j] = nullSlot;
          if (ref >= 0 && isLate(ref)) {
            finish.deferField(c.ids.get(j), setter(t, sf), ref);
          } else if (ref >= 0) {
            ((int[]) column)[j] = ref;
            any = true;
          }
        }
      }
      if (any || loopMin == 1) {
        // a stream segment sets every field, so that its code does not depend on which values
        // are zero and segments of one class share their classes
        columns.add(
            new Op.Column(
                sf.name(),
                sf.descriptor(),
                castFor(sf.type()),
                kind,
                tables.constant(new Constant.PrimArray(column)),
                reflective ? setter(t, sf) : -1));
      }
    }
    int ids = sharedIds(c.ids.toArray());
    for (int from = 0; from < columns.size(); from += MAX_COLUMNS) {
      List<Op.Column> part = columns.subList(from, Math.min(columns.size(), from + MAX_COLUMNS));
      boolean anyPutfield = part.stream().anyMatch(col -> !col.reflective());
      set(anyPutfield ? t : -1)
          .add(new Op.ClusterLoop(anyPutfield ? owner : null, ids, List.copyOf(part)));
    }
  }

  private void directSlot(int id, Node.SlotData data) {
    Slot slot = data.slot();
    int t = tables.typeWithFields(slot.type(), slot.fields());
    boolean nest = nestable(slot.type());
    String owner = Types.internalName(slot.type());
    List<SerialField> fields = slot.fields();
    int nPrims = data.prims().length;
    Op select = null;
    int selectedHost = Integer.MIN_VALUE;
    for (int f = 0; f < fields.size(); f++) {
      SerialField sf = fields.get(f);
      Kind kind = f < nPrims ? Kind.primitive(sf.type()) : Kind.REFERENCE;
      long bits = f < nPrims ? data.prims()[f] : 0;
      int ref = f < nPrims ? -1 : data.refs()[f - nPrims];
      if (f < nPrims ? bits == 0 : ref < 0) {
        continue;
      }
      if (ref >= 0 && isLate(ref)) {
        finish.deferField(id, setter(t, sf), ref);
        continue;
      }
      boolean direct = nest && !Modifier.isFinal(sf.field().getModifiers());
      Op put =
          direct
              ? new Op.PutDirect(
                  owner, sf.name(), sf.descriptor(), castFor(sf.type()), kind, bits, ref)
              : new Op.PutField(setter(t, sf), kind, bits, ref);
      int host = direct ? t : -1;
      if (host != selectedHost) {
        select = new Op.Select(id, direct ? owner : null);
        set(host).add(select);
        selectedHost = host;
      }
      set(host).add(put);
    }
  }

  /** The cast a reference needs before {@code putfield}: none for Object and interfaces. */
  private static String castFor(Class<?> type) {
    return type == Object.class || type.isInterface() ? null : Types.internalName(type);
  }

  private int setter(int type, SerialField f) {
    return tables.constant(new Constant.Setter(type, f.name(), f.descriptor()));
  }

  private void planFinish(Node node) {
    finish.complete(node.id());
    if (node instanceof Node.Instance i) {
      for (Node.SlotData data : i.slots()) {
        if (!data.slot().direct()) {
          Slot slot = data.slot();
          int t = tables.typeWithFields(slot.type(), slot.fields());
          Tape tape = data.tape() != null ? data.tape() : fieldsTape(slot, data);
          hook(HookKind.SLOT, t, i.id(), tape);
        }
      }
      resolve(i.type(), i.id());
    } else if (node instanceof Node.External e) {
      hook(HookKind.EXTERNAL, tables.type(e.type().type()), e.id(), e.tape());
      resolve(e.type(), e.id());
    } else if (node instanceof Node.Record r) {
      List<SerialField> fields = r.type().recordFields();
      int t = tables.typeWithFields(r.type().type(), fields);
      hook(HookKind.RECORD, t, r.id(), fieldsTape(fields, r.prims(), r.refs()));
      resolve(r.type(), r.id());
    }
  }

  private void resolve(SerialClass sc, int id) {
    if (sc.resolves()) {
      hook(HookKind.RESOLVE, tables.type(sc.type()), id, null);
    }
  }

  private void hook(HookKind kind, int type, int id, Tape tape) {
    finish.hook(tables.constant(new Constant.Hook(kind, type, id, tape)));
  }

  private static Tape fieldsTape(Slot slot, Node.SlotData data) {
    return fieldsTape(slot.fields(), data.prims(), data.refs());
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
