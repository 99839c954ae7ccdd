package org.codese.plan;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codese.capture.ClassRows;
import org.codese.capture.Node;
import org.codese.jvm.Kind;
import org.codese.jvm.SerialClass;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Fills;
import org.codese.program.Grammar;

/**
 * Plans the create phase: one table slot filled per object, by allocation, string, box, constant or
 * array, grouped into {@link Op.AllocLoop}s, {@link Op.StringLoop}s and {@link Op.BoxLoop}s where
 * {@code loopMin} or more are alike.
 *
 * <p>Contract: {@link #node} takes each node in graph order, passing the direct slots of instances
 * to the {@link SetPhase} and the element stores of arrays to it or, for late elements, to the
 * {@link FinishProgram}; {@link #flush} then adds the grouped allocations, strings and boxes. The
 * create phase runs in Codese's own package only.
 */
final class CreatePhase {
  /** Primitive arrays with more non-default elements than this travel as cloned constants. */
  static final int INLINE_ARRAY_ELEMENTS = 16;

  /** The longest string, in modified UTF-8 bytes, that fits a class-file constant. */
  static final int MAX_CONSTANT_UTF8 = 65_535;

  private static final String OBJECT_ARRAY = "[Ljava/lang/Object;";

  private final PlanContext cx;
  private final SetPhase set;
  private final FinishProgram finish;
  private final List<Op> ops = new ArrayList<>();
  private final Map<Integer, IntList> allocs = new LinkedHashMap<>();
  private final IntList stringIds = new IntList();
  private final List<String> strings = new ArrayList<>();
  private final Map<Integer, Boxes> boxes = new LinkedHashMap<>();

  /** With {@link PlanContext#arraysAsData}: the arrays by element kind and maker, in order. */
  private final Map<Long, Arrays> arrays = new LinkedHashMap<>();

  /** The values, made by a create program of their own. */
  private final ValueData values;

  /**
   * Boxes of one primitive kind made alike, all with {@code valueOf} or all with {@code new}: the
   * candidates for a {@link Op.BoxLoop}.
   */
  private static final class Boxes {
    final Kind type;
    final boolean cached;
    final IntList ids = new IntList();

    /** The values' raw bits, in the order of {@link #ids}. */
    long[] bits = new long[8];

    Boxes(Kind type, boolean cached) {
      this.type = type;
      this.cached = cached;
    }

    void add(int id, long value) {
      if (ids.size() == bits.length) {
        bits = java.util.Arrays.copyOf(bits, 2 * bits.length);
      }
      bits[ids.size()] = value;
      ids.add(id);
    }
  }

  /** The groups of {@link #boxes} by kind ordinal times two plus one if cached: no boxed key. */
  private final Boxes[] boxGroups = new Boxes[2 * Kind.values().length];

  CreatePhase(PlanContext cx, SetPhase set, FinishProgram finish) {
    this.cx = cx;
    this.set = set;
    this.finish = finish;
    this.values = new ValueData(cx);
  }

  /** The create phase's ops, complete after {@link #flush}. */
  List<Op> ops() {
    return ops;
  }

  /** Plans how {@code node} is made, and hands on its direct slots and array elements. */
  void node(Node node) {
    int id = node.id();
    if (node instanceof Node.Text t) {
      // at most three bytes a char: most strings need no count
      if (t.value().length() <= MAX_CONSTANT_UTF8 / 3
          || modifiedUtf8Length(t.value()) <= MAX_CONSTANT_UTF8) {
        stringIds.add(id);
        strings.add(t.value());
      } else {
        ops.add(new Op.NewString(id, null, cx.tables.constant(new Constant.Text(t.value()))));
      }
    } else if (node instanceof Node.Box b) {
      box(b);
    } else if (node instanceof Node.Constant c) {
      ops.add(new Op.LoadConstant(id, constantOf(c.value())));
    } else if (node instanceof Node.Value v) {
      values.add(v);
    } else if (node instanceof Node.Global g) {
      Constant k =
          g.owner() == null
              ? new Constant.NamedRef(g.name())
              : new Constant.StaticRef(cx.tables.type(g.owner()), g.name());
      ops.add(new Op.LoadConstant(id, cx.tables.constant(k)));
    } else if (node instanceof Node.Array a) {
      array(a);
    } else if (node instanceof Node.External e) {
      cx.finishes(id);
      int t = cx.tables.type(e.type().type());
      allocate(cx.tables.constant(new Constant.Allocator(t, Constant.Mode.EXTERNAL)), id);
    } else if (node instanceof Node.Instance i) {
      instance(i);
    } else if (node instanceof Node.Record) {
      cx.finishes(id); // made by its hook in the finish phase
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
      return cx.tables.constant(new Constant.TypeRef(cx.tables.type(c)));
    }
    if (value instanceof java.io.ObjectStreamClass osc) {
      return cx.tables.constant(new Constant.StreamClassRef(cx.tables.type(osc.forClass())));
    }
    Enum<?> e = (Enum<?>) value;
    return cx.tables.constant(
        new Constant.EnumRef(cx.tables.type(e.getDeclaringClass()), e.name()));
  }

