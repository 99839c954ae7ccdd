package org.codese.capture;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.codese.CaptureException;
import org.codese.CodeseOptions;
import org.codese.jvm.FieldValues;
import org.codese.jvm.SerialClass;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.SlotFields;
import org.codese.program.Tape;

/**
 * Traverses object graphs without recursion and records them as {@link Node}s.
 *
 * <p>One capturer serves one capture, or one {@code CodeseOutputStream}: call {@link #writeObject},
 * then {@link #drain()} to take the segment captured so far. Object identity is shared across calls
 * until {@link #reset()}. Not thread-safe.
 */
public final class Capturer {
  private static final Object NULL_REPLACEMENT = new Object();

  private final CodeseOptions options;
  private final Map<Object, Integer> ids = new IdentityHashMap<>();
  private final List<Object> discovered = new ArrayList<>();
  private final List<Node> nodes = new ArrayList<>();
  private final PathLog paths = new PathLog();
  private int firstId;
  private int[] postOrder = new int[16];
  private int postSize;
  private TapeBuilder items = new TapeBuilder();
  private int topLevel;
  private int depth;

  /** The first id the current top-level {@link #writeObject} call assigns. */
  private int writeStart;

  /** Ids below {@link #writeStart} the current call referred to, each once. */
  private int[] backRefs = new int[8];

  private int backRefCount;
  private final BitSet backRefSeen = new BitSet();

  /**
   * What {@code writeReplace} gave for objects written unshared: as {@code ObjectOutputStream}
   * does, a later write of the same object writes that replacement again (as a new object, since
   * the unshared copy cannot be referred to) instead of calling {@code writeReplace} again.
   */
  private final Map<Object, Object> unsharedReplacements = new IdentityHashMap<>();

  /**
   * @param options capture settings
   */
  public Capturer(CodeseOptions options) {
    this.options = options;
  }

  /**
   * Captures the graph reachable from {@code obj} as the next top-level object.
   *
   * @param obj the object, or {@code null}
   * @param unshared whether {@code obj} itself is written as a new object even if seen before
   * @throws CaptureException if an object cannot be captured
   * @throws IOException if a class's own {@code writeObject} fails
   */
  public void writeObject(Object obj, boolean unshared) throws IOException {
    int mark = discovered.size();
    int postMark = postSize;
    writeStart = firstId + mark;
    try {
      int id = ref(obj, -1, "root" + (topLevel == 0 ? "" : "#" + topLevel), unshared);
      traverse(id);
      topLevel++;
      for (int i = 0; i < backRefCount; i++) {
        items.backReference(backRefs[i]);
      }
      items.object(id);
    } catch (IOException | RuntimeException | Error e) {
      rollback(mark, postMark);
      throw e;
    } finally {
      for (int i = 0; i < backRefCount; i++) {
        backRefSeen.clear(backRefs[i]);
      }
      backRefCount = 0;
    }
  }

  /** Notes that the current top-level call refers to {@code id}; returns {@code id}. */
  private int known(int id) {
    if (id < writeStart && !backRefSeen.get(id)) {
      backRefSeen.set(id);
      if (backRefCount == backRefs.length) {
        backRefs = Arrays.copyOf(backRefs, backRefCount * 2);
      }
      backRefs[backRefCount++] = id;
    }
    return id;
  }

  /**
   * Forgets everything a failed {@link #writeObject} captured, so that the stream stays usable and
   * its next segment holds only completed objects.
   */
  private void rollback(int mark, int postMark) {
    int firstLost = firstId + mark;
    ids.values().removeIf(id -> id >= firstLost);
    discovered.subList(mark, discovered.size()).clear();
    nodes.subList(mark, nodes.size()).clear();
    postSize = postMark;
  }

  /**
   * Forgets object identity: objects written from now on are captured anew, and the ids of the next
   * segment start again at 0 (the reader forgets its table at the same point).
   *
   * @throws IllegalStateException if a segment is pending: {@link #drain()} it first
   */
  public void reset() {
    if (hasPending() || !nodes.isEmpty()) {
      throw new IllegalStateException("reset with a segment pending; drain it first");
    }
    ids.clear();
    unsharedReplacements.clear();
    firstId = 0;
  }

