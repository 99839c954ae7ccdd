package org.codese.load;

import java.io.ObjectStreamException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.UnsafeSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Fills;
import org.codese.program.Grammar;
import org.codese.program.TypeNames;
import org.codese.program.Values;
import org.codese.verify.GrammarCheck;
import org.codese.verify.Stmt;

/**
 * Checks what a snapshot's lifted statements do, against the live classes and the resolved
 * constants, before any generated class is defined. It follows the program in the order it runs
 * (create, set, finish) and keeps, for every table slot of the snapshot, what the code put there.
 *
 * <p>Invariants it enforces, each a rejection with {@link UnsafeSnapshotException}:
 *
 * <ul>
 *   <li>Every slot is filled at most once, in the create phase (or by a record hook), with an
 *       object of a known class; so a snapshot allocates at most one object per slot, whatever its
 *       loops say.
 *   <li>Only objects and arrays the restore allocated are written to: fields, elements, {@code
 *       readObject} and {@code readExternal} replays target slots holding an allocation of this
 *       snapshot, never a constant, a cached box, a string, a record or a {@code readResolve}
 *       result.
 *   <li>Every cast succeeds, every field set fits the field's declaring class and type, every
 *       element index is inside its array and every element fits the array's component type; so
 *       generated code cannot fail with a {@code ClassCastException}, an {@code
 *       IllegalArgumentException}, an {@code ArrayStoreException}, an {@code
 *       ArrayIndexOutOfBoundsException} or a {@code NullPointerException}.
 *   <li>Every class the code names in a cast or a {@code putfield} is one of the snapshot's class
 *       table (which the filter saw) or the declared type of the field stored into.
 *   <li>An object of a class the loader does not find is not made ({@link #NOT_MADE}: its slot
 *       stays {@code null}) and is used only where the restore does not read it (a store taken out,
 *       skipped replay data, its own class's removed fields); any other use is its class's failure
 *       to be found, as {@code ObjectInputStream} throws its {@code ClassNotFoundException}
 *       wherever a live field or the top level reaches such an object.
 *   <li>Phases keep their roles: the create phase only fills slots, the set phase only writes
 *       fields and elements, the finish phase only runs the finish program; and there are no more
 *       generated classes than the statements need.
 * </ul>
 *
 * References to objects of earlier stream segments are checked when the restore starts ({@link
 * #priorIds()}, {@link #priorTypes()}).
 *
 * <p>This class keeps what the program put into each slot and checks the reads and writes against
 * it ({@link #fill}, {@link #ref}, {@link #write}); the statements of each phase are checked by
 * {@link CreateCheck}, {@link SetCheck} and {@link FinishCheck}, which it runs in program order
 * ({@link #check}) and which reject through {@link #reject}, naming the statement being checked.
 */
final class ProgramCheck {
  /**
   * Loops over more elements run in blocks of this many: the JIT compiles a block method after a
   * few calls, where a long loop in one call would run interpreted until on-stack replacement.
   */
  static final int BLOCK = 256;

  static final byte EMPTY = 0;

  /** An object allocated by this snapshot: fields may be set, hooks may run on it. */
  static final byte INSTANCE = 1;

  /** An array allocated by this snapshot: elements may be set. */
  static final byte ARRAY = 2;

  /** A new string or box: never written to. */
  static final byte VALUE = 3;

  /** A value the snapshot did not allocate (a constant, a cached box): never written to. */
  static final byte FOREIGN = 4;

  /** A record made by its hook: never written to. */
  static final byte RECORD = 5;

  /** What {@code readResolve} returned: of unknown class, never written to. */
  static final byte RESOLVED = 6;

  /**
   * A JDK collection this snapshot made with its public constructor ({@link
   * org.codese.program.Constant.Sized}): only its one fill step writes to it; {@link #length} holds
   * the initial capacity it was given.
   */
  static final byte FILLABLE = 7;

  /** A filled collection: never written to again. */
  static final byte FILLED = 8;