  /** Adds box {@code b} to the group of its kind and way, in the order groups first appear. */
  private void box(Node.Box b) {
    int slot = 2 * b.kind().ordinal() + (b.cached() ? 1 : 0);
    Boxes group = boxGroups[slot];
    if (group == null) {
      group = new Boxes(b.kind(), b.cached());
      boxGroups[slot] = group;
      boxes.put(b.kind().descriptor() * 2 + (b.cached() ? 1 : 0), group);
    }
    group.add(b.id(), b.bits());
  }

  private void allocate(int allocator, int id) {
    allocsOf(allocator).add(id);
  }

  /** The ids allocator {@code allocator} allocates (no lambda: see {@code Planner}). */
  private IntList allocsOf(int allocator) {
    IntList ids = allocs.get(allocator);
    if (ids == null) {
      ids = new IntList();
      allocs.put(allocator, ids);
    }
    return ids;
  }

  /**
   * The class whose objects {@link #instance} allocated last, and that allocation's list: objects
   * of one class mostly come in runs, and the class table, the allocator constant and the list
   * would be the same for every one of them (asking again only finds what the first one added).
   */
  private SerialClass lastInstanceType;

  private IntList lastInstanceAllocs;

  private void instance(Node.Instance node) {
    if (cx.immutable(node) != null || cx.factory(node) != null) {
      cx.finishes(node.id()); // made by its step in the finish phase
      return;
    }
    CollectionFill fill = cx.fill(node);
    if (fill != null || node.type().resolves() || hasSlotData(node)) {
      cx.finishes(node.id());
    }
    if (fill != null) {
      // with a superclass's descriptor, which a JDK stream holds (a LinkedHashMap's HashMap)
      int t = cx.tables.typeWithSlots(node.type());
      for (String name : Fills.streamOnlyClasses(fill.type())) {
        cx.tables.type(bootClass(name)); // a ConcurrentHashMap's segments and their locks
      }
      // an EnumMap is made with its key type, whose class-table index stands for the capacity
      int capacity = fill.keyType() != null ? cx.tables.type(fill.keyType()) : fill.capacity();
      allocate(cx.tables.constant(new Constant.Sized(t, capacity)), node.id());
      return; // the finish program fills it; none of its slots sets a field
    }
    allocateWithSlots(node.id(), node.type(), node.rows(), node.row());
  }

  /**
   * Plans object {@code id} of a plain class ({@link org.codese.capture.Nodes}): what {@link
   * #instance} plans for its node, which would be no immutable, factory or collection fill, not
   * resolve and have no slot data, so that nothing is asked of it but its rows.
   *
   * @param id its id
   * @param template its class's template node (id and row -1)
   * @param row its row in {@code template.rows()}
   */
  void plain(int id, Node.Instance template, int row) {
    allocateWithSlots(id, template.type(), template.rows(), row);
  }

  /**
   * Allocates object {@code id} of class {@code sc} with its class's allocator, and hands its
   * direct slots (in row {@code row} of {@code rows}, if it has any) to the set phase.
   */
  private void allocateWithSlots(int id, SerialClass sc, ClassRows rows, int row) {
    if (sc != lastInstanceType) {
      Constant.Mode mode =
          sc.alloc() == SerialClass.Alloc.SERIAL ? Constant.Mode.SERIAL : Constant.Mode.BARE;
      int allocator = cx.tables.constant(new Constant.Allocator(cx.tables.type(sc.type()), mode));
      lastInstanceAllocs = allocsOf(allocator);
      lastInstanceType = sc;
      if (rows != null && lastInstanceAllocs.size() == 0) {
        // every object of the class, at most: one growth, not one per doubling
        lastInstanceAllocs.reserve(rows.size());
      }
    }
    lastInstanceAllocs.add(id);
    if (rows != null) {
      List<Slot> slots = sc.slots();
      for (int s = 0; s < slots.size(); s++) {
        Slot slot = slots.get(s);
        if (slot.direct()) {
          set.slot(id, slot, rows, row, s);
        }
      }
    }
  }