  /**
   * @return how many objects (and {@code writeReplace} originals) the capturer remembers for later
   *     references: all written since the last {@link #reset()}
   */
  public int knownObjects() {
    return ids.size();
  }

  /**
   * @return whether anything was written since the last {@link #drain()}
   */
  public boolean hasPending() {
    return !items.isEmpty();
  }

  /**
   * Takes everything captured since the previous drain as one segment.
   *
   * @return the segment
   */
  public Graph drain() {
    if (nodes.contains(null)) {
      throw new IllegalStateException("capture left objects unexpanded");
    }
    Graph g =
        new Graph(
            firstId, List.copyOf(nodes), Arrays.copyOf(postOrder, postSize), items.build(), depth);
    depth = 0;
    firstId += nodes.size();
    nodes.clear();
    discovered.clear();
    postSize = 0;
    items = new TapeBuilder();
    paths.clear();
    return g;
  }

  /**
   * Assigns an id to {@code obj}, applying {@code writeReplace}; the object's contents are captured
   * later, when the traversal reaches it.
   */
  int ref(Object obj, int parent, Object label, boolean unshared) throws IOException {
    if (obj == null) {
      return -1;
    }
    if (!unsharedReplacements.isEmpty()) {
      Object written = unsharedReplacements.get(obj);
      obj = written != null ? written : obj;
    }
    Integer known = unshared ? null : ids.get(obj);
    if (known != null) {
      return known(known);
    }
    Object rep = replace(obj, parent, label);
    if (rep == NULL_REPLACEMENT) {
      return -1;
    }
    if (rep != obj && unshared) {
      unsharedReplacements.put(obj, rep);
    }
    if (rep != obj && !unshared) {
      Integer seen = ids.get(rep);
      if (seen != null) {
        ids.put(obj, seen);
        return known(seen);
      }
    }
    int id = firstId + discovered.size();
    SerialClass sc = SerialClass.of(rep.getClass());
    paths.record(id, parent, label);
    check(sc, id);
    if (!unshared) {
      ids.put(obj, id);
      ids.put(rep, id);
    }
    discovered.add(rep);
    nodes.add(null);
    return id;
  }

  private boolean needsExpansion(int id) {
    return id >= firstId && nodes.get(id - firstId) == null;
  }

  private Object replace(Object obj, int parent, Object label) throws IOException {
    Object cur = obj;
    SerialClass sc = SerialClass.of(cur.getClass());
    while (sc.writeReplace() != null) {
      Object next = invoke(sc.writeReplace(), cur, parent, label);
      if (next == null) {
        return NULL_REPLACEMENT;
      }
      if (next.getClass() == cur.getClass()) {
        return next;
      }
      cur = next;
      sc = SerialClass.of(cur.getClass());
    }
    return cur;
  }

  private Object invoke(MethodHandle writeReplace, Object obj, int parent, Object label)
      throws IOException {
    try {
      return writeReplace.invoke(obj);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IOException("writeReplace of " + obj.getClass().getName() + " failed", t);
    }
  }

  private void check(SerialClass sc, int id) throws IOException {
    if (options.requireSerializable()
        && !sc.serializable()
        && sc.kind() != SerialClass.Kind.ARRAY) {
      throw new NotSerializableException(
          sc.type().getName()
              + " (at "
              + paths.path(id)
              + "; Serializable is required, as ObjectOutputStream requires it; "
              + (sc.problem() == null
                  ? "CodeseOptions.withRequireSerializable(false) captures it)"
                  : "mark the field that holds it transient (or make it static), or keep the"
                      + " object out of the graph: Codese cannot capture it without the"
                      + " requirement either)"));
    }
    if (sc.problem() != null) {
      throw new CaptureException(paths.path(id), sc.type().getName(), sc.problem());
    }
  }