  /**
   * An object of a class the loader does not find ({@link ClassTable#gone}), which the restore does
   * not make: its slot stays {@code null}. Admitted only where nothing live refers to it, as {@code
   * ObjectInputStream} never makes such an object and fails only where a live field or the top
   * level reaches it: it may be the value of a store that is taken out (a removed field, a store
   * dropped per object), be named in the data of a {@code readObject} replay that is skipped, and
   * be the target of stores into its own class's recorded fields (all removed), and nothing else;
   * any other use throws its class's failure to be found ({@link #notMadeFailure}). Its class in
   * {@link #type} is {@link NotMade}, which fits no field, element or cast.
   */
  static final byte NOT_MADE = 9;

  /**
   * The class {@link #type} gives a slot that was not made: no value's class, assignable to none.
   */
  static final class NotMade {
    private NotMade() {}
  }

  private final List<Constant> raw;
  private final ClassTable classes;
  private final List<org.codese.program.ClassEntry> entries;

  /**
   * Per generated class (by class-file index), the work its statements do: one per statement plus
   * one per loop row and column ({@link #cost}), which {@link Parallel} divides threads by.
   */
  private long[] classCosts = new long[0];

  /** The classes the snapshot's class table lists, and {@code Object[]}, by internal name. */
  private final Map<String, Class<?>> named = new HashMap<>();

  /** The first table id of the snapshot, and one past its last. */
  final int first;

  final int end;

  /** Per slot (table id minus {@link #first}): its kind ({@link #EMPTY}...), class and length. */
  final byte[] kind;

  final Class<?>[] type;
  final int[] length;

  /** Collections made to be filled and not filled yet. */
  int unfilled;

  /**
   * Per slot, the class-table index of an object not made ({@link #NOT_MADE}); null while the
   * program makes every object it allocates (the common case: nothing is looked up per reference).
   */
  private int[] notMade;

  /** The class each allocation loop's id constant filled its slots with. */
  final Map<Integer, Class<?>> loopClasses = new HashMap<>();

  private int[] priorIds = new int[0];
  private Class<?>[] priorTypes = new Class<?>[0];
  private int priors;
  private final Map<Class<?>, Integer> fieldCounts = new HashMap<>();
  private Map<Class<?>, Integer> listed;

  /** Field and element stores the allocated objects can take: each field and element once. */
  long capacity;

  /**
   * The primitive kinds the create phase boxes, one bit each: bit {@code t & 31} for descriptor
   * character {@code t}, distinct for the eight of {@link #BOX_KINDS}.
   */
  private int boxed;

  /** The primitive kinds' descriptor characters. */
  private static final String BOX_KINDS = "ZBCSIJFD";

  /** Field and element stores the program makes. */
  private long writes;

  /**
   * Null references the set phase's loops stored ({@link #refs}) that no finish step has stored
   * again yet ({@link #lateStore}); counted at the first such step, so that a snapshot without any
   * does not pay a pass over its reference columns.
   */
  private long nullStores;

  /** The reference columns {@link #refs} checked and {@link #lateStore} has not counted yet. */
  private int[][] refColumns = new int[4][];

  private int[] refRows = new int[4];
  private int refColumnCount;

  /** The number of resolved constants: constants added for {@link #drops} come after them. */
  private final int constantCount;

  /** The stores dropped per object ({@link ObjectDrops}); null while there is none. */
  private ObjectDrops drops;

  private final CreateCheck create;
  private final SetCheck set;
  private final FinishCheck finish;

  /** The generated class, method and statement being checked, for rejections; -1 when none. */
  private int whereClass = -1;

  private int whereMethod;
  private int whereStatement;

  /** The names of the generated class being checked (a clone's descriptor: {@link CreateCheck}). */
  List<String> names = List.of();

  /** The last class found to fit {@link #lastRequired}: repeated checks of a column are free. */
  private Class<?> lastFit;

  private Class<?> lastRequired;
  private Class<?> fitWanted;
  private Class<?> fitActual;
  private Class<?> countOf;
  private int count;

