package org.codese.load;

import java.io.Externalizable;
import java.io.ObjectStreamException;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.UnsafeSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Fills;
import org.codese.program.Grammar;
import org.codese.program.Tape;
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
 *   <li>Phases keep their roles: the create phase only fills slots, the set phase only writes
 *       fields and elements, the finish phase only runs the finish program; and there are no more
 *       generated classes than the statements need.
 * </ul>
 *
 * References to objects of earlier stream segments are checked when the restore starts ({@link
 * #priorIds()}, {@link #priorTypes()}).
 */
final class ProgramCheck {
  /**
   * Loops over more elements run in blocks of this many: the JIT compiles a block method after a
   * few calls, where a long loop in one call would run interpreted until on-stack replacement.
   */
  private static final int BLOCK = 256;

  private static final byte EMPTY = 0;

  /** An object allocated by this snapshot: fields may be set, hooks may run on it. */
  private static final byte INSTANCE = 1;

  /** An array allocated by this snapshot: elements may be set. */
  private static final byte ARRAY = 2;

  /** A new string or box: never written to. */
  private static final byte VALUE = 3;

  /** A value the snapshot did not allocate (a constant, a cached box): never written to. */
  private static final byte FOREIGN = 4;

  /** A record made by its hook: never written to. */
  private static final byte RECORD = 5;

  /** What {@code readResolve} returned: of unknown class, never written to. */
  private static final byte RESOLVED = 6;

  /**
   * A JDK collection this snapshot made with its public constructor ({@link Constant.Sized}): only
   * its one fill step writes to it; {@link #length} holds the initial capacity it was given.
   */
  private static final byte FILLABLE = 7;

  /** A filled collection: never written to again. */
  private static final byte FILLED = 8;

  private final List<Constant> raw;
  private final int version;

  /**
   * Whether the file is a segment of an object stream, whose values hold no object a JDK stream
   * would hold below them ({@link Values#holdsArray}).
   */
  private final boolean segment;

  /**
   * Per generated class (by class-file index), the work its statements do: one per statement plus
   * one per loop row and column ({@link #cost}), which {@link Parallel} divides threads by.
   */
  private long[] classCosts = new long[0];

  /** Elements of the arrays create programs make, and the longest of them. */
  private long dataArrayElements;

  private int longestDataArray;

  /** Collections made to be filled and not filled yet. */
  private int unfilled;

  /**
   * Per array class, the longest array the fills' collections hold, which {@code readObject} would
   * have asked the serialization filter about.
   */
  private final Map<Class<?>, Integer> fillArrays = new HashMap<>(4);

  private final Object[] resolved;
  private final ClassTable classes;
  private final int first;
  private final int end;
  private final byte[] kind;
  private final Class<?>[] type;
  private final int[] length;
  private final Map<String, Class<?>> named = new HashMap<>();
  private int[] priorIds = new int[0];
  private Class<?>[] priorTypes = new Class<?>[0];
  private int priors;
  private final Map<Class<?>, Integer> fieldCounts = new HashMap<>();

  /** The class each allocation loop's id constant filled its slots with. */
  private final Map<Integer, Class<?>> loopClasses = new HashMap<>();

  private final List<org.codese.program.ClassEntry> entries;
  private Map<Class<?>, Integer> listed;

  /** Per constant, whether the finish program ran it as a hook already. */
  private final boolean[] hooksRun;

  private final Map<Class<?>, Integer> depths = new HashMap<>();

  /** Field and element stores the allocated objects can take: each field and element once. */
  private long capacity;

  /** Field and element stores the program makes. */
  private long writes;

  /** The generated class, method and statement being checked, for rejections; -1 when none. */
  private int whereClass = -1;

  private int whereMethod;
  private int whereStatement;

  /** The names of the generated class being checked. */
  private List<String> names = List.of();

  private int target = -1;

  /**
   * Whether the target was selected through a cast to a class removed since capture from its
   * hierarchy ({@link ClassTable#detach}): the adapted code holds {@code null} there, so only
   * stores into removed fields, which are taken out, may follow.
   */
  private boolean nullTarget;

  /** The last class found to fit {@link #lastRequired}: repeated checks of a column are free. */
  private Class<?> lastFit;

  private Class<?> lastRequired;
  private Class<?> fitWanted;
  private Class<?> fitActual;
  private Class<?> depthOf;
  private String lastCast;
  private int lastCastHost;
  private Class<?> lastCastClass;
  private int depth;
  private Class<?> countOf;
  private int count;

  private ProgramCheck(
      SnapshotFile file, ClassTable classes, Object[] resolved, int slots, boolean segment) {
    this.raw = file.constants();
    this.segment = segment;
    this.version = file.version();
    this.entries = file.classes();
    this.hooksRun = new boolean[raw.size()];
    this.resolved = resolved;
    this.classes = classes;
    this.first = file.firstId();
    this.end = file.tableSize();
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
    ProgramCheck c = new ProgramCheck(file, classes, resolved, slots(file, program), segment);
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
   * @return per array class, the longest storage array a filled JDK collection has, which its
   *     {@code readObject} would have asked the serialization filter about ({@link Fills})
   */
  Map<Class<?>, Integer> fillArrays() {
    return fillArrays;
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

  /**
   * One pass over the statements before any per-slot memory is allocated. Checks that the snapshot
   * defines no more classes than its statements need (the emitter starts a class per phase and host
   * and a new one only after {@link Grammar#MAX_OPS_PER_CLASS} statements, and none is empty), and
   * that the table size it declares is justified by what its program can fill (stores, loop ids,
   * record hooks), so a lying table size cannot make the loader or the restore allocate more than
   * the file's contents justify.
   *
   * @return the number of table slots the snapshot declares
   */
  private static int slots(SnapshotFile file, List<GrammarCheck.Lifted> program)
      throws ObjectStreamException {
    long declared = (long) file.tableSize() - file.firstId();
    long fills = 0;
    long statements = 0;
    java.util.Set<Long> sections = new java.util.HashSet<>();
    List<Constant> raw = file.constants();
    for (GrammarCheck.Lifted c : program) {
      sections.add(((long) c.phase() << 32) | (c.host() & 0xFFFFFFFFL));
      long before = statements;
      for (int[] code : c.chunks()) {
        for (int pc = 0; pc < code.length; pc += GrammarCheck.statementSize(code, pc)) {
          statements++;
          int op = code[pc];
          int ids = isIdsLoop(op) ? code[pc + 1] : -1;
          if (isStore(op)) {
            fills++;
          } else if (op == Stmt.RUN_STEPS
              && c.phase() == 0
              && code[pc + 1] >= 0
              && code[pc + 1] < raw.size()
              && raw.get(code[pc + 1]) instanceof Constant.PrimArray p
              && p.array() instanceof int[] a) {
            fills += a.length / 2; // a create program makes an object per two ints at most
          } else if (ids >= 0
              && ids < raw.size()
              && raw.get(ids) instanceof Constant.PrimArray p
              && p.array() instanceof int[] a) {
            fills += a.length;
          }
        }
      }
      if (statements == before) {
        throw unsafe("generated class " + c.index() + " has no statement");
      }
    }
    long allowed = sections.size() + statements / Grammar.MAX_OPS_PER_CLASS;
    if (program.size() > allowed) {
      throw unsafe(
          program.size()
              + " generated classes for "
              + statements
              + " statements; the restore program needs at most "
              + allowed);
    }
    for (Constant k : raw) {
      fills += k instanceof Constant.Hook h && h.kind() == Constant.HookKind.RECORD ? 1 : 0;
    }
    if (declared < 0 || declared > fills) {
      throw unsafe(
          "the snapshot declares "
              + declared
              + " table slots but its program can fill"
              + " at most "
              + fills);
    }
    return (int) declared;
  }

  private static UnsafeSnapshotException unsafe(String what) {
    return new UnsafeSnapshotException(List.of(what));
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
          target = -1;
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

  /** Whether statement {@code op} stores one value into the table ({@code table[id] = ...}). */
  private static boolean isStore(int op) {
    return op >= Stmt.STORE_ALLOC && op <= Stmt.STORE_CONSTANT || op == Stmt.STORE_COLLECTION;
  }

  /** Whether statement {@code op} is a create-phase loop over an {@code int[]} of table ids. */
  private static boolean isIdsLoop(int op) {
    return op == Stmt.ALLOC_LOOP
        || op == Stmt.COLLECTION_LOOP
        || op == Stmt.STRING_LOOP
        || op == Stmt.BOX_LOOP;
  }

  /**
   * The work of the statement at {@code pc}, checked already: 1, plus for a loop its rows, times
   * one plus its columns for a cluster loop.
   */
  private long cost(int[] code, int pc) throws ObjectStreamException {
    int op = code[pc];
    if (isIdsLoop(op) || op == Stmt.ELEMENT_LOOP) {
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
    return dataArrayElements;
  }

  /**
   * @return the longest array a create program makes, or that a JDK stream holds for a value it
   *     makes ({@link Values#magnitudeLength}); 0 if none
   */
  int longestDataArray() {
    return longestDataArray;
  }

  /**
   * A create program: only {@link Grammar#STEP_ARRAYS} steps, each making arrays of a class the
   * class table lists (which the filter is asked about) into empty slots of this snapshot, with
   * non-negative lengths, and copying elements only from inside a primitive array constant of the
   * same kind.
   */
  private void arraysProgram(int[] p) throws ObjectStreamException {
    for (int i = 0; i < p.length; ) {
      if (p[i] != Grammar.STEP_ARRAYS || i + 4 > p.length) {
        throw reject("create program step " + p[i] + " at " + i + " is unknown or cut short");
      }
      char t = (char) p[i + 1];
      int source = p[i + 2];
      int n = p[i + 3];
      if (n < 0 || i + 4 + 3L * n > p.length) {
        throw reject("create program step at " + i + " is cut short");
      }
      Class<?> arrayClass;
      long data = 0;
      if (t == 'L') {
        arrayClass = arrayClass('L', source);
      } else if ("ZBCSIJFD".indexOf(t) >= 0) {
        arrayClass = Types.primitiveClass(t).arrayType();
        if (source >= 0) {
          if (!(raw(source) instanceof Constant.PrimArray d)
              || d.array().getClass() != arrayClass) {
            throw reject(
                "copies "
                    + arrayClass.getComponentType()
                    + " elements from constant "
                    + source
                    + ", which is not such an array");
          }
          data = Array.getLength(d.array());
        }
      } else {
        throw reject("makes arrays of unknown element kind " + p[i + 1]);
      }
      if (!named.containsKey(Types.internalName(arrayClass))) {
        throw reject(
            "makes arrays of "
                + arrayClass.getTypeName()
                + ", which its class table does not list for the filter");
      }
      for (int at = i + 4; at < i + 4 + 3 * n; at += 3) {
        int length = p[at + 1];
        int offset = p[at + 2];
        if (length < 0
            || offset < -1
            || (offset >= 0 && (t == 'L' || source < 0 || (long) offset + length > data))) {
          throw reject(
              "makes an array of length "
                  + length
                  + " from offset "
                  + offset
                  + " of "
                  + data
                  + " elements");
        }
        fill(p[at], ARRAY, arrayClass, length);
        dataArrayElements += length;
        longestDataArray = Math.max(longestDataArray, length);
      }
      i += 4 + 3 * n;
    }
  }

  /**
   * A create program of values: only {@link Grammar#STEP_VALUES} steps, each making values of a
   * kind {@link Values} lists that the snapshot's format makes, whose class and stream class the
   * class table lists (the filter is asked about both, as {@code ObjectInputStream} asks about the
   * stream class and then the class {@code readResolve} returned), and the other classes a JDK
   * stream holds descriptors of for such a value (a {@code BigInteger}'s {@code Number} and {@code
   * byte[]}, whose length counts among the arrays' the filter is told), into empty slots of this
   * snapshot, from inside a {@code long[]} constant.
   */
  private void valuesProgram(int[] p) throws ObjectStreamException {
    for (int i = 0; i < p.length; ) {
      if (p[i] != Grammar.STEP_VALUES || i + 4 > p.length) {
        throw reject("create program step " + p[i] + " at " + i + " is unknown or cut short");
      }
      int kind = p[i + 1];
      int n = p[i + 3];
      if (!Values.isKind(kind)) {
        throw reject("makes values of unknown kind " + kind);
      }
      if (segment && Values.holdsArray(kind)) {
        // its serial form holds objects (a BigInteger's magnitude) a stream's hooks would see
        throw reject("makes values of " + Values.className(kind) + ", which streams do not make");
      }
      if (version < Values.since(kind)) {
        throw reject(
            "makes values of "
                + Values.className(kind)
                + ", which format "
                + version
                + " does not make (from format "
                + Values.since(kind)
                + " on)");
      }
      if (n < 0 || i + 4 + 2L * n > p.length) {
        throw reject("create program step at " + i + " is cut short");
      }
      if (!(raw(p[i + 2]) instanceof Constant.PrimArray d && d.array() instanceof long[] data)) {
        throw reject("makes values from constant " + p[i + 2] + ", which is not a long[]");
      }
      if (!named.containsKey(Values.streamClassName(kind))
          || !named.containsKey(Values.className(kind))) {
        throw reject(
            "makes values of "
                + Values.className(kind)
                + " without that class and its stream class "
                + Values.streamClassName(kind)
                + " in its class table for the filter");
      }
      for (Class<?> other : Values.otherStreamClasses(kind)) {
        String name = other.getName().replace('.', '/');
        if (!named.containsKey(name)) {
          throw reject(
              "makes values of "
                  + Values.className(kind)
                  + " without "
                  + name
                  + ", whose descriptor a JDK stream holds for them, in its class table for the"
                  + " filter");
        }
      }
      Class<?> type = Values.type(kind);
      for (int at = i + 4; at < i + 4 + 2 * n; at += 2) {
        int offset = p[at + 1];
        if (offset < 0 || (long) offset + Values.arity(kind) > data.length) {
          throw reject("makes a value from offset " + offset + " of " + data.length + " longs");
        }
        // the array a JDK stream holds for the value: the filter is asked about its length
        longestDataArray = Math.max(longestDataArray, Values.magnitudeLength(kind, data[offset]));
        fill(p[at], VALUE, type, 0);
      }
      i += 4 + 2 * n;
    }
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
      case 0 -> create(code, pc);
      case 1 -> set(host, code, pc);
      default -> finish(code, pc);
    }
  }

  private void create(int[] code, int pc) throws ObjectStreamException {
    int op = code[pc];
    if (isStore(op)) {
      store(code, pc);
    } else if (op == Stmt.ALLOC_LOOP || op == Stmt.COLLECTION_LOOP) {
      Class<?> c = allocated(code[pc + 2], op == Stmt.COLLECTION_LOOP);
      int[] ids = intArray(code[pc + 1]);
      byte k = allocKind(code[pc + 2]);
      for (int from = 0; from < ids.length; from += BLOCK) {
        fillBlock(ids, from, Math.min(ids.length, from + BLOCK), k, c);
      }
      if (k == FILLABLE) {
        int initial = ((Constant.Sized) raw(code[pc + 2])).capacity();
        for (int id : ids) {
          length[id - first] = initial;
        }
        unfilled += ids.length;
      } else {
        capacity += (long) ids.length * fieldCount(c);
      }
      loopClasses.put(code[pc + 1], c);
    } else if (op == Stmt.STRING_LOOP) {
      int[] ids = intArray(code[pc + 1]);
      if (!(raw(code[pc + 2]) instanceof Constant.Texts t) || t.values().length < ids.length) {
        throw reject("a string loop's texts are not a string array as long as its ids");
      }
      for (int from = 0; from < ids.length; from += BLOCK) {
        fillBlock(ids, from, Math.min(ids.length, from + BLOCK), VALUE, String.class);
      }
    } else if (op == Stmt.BOX_LOOP) {
      boxLoop(code, pc);
    } else if (op == Stmt.RUN_STEPS && version >= Grammar.FILL_VERSION) {
      int[] p = intArray(code[pc + 1]);
      if (p.length > 0 && p[0] == Grammar.STEP_VALUES && version >= Grammar.VALUE_VERSION) {
        valuesProgram(p);
      } else {
        arraysProgram(p);
      }
    } else {
      throw reject("the create phase only fills table slots, not statement " + op);
    }
  }

  /**
   * A box loop: its values must be a primitive array of the boxes' kind, at least as long as its
   * ids; the boxes from {@code valueOf} may be shared with the rest of the JVM, so they are
   * foreign.
   */
  private void boxLoop(int[] code, int pc) throws ObjectStreamException {
    int[] ids = intArray(code[pc + 1]);
    char t = (char) code[pc + 3];
    Object values = raw(code[pc + 2]) instanceof Constant.PrimArray p ? p.array() : null;
    if (values == null
        || values.getClass().getComponentType() != Types.primitiveClass(t)
        || Array.getLength(values) < ids.length) {
      throw reject(
          "a box loop's values (constant "
              + code[pc + 2]
              + ") are not a "
              + t
              + " array as long as its ids");
    }
    Class<?> box = Types.box(t, 0).getClass();
    byte k = code[pc + 4] == 1 ? FOREIGN : VALUE;
    for (int from = 0; from < ids.length; from += BLOCK) {
      fillBlock(ids, from, Math.min(ids.length, from + BLOCK), k, box);
    }
  }

  /** A store statement: {@code table[id] = value}. */
  private void store(int[] code, int pc) throws ObjectStreamException {
    int id = code[pc + 1];
    int k = code[pc + 2];
    switch (code[pc]) {
      case Stmt.STORE_ALLOC, Stmt.STORE_COLLECTION -> {
        Class<?> c = allocated(k, code[pc] == Stmt.STORE_COLLECTION);
        if (allocKind(k) == FILLABLE) {
          fill(id, FILLABLE, c, ((Constant.Sized) raw(k)).capacity());
          unfilled++;
        } else {
          fill(id, INSTANCE, c, 0);
        }
      }
      case Stmt.STORE_ARRAY -> fill(id, ARRAY, arrayClass((char) k, code[pc + 3]), code[pc + 4]);
      case Stmt.STORE_CLONE -> {
        String descriptor = names.get(code[pc + 3]);
        if (!(raw(k) instanceof Constant.PrimArray p)
            || !Types.descriptor(p.array().getClass()).equals(descriptor)) {
          throw reject(
              "clones constant " + k + ", which is not of type " + TypeNames.javaName(descriptor));
        }
        fill(id, ARRAY, p.array().getClass(), Array.getLength(p.array()));
      }
      case Stmt.STORE_STRING -> {
        if (k >= 0 && !(raw(k) instanceof Constant.Text)) {
          throw reject("makes a string of constant " + k + ", which is not a text");
        }
        fill(id, VALUE, String.class, 0);
      }
      case Stmt.STORE_BOX ->
          fill(id, code[pc + 3] == 1 ? FOREIGN : VALUE, Types.box((char) k, 0).getClass(), 0);
      default -> {
        Constant c = raw(k);
        if (!(c instanceof Constant.EnumRef
            || c instanceof Constant.TypeRef
            || c instanceof Constant.StreamClassRef
            || c instanceof Constant.StaticRef
            || c instanceof Constant.NamedRef)) {
          throw reject(
              "stores constant "
                  + k
                  + " into the table; only enum"
                  + " constants, classes, stream classes and global references are stored as"
                  + " they are");
        }
        // a global reference is a live object of this JVM: foreign, never a target (as enums)
        fill(id, FOREIGN, resolved[k].getClass(), 0);
      }
    }
  }

  /** {@link #FILLABLE} for a collection constructor, else {@link #INSTANCE}. */
  private byte allocKind(int constant) throws ObjectStreamException {
    return raw(constant) instanceof Constant.Sized ? FILLABLE : INSTANCE;
  }

  /**
   * The class an allocator constant allocates, which must be a concrete class; from format version
   * {@code Grammar.COLLECTION_VERSION} on, a collection maker passed to the collection entry
   * ({@code collection}) and any other allocator to the allocation entry, never the other way.
   */
  private Class<?> allocated(int constant, boolean collection) throws ObjectStreamException {
    boolean sized = raw(constant) instanceof Constant.Sized;
    if (version >= Grammar.COLLECTION_VERSION && sized != collection) {
      throw reject(
          (collection ? "makes a collection with constant " : "allocates with constant ")
              + constant
              + ", which is "
              + (sized ? "a collection maker" : "not a collection maker")
              + "; from format version "
              + Grammar.COLLECTION_VERSION
              + " on collections are made by "
              + Grammar.NEW_COLLECTION_METHOD
              + " and other objects by "
              + Grammar.ALLOCATE_METHOD);
    }
    if (raw(constant) instanceof Constant.Sized s) {
      Class<?> c = classes.get(s.type());
      if (version < Grammar.FILL_VERSION || resolved[constant] == null) {
        throw reject(
            "allocates "
                + c.getTypeName()
                + " with a collection constructor (constant "
                + constant
                + "); only the JDK collections Codese fills have one, from format version "
                + Grammar.FILL_VERSION
                + " on");
      }
      return c;
    }
    if (!(raw(constant) instanceof Constant.Allocator a)) {
      throw reject("allocates with constant " + constant + ", which is not an allocator");
    }
    Class<?> c = classes.get(a.type());
    if (c.isInterface()
        || c.isArray()
        || c.isPrimitive()
        || Modifier.isAbstract(c.getModifiers())) {
      throw reject("allocates " + c.getTypeName() + ", which cannot have instances");
    }
    return c;
  }

  /** The class of a new array of kind {@code elem} (for references: array maker {@code maker}). */
  private Class<?> arrayClass(char elem, int maker) throws ObjectStreamException {
    if (elem != 'L') {
      return Types.primitiveClass(elem).arrayType();
    } else if (maker < 0) {
      return Object[].class;
    } else if (raw(maker) instanceof Constant.ArrayMaker m && classes.get(m.type()).isArray()) {
      return classes.get(m.type());
    }
    throw reject("makes an array with constant " + maker + ", which is not an array maker");
  }

  /**
   * Fills slots {@code ids[from..to)} of a loop, as {@link #fill} with the capacity counted by the
   * caller; its common case, an empty own slot, in {@link CheckLoops#fillEmpty}.
   */
  private void fillBlock(int[] ids, int from, int to, byte k, Class<?> c)
      throws ObjectStreamException {
    int i = from;
    while ((i = CheckLoops.fillEmpty(ids, i, to, kind, type, first, EMPTY, k, c)) < to) {
      fill(ids[i++], k, c, 0);
    }
  }

  private void fill(int id, byte k, Class<?> c, int len) throws ObjectStreamException {
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
   * The fields of {@code c} and its superclasses that the snapshot's class table lists: every field
   * the program sets is one of them, so they bound how many stores an object of {@code c} takes.
   * Counted from the table, without reflection, which is slow in a cold JVM.
   */
  private int fieldCount(Class<?> c) {
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
   * Counts {@code n} field or element stores against the capacity of the objects allocated: a
   * program writes each field and element at most once, so its loops cannot multiply the work.
   */
  private void write(long n) throws ObjectStreamException {
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
  private int own(int id) throws ObjectStreamException {
    if (id < first || id >= end) {
      throw reject(
          "table slot " + id + " is not one of this snapshot's slots " + first + ".." + (end - 1));
    }
    return id - first;
  }

  private void set(int host, int[] code, int pc) throws ObjectStreamException {
    switch (code[pc]) {
      case Stmt.SELECT -> select(code[pc + 1], name(code[pc + 2]), host);
      case Stmt.SET_FIELD -> {
        write(1);
        Field field = setter(code[pc + 1], (char) code[pc + 2], instanceTarget());
        if (nullTarget && field != Evolution.REMOVED) {
          throw reject("sets " + field + " of an object cast to a class its class no longer has");
        }
        value((char) code[pc + 2], code[pc + 3], field.getType());
      }
      case Stmt.PUT_FIELD -> {
        write(1);
        Class<?> owner = hostClass(host, name(code[pc + 1]));
        boolean detached = classes.detached(owner);
        if (!detached && !owner.isAssignableFrom(instanceTarget())) {
          throw reject(
              "puts into a field of "
                  + owner.getTypeName()
                  + " of an object of "
                  + instanceTarget().getTypeName());
        }
        Field field =
            putfield(owner, name(code[pc + 2]), name(code[pc + 3]), name(code[pc + 4]), host);
        if ((detached || nullTarget) && field != Evolution.REMOVED) {
          throw reject(
              "puts into field "
                  + name(code[pc + 2])
                  + " of "
                  + owner.getTypeName()
                  + ", a class removed since capture from the hierarchy of the object, which was"
                  + " no recorded field");
        }
        value((char) code[pc + 5], code[pc + 6], field.getType());
      }
      case Stmt.PUT_ELEMENT -> {
        write(1);
        Class<?> component = element(code[pc + 1], (char) code[pc + 2]);
        value((char) code[pc + 2], code[pc + 3], component);
      }
      case Stmt.ELEMENT_LOOP -> {
        int[] refs = intArray(code[pc + 1]);
        write(refs.length);
        Class<?> component = element(refs.length - 1, 'L');
        refs(refs, refs.length, component);
        target = -1;
      }
      case Stmt.CLUSTER_LOOP -> {
        cluster(host, code, pc);
        target = -1;
      }
      default ->
          throw reject("the set phase only writes fields and elements, not statement " + code[pc]);
    }
  }

  /**
   * Whether a generated class of {@code host} (-1: Codese's own package) may name {@code c} in a
   * cast: {@code c} is public in a package exported to it, or in the same runtime package.
   */
  private boolean accessible(Class<?> c, int host) {
    Class<?> e = elementOf(c);
    if (e.isPrimitive()) {
      return true;
    }
    Class<?> from = beside(host);
    if (Modifier.isPublic(e.getModifiers())) {
      return e.getModule().isExported(e.getPackageName(), from.getModule());
    }
    return e.getPackageName().equals(from.getPackageName())
        && e.getClassLoader() == from.getClassLoader();
  }

  /**
   * Whether the loader that will define the generated class of {@code host} resolves {@code c}'s
   * name to {@code c}: the class table resolves names through the snapshot's loader, the JVM a cast
   * through the loader of the class it sits in.
   */
  private boolean visible(Class<?> c, int host) {
    Class<?> e = elementOf(c);
    ClassLoader from = beside(host).getClassLoader();
    ClassLoader own = e.getClassLoader();
    if (e.isPrimitive() || own == null || own == from) {
      return true;
    }
    try {
      return Class.forName(e.getName(), false, from) == e;
    } catch (ClassNotFoundException | LinkageError x) {
      return false;
    }
  }

  /** The class whose package and loader generated code of {@code host} (-1: none) shares. */
  private Class<?> beside(int host) {
    return host < 0 ? ProgramCheck.class : classes.get(host);
  }

  /** {@code c}'s element class if it is an array class, else {@code c}. */
  private static Class<?> elementOf(Class<?> c) {
    Class<?> e = c;
    while (e.isArray()) {
      e = e.getComponentType();
    }
    return e;
  }

  private Class<?> cast(String internalName, int host) throws ObjectStreamException {
    if (internalName.equals(lastCast) && host == lastCastHost) {
      return lastCastClass;
    }
    Class<?> c = named(internalName);
    if (!accessible(c, host)) {
      throw reject(
          "casts to "
              + c.getTypeName()
              + ", which generated code in "
              + (host < 0 ? "Codese's package" : "the nest of " + classes.get(host).getTypeName())
              + " cannot access");
    }
    if (!visible(c, host)) {
      throw reject(
          "casts to "
              + c.getTypeName()
              + ", which the class loader of generated code in "
              + (host < 0 ? "Codese's package" : "the nest of " + classes.get(host).getTypeName())
              + " resolves to another class or not at all");
    }
    lastCast = internalName;
    lastCastHost = host;
    lastCastClass = c;
    return c;
  }

  private void select(int id, String cast, int host) throws ObjectStreamException {
    int at = own(id);
    if (kind[at] != INSTANCE && kind[at] != ARRAY) {
      throw reject(
          "writes to table slot " + id + ", which holds no object this" + " snapshot allocated");
    }
    Class<?> to = cast == null ? null : cast(cast, host);
    nullTarget = to != null && kind[at] == INSTANCE && classes.detached(to);
    if (to != null && !nullTarget && !fits(to, type[at])) {
      throw reject(
          "casts slot " + id + " (" + type[at].getTypeName() + ") to " + TypeNames.javaName(cast));
    }
    target = at;
  }

  private Class<?> instanceTarget() throws ObjectStreamException {
    if (target < 0 || kind[target] != INSTANCE) {
      throw reject("sets a field with no object selected");
    }
    return type[target];
  }

  /**
   * Checks an element store into the target array at {@code index} of kind {@code store}; returns
   * the component type.
   */
  private Class<?> element(int index, char store) throws ObjectStreamException {
    if (target < 0 || kind[target] != ARRAY) {
      throw reject("sets an element with no array selected");
    }
    Class<?> component = type[target].getComponentType();
    if (index < 0 || index >= length[target]) {
      throw reject("sets element " + index + " of an array of length " + length[target]);
    }
    boolean fits =
        store == 'L'
            ? !component.isPrimitive()
            : component.isPrimitive()
                && (Types.primitiveCode(component) == store
                    || (store == 'B' && component == boolean.class));
    if (!fits) {
      throw reject("stores a value of kind " + store + " into a " + type[target].getSimpleName());
    }
    return component;
  }

  /** {@code CLUSTER_LOOP owner ids n} and its {@code n} columns. */
  private void cluster(int host, int[] code, int pc) throws ObjectStreamException {
    int[] ids = intArray(code[pc + 2]);
    int columns = code[pc + 3];
    String ownerName = name(code[pc + 1]);
    Class<?> owner = ownerName == null ? null : hostClass(host, ownerName);
    // a class removed from the hierarchy of the objects: the adapted loop casts nothing
    boolean detached = owner != null && classes.detached(owner);
    Class<?> targets = detached ? null : owner;
    boolean reflective = false;
    for (int c = 0; c < columns; c++) {
      reflective |= code[pc + 4 + c * Stmt.COLUMN_SIZE + 2] >= 0;
    }
    Class<?>[] types = reflective ? new Class<?>[ids.length] : null;
    // slots an allocation loop filled keep their class through the set phase
    Class<?> allocated = loopClasses.get(code[pc + 2]);
    if (allocated != null && (targets == null || targets.isAssignableFrom(allocated))) {
      if (types != null) {
        java.util.Arrays.fill(types, allocated);
      }
    } else {
      for (int from = 0; from < ids.length; from += BLOCK) {
        targetBlock(ids, from, Math.min(ids.length, from + BLOCK), targets, types);
      }
    }
    write((long) ids.length * Math.max(1, columns));
    for (int c = 0; c < columns; c++) {
      int col = pc + 4 + c * Stmt.COLUMN_SIZE;
      char t = (char) code[col];
      Field field;
      if (code[col + 2] >= 0) {
        field = setter(code[col + 2], t, null);
        Class<?> ok = null;
        for (Class<?> k : types) {
          if (k != ok
              && !(classes.evolved() && field == Evolution.REMOVED)
              && !field.getDeclaringClass().isAssignableFrom(k)) {
            throw notInHierarchy(field, k);
          }
          ok = k;
        }
      } else {
        if (owner == null) {
          throw reject("a cluster loop stores with putfield but casts to no class");
        }
        field =
            putfield(owner, name(code[col + 3]), name(code[col + 4]), name(code[col + 5]), host);
      }
      if (detached && field != Evolution.REMOVED) {
        throw reject(
            "a cluster loop over objects cast to a class removed since capture from their"
                + " hierarchy stores into "
                + field);
      }
      column(t, code[col + 1], ids.length, field.getType());
    }
  }

  /**
   * Checks that slots {@code ids[from..to)} hold objects this snapshot allocated, of {@code owner}
   * unless that is null, and records their classes in {@code types} unless that is null.
   */
  private void targetBlock(int[] ids, int from, int to, Class<?> owner, Class<?>[] types)
      throws ObjectStreamException {
    Class<?> fits = null;
    byte[] kinds = kind;
    for (int i = from; i < to; i++) {
      int at = ids[i] - first;
      if (at < 0 || at >= kinds.length) {
        own(ids[i]);
      }
      if (kinds[at] == INSTANCE && type[at] == fits) {
        if (types != null) {
          types[i] = fits;
        }
        continue;
      }
      if (kind[at] != INSTANCE || (owner != null && !owner.isAssignableFrom(type[at]))) {
        throw reject(
            "a cluster loop writes to slot "
                + ids[i]
                + ", which holds no "
                + (owner == null ? "object" : owner.getTypeName())
                + " this snapshot allocated");
      }
      if (types != null) {
        types[i] = type[at];
      }
      fits = type[at];
    }
  }

  /** A column of kind {@code t} whose values are constant {@code k}. */
  private void column(char t, int k, int rows, Class<?> fieldType) throws ObjectStreamException {
    Object values = raw(k) instanceof Constant.PrimArray p ? p.array() : null;
    Class<?> expected = t == 'L' ? int[].class : Types.primitiveClass(t).arrayType();
    if (values == null || values.getClass() != expected || Array.getLength(values) < rows) {
      throw reject(
          "column constant "
              + k
              + " is not a "
              + expected.getSimpleName()
              + " of at least "
              + rows
              + " values");
    }
    if (t == 'L') {
      refs((int[]) values, rows, fieldType);
    }
  }

  /** The field of a setter constant, whose setter kind and declaring class must fit. */
  private Field setter(int constant, char setterKind, Class<?> targetType)
      throws ObjectStreamException {
    if (!(raw(constant) instanceof Constant.Setter) || !(resolved[constant] instanceof Field f)) {
      throw reject("sets a field through constant " + constant + ", which is not a field");
    }
    if (classes.evolved() && f == Evolution.REMOVED) {
      return f; // removed since capture: the loader takes the store out of the code
    }
    boolean fits =
        setterKind == 'L'
            ? !f.getType().isPrimitive()
            : f.getType().isPrimitive() && Types.primitiveCode(f.getType()) == setterKind;
    if (!fits) {
      throw reject("sets " + f + " with a setter of kind " + setterKind);
    }
    if (targetType != null && !f.getDeclaringClass().isAssignableFrom(targetType)) {
      throw notInHierarchy(f, targetType);
    }
    return f;
  }

  /**
   * The rejection of a store into field {@code f} of an object of {@code target}, which is not of
   * {@code f}'s class: where both classes are {@code Serializable}, the class was removed from
   * {@code target}'s hierarchy since capture while the snapshot also holds objects of the class
   * itself (else {@link ClassTable#detach} would have taken the stores out), which Codese does not
   * restore; anything else (a final class, a field the class table does not record) is crafted.
   */
  private ObjectStreamException notInHierarchy(Field f, Class<?> target) {
    Class<?> owner = f.getDeclaringClass();
    if (!java.io.Serializable.class.isAssignableFrom(owner)
        || !java.io.Serializable.class.isAssignableFrom(target)
        || Modifier.isFinal(owner.getModifiers())
        || classes.detached(owner)) {
      return reject("sets " + f + " of an object of " + target.getTypeName());
    }
    return new org.codese.ClassMismatchException(
        target.getName(),
        f.getName(),
        owner.getName()
            + " is no longer a superclass of "
            + target.getName()
            + ", but the snapshot holds objects of it too: Codese skips the data of a class"
            + " removed from a hierarchy (as ObjectInputStream does) only when no object of the"
            + " snapshot is of that class or a subclass of it; read such data with"
            + " ObjectInputStream, or capture the graph again");
  }

  private Class<?> hostClass(int host, String owner) throws ObjectStreamException {
    if (host < 0 || !Types.internalName(classes.get(host)).equals(owner)) {
      throw reject("stores with putfield into " + TypeNames.javaName(owner) + " outside its nest");
    }
    return classes.get(host);
  }

  /** The live field {@code owner.name}: an instance field, not final, of the recorded type. */
  private Field putfield(Class<?> owner, String name, String descriptor, String cast, int host)
      throws ObjectStreamException {
    Field f = classes.writableField(host, name);
    if (f == null) {
      return Evolution.REMOVED; // removed since capture: the loader takes the store out of the code
    }
    if (Modifier.isFinal(f.getModifiers()) || !Types.descriptor(f.getType()).equals(descriptor)) {
      throw reject(
          "putfield into "
              + owner.getTypeName()
              + "."
              + name
              + " of type "
              + TypeNames.javaName(descriptor)
              + ", which is not a non-final instance field of that type");
    }
    if (cast != null && !Types.internalName(f.getType()).equals(cast)) {
      throw reject(
          "casts a value to "
              + TypeNames.javaName(cast)
              + " before storing it into a field of type "
              + f.getType().getTypeName());
    }
    if (cast != null && !accessible(f.getType(), host)) {
      throw reject(
          "casts to "
              + f.getType().getTypeName()
              + ", which the nest of "
              + owner.getTypeName()
              + " cannot access");
    }
    return f;
  }

  /** Checks that {@code v}, if a reference, is null or of a class that fits {@code required}. */
  /** Checks a value of kind {@code t}: for references, {@link #ref}. */
  private void value(char t, int ref, Class<?> required) throws ObjectStreamException {
    if (t == 'L') {
      ref(ref, required);
    }
  }

  /** Checks {@code refs[0..rows)} with {@link #ref}, in blocks. */
  private void refs(int[] refs, int rows, Class<?> required) throws ObjectStreamException {
    for (int from = 0; from < rows; from += BLOCK) {
      refBlock(refs, from, Math.min(rows, from + BLOCK), required);
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
  private void ref(int ref, Class<?> required) throws ObjectStreamException {
    if (ref < 0 || ref > end) {
      throw reject("reads table slot " + ref + ", outside the table");
    }
    if (ref < first) {
      prior(ref, required);
      return;
    }
    if (ref == end || required == Object.class) {
      return;
    }
    int at = ref - first;
    Class<?> t = type[at];
    if (t == fitFor(required)) {
      return;
    }
    if (kind[at] != EMPTY && kind[at] != RESOLVED && !required.isAssignableFrom(t)) {
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

  private void finish(int[] code, int pc) throws ObjectStreamException {
    if (code[pc] != Stmt.RUN_STEPS) {
      throw reject("the finish phase only runs the finish program, not statement " + code[pc]);
    }
    int[] p = intArray(code[pc + 1]);
    int i = 0;
    while (i < p.length) {
      int step = p[i];
      int size =
          step == Grammar.STEP_HOOK
              ? 2
              : step == Grammar.STEP_FILL ? (i + 2 < p.length ? 3 + Math.max(0, p[i + 2]) : 3) : 4;
      int last = version < Grammar.FILL_VERSION ? Grammar.STEP_ELEMENT : Grammar.STEP_FILL;
      if (step < Grammar.STEP_HOOK || step > last || (long) i + size > p.length) {
        throw reject("finish step " + step + " at " + i + " is unknown or cut short");
      }
      if (step == Grammar.STEP_FILL) {
        fillStep(p, i);
      } else if (step == Grammar.STEP_HOOK) {
        hook(p[i + 1]);
      } else if (step == Grammar.STEP_FIELD) {
        write(1);
        int at = own(p[i + 2]);
        if (kind[at] != INSTANCE) {
          throw reject(
              "a finish step sets a field of slot "
                  + p[i + 2]
                  + ", which holds no object this snapshot allocated");
        }
        Field f = setter(p[i + 1], 'L', type[at]);
        ref(p[i + 3], f.getType());
      } else {
        write(1);
        target = own(p[i + 1]);
        ref(p[i + 3], element(p[i + 2], 'L'));
        target = -1;
      }
      i += size;
    }
  }

  /**
   * A fill step: its target must be a collection this snapshot made to be filled, filled once, with
   * whole elements (pairs for maps), an initial capacity within {@link Fills#maxCapacity} of them,
   * and references to table slots.
   */
  private void fillStep(int[] p, int i) throws ObjectStreamException {
    int id = p[i + 1];
    int n = p[i + 2];
    int at = own(id);
    if (kind[at] != FILLABLE) {
      throw reject(
          "fills slot "
              + id
              + ", which holds no JDK collection this snapshot made to be filled"
              + (kind[at] == FILLED ? " (it was filled before)" : ""));
    }
    Class<?> c = type[at];
    int width = Fills.width(Fills.kind(c));
    if (n < 0 || n % width != 0) {
      throw reject("fills a " + c.getTypeName() + " with " + n + " references, not whole elements");
    }
    if (length[at] > Fills.maxCapacity(n / width)) {
      throw reject(
          "makes a "
              + c.getTypeName()
              + " of initial capacity "
              + length[at]
              + " for "
              + n / width
              + " elements");
    }
    for (int k = i + 3; k < i + 3 + n; k++) {
      ref(p[k], Object.class);
    }
    Class<?> array = Fills.checkedArray(c);
    int storage = Math.max(length[at], 0);
    if (array != null && storage > 0) {
      Integer longest = fillArrays.get(array);
      if (longest == null || longest < storage) {
        fillArrays.put(array, storage);
      }
    }
    kind[at] = FILLED;
    unfilled--;
  }

  private void hook(int constant) throws ObjectStreamException {
    if (!(raw(constant) instanceof Constant.Hook h)) {
      throw reject("runs constant " + constant + " as a hook, which it is not");
    }
    int at = own(h.id());
    Class<?> c = classes.get(h.type());
    if (hooksRun[constant]) {
      throw reject("runs hook constant " + constant + " a second time");
    }
    hooksRun[constant] = true;
    if (h.kind() != Constant.HookKind.RESOLVE && h.tape() == null) {
      throw reject("runs a " + h.kind() + " hook without the data it reads");
    }
    // an if-chain, not a switch over the enum: a switch would load a synthetic class per load
    Constant.HookKind hk = h.kind();
    boolean gone = classes.gone(h.type());
    if (hk == Constant.HookKind.SLOT && kind[at] == INSTANCE && (gone || classes.detached(c))) {
      // removed since capture from the object's hierarchy: the step is skipped (Constants)
      tape(h.tape());
      return;
    }
    if (gone) {
      throw reject(
          "runs a "
              + hk
              + " hook of "
              + entries.get(h.type()).name()
              + ", a class the loader does not find, on slot "
              + h.id()
              + ", which holds no object this snapshot allocated");
    }
    if (hk == Constant.HookKind.SLOT || hk == Constant.HookKind.EXTERNAL) {
      if (kind[at] != INSTANCE
          || !fits(c, type[at])
          || (hk == Constant.HookKind.EXTERNAL
              && !Externalizable.class.isAssignableFrom(type[at]))) {
        throw reject(
            "runs a "
                + hk
                + " hook of "
                + c.getTypeName()
                + " on slot "
                + h.id()
                + ", which holds no such object this snapshot allocated");
      }
    } else if (hk == Constant.HookKind.RECORD) {
      if (kind[at] != EMPTY || !c.isRecord()) {
        throw reject(
            "makes record "
                + c.getTypeName()
                + " in slot "
                + h.id()
                + ", which is filled already or not a record");
      }
      kind[at] = RECORD;
      type[at] = c;
    } else {
      if ((kind[at] != INSTANCE && kind[at] != RECORD) || !fits(c, type[at])) {
        throw reject(
            "resolves slot "
                + h.id()
                + ", which holds no "
                + c.getTypeName()
                + " this snapshot made");
      }
      kind[at] = RESOLVED;
      type[at] = null;
    }
    if (kind[at] != EMPTY && ++length[at] > depth(type[at] == null ? c : type[at]) + 1) {
      throw reject(
          "runs more hooks on slot "
              + h.id()
              + " than its class has classes,"
              + " plus readResolve; a restore runs each class's hook once per object");
    }
    tape(h.tape());
  }

  /**
   * {@code wanted.isAssignableFrom(actual)}, remembering the last pair that fits: a program's hooks
   * come in runs of one class, and in a cold JVM each native call costs.
   */
  private boolean fits(Class<?> wanted, Class<?> actual) {
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

  /** The number of classes in {@code c}'s hierarchy, {@code Object} excluded. */
  private int depth(Class<?> c) {
    if (c == depthOf) {
      return depth;
    }
    depthOf = c;
    Integer d = depths.get(c);
    if (d == null) {
      int n = 0;
      for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
        n++;
      }
      d = n;
      depths.put(c, d);
    }
    depth = d;
    return d;
  }

  /**
   * Records a reference to object {@code ref} of an earlier segment, which must be an instance of
   * {@code required} (or null) when the restore starts, and must not be one the stream lost to a
   * class not found ({@link LoadedSnapshot#reaches}).
   */
  private void prior(int ref, Class<?> required) {
    if (priors == priorIds.length) {
      priorIds = java.util.Arrays.copyOf(priorIds, priors * 2 + 8);
      priorTypes = java.util.Arrays.copyOf(priorTypes, priors * 2 + 8);
    }
    priorIds[priors] = ref;
    priorTypes[priors++] = required;
  }

  private void tape(Tape tape) throws ObjectStreamException {
    if (tape == null) {
      return;
    }
    int[] items = tape.items();
    long blocks = 0;
    if (items.length % 2 != 0) {
      throw reject("a hook's data has an item without its argument");
    }
    for (int i = 0; i < items.length; i += 2) {
      int arg = items[i + 1];
      if (items[i] == Tape.OBJECT && (arg < -1 || arg > end)) {
        throw reject("a hook's data refers to table slot " + arg);
      } else if (items[i] == Tape.OBJECT && arg >= 0 && arg < first) {
        prior(arg, Object.class);
      } else if (items[i] == Tape.BLOCK && (arg < 0 || (blocks += arg) > tape.data().length)) {
        throw reject("a hook's data has blocks longer than its " + tape.data().length + " bytes");
      } else if (items[i] < Tape.BLOCK || items[i] > Tape.FIELDS) {
        throw reject("a hook's data has an item of unknown kind " + items[i]);
      }
    }
  }

  private int[] intArray(int constant) throws ObjectStreamException {
    if (raw(constant) instanceof Constant.PrimArray p && p.array() instanceof int[] a) {
      return a;
    }
    throw reject("constant " + constant + " is not an int[]");
  }

  private Constant raw(int constant) throws ObjectStreamException {
    if (constant < 0 || constant >= raw.size()) {
      throw reject("constant " + constant + " does not exist");
    }
    return raw.get(constant);
  }

  private Class<?> named(String internalName) throws ObjectStreamException {
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
   * @return the rejection of the statement being checked, for {@code what}
   */
  private UnsafeSnapshotException reject(String what) {
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
    return new UnsafeSnapshotException(List.of(where + what));
  }

  /**
   * @return name {@code index} of the class being checked, or {@code null} for -1
   */
  private String name(int index) throws ObjectStreamException {
    if (index < 0) {
      return null;
    }
    if (index >= names.size()) {
      throw reject("refers to name " + index + ", which the class does not have");
    }
    return names.get(index);
  }
}