  /** Depth-first traversal from {@code rootId} with an explicit stack, in the JDK's order. */
  private void traverse(int rootId) throws IOException {
    if (rootId < 0 || !needsExpansion(rootId)) {
      return;
    }
    int[] stack = new int[64];
    int[][] children = new int[64][];
    int[] pos = new int[64];
    int top = 0;
    depth = Math.max(depth, 1);
    stack[0] = rootId;
    children[0] = expand(rootId);
    pos[0] = 0;
    while (top >= 0) {
      int[] ch = children[top];
      if (pos[top] < ch.length) {
        int c = ch[pos[top]++];
        if (needsExpansion(c)) {
          depth = Math.max(depth, top + 2);
          if (++top == stack.length) {
            stack = Arrays.copyOf(stack, top * 2);
            pos = Arrays.copyOf(pos, top * 2);
            children = Arrays.copyOf(children, top * 2);
          }
          stack[top] = c;
          pos[top] = 0;
          children[top] = expand(c);
        }
      } else {
        children[top] = null;
        addPost(stack[top--]);
      }
    }
  }

  private void addPost(int id) {
    if (postSize == postOrder.length) {
      postOrder = Arrays.copyOf(postOrder, postSize * 2);
    }
    postOrder[postSize++] = id;
  }

  /**
   * Captures the contents of discovered object {@code id}; returns the ids of the objects it refers
   * to, in the JDK's order.
   */
  private int[] expand(int id) throws IOException {
    Object obj = discovered.set(id - firstId, null);
    SerialClass sc = SerialClass.of(obj.getClass());
    ChildList children = new ChildList();
    Node node;
    switch (sc.kind()) {
      case STRING -> node = new Node.Text(id, (String) obj);
      case BOX -> node = new Node.Box(id, obj, isCached(obj));
      case ENUM, CLASS -> {
        if (obj instanceof java.io.ObjectStreamClass osc && osc.forClass() == null) {
          throw new CaptureException(
              paths.path(id),
              obj.getClass().getName(),
              "a class descriptor without a local class cannot be captured");
        }
        node = new Node.Constant(id, obj);
      }
      case ARRAY -> node = array(id, obj, children);
      case RECORD -> node = record(id, sc, obj, children);
      case EXTERNALIZABLE -> node = external(id, sc, obj, children);
      default -> node = instance(id, sc, obj, children);
    }
    nodes.set(id - firstId, node);
    return children.toArray();
  }

  private static boolean isCached(Object box) {
    if (box instanceof Integer i) {
      return Integer.valueOf(i.intValue()) == box;
    } else if (box instanceof Long l) {
      return Long.valueOf(l.longValue()) == box;
    } else if (box instanceof Short s) {
      return Short.valueOf(s.shortValue()) == box;
    } else if (box instanceof Byte b) {
      return Byte.valueOf(b.byteValue()) == box;
    } else if (box instanceof Character c) {
      return Character.valueOf(c.charValue()) == box;
    } else if (box instanceof Boolean b) {
      return Boolean.valueOf(b.booleanValue()) == box;
    }
    return false;
  }

  private Node array(int id, Object obj, ChildList children) throws IOException {
    Class<?> type = obj.getClass();
    int len = Array.getLength(obj);
    if (type.getComponentType().isPrimitive()) {
      Object copy = Array.newInstance(type.getComponentType(), len);
      System.arraycopy(obj, 0, copy, 0, len);
      return new Node.Array(id, type, copy);
    }
    Object[] elems = (Object[]) obj;
    int[] refs = new int[len];
    for (int i = 0; i < len; i++) {
      refs[i] = ref(elems[i], id, i, false);
      children.add(refs[i]);
    }
    return new Node.Array(id, type, refs);
  }

  private Node record(int id, SerialClass sc, Object obj, ChildList children) throws IOException {
    List<SerialField> fields = sc.recordFields();
    int nPrims = 0;
    for (SerialField f : fields) {
      nPrims += f.primitive() ? 1 : 0;
    }
    long[] prims = new long[nPrims];
    int[] refs = new int[fields.size() - nPrims];
    try {
      for (int i = 0; i < fields.size(); i++) {
        SerialField f = fields.get(i);
        Object v = f.field().get(obj);
        if (i < nPrims) {
          prims[i] = org.codese.jvm.Types.bits(v);
        } else {
          refs[i - nPrims] = ref(v, id, f.name(), false);
          children.add(refs[i - nPrims]);
        }
      }
    } catch (IllegalAccessException e) {
      throw new CaptureException(
          paths.path(id),
          sc.type().getName(),
          "its record components are not accessible: " + e.getMessage());
    }
    return new Node.Record(id, sc, prims, refs);
  }