  private ProgramCheck(
      SnapshotFile file, ClassTable classes, Object[] resolved, int slots, boolean segment) {
    this.raw = file.constants();
    this.entries = file.classes();
    this.classes = classes;
    this.first = file.firstId();
    this.end = file.tableSize();
    this.constantCount = resolved.length;
    int n = slots;
    this.kind = new byte[n];
    this.type = new Class<?>[n];
    this.length = new int[n];
    for (int i = 0; i < classes.size(); i++) {
      if (!classes.gone(i)) { // a gone class is named by no code that is checked and defined
        named.putIfAbsent(Types.internalName(classes.get(i)), classes.get(i));
      }
    }
    named.put("[Ljava/lang/Object;", Object[].class);
    this.create = new CreateCheck(this, classes, resolved, file.version(), segment, named);
    this.set = new SetCheck(this, classes, resolved);
    this.finish = new FinishCheck(this, set, classes, entries, file.version(), raw.size(), segment);
  }

  /**
   * Checks a snapshot's program.
   *
   * @param file the parsed snapshot
   * @param program its lifted classes, from a grammar check without violations
   * @param classes its resolved class table
   * @param resolved its resolved constants
   * @param segment whether the file is a segment of an object stream
   * @return the check, for {@link #priorIds()} and {@link #priorTypes()}
   * @throws ObjectStreamException at the first statement that breaks an invariant
   */
  static ProgramCheck check(
      SnapshotFile file,
      List<GrammarCheck.Lifted> program,
      ClassTable classes,
      Object[] resolved,
      boolean segment)
      throws ObjectStreamException {
    ProgramCheck c =
        new ProgramCheck(file, classes, resolved, CreateCheck.slots(file, program), segment);
    c.run(program);
    return c;
  }

  /**
   * @param id a table id of this snapshot
   * @return the class of the object this snapshot allocates at {@code id} to set fields of and run
   *     hooks on, or {@code null} if the slot holds anything else
   */
  Class<?> instanceClass(int id) {
    int at = id - first;
    return at >= 0 && at < kind.length && kind[at] == INSTANCE ? type[at] : null;
  }

  /**
   * Fills slots {@code ids[from..to)} (or slot {@code ids[from]} alone) with objects of class
   * {@code index} of the table, which the loader does not find: they are not made ({@link
   * #NOT_MADE}), and count the stores into their class's recorded fields, which are taken out, into
   * the capacity.
   */
  void notMade(int[] ids, int from, int to, int index) throws ObjectStreamException {
    if (notMade == null) {
      notMade = new int[kind.length];
    }
    int fields = entries.get(index).fields().size();
    for (int i = from; i < to; i++) {
      fill(ids[i], NOT_MADE, NotMade.class, 0);
      notMade[ids[i] - first] = index;
      capacity += fields;
    }
  }

  /**
   * @return whether {@code ref} is a slot of this snapshot whose object is not made ({@link
   *     #NOT_MADE})
   */
  boolean isNotMade(int ref) {
    return notMade != null && ref >= first && ref < end && kind[ref - first] == NOT_MADE;
  }

  /**
   * @return whether some object the snapshot allocates is not made ({@link #NOT_MADE})
   */
  boolean hasNotMade() {
    return notMade != null;
  }

  /**
   * The table ids of the objects not made ({@link #NOT_MADE}), for an object stream, which throws
   * their class's {@code ClassNotFoundException} wherever a later segment or the top level reaches
   * one, as {@code ObjectInputStream} throws the exception its handle was marked with.
   *
   * @return the ids, ascending; empty if every object is made
   */
  int[] notMadeIds() {
    if (notMade == null) {
      return new int[0];
    }
    int n = 0;
    for (byte k : kind) {
      n += k == NOT_MADE ? 1 : 0;
    }
    int[] ids = new int[n];
    for (int at = 0, i = 0; at < kind.length; at++) {
      if (kind[at] == NOT_MADE) {
        ids[i++] = at + first;
      }
    }
    return ids;
  }

  /**
   * The failure of a live use of object {@code ref}, which is not made ({@link #NOT_MADE}): the
   * failure to find its class, as {@code ObjectInputStream} throws the {@code
   * ClassNotFoundException} of an object whose class it did not find wherever a live field reaches
   * it.
   *
   * @param ref the slot of an object not made
   * @return the class's {@code ClassMismatchException}, whose cause is the {@code
   *     ClassNotFoundException}
   */
  ObjectStreamException notMadeFailure(int ref) {
    return classes.notFound(notMade[ref - first]);
  }

