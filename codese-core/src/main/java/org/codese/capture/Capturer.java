package org.codese.capture;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectStreamClass;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.codese.CaptureException;
import org.codese.CodeseOptions;
import org.codese.jvm.FieldReader;
import org.codese.jvm.FieldValues;
import org.codese.jvm.SerialClass;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.SlotFields;
import org.codese.jvm.Types;
import org.codese.program.ClassDescriptor;
import org.codese.program.Tape;
import org.codese.program.Values;

/**
 * Traverses object graphs without recursion and records them as {@link Node}s.
 *
 * <p>One capturer serves one capture, or one {@code CodeseOutputStream}: call {@link #writeObject},
 * then {@link #drain()} to take the segment captured so far. Object identity is shared across calls
 * until {@link #reset()}. Not thread-safe.
 *
 * <p>A capturer of an object stream (made with {@link StreamHooks}) captures as {@code
 * ObjectOutputStream} writes: it takes each reference when the JDK would write it (depth first, in
 * the JDK's field order), so that {@code writeReplace}, the writer's {@code replaceObject} and its
 * class descriptors ({@code writeClassDescriptor}, {@code annotateClass}) are called in the JDK's
 * order and number; it records the descriptors of each segment ({@link #descriptors()}); and it
 * numbers the objects of a segment in the order the JDK's reader completes them (children before
 * the object that first refers to them), so that the reader can call {@code resolveObject} in that
 * order from the ids alone. Without hooks, a capturer assigns ids when it expands the object that
 * refers to them, which is what snapshots were always made with.
 */
public final class Capturer {
  private static final Object NULL_REPLACEMENT = new Object();

  private final CodeseOptions options;

  /** The objects captured as global references, or {@code null} if the options name none. */
  private final GlobalRefs globals;

  /** The writer's hooks, or {@code null} for a capture that is not an object stream's. */
  private final StreamHooks hooks;

  /**
   * Whether {@link KnownWrites} makes the tapes it knows: a snapshot's capture, unless a test's.
   */
  private final boolean knownWrites;

  /** The class descriptors written: with hooks only, else {@code null}. */
  private final ClassDescriptions descriptions;

  /** The descriptors of the segment {@link #drain()} took last. */
  private List<ClassDescriptor> drainedDescriptors = List.of();

  /**
   * Objects whose {@code writeReplace} or {@code replaceObject} gave {@code null}: later writes of
   * them write {@code null} without asking again, as {@code ObjectOutputStream} remembers them.
   * With hooks only.
   */
  private final Map<Object, Boolean> nullReplaced;

  private final List<Object> nullReplacedNow = new ArrayList<>();

  /**
   * With hooks, the ids of earlier segments (since the last reset) by the number {@link #ids} holds
   * for their objects: the order of discovery, which {@link #renumber} turned into the order of
   * completion when their segment was drained; {@code null} without hooks, where the two are the
   * same.
   */
  private int[] renumbered;

  private final IdentityIds ids;

  /** What {@link #serialClass} answered last, and the different answer before it. */
  private SerialClass lastSerialClass;

  private SerialClass previousSerialClass;

  /**
   * The object whose expansion took the object being expanded (its parent in the traversal), and
   * its id; {@code null} where {@link #ref} may not answer a reference to it without asking {@link
   * #ids}: a stream's capture, or once anything was written unshared or replaced for an unshared
   * write (where an object may stand for another id, or for none). A tree node's parent link, a
   * list node's previous link or a map entry's parent refers back to it, and then {@link #ref}
   * needs no probe of the identity table, a likely cache miss per object.
   */
  private Object parentObject;

  private int parentId;

  /** Whether something was written unshared: {@link #parentObject} is then not used. */
  private boolean wroteUnshared;

  /**
   * What {@link IdentityIds#touch} returned, kept so that its reads are not dropped; never read
   * otherwise.
   */
  @SuppressWarnings("unused")
  private int touched;

  /** Classes {@link Values#kindOf(Object)} answered 0 for by their class alone: the last two. */
  private Class<?> plainClass;

  private Class<?> previousPlainClass;