  /** A class of {@code java.base} by its binary name, not initialised. */
  private static Class<?> bootClass(String name) {
    try {
      return Class.forName(name, false, null);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(name + " is missing from this JDK", e);
    }
  }

  /** Whether a slot of {@code node} is not direct: the finish phase runs its hook. */
  private static boolean hasSlotData(Node.Instance node) {
    for (Node.SlotData data : node.slots()) {
      if (data != null) {
        return true;
      }
    }
    return false;
  }

  private void array(Node.Array a) {
    cx.tables.type(a.type());
    if (a.type().getComponentType().isPrimitive()) {
      primitiveArray(a);
    } else {
      objectArray(a);
    }
  }

  /**
   * A clone of a constant when it has many non-default elements, else {@code newarray} and, in the
   * set phase, a store per non-default element.
   */
  private void primitiveArray(Node.Array a) {
    String desc = Types.descriptor(a.type());
    Kind kind = Kind.primitive(a.type().getComponentType());
    int len = Array.getLength(a.elements());
    if (cx.arraysAsData) {
      arrays(kind.descriptor(), -1).add(a.id(), a.elements(), len);
      return;
    }
    int nonDefault = 0;
    for (int i = 0; i < len && nonDefault <= INLINE_ARRAY_ELEMENTS; i++) {
      nonDefault += Types.bits(Array.get(a.elements(), i)) != 0 ? 1 : 0;
    }
    if (nonDefault > INLINE_ARRAY_ELEMENTS) {
      ops.add(
          new Op.CloneArray(
              a.id(), cx.tables.constant(new Constant.PrimArray(a.elements())), desc));
      return;
    }
    ops.add(new Op.NewArray(a.id(), kind, -1, len));
    boolean selected = false;
    for (int i = 0; i < len; i++) {
      long bits = Types.bits(Array.get(a.elements(), i));
      if (bits != 0) {
        if (!selected) {
          set.ops(-1).add(new Op.Select(a.id(), desc));
          selected = true;
        }
        set.ops(-1).add(new Op.PutElement(kind, i, bits, -1));
      }
    }
  }

  /**
   * {@code anewarray} or {@code Array.newInstance}, and in the set phase the element stores, as an
   * {@link Op.ElementLoop} for {@link Planner#LOOP_MIN} or more elements; stores of late elements
   * are deferred.
   */
  private void objectArray(Node.Array a) {
    int maker =
        a.type().getComponentType() == Object.class
            ? -1
            : cx.tables.constant(new Constant.ArrayMaker(cx.tables.type(a.type())));
    int[] refs = (int[]) a.elements();
    if (cx.arraysAsData) {
      // made from data, filled from data: the finish program stores the elements at the array's
      // completion, before any hook of an object that holds it could read them
      arrays('L', maker).add(a.id(), null, refs.length);
      for (int i = 0; i < refs.length; i++) {
        if (refs[i] >= 0) {
          finish.deferElement(a.id(), i, refs[i]);
        }
      }
      return;
    } else {
      ops.add(new Op.NewArray(a.id(), Kind.REFERENCE, maker, refs.length));
    }
    if (refs.length >= Planner.LOOP_MIN) {
      int[] column = new int[refs.length];
      for (int i = 0; i < refs.length; i++) {
        column[i] = cx.nullSlot;
        if (refs[i] >= 0 && cx.isLate(refs[i])) {
          finish.deferElement(a.id(), i, refs[i]);
        } else if (refs[i] >= 0) {
          column[i] = refs[i];
        }
      }
      set.ops(-1).add(new Op.ElementLoop(a.id(), cx.intArray(column)));
      return;
    }
    boolean selected = false;
    for (int i = 0; i < refs.length; i++) {
      if (refs[i] < 0) {
        continue;
      }
      if (cx.isLate(refs[i])) {
        finish.deferElement(a.id(), i, refs[i]);
      } else {
        if (!selected) {
          set.ops(-1).add(new Op.Select(a.id(), OBJECT_ARRAY));
          selected = true;
        }
        set.ops(-1).add(new Op.PutElement(Kind.REFERENCE, i, 0, refs[i]));
      }
    }
  }

  /** Adds the allocations, strings and boxes taken, each group as one loop when large enough. */
  void flush() {
    flushAllocs();
    flushStrings();
    flushBoxes();
    flushArrays();
    Op valueProgram = values.flush();
    if (valueProgram != null) {
      ops.add(valueProgram);
    }
  }