  /**
   * Checks a value that a store taken out of the code stores (into a removed field, a store dropped
   * per object, a field of an object not made): an object not made is admitted there, anything else
   * as {@link #value}.
   */
  void skipped(char t, int ref, Class<?> required) throws ObjectStreamException {
    if (t == 'L' && (isNotMade(ref) || (ref >= 0 && ref < first))) {
      // an object of an earlier segment is not read either: it may be one the stream lost
      return;
    }
    value(t, ref, required);
  }

  /**
   * Checks the reference column of a store taken out of the code for every row (a removed field),
   * as {@link #skipped}: objects not made admitted, every other reference as {@link #refs}.
   */
  void skippedRefs(int[] refs, int rows, Class<?> required) throws ObjectStreamException {
    for (int i = 0; i < rows; i++) {
      int r = refs[i];
      if ((r < 0 || r >= first) && !isNotMade(r)) {
        ref(r, required); // an object of an earlier segment is not read either
      }
    }
    nullColumn(refs, rows);
  }

  /**
   * @return the stores the program drops per object ({@link ObjectDrops}), made at the first
   */
  ObjectDrops drops() {
    if (drops == null) {
      drops = new ObjectDrops(constantCount);
    }
    return drops;
  }

  /**
   * @return the stores the program drops per object, or {@code null} if it drops none
   */
  ObjectDrops dropsIfAny() {
    return drops;
  }

  /**
   * @return the class-file index of the generated class being checked, or -1
   */
  int whereClass() {
    return whereClass;
  }

  /**
   * @return the index of the chunk method being checked
   */
  int whereMethod() {
    return whereMethod;
  }

  /**
   * @return the first table id of this snapshot
   */
  int firstId() {
    return first;
  }

  /**
   * @return one past the last table id of this snapshot
   */
  int endId() {
    return end;
  }

  /**
   * Notes that the create phase makes boxes of primitive kind {@code t}.
   *
   * @param t a primitive type's descriptor character
   */
  void boxed(char t) {
    boxed |= 1 << (t & 31);
  }

  /**
   * @return the box classes the create phase makes (from {@code valueOf} or new), whose descriptors
   *     a JDK stream holds and asks the serialization filter about
   */
  List<Class<?>> boxClasses() {
    if (boxed == 0) {
      return List.of();
    }
    List<Class<?>> out = new java.util.ArrayList<>(Integer.bitCount(boxed));
    for (int i = 0; i < BOX_KINDS.length(); i++) {
      char t = BOX_KINDS.charAt(i);
      if ((boxed & (1 << (t & 31))) != 0) {
        out.add(Types.box(t, 0).getClass());
      }
    }
    return out;
  }

  /**
   * @return per array class, the longest storage array a filled JDK collection has, which its
   *     {@code readObject} would have asked the serialization filter about ({@link Fills})
   */
  Map<Class<?>, Integer> fillArrays() {
    return finish.fillArrays();
  }

  /**
   * @return ids of earlier segments' objects this snapshot refers to (stores, hook data)
   */
  int[] priorIds() {
    return java.util.Arrays.copyOf(priorIds, priors);
  }

  /**
   * @return the class each of {@link #priorIds()} must be an instance of (or be null)
   */
  Class<?>[] priorTypes() {
    return java.util.Arrays.copyOf(priorTypes, priors);
  }

  private void run(List<GrammarCheck.Lifted> program) throws ObjectStreamException {
    for (int phase = 0; phase < Grammar.PHASES; phase++) {
      for (GrammarCheck.Lifted c : program) {
        if (c.phase() != phase) {
          continue;
        }
        if (phase != 1 && c.host() >= 0) {
          throw reject(
              "generated class "
                  + c.index()
                  + " of phase "
                  + phase
                  + " joins a nest; only the set phase writes fields with putfield");
        }
        names = c.names();
        for (int m = 0; m < c.chunks().size(); m++) {
          set.target = -1;
          int[] code = c.chunks().get(m);
          for (int pc = 0, s = 0;
              pc < code.length;
              pc += GrammarCheck.statementSize(code, pc), s++) {
            whereClass = c.index();
            whereMethod = m;
            whereStatement = s;
            statement(phase, c.host(), code, pc);
            if (c.index() >= classCosts.length) {
              classCosts = java.util.Arrays.copyOf(classCosts, c.index() + 1);
            }
            classCosts[c.index()] += cost(code, pc);
          }
        }
      }
    }
    whereClass = -1;
    if (unfilled != 0) {
      throw reject(
          "makes "
              + unfilled
              + " JDK collection(s) to be filled but never fills them; a restore fills each once");
    }
  }