  /** The reference field values of the object {@link #directFields} reads, while it reads them. */
  private Object[] scratch = new Object[8];

  /** The primitive field values of the slot {@link #directFields} reads, while it reads them. */
  private long[] primScratch = new long[8];

  /**
   * The rows of the classes of the segment being captured, by class; {@code null} values for
   * classes without a direct slot.
   */
  private final Map<SerialClass, ClassRows> rowsByClass = new IdentityHashMap<>(FEW_CLASSES);

  /** How many classes the per-class maps are made for at first: a graph mostly has a few. */
  private static final int FEW_CLASSES = 8;

  /** The class {@link #rowsOf} answered about last, and its answer; the same for the one before. */
  private SerialClass lastRowsType;

  private ClassRows lastRows;
  private SerialClass previousRowsType;
  private ClassRows previousRows;

  private final ArrayList<Object> discovered;

  /**
   * The rows of the segment {@link #drain()} took last, for {@link #recycle}: a snapshot's only.
   */
  private final List<ClassRows> drainedRows = new ArrayList<>();

  private Nodes nodes;
  private final PathLog paths = new PathLog();
  private final NodeMarks marks = new NodeMarks();
  private int firstId;
  private int[] postOrder;

  /**
   * How many objects the last snapshot capture in this JVM held: the next one's identity table,
   * once it outgrows {@link IdentityIds#FIRST_KEYS}, grows at once to as many, since a program
   * mostly captures like graphs again and growing by doubling rehashes every object once more. Racy
   * by design: any value is a valid size.
   */
  private static volatile int lastSnapshotObjects;

  private int postSize;

  /**
   * How many objects this capturer's segment may hold, from the last snapshot's size: once {@link
   * #discovered} reaches {@link #growAt} objects, the per-object lists grow at once to as many (a
   * graph captured again copies none of them again and again by doubling); 0 for a stream.
   */
  private final int expected;