  private Node external(int id, SerialClass sc, Object obj, ChildList children) throws IOException {
    CaptureStream out = new CaptureStream(this, id, obj, null);
    ((java.io.Externalizable) obj).writeExternal(out);
    Tape tape = out.finish();
    children.addObjects(tape);
    return new Node.External(id, sc, tape);
  }

  private Node instance(int id, SerialClass sc, Object obj, ChildList children) throws IOException {
    List<Slot> slots = sc.slots();
    Node.SlotData[] data = new Node.SlotData[slots.size()];
    for (int s = 0; s < data.length; s++) {
      Slot slot = slots.get(s);
      if (slot.writeObject() != null) {
        CaptureStream out = new CaptureStream(this, id, obj, slot);
        out.runWriteObject();
        Tape tape = out.finish();
        children.addObjects(tape);
        data[s] = new Node.SlotData(slot, null, null, tape);
      } else {
        FieldValues v = defaultFields(id, slot, obj);
        int[] refs = fieldRefs(id, slot, v);
        for (int ref : refs) {
          children.add(ref);
        }
        data[s] = new Node.SlotData(slot, v.prims(), refs, null);
      }
    }
    return new Node.Instance(id, sc, data);
  }

  /**
   * The values the JDK's default field writing ({@code defaultWriteObject}, or a class without
   * {@code writeObject}) writes for one slot of object {@code id}.
   *
   * @throws InvalidClassException as {@code ObjectOutputStream} throws it, if the slot's {@code
   *     serialPersistentFields} name fields no declared field backs: only {@code putFields} can
   *     write those
   * @throws IOException if the fields cannot be read
   */
  FieldValues defaultFields(int id, Slot slot, Object obj) throws IOException {
    List<String> unbacked = slot.unbackedFields();
    if (!unbacked.isEmpty()) {
      throw new InvalidClassException(
          slot.type().getName(),
          "unmatched serializable field(s)"
              + " declared: serialPersistentFields names "
              + String.join(", ", unbacked)
              + ", which"
              + " no non-static field of that name and type backs, so the default field writing"
              + " cannot write them (at "
              + paths.path(id)
              + "); declare the fields, or write them"
              + " in writeObject with putFields and writeFields");
    }
    return SlotFields.read(slot, obj);
  }

  /**
   * Assigns ids to the reference values of one slot of object {@code id}, each field as its {@link
   * SerialField#unshared()} says, as {@code ObjectOutputStream} writes them.
   *
   * @return the ids, in field order ({@code -1} for {@code null})
   */
  int[] fieldRefs(int id, Slot slot, FieldValues values) throws IOException {
    int nPrims = values.prims().length;
    int[] refs = new int[values.refs().length];
    for (int i = 0; i < refs.length; i++) {
      SerialField f = slot.fields().get(nPrims + i);
      refs[i] = ref(values.refs()[i], id, f.name(), f.unshared());
    }
    return refs;
  }

  /**
   * @return the path from the root to object {@code id}, for messages
   */
  String path(int id) {
    return paths.path(id);
  }

  /** A growable list of child ids that skips nulls. */
  private static final class ChildList {
    private int[] ids = new int[4];
    private int size;

    void add(int id) {
      if (id < 0) {
        return;
      }
      if (size == ids.length) {
        ids = Arrays.copyOf(ids, size * 2);
      }
      ids[size++] = id;
    }

    void addObjects(Tape tape) {
      int[] items = tape.items();
      for (int i = 0; i < items.length; i += 2) {
        if (items[i] == Tape.OBJECT) {
          add(items[i + 1]);
        }
      }
    }

    int[] toArray() {
      return Arrays.copyOf(ids, size);
    }
  }
}