  /**
   * The work of the statement at {@code pc}, checked already: 1, plus for a loop its rows, times
   * one plus its columns for a cluster loop.
   */
  private long cost(int[] code, int pc) throws ObjectStreamException {
    int op = code[pc];
    if (CreateCheck.isIdsLoop(op) || op == Stmt.ELEMENT_LOOP) {
      return 1L + intArray(code[pc + 1]).length;
    } else if (op == Stmt.CLUSTER_LOOP) {
      return 1L + (long) intArray(code[pc + 2]).length * (1 + code[pc + 3]);
    }
    return 1;
  }

  /**
   * @return the elements of all the arrays the create programs make
   */
  long dataArrayElements() {
    return create.dataArrayElements();
  }

  /**
   * @return the longest array a create program makes, or that a JDK stream holds for a value it
   *     makes ({@link Values#magnitudeLength}); 0 if none
   */
  int longestDataArray() {
    return create.longestDataArray();
  }

  /**
   * @param classFile a class-file index of the snapshot
   * @return the work of its statements (statements, plus loop rows and columns)
   */
  long classCost(int classFile) {
    return classFile < classCosts.length ? classCosts[classFile] : 0;
  }

  private void statement(int phase, int host, int[] code, int pc) throws ObjectStreamException {
    switch (phase) {
      case 0 -> create.statement(code, pc);
      case 1 -> set.statement(host, code, pc);
      default -> finish.statement(code, pc);
    }
  }

  /**
   * Fills slot {@code id}, which must be one of this snapshot's and empty, with kind {@code k},
   * class {@code c} and length {@code len}, and counts the stores the new object or array takes.
   */
  void fill(int id, byte k, Class<?> c, int len) throws ObjectStreamException {
    int at = own(id);
    if (kind[at] != EMPTY) {
      throw reject("fills table slot " + id + " a second time");
    }
    kind[at] = k;
    type[at] = c;
    length[at] = len;
    capacity += k == ARRAY ? len : k == INSTANCE ? fieldCount(c) : 0;
  }

  /**
   * Fills slots {@code ids[from..to)} of a loop, as {@link #fill} with the capacity counted by the
   * caller; its common case, an empty own slot, in {@link CheckLoops#fillEmpty}.
   */
  void fillBlock(int[] ids, int from, int to, byte k, Class<?> c) throws ObjectStreamException {
    int i = from;
    while ((i = CheckLoops.fillEmpty(ids, i, to, kind, type, first, EMPTY, k, c)) < to) {
      fill(ids[i++], k, c, 0);
    }
  }

  /**
   * The fields of {@code c} and its superclasses that the snapshot's class table lists: every field
   * the program sets is one of them, so they bound how many stores an object of {@code c} takes.
   * Counted from the table, without reflection, which is slow in a cold JVM.
   */
  int fieldCount(Class<?> c) {
    if (c == countOf) {
      return count;
    }
    countOf = c;
    Integer n = fieldCounts.get(c);
    if (n == null) {
      int count = 0;
      for (Class<?> k = c; k != null; k = k.getSuperclass()) {
        Integer own = listedFields().get(k);
        count += own == null ? 0 : own;
      }
      if (classes.hasDetached()) {
        // the stores into the fields of classes removed from the hierarchy, taken out of the code
        for (Map.Entry<Class<?>, Integer> e : listedFields().entrySet()) {
          // (the null key: the classes not found, whose stores are taken out as well)
          count += e.getKey() == null || classes.detached(e.getKey()) ? e.getValue() : 0;
        }
      }
      n = count;
      fieldCounts.put(c, n);
    }
    this.count = n;
    return n;
  }