  /** The size of {@link #discovered} at which the lists grow to {@link #expected}, else -1. */
  private int growAt;

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
   * the unshared copy cannot be referred to) instead of calling {@code writeReplace} again. Made at
   * the first such replacement: most captures have none.
   */
  private Map<Object, Object> unsharedReplacements;

  /**
   * A capturer for snapshots.
   *
   * @param options capture settings
   */
  public Capturer(CodeseOptions options) {
    this(options, null);
  }

  /**
   * A capturer for an object stream's writer, or for snapshots if {@code hooks} is {@code null}.
   *
   * @param options capture settings
   * @param hooks the writer's hooks, or {@code null}
   */
  public Capturer(CodeseOptions options, StreamHooks hooks) {
    this(options, hooks, hooks == null);
  }

  /**
   * A capturer for snapshots that runs every {@code writeObject}, as a stream's capture does, where
   * {@link Capturer#Capturer(CodeseOptions)} makes the tapes of {@link KnownWrites}' classes
   * without running it: for tests that require both to capture the same snapshot.
   *
   * @param options capture settings
   * @return the capturer
   */
  public static Capturer runningEveryWriteObject(CodeseOptions options) {
    return new Capturer(options, null, false);
  }

  private Capturer(CodeseOptions options, StreamHooks hooks, boolean knownWrites) {
    this.knownWrites = knownWrites;
    this.options = options;
    this.globals = GlobalRefs.of(options);
    this.hooks = hooks;
    int expected = hooks == null ? lastSnapshotObjects : 0;
    this.expected = expected;
    this.growAt = expected > firstCapacity(expected) ? firstCapacity(expected) : -1;
    this.ids = new IdentityIds(expected);
    // the lists start small whatever the last snapshot held, as the identity table does: growing
    // copies, where a small graph would pay the large one's allocation
    this.discovered = new ArrayList<>(firstCapacity(expected));
    this.nodes = new Nodes(0, firstCapacity(expected));
    this.postOrder = new int[Math.max(16, firstCapacity(expected))];
    this.descriptions = hooks == null ? null : new ClassDescriptions(hooks);
    this.nullReplaced = hooks == null ? null : new IdentityHashMap<>();
  }

  /**
   * The first capacity of the per-object lists for a segment of likely {@code expected} objects:
   * small whatever that is, as the identity table's ({@link IdentityIds#FIRST_KEYS}).
   */
  private static int firstCapacity(int expected) {
    return Math.max(10, Math.min(expected, IdentityIds.FIRST_KEYS));
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
      int id = ref(obj, -1, topLevel == 0 ? "root" : "root#" + topLevel, 0, unshared);
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
    parentObject = null; // its id may be among the ones forgotten
    int firstLost = firstId + mark;
    ids.removeFrom(firstLost);
    marks.forget(mark, nodes);
    discovered.subList(mark, discovered.size()).clear();
    nodes.subList(mark, nodes.size()).clear();
    postSize = postMark;
    if (hooks != null) {
      descriptions.forgetSegment();
      for (Object o : nullReplacedNow) {
        nullReplaced.remove(o);
      }
      nullReplacedNow.clear();
    }
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
    unsharedReplacements = null;
    firstId = 0;
    renumbered = null;
    if (hooks != null) {
      descriptions.reset();
      nullReplaced.clear();
    }
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
    if (nodes.anyMissing()) {
      throw new IllegalStateException("capture left objects unexpanded");
    }
    Tape top = items.build();
    if (hooks != null) {
      renumber(top);
      drainedDescriptors = descriptions.drain();
      nullReplacedNow.clear();
    }
    int n = nodes.size();
    // the list is handed over, not copied: the graph owns it (and empties it once planned)
    Graph g =
        new Graph(
            firstId,
            nodes,
            Arrays.copyOf(postOrder, postSize),
            top,
            depth,
            marks.late(n),
            marks.arrays());
    marks.clear();
    if (hooks == null) {
      lastSnapshotObjects = n;
      drainedRows.clear();
      for (ClassRows rows : rowsByClass.values()) {
        if (rows != null) {
          rows.remember();
          drainedRows.add(rows);
        }
      }
    }
    depth = 0;
    firstId += n;
    nodes = new Nodes(firstId, firstCapacity(n));
    discovered.clear();
    postSize = 0;
    items = new TapeBuilder();
    paths.clear();
    rowsByClass.clear();
    lastRowsType = null;
    lastRows = null;
    previousRowsType = null;
    previousRows = null;
    return g;
  }

  /**
   * Gives the row arrays of the segment {@link #drain()} took last to the next snapshot capture in
   * the JVM, which takes them instead of allocating where they fit (a graph captured again and
   * again, issue 9's model checker; {@link ClassRows#recycle}). Call it once that segment is
   * planned ({@link Graph#release}); the segment's rows must not be read again. A no-op for a
   * stream's capturer.
   *
   * <p>Only the rows. Kept too, the identity table's values (written at random) and the path log's
   * arrays made capture slower, not faster (a new array is zeroed, so in the cache, just before
   * capture writes it; a kept one was last touched by the capture before): thread CPU per capture
   * of rbt-100000 10.7 to 12.9 ms, one-JVM A/B.
   */
  public void recycle() {
    if (hooks != null) {
      return;
    }
    for (ClassRows rows : drainedRows) {
      rows.recycle();
    }
    drainedRows.clear();
  }

  /**
   * @return the class descriptors the segment {@link #drain()} took last wrote, in the order the
   *     JDK's stream would hold them; empty without hooks
   */
  public List<ClassDescriptor> descriptors() {
    return drainedDescriptors;
  }

  /**
   * Numbers the objects of the segment in the order the traversal completed them ({@link
   * #postOrder}): children before the object that first refers to them, as {@code
   * ObjectInputStream} completes them. References within the segment, the top-level items and the
   * identities kept for later segments follow; ids of earlier segments stay.
   */
  private void renumber(Tape top) {
    int n = nodes.size();
    if (postSize != n) {
      throw new IllegalStateException("capture completed " + postSize + " of " + n + " objects");
    }
    int[] perm = new int[n];
    for (int k = 0; k < n; k++) {
      perm[postOrder[k] - firstId] = firstId + k;
      postOrder[k] = firstId + k;
    }
    Renumbering r = new Renumbering(perm, firstId);
    Node[] inOrder = new Node[n];
    for (Node node : nodes) {
      Node m = r.node(node);
      inOrder[m.id() - firstId] = m;
    }
    nodes.clear();
    nodes.addAll(Arrays.asList(inOrder));
    marks.permute(perm, firstId, n);
    r.items(top.items());
    // the identities kept for later segments keep their discovery numbers, translated on use
    if (this.renumbered == null || this.renumbered.length < firstId + n) {
      this.renumbered =
          Arrays.copyOf(
              this.renumbered == null ? new int[0] : this.renumbered,
              Math.max(firstId + n, 2 * firstId + 16));
    }
    System.arraycopy(perm, 0, this.renumbered, firstId, n);
  }

  /**
   * The id of a known object from the number {@link #ids} holds: with hooks, an object of an
   * earlier segment has the number its segment gave it when it was drained.
   */
  private int idOf(int known) {
    return renumbered != null && known >= 0 && known < firstId ? renumbered[known] : known;
  }

  /**
   * Assigns an id to {@code obj}, applying {@code writeReplace} (and, for a stream, the writer's
   * {@code replaceObject} and class descriptors, as {@code ObjectOutputStream.writeObject0} does);
   * the object's contents are captured later, when the traversal reaches it.
   */
  int ref(Object obj, int parent, Object name, int number, boolean unshared) throws IOException {
    if (obj == null) {
      return -1;
    }
    if (obj == parentObject && !unshared) {
      return known(parentId);
    }
    if (unsharedReplacements != null) {
      Object written = unsharedReplacements.get(obj);
      obj = written != null ? written : obj;
    }
    if (nullReplaced != null && !nullReplaced.isEmpty() && nullReplaced.containsKey(obj)) {
      return -1;
    }
    int known = unshared ? -1 : ids.get(obj);
    if (known >= 0) {
      return known(idOf(known));
    }
    if (globals != null) {
      globals.scan(obj.getClass());
    }
    // a global is restored as itself: no writeReplace or replaceObject
    boolean global = globals != null && globals.isGlobal(obj);
    Object rep = global ? obj : replace(obj);
    Object replaced = rep;
    if (!global
        && hooks != null
        && hooks.replacing()
        && !(obj instanceof Class)
        && !(obj instanceof ObjectStreamClass)) {
      // as ObjectOutputStream: after writeReplace (even one that gave null), never for classes
      Object r = hooks.replaceObject(rep == NULL_REPLACEMENT ? null : rep);
      rep = r == null ? NULL_REPLACEMENT : r;
    }
    if (rep == NULL_REPLACEMENT) {
      if (nullReplaced != null) {
        nullReplaced.put(obj, Boolean.TRUE);
        nullReplacedNow.add(obj);
      }
      return -1;
    }
    if (unshared) {
      wroteUnshared = true;
      parentObject = null;
    }
    if (rep != obj && unshared) {
      if (unsharedReplacements == null) {
        unsharedReplacements = new IdentityHashMap<>();
      }
      unsharedReplacements.put(obj, rep);
    }
    if (rep != obj && !unshared) {
      int seen = ids.get(rep);
      if (seen >= 0) {
        ids.put(obj, seen);
        return known(idOf(seen));
      }
    }
    int id = firstId + discovered.size();
    if (discovered.size() == growAt) {
      growToExpected();
    }
    paths.record(id, parent, name, number);
    if (globals != null && rep != obj) {
      globals.scan(rep.getClass());
      global = globals.isGlobal(rep);
    }
    if (!global) {
      // a global's contents are not captured: its class needs no check and no descriptor
      SerialClass sc = serialClass(rep.getClass());
      check(sc, id);
      if (descriptions != null) {
        descriptions.describe(rep, sc);
      }
    }
    if (!unshared) {
      ids.put(obj, id);
      if (rep != obj) {
        ids.put(rep, id);
      }
    }
    // a value made from data: the original, unless the writer's replaceObject put another in
    char kind = global || rep != replaced ? 0 : valueKind(obj);
    // a stream replays a value whose serial form holds an object, so that its hooks see that too
    boolean value = kind != 0 && (hooks == null || Values.inStreams(kind));
    discovered.add(value ? new Node.Value(id, obj, rep.getClass(), kind) : rep);
    nodes.add(null);
    return id;
  }

  /**
   * A {@code BigDecimal} value ({@link Values#referredKind}) with the id of its unscaled value,
   * which it refers to as a JDK stream writes its {@code intVal} field: the {@code BigInteger}
   * itself if it has one, else the one {@code writeObject} would make ({@code BigInteger.valueOf},
   * the JDK's cached instance for small values). Without hooks only.
   *
   * @return the value, or {@code null} if that {@code BigInteger} is not a value of this segment (a
   *     global constant, a subclass): then the {@code BigDecimal} is replayed, and its {@code
   *     writeObject} finds the same {@code BigInteger} ({@code valueOf} of a small value is a
   *     cached instance, and a fresh one is never a global)
   */
  private Node.Value referring(Node.Value v, ChildList children) throws IOException {
    Object intVal = ((java.math.BigDecimal) v.value()).unscaledValue();
    int ref = ref(intVal, v.id(), "intVal", 0, false);
    int at = ref - firstId;
    if (at < 0 || at >= nodes.size()) {
      return null;
    }
    Object made = nodes.raw(at) != null ? nodes.raw(at) : discovered.get(at);
    if (!(made instanceof Node.Value b) || !Values.refers(v.kind(), b.kind())) {
      return null;
    }
    children.add(ref);
    return new Node.Value(v.id(), v.value(), v.streamClass(), v.kind(), ref);
  }

  /**
   * Grows the per-object lists to {@link #expected} objects at once (from their first capacity,
   * which a small graph never outgrows): as {@link IdentityIds} grows its table.
   */
  private void growToExpected() {
    growAt = -1;
    // an eighth more: a graph captured again has often grown a little since
    int expected = withRoom(this.expected);
    discovered.ensureCapacity(expected);
    nodes.ensureCapacity(expected);
    if (postOrder.length < expected) {
      postOrder = Arrays.copyOf(postOrder, expected);
    }
    paths.reserve(expected);
  }

  /** {@code n} and an eighth more, for a graph that grew since it was last captured. */
  static int withRoom(int n) {
    return (int) Math.min(Integer.MAX_VALUE - 16, n + (n >>> 3) + 16L);
  }

  /**
   * {@link Values#kindOf(Object)}, remembering the last two classes that are no value whatever the
   * object: it compares the class with every value class.
   */
  private char valueKind(Object obj) {
    Class<?> c = obj.getClass();
    if (c == plainClass || c == previousPlainClass) {
      return 0;
    }
    char kind = Values.kindOf(obj);
    if (kind == 0 && !Values.isValueClass(c)) {
      previousPlainClass = plainClass;
      plainClass = c;
    }
    return kind;
  }

  private boolean needsExpansion(int id) {
    return id >= firstId && nodes.raw(id - firstId) == null;
  }

  /**
   * {@link SerialClass#of}, remembering the last answer: capture asks three times per object
   * ({@link #replace}, {@link #ref}, {@link #expand}), mostly about runs of one class.
   */
  private SerialClass serialClass(Class<?> c) {
    SerialClass sc = lastSerialClass;
    if (sc != null && sc.type() == c) {
      return sc;
    }
    // graphs often alternate two classes (a node and its payload): keep the one before too
    sc = previousSerialClass;
    if (sc == null || sc.type() != c) {
      sc = SerialClass.of(c);
    }
    previousSerialClass = lastSerialClass;
    lastSerialClass = sc;
    return sc;
  }

  private Object replace(Object obj) throws IOException {
    Object cur = obj;
    SerialClass sc = serialClass(cur.getClass());
    while (sc.writeReplace() != null) {
      Object next = invoke(sc.writeReplace(), cur);
      if (next == null) {
        return NULL_REPLACEMENT;
      }
      if (next.getClass() == cur.getClass()) {
        return next;
      }
      cur = next;
      sc = serialClass(cur.getClass());
    }
    return cur;
  }

  private Object invoke(MethodHandle writeReplace, Object obj) throws IOException {
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

  /**
   * Depth-first traversal from {@code rootId} with an explicit stack, in the JDK's order. With
   * hooks, each reference is taken ({@link #ref}) when the traversal reaches it, as {@code
   * ObjectOutputStream} writes it; without, when the object holding it is expanded.
   */
  private void traverse(int rootId) throws IOException {
    if (rootId < 0 || !needsExpansion(rootId)) {
      return;
    }
    int[] stack = new int[64];
    ChildList[] children = new ChildList[64];
    int[] pos = new int[64];
    // the objects expanded at each level, for parentObject: null where it may not be used
    Object[] objects = new Object[64];
    boolean shortcut = hooks == null;
    int top = 0;
    depth = Math.max(depth, 1);
    stack[0] = rootId;
    parentObject = null;
    objects[0] = shortcut ? expandable(rootId) : null;
    children[0] = expand(rootId, 1, new ChildList());
    pos[0] = 0;
    while (top >= 0) {
      ChildList ch = children[top];
      if (pos[top] < ch.size) {
        int c = ch.take(pos[top]++, this, stack[top]);
        if (c >= 0 && needsExpansion(c)) {
          depth = Math.max(depth, top + 2);
          if (++top == stack.length) {
            stack = Arrays.copyOf(stack, top * 2);
            pos = Arrays.copyOf(pos, top * 2);
            children = Arrays.copyOf(children, top * 2);
            objects = Arrays.copyOf(objects, top * 2);
          }
          stack[top] = c;
          pos[top] = 0;
          if (shortcut) {
            objects[top] = expandable(c);
            parentObject = wroteUnshared || unsharedReplacements != null ? null : objects[top - 1];
            parentId = stack[top - 1];
          }
          // a level's list is used again by the next object expanded at that level
          ChildList reused = children[top];
          children[top] = expand(c, top + 1, reused == null ? new ChildList() : reused.reset());
        }
      } else {
        addPost(stack[top--]);
      }
    }
    parentObject = null;
  }

  /**
   * The object discovered object {@code id} stands for in {@link #ids} under its own id, or {@code
   * null} if there may be none: a value, or an object written unshared.
   */
  private Object expandable(int id) {
    Object o = discovered.get(id - firstId);
    return o instanceof Node.Value || wroteUnshared ? null : o;
  }

  private void addPost(int id) {
    if (postSize == postOrder.length) {
      postOrder = Arrays.copyOf(postOrder, postSize * 2);
    }
    postOrder[postSize++] = id;
  }

  /**
   * Captures the contents of discovered object {@code id}; returns the references it holds, in the
   * JDK's order: ids, or with hooks the objects still to be taken.
   */
  private ChildList expand(int id, int level, ChildList children) throws IOException {
    Object obj = discovered.set(id - firstId, null);
    if (obj instanceof Node.Value v) {
      Node.Value made = Values.referredKind(v.kind()) == 0 ? v : referring(v, children);
      if (made != null) {
        nodes.set(id - firstId, made);
        if (Values.holdsArray(v.kind())) {
          // a BigInteger's magnitude array, one level below it in a JDK stream: the filter's depth
          depth = Math.max(depth, level + 1);
        }
        return children;
      }
      obj = v.value(); // its BigInteger is not a value: replayed, as that BigInteger is
    }
    Node.Global global = globals == null ? null : globals.node(id, obj);
    if (global != null) {
      nodes.set(id - firstId, global);
      return children;
    }
    SerialClass sc = serialClass(obj.getClass());
    Node node;
    switch (sc.kind()) {
      case STRING -> node = new Node.Text(id, (String) obj);
      case BOX -> node = BoxNodes.of(id, obj);
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
    if (node != null) {
      nodes.set(id - firstId, node);
      marks.note(id - firstId, node);
    }
    return children;
  }

  /**
   * Notes reference {@code value} of object {@code id}, to be stored at {@code into[at]}: taken now
   * without hooks, when the traversal reaches it with hooks ({@code into} may then be {@code null}
   * until {@link ChildList#bind}).
   */
  void reference(
      ChildList children,
      int id,
      Object value,
      Object name,
      int number,
      boolean unshared,
      int[] into,
      int at)
      throws IOException {
    if (hooks == null) {
      int ref = ref(value, id, name, number, unshared);
      into[at] = ref;
      children.add(ref);
    } else {
      if (into != null) {
        into[at] = -1;
      }
      if (value != null) {
        children.pend(value, name, number, unshared, into, at);
      }
    }
  }

  /** {@link #reference} without hooks: takes {@code value} now and returns its id. */
  int referenceNow(
      ChildList children, int id, Object value, Object name, int number, boolean unshared)
      throws IOException {
    int ref = ref(value, id, name, number, unshared);
    children.add(ref);
    return ref;
  }

  /**
   * {@link #reference} for a reference field of a direct slot, whose id goes into {@code rows} at
   * {@code at}.
   */
  private void reference(
      ChildList children,
      int id,
      Object value,
      String name,
      boolean unshared,
      ClassRows rows,
      int at)
      throws IOException {
    if (hooks == null) {
      int ref = ref(value, id, name, 0, unshared);
      rows.setRef(at, ref);
      children.add(ref);
    } else {
      rows.setRef(at, -1);
      if (value != null) {
        children.pend(value, name, 0, unshared, rows, at);
      }
    }
  }

  /** Whether references are taken when the traversal reaches them: a stream's capture. */
  boolean lazy() {
    return hooks != null;
  }

  private Node array(int id, Object obj, ChildList children) throws IOException {
    Class<?> type = obj.getClass();
    if (!(obj instanceof Object[] elems)) {
      // copied when the traversal reaches it, as the JDK writes it then: code that runs later in
      // the capture (writeObject, writeReplace) may change it
      return new Node.Array(id, type, Types.cloneArray(obj));
    }
    int len = elems.length;
    int[] refs = new int[len];
    for (int i = 0; i < len; i++) {
      reference(children, id, elems[i], null, i, false, refs, i);
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
          prims[i] = Types.bits(v);
        } else {
          reference(children, id, v, f.name(), 0, false, refs, i - nPrims);
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
    int mark = children.size;
    CaptureStream out = new CaptureStream(this, id, obj, null, children);
    ((java.io.Externalizable) obj).writeExternal(out);
    Tape tape = out.finish();
    children.bind(mark, tape.items());
    return new Node.External(id, sc, tape);
  }

  /**
   * Captures an instance: its direct slots into its class's rows, the others into slot data.
   * Returns its node, or {@code null} for an object of a {@linkplain ClassRows#plain() plain} class
   * in a snapshot's capture, which it has stored in {@link #nodes} as a column entry (no node
   * object: a large graph of such objects, a tree's nodes, would make one per object), and whose
   * marks are none (not late, not an array).
   */
  private Node instance(int id, SerialClass sc, Object obj, ChildList children) throws IOException {
    List<Slot> slots = sc.slots();
    ClassRows rows = rowsOf(sc);
    int row = rows == null ? -1 : rows.add();
    if (rows != null && hooks == null && rows.plain()) {
      for (int s = 0; s < slots.size(); s++) {
        directFields(id, slots.get(s), obj, children, rows, row, s);
      }
      nodes.setPlain(id - firstId, rows.template(), row);
      return null;
    }
    Node.SlotData[] data = rows == null ? new Node.SlotData[slots.size()] : rows.slotData();
    for (int s = 0; s < data.length; s++) {
      Slot slot = slots.get(s);
      if (slot.writeObject() != null) {
        int mark = children.size;
        // a snapshot's ArrayList, natural-order TreeMap or HashMap/HashSet (or linked): the same
        // tape, without running it
        Tape tape = knownWrites && s == 0 ? KnownWrites.tape(this, children, id, obj) : null;
        if (tape == null) {
          CaptureStream out = new CaptureStream(this, id, obj, slot, children);
          out.runWriteObject();
          tape = out.finish();
          children.bind(mark, tape.items());
        }
        data[s] = new Node.SlotData(slot, null, null, tape);
      } else if (slot.direct()) {
        directFields(id, slot, obj, children, rows, row, s);
      } else {
        FieldValues v = defaultFields(id, slot, obj);
        int[] refs = fieldRefs(children, id, slot, v);
        data[s] = new Node.SlotData(slot, v.prims(), refs, null);
      }
    }
    return new Node.Instance(id, sc, data, rows, row);
  }

  /**
   * The rows of class {@code sc}'s direct slots in this segment, or {@code null} if it has none.
   */
  private ClassRows rowsOf(SerialClass sc) {
    if (sc == lastRowsType) {
      return lastRows;
    }
    ClassRows rows;
    if (sc == previousRowsType) {
      rows = previousRows;
    } else {
      rows = rowsByClass.get(sc);
      if (rows == null && !rowsByClass.containsKey(sc)) {
        rows = ClassRows.hasDirect(sc) ? new ClassRows(sc) : null;
        rowsByClass.put(sc, rows);
      }
    }
    previousRowsType = lastRowsType;
    previousRows = lastRows;
    lastRowsType = sc;
    lastRows = rows;
    return rows;
  }

  /**
   * The default fields of a direct slot of object {@code id} (every field declared, readable by
   * reflection, no {@code writeObject}), read through the slot's {@link FieldReader} into row
   * {@code row} of the class's {@link ClassRows} ({@code s} is the slot's index): the same values
   * and ids as {@link #defaultFields} and {@link #fieldRefs}, without boxing primitives or arrays
   * of the object's own. All fields are read before any reference is taken, as there: a {@code
   * writeReplace} that {@link #ref} runs sees the object unchanged.
   */
  private void directFields(
      int id, Slot slot, Object obj, ChildList children, ClassRows rows, int row, int s)
      throws IOException {
    FieldReader reader = slot.reader();
    int nPrims = reader.primitives();
    if (primScratch.length < nPrims) {
      primScratch = new long[nPrims];
    }
    long[] prims = primScratch;
    int n = reader.references();
    if (scratch.length < n) {
      scratch = new Object[n];
    }
    Object[] values = scratch;
    try {
      FieldAccess access = rows.access(s, slot);
      if (access != null) {
        access.read(obj, prims, values);
      } else {
        reader.readPrimitives(obj, prims);
        reader.readReferences(obj, values);
      }
    } catch (IllegalAccessException e) {
      throw new IOException("cannot read fields of " + slot.type().getName(), e);
    }
    if (n > 1 && hooks == null) {
      // the references' headers and identity-table slots fetched together, not one by one
      touched += ids.touch(values, n);
    }
    int primBase = rows.primBase(row, s);
    for (int i = 0; i < nPrims; i++) {
      rows.setPrim(primBase + i, prims[i]);
    }
    int refBase = rows.refBase(row, s);
    List<SerialField> fields = slot.fields();
    try {
      for (int i = 0; i < n; i++) {
        SerialField f = fields.get(nPrims + i);
        Object value = values[i];
        values[i] = null;
        reference(children, id, value, f.name(), f.unshared(), rows, refBase + i);
      }
    } catch (IOException | RuntimeException | Error e) {
      Arrays.fill(values, null);
      throw e;
    }
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
    // a direct slot has every field backed: no list to make for most objects
    List<String> unbacked = slot.direct() ? List.of() : slot.unbackedFields();
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
   * SerialField#unshared()} says, as {@code ObjectOutputStream} writes them (with hooks, when the
   * traversal reaches them: see {@link #reference}).
   *
   * @return the ids, in field order ({@code -1} for {@code null})
   */
  int[] fieldRefs(ChildList children, int id, Slot slot, FieldValues values) throws IOException {
    int nPrims = values.prims().length;
    int[] refs = new int[values.refs().length];
    for (int i = 0; i < refs.length; i++) {
      SerialField f = slot.fields().get(nPrims + i);
      reference(children, id, values.refs()[i], f.name(), 0, f.unshared(), refs, i);
    }
    return refs;
  }

  /**
   * @return the path from the root to object {@code id}, for messages
   */
  String path(int id) {
    return paths.path(id);
  }
}