  private Arrays arrays(char kind, int maker) {
    long key = ((long) kind << 32) | (maker & 0xffffffffL);
    Arrays a = arrays.get(key);
    if (a == null) {
      a = new Arrays(kind, maker);
      arrays.put(key, a);
    }
    return a;
  }

  /** The create program of {@link Grammar#STEP_ARRAYS} steps, one per element kind and maker. */
  private void flushArrays() {
    if (arrays.isEmpty()) {
      return;
    }
    IntList program = new IntList();
    for (Arrays group : arrays.values()) {
      int source = group.maker;
      if (group.kind != 'L') {
        Object data = group.data();
        source = data == null ? -1 : cx.tables.constant(new Constant.PrimArray(data));
      }
      program.add(Grammar.STEP_ARRAYS);
      program.add(group.kind);
      program.add(source);
      program.add(group.ids.size());
      for (int i = 0; i < group.ids.size(); i++) {
        program.add(group.ids.get(i));
        program.add(group.lengths.get(i));
        program.add(group.offsets.get(i));
      }
    }
    ops.add(new Op.RunSteps(cx.intArray(program.toArray())));
  }

  /**
   * The arrays of one element kind (and, for references, one array maker) a create program makes:
   * ids, lengths, and for primitive arrays with a non-zero element the offset of their elements in
   * the group's data (-1: all zero).
   */
  private static final class Arrays {
    final char kind;
    final int maker;
    final IntList ids = new IntList();
    final IntList lengths = new IntList();
    final IntList offsets = new IntList();
    private final List<Object> parts = new ArrayList<>();
    private int size;

    /** Arrays up to this long are checked for all-zero elements, which then need no data. */
    private static final int SCANNED_LENGTH = 64;

    Arrays(char kind, int maker) {
      this.kind = kind;
      this.maker = maker;
    }

    void add(int id, Object elements, int length) {
      ids.add(id);
      lengths.add(length);
      // a long array is taken as having data without looking: the scan boxes every element
      if (elements != null && (length > SCANNED_LENGTH || !allDefault(elements, length))) {
        offsets.add(size);
        parts.add(elements);
        size += length;
      } else {
        offsets.add(-1);
      }
    }

    private static boolean allDefault(Object elements, int length) {
      for (int i = 0; i < length; i++) {
        if (Types.bits(Array.get(elements, i)) != 0) {
          return false;
        }
      }
      return true;
    }

    /** The elements of the arrays with data, one after the other, or {@code null} if none. */
    Object data() {
      if (parts.isEmpty()) {
        return null;
      }
      Object data = Array.newInstance(parts.get(0).getClass().getComponentType(), size);
      int at = 0;
      for (Object part : parts) {
        int n = Array.getLength(part);
        System.arraycopy(part, 0, data, at, n);
        at += n;
      }
      return data;
    }
  }

  private void flushAllocs() {
    for (Map.Entry<Integer, IntList> e : allocs.entrySet()) {
      IntList ids = e.getValue();
      boolean collection = cx.tables.constantAt(e.getKey()) instanceof Constant.Sized;
      if (ids.size() >= cx.loopMin) {
        ops.add(new Op.AllocLoop(e.getKey(), cx.allocLoopIds(ids.toArray()), collection));
      } else {
        for (int i = 0; i < ids.size(); i++) {
          ops.add(new Op.Alloc(ids.get(i), e.getKey(), collection));
        }
      }
    }
  }

  private void flushStrings() {
    if (stringIds.size() >= cx.loopMin) {
      ops.add(
          new Op.StringLoop(
              cx.intArray(stringIds.toArray()),
              cx.tables.constant(new Constant.Texts(strings.toArray(new String[0])))));
    } else {
      for (int i = 0; i < stringIds.size(); i++) {
        ops.add(new Op.NewString(stringIds.get(i), strings.get(i), -1));
      }
    }
  }

  private void flushBoxes() {
    for (Boxes group : boxes.values()) {
      int n = group.ids.size();
      if (n >= cx.loopMin) {
        Object values = Array.newInstance(group.type.type(), n);
        for (int i = 0; i < n; i++) {
          Types.setBits(values, i, group.bits[i]);
        }
        ops.add(
            new Op.BoxLoop(
                group.type,
                group.cached,
                cx.intArray(group.ids.toArray()),
                cx.tables.constant(new Constant.PrimArray(values))));
      } else {
        for (int i = 0; i < n; i++) {
          ops.add(new Op.NewBox(group.ids.get(i), group.type, group.bits[i], group.cached));
        }
      }
    }
  }
}