  /** Per class of the table, the number of distinct fields its entries list. */
  private Map<Class<?>, Integer> listedFields() {
    if (listed == null) {
      listed = new HashMap<>();
      for (int i = 0; i < classes.size(); i++) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (org.codese.program.ClassEntry.FieldEntry f : entries.get(i).fields()) {
          names.add(f.name());
        }
        Class<?> c = classes.get(i); // null for every class not found: their fields add up
        Integer before = listed.get(c);
        listed.put(
            c,
            before == null
                ? names.size()
                : c == null ? before + names.size() : Math.max(before, names.size()));
      }
    }
    return listed;
  }

  /**
   * Counts the {@code n} references an object that a finish step made holds (an immutable
   * collection's elements, a wrapper's collection) into the capacity, as an allocated object's
   * fields are: the set phase's loops write {@code null} into a field whose object is made late,
   * and the finish program writes it again. Each counted reference is a word of the finish program,
   * which makes an object into a slot once only, so the capacity stays bounded by the snapshot's
   * data.
   */
  void holds(long n) {
    capacity += n;
  }

  /**
   * Counts {@code n} field or element stores against the capacity of the objects allocated: a
   * program writes each field and element at most once, so its loops cannot multiply the work.
   */
  void write(long n) throws ObjectStreamException {
    writes += n;
    if (writes > capacity) {
      throw reject(
          "makes "
              + writes
              + " field and element stores into objects that hold "
              + capacity
              + " fields and elements; a restore sets each at most once");
    }
  }

  /**
   * @return the slot index of {@code id}, which must be one of this snapshot's own slots
   */
  int own(int id) throws ObjectStreamException {
    if (id < first || id >= end) {
      throw reject(
          "table slot " + id + " is not one of this snapshot's slots " + first + ".." + (end - 1));
    }
    return id - first;
  }

  /** Checks that {@code v}, if a reference, is null or of a class that fits {@code required}. */
  /** Checks a value of kind {@code t}: for references, {@link #ref}. */
  void value(char t, int ref, Class<?> required) throws ObjectStreamException {
    if (t == 'L') {
      ref(ref, required);
    }
  }

  /**
   * Checks {@code refs[0..rows)} with {@link #ref}, in blocks, and counts the nulls among them for
   * {@link #lateStore}.
   */
  void refs(int[] refs, int rows, Class<?> required) throws ObjectStreamException {
    for (int from = 0; from < rows; from += BLOCK) {
      refBlock(refs, from, Math.min(rows, from + BLOCK), required);
    }
    nullColumn(refs, rows);
  }

  /** Keeps reference column {@code refs[0..rows)} for {@link #lateStore} to count its nulls. */
  private void nullColumn(int[] refs, int rows) {
    if (refColumnCount == refColumns.length) {
      refColumns = java.util.Arrays.copyOf(refColumns, refColumnCount * 2);
      refRows = java.util.Arrays.copyOf(refRows, refColumnCount * 2);
    }
    refColumns[refColumnCount] = refs;
    refRows[refColumnCount++] = rows;
  }

  /**
   * Counts a finish step's field or element store: a loop of the set phase stores null into a field
   * whose object is made late (a record, what {@code readResolve} returns, a factory's or an
   * immutable collection's object), and the finish program stores the object there again, so each
   * null a loop stored lets one such store go uncounted. The stores a restore makes stay below
   * twice the fields and elements the snapshot allocates.
   */
  void lateStore() throws ObjectStreamException {
    if (refColumnCount > 0) {
      // the loops' nulls, counted at the first finish step that stores into a field or element
      for (int i = 0; i < refColumnCount; i++) {
        nullStores += CheckLoops.count(refColumns[i], refRows[i], end);
        refColumns[i] = null;
      }
      refColumnCount = 0;
    }
    if (nullStores > 0) {
      nullStores--;
    } else {
      write(1);
    }
  }

  /**
   * {@link #ref} for {@code refs[from..to)}; its common cases, the null slot and a slot of the
   * class that fitted last, in {@link CheckLoops#firstUnfit}.
   */
  private void refBlock(int[] refs, int from, int to, Class<?> required)
      throws ObjectStreamException {
    int i = from;
    while ((i = CheckLoops.firstUnfit(refs, i, to, type, first, end, fitFor(required))) < to) {
      ref(refs[i++], required);
    }
  }

  /**
   * The class that fitted {@code required} last, or {@code void.class}, which no slot holds: a slot
   * of that class needs no further check.
   */
  private Class<?> fitFor(Class<?> required) {
    return required == lastRequired && lastFit != null ? lastFit : void.class;
  }

  /** Checks that table slot {@code ref} holds null or an object fitting {@code required}. */
  void ref(int ref, Class<?> required) throws ObjectStreamException {
    if (ref < 0 || ref > end) {
      throw reject("reads table slot " + ref + ", outside the table");
    }
    if (ref < first) {
      prior(ref, required);
      return;
    }
    if (ref == end) {
      return;
    }
    if (required == Object.class) {
      if (notMade != null && kind[ref - first] == NOT_MADE) {
        throw notMadeFailure(ref);
      }
      return;
    }
    int at = ref - first;
    Class<?> t = type[at];
    if (t == fitFor(required)) {
      return;
    }
    if (kind[at] != EMPTY && kind[at] != RESOLVED && !required.isAssignableFrom(t)) {
      if (kind[at] == NOT_MADE) {
        throw notMadeFailure(ref);
      }
      throw reject(
          "stores a "
              + type[at].getTypeName()
              + " (slot "
              + ref
              + ") where a "
              + required.getTypeName()
              + " belongs");
    }
    if (t != null) {
      lastFit = t;
      lastRequired = required;
    }
  }

  /**
   * {@code wanted.isAssignableFrom(actual)}, remembering the last pair that fits: a program's hooks
   * come in runs of one class, and in a cold JVM each native call costs.
   */
  boolean fits(Class<?> wanted, Class<?> actual) {
    if (wanted == fitWanted && actual == fitActual) {
      return true;
    }
    if (!wanted.isAssignableFrom(actual)) {
      return false;
    }
    fitWanted = wanted;
    fitActual = actual;
    return true;
  }

  /**
   * Records a reference to object {@code ref} of an earlier segment, which must be an instance of
   * {@code required} (or null) when the restore starts, and must not be one the stream lost to a
   * class not found ({@link LoadedSnapshot#reaches}).
   */
  void prior(int ref, Class<?> required) {
    if (priors == priorIds.length) {
      priorIds = java.util.Arrays.copyOf(priorIds, priors * 2 + 8);
      priorTypes = java.util.Arrays.copyOf(priorTypes, priors * 2 + 8);
    }
    priorIds[priors] = ref;
    priorTypes[priors++] = required;
  }

  int[] intArray(int constant) throws ObjectStreamException {
    if (raw(constant) instanceof Constant.PrimArray p && p.array() instanceof int[] a) {
      return a;
    }
    throw reject("constant " + constant + " is not an int[]");
  }

  Constant raw(int constant) throws ObjectStreamException {
    if (constant < 0 || constant >= raw.size()) {
      throw reject("constant " + constant + " does not exist");
    }
    return raw.get(constant);
  }

  Class<?> named(String internalName) throws ObjectStreamException {
    Class<?> c = named.get(internalName);
    if (c == null) {
      throw reject(
          "casts to "
              + TypeNames.javaName(internalName)
              + ", which the snapshot's class table does not name");
    }
    return c;
  }

  /**
   * @return the rejection of the statement being checked, for {@code what}: an {@link
   *     UnsafeSnapshotException}
   */
  ObjectStreamException reject(String what) {
    String where =
        whereClass < 0
            ? ""
            : "generated class "
                + whereClass
                + ", method m"
                + whereMethod
                + ", statement "
                + whereStatement
                + ": ";
    return Failures.unsafe(List.of(where + what));
  }

  /**
   * @return name {@code index} of the class being checked, or {@code null} for -1
   */
  String name(int index) throws ObjectStreamException {
    if (index < 0) {
      return null;
    }
    if (index >= names.size()) {
      throw reject("refers to name " + index + ", which the class does not have");
    }
    return names.get(index);
  }
}
