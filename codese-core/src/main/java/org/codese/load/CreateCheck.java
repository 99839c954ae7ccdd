package org.codese.load;

import static org.codese.load.ProgramCheck.ARRAY;
import static org.codese.load.ProgramCheck.BLOCK;
import static org.codese.load.ProgramCheck.FILLABLE;
import static org.codese.load.ProgramCheck.FOREIGN;
import static org.codese.load.ProgramCheck.INSTANCE;
import static org.codese.load.ProgramCheck.VALUE;

import java.io.ObjectStreamException;
import java.lang.reflect.Array;
import java.lang.reflect.Modifier;
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
 * The program check of the create phase ({@link ProgramCheck}): each statement fills table slots,
 * and only empty slots of this snapshot ({@link ProgramCheck#fill}): stores of one value, the
 * allocation, string and box loops, and the create programs that make arrays and values. Every
 * allocation is of a concrete class the class table lists (which the filter saw), every array and
 * value of a class the table lists, and every copy of elements stays inside its constant.
 *
 * <p>Before any of that, {@link #slots} reads the whole program once, without per-slot memory, and
 * bounds the table size the snapshot declares by what its program can fill; it throws an {@link
 * UnsafeSnapshotException} that names no statement.
 *
 * <p>One per program check; {@link #statement} is called for each create-phase statement, in
 * program order, before any statement of a later phase. Each check that fails throws the {@link
 * UnsafeSnapshotException} of {@link ProgramCheck#reject}.
 */
final class CreateCheck {
  private final ProgramCheck check;
  private final ClassTable classes;
  private final Object[] resolved;
  private final int version;

  /**
   * Whether the file is a segment of an object stream, whose values hold no object a JDK stream
   * would hold below them ({@link Values#holdsArray}).
   */
  private final boolean segment;

  /** The classes the snapshot's class table lists, and {@code Object[]}, by internal name. */
  private final Map<String, Class<?>> named;

  /** The slots' lengths (for a collection: its initial capacity), by slot index. */
  private final int[] length;

  private final int first;

  /** Elements of the arrays create programs make, and the longest of them. */
  private long dataArrayElements;

  private int longestDataArray;

  /**
   * @param check the program check, for what each slot holds, constants and rejections
   * @param classes the snapshot's resolved class table
   * @param resolved its resolved constants
   * @param version its format version
   * @param segment whether it is a segment of an object stream
   * @param named the classes its class table lists, by internal name
   */
  CreateCheck(
      ProgramCheck check,
      ClassTable classes,
      Object[] resolved,
      int version,
      boolean segment,
      Map<String, Class<?>> named) {
    this.check = check;
    this.classes = classes;
    this.resolved = resolved;
    this.version = version;
    this.segment = segment;
    this.named = named;
    this.length = check.length;
    this.first = check.first;
  }

  /**
   * One pass over the statements before any per-slot memory is allocated. Checks that the snapshot
   * defines no more classes than its statements need (the emitter starts a class per phase and host
   * and a new one only after {@link Grammar#MAX_OPS_PER_CLASS} statements, and none is empty), and
   * that the table size it declares is justified by what its program can fill (stores, loop ids,
   * record hooks, immutable-collection steps), so a lying table size cannot make the loader or the
   * restore allocate more than the file's contents justify.
   *
   * @return the number of table slots the snapshot declares
   */
  static int slots(SnapshotFile file, List<GrammarCheck.Lifted> program)
      throws ObjectStreamException {
    long declared = (long) file.tableSize() - file.firstId();
    long fills = 0;
    long statements = 0;
    java.util.Set<Long> sections = new java.util.HashSet<>();
    java.util.Set<Integer> finishPrograms = new java.util.HashSet<>(2);
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
          } else if (op == Stmt.RUN_STEPS
              && file.version() >= Grammar.IMMUTABLE_VERSION
              && code[pc + 1] >= 0
              && code[pc + 1] < raw.size()
              && raw.get(code[pc + 1]) instanceof Constant.PrimArray p
              && p.array() instanceof int[] a
              && finishPrograms.add(code[pc + 1])) {
            // a finish program makes an immutable collection per five ints at most
            fills += a.length / 5;
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
      fills +=
          k.tag() == Constant.HOOK && ((Constant.Hook) k).kind() == Constant.HookKind.RECORD
              ? 1
              : 0;
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

  /** A collection maker's initial capacity; none (-1) for a map made with its key type. */
  private static int capacity(Constant.Sized s, Class<?> c) {
    return Fills.keyed(c) ? -1 : s.capacity();
  }

  private static ObjectStreamException unsafe(String what) {
    return Failures.unsafe(List.of(what));
  }

  /** Whether statement {@code op} stores one value into the table ({@code table[id] = ...}). */
  static boolean isStore(int op) {
    return op >= Stmt.STORE_ALLOC && op <= Stmt.STORE_CONSTANT || op == Stmt.STORE_COLLECTION;
  }

  /** Whether statement {@code op} is a create-phase loop over an {@code int[]} of table ids. */
  static boolean isIdsLoop(int op) {
    return op == Stmt.ALLOC_LOOP
        || op == Stmt.COLLECTION_LOOP
        || op == Stmt.STRING_LOOP
        || op == Stmt.BOX_LOOP;
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
   * Checks the create-phase statement at {@code code[pc]}.
   *
   * @param code a lifted method of a generated class
   * @param pc the statement's offset in {@code code}
   * @throws ObjectStreamException if the statement breaks an invariant
   */
  void statement(int[] code, int pc) throws ObjectStreamException {
    int op = code[pc];
    if (isStore(op)) {
      store(code, pc);
    } else if (op == Stmt.ALLOC_LOOP || op == Stmt.COLLECTION_LOOP) {
      Class<?> c = allocated(code[pc + 2], op == Stmt.COLLECTION_LOOP);
      int[] ids = check.intArray(code[pc + 1]);
      if (c == null) {
        // a class the loader does not find: not made, if nothing live refers to its objects
        check.notMade(ids, 0, ids.length, ((Constant.Allocator) check.raw(code[pc + 2])).type());
        check.loopClasses.put(code[pc + 1], ProgramCheck.NotMade.class);
        return;
      }
      byte k = allocKind(code[pc + 2]);
      for (int from = 0; from < ids.length; from += BLOCK) {
        check.fillBlock(ids, from, Math.min(ids.length, from + BLOCK), k, c);
      }
      if (k == FILLABLE) {
        int initial = capacity((Constant.Sized) check.raw(code[pc + 2]), c);
        for (int id : ids) {
          length[id - first] = initial;
        }
        check.unfilled += ids.length;
      } else {
        check.capacity += (long) ids.length * check.fieldCount(c);
      }
      check.loopClasses.put(code[pc + 1], c);
    } else if (op == Stmt.STRING_LOOP) {
      int[] ids = check.intArray(code[pc + 1]);
      if (!(check.raw(code[pc + 2]) instanceof Constant.Texts t)
          || t.values().length < ids.length) {
        throw check.reject("a string loop's texts are not a string array as long as its ids");
      }
      for (int from = 0; from < ids.length; from += BLOCK) {
        check.fillBlock(ids, from, Math.min(ids.length, from + BLOCK), VALUE, String.class);
      }
    } else if (op == Stmt.BOX_LOOP) {
      boxLoop(code, pc);
    } else if (op == Stmt.RUN_STEPS && version >= Grammar.FILL_VERSION) {
      int[] p = check.intArray(code[pc + 1]);
      if (p.length > 0 && p[0] == Grammar.STEP_VALUES && version >= Grammar.VALUE_VERSION) {
        valuesProgram(p);
      } else {
        arraysProgram(p);
      }
    } else {
      throw check.reject("the create phase only fills table slots, not statement " + op);
    }
  }

  /**
   * A box loop: its values must be a primitive array of the boxes' kind, at least as long as its
   * ids; the boxes from {@code valueOf} may be shared with the rest of the JVM, so they are
   * foreign.
   */
  private void boxLoop(int[] code, int pc) throws ObjectStreamException {
    int[] ids = check.intArray(code[pc + 1]);
    char t = (char) code[pc + 3];
    Object values = check.raw(code[pc + 2]) instanceof Constant.PrimArray p ? p.array() : null;
    if (values == null
        || values.getClass().getComponentType() != Types.primitiveClass(t)
        || Array.getLength(values) < ids.length) {
      throw check.reject(
          "a box loop's values (constant "
              + code[pc + 2]
              + ") are not a "
              + t
              + " array as long as its ids");
    }
    Class<?> box = Types.box(t, 0).getClass();
    check.boxed(t);
    byte k = code[pc + 4] == 1 ? FOREIGN : VALUE;
    for (int from = 0; from < ids.length; from += BLOCK) {
      check.fillBlock(ids, from, Math.min(ids.length, from + BLOCK), k, box);
    }
  }

  /** A store statement: {@code table[id] = value}. */
  private void store(int[] code, int pc) throws ObjectStreamException {
    int id = code[pc + 1];
    int k = code[pc + 2];
    switch (code[pc]) {
      case Stmt.STORE_ALLOC, Stmt.STORE_COLLECTION -> {
        Class<?> c = allocated(k, code[pc] == Stmt.STORE_COLLECTION);
        if (c == null) {
          // a class the loader does not find: not made, if nothing live refers to the object
          check.notMade(new int[] {id}, 0, 1, ((Constant.Allocator) check.raw(k)).type());
        } else if (allocKind(k) == FILLABLE) {
          check.fill(id, FILLABLE, c, capacity((Constant.Sized) check.raw(k), c));
          check.unfilled++;
        } else {
          check.fill(id, INSTANCE, c, 0);
        }
      }
      case Stmt.STORE_ARRAY ->
          check.fill(id, ARRAY, arrayClass((char) k, code[pc + 3]), code[pc + 4]);
      case Stmt.STORE_CLONE -> {
        String descriptor = check.names.get(code[pc + 3]);
        if (!(check.raw(k) instanceof Constant.PrimArray p)
            || !Types.descriptor(p.array().getClass()).equals(descriptor)) {
          throw check.reject(
              "clones constant " + k + ", which is not of type " + TypeNames.javaName(descriptor));
        }
        check.fill(id, ARRAY, p.array().getClass(), Array.getLength(p.array()));
      }
      case Stmt.STORE_STRING -> {
        if (k >= 0 && !(check.raw(k) instanceof Constant.Text)) {
          throw check.reject("makes a string of constant " + k + ", which is not a text");
        }
        check.fill(id, VALUE, String.class, 0);
      }
      case Stmt.STORE_BOX -> {
        check.fill(id, code[pc + 3] == 1 ? FOREIGN : VALUE, Types.box((char) k, 0).getClass(), 0);
        check.boxed((char) k);
      }
      default -> {
        Constant c = check.raw(k);
        if (!(c instanceof Constant.EnumRef
            || c instanceof Constant.TypeRef
            || c instanceof Constant.StreamClassRef
            || c instanceof Constant.StaticRef
            || c instanceof Constant.NamedRef)) {
          throw check.reject(
              "stores constant "
                  + k
                  + " into the table; only enum"
                  + " constants, classes, stream classes and global references are stored as"
                  + " they are");
        }
        // a global reference is a live object of this JVM: foreign, never a target (as enums)
        check.fill(id, FOREIGN, resolved[k].getClass(), 0);
      }
    }
  }

  /**
   * {@link ProgramCheck#FILLABLE} for a collection constructor, else {@link ProgramCheck#INSTANCE}.
   */
  private byte allocKind(int constant) throws ObjectStreamException {
    return check.raw(constant).tag() == Constant.SIZED ? FILLABLE : INSTANCE;
  }

  /**
   * The class an allocator constant allocates, which must be a concrete class; from format version
   * {@code Grammar.COLLECTION_VERSION} on, a collection maker passed to the collection entry
   * ({@code collection}) and any other allocator to the allocation entry, never the other way;
   * {@code null} for an allocator of a class the loader does not find, whose objects are not made
   * ({@link ProgramCheck#NOT_MADE}).
   */
  private Class<?> allocated(int constant, boolean collection) throws ObjectStreamException {
    boolean sized = check.raw(constant).tag() == Constant.SIZED;
    if (version >= Grammar.COLLECTION_VERSION && sized != collection) {
      throw check.reject(
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
    if (sized) {
      Constant.Sized s = (Constant.Sized) check.raw(constant);
      Class<?> c = classes.get(s.type());
      if (Fills.keyed(c) && resolved[constant] == null) {
        throw check.reject(
            "makes an "
                + c.getTypeName()
                + " keyed by class "
                + s.capacity()
                + " (constant "
                + constant
                + "), which is no enum class of the table");
      }
      if (s.capacity() >= 0 && Fills.sized(c) && s.capacity() < Fills.minCapacity(c)) {
        throw check.reject(
            "makes a "
                + c.getTypeName()
                + " of initial capacity "
                + s.capacity()
                + " (constant "
                + constant
                + "), which its constructor refuses");
      }
      if (version < Grammar.FILL_VERSION || resolved[constant] == null) {
        throw check.reject(
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
    if (!(check.raw(constant) instanceof Constant.Allocator a)) {
      throw check.reject("allocates with constant " + constant + ", which is not an allocator");
    }
    if (classes.gone(a.type())) {
      return null; // an object not made (ProgramCheck.NOT_MADE); its allocator resolved to null
    }
    Class<?> c = classes.get(a.type());
    if (c.isInterface()
        || c.isArray()
        || c.isPrimitive()
        || Modifier.isAbstract(c.getModifiers())) {
      throw check.reject("allocates " + c.getTypeName() + ", which cannot have instances");
    }
    return c;
  }

  /** The class of a new array of kind {@code elem} (for references: array maker {@code maker}). */
  private Class<?> arrayClass(char elem, int maker) throws ObjectStreamException {
    if (elem != 'L') {
      return Types.primitiveClass(elem).arrayType();
    } else if (maker < 0) {
      return Object[].class;
    } else if (check.raw(maker) instanceof Constant.ArrayMaker m
        && classes.get(m.type()).isArray()) {
      return classes.get(m.type());
    }
    throw check.reject("makes an array with constant " + maker + ", which is not an array maker");
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
        throw check.reject("create program step " + p[i] + " at " + i + " is unknown or cut short");
      }
      char t = (char) p[i + 1];
      int source = p[i + 2];
      int n = p[i + 3];
      if (n < 0 || i + 4 + 3L * n > p.length) {
        throw check.reject("create program step at " + i + " is cut short");
      }
      Class<?> arrayClass;
      long data = 0;
      if (t == 'L') {
        arrayClass = arrayClass('L', source);
      } else if ("ZBCSIJFD".indexOf(t) >= 0) {
        arrayClass = Types.primitiveClass(t).arrayType();
        if (source >= 0) {
          if (!(check.raw(source) instanceof Constant.PrimArray d)
              || d.array().getClass() != arrayClass) {
            throw check.reject(
                "copies "
                    + arrayClass.getComponentType()
                    + " elements from constant "
                    + source
                    + ", which is not such an array");
          }
          data = Array.getLength(d.array());
        }
      } else {
        throw check.reject("makes arrays of unknown element kind " + p[i + 1]);
      }
      if (!named.containsKey(Types.internalName(arrayClass))) {
        throw check.reject(
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
          throw check.reject(
              "makes an array of length "
                  + length
                  + " from offset "
                  + offset
                  + " of "
                  + data
                  + " elements");
        }
        check.fill(p[at], ARRAY, arrayClass, length);
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
   * snapshot, from inside a {@code long[]} constant; a {@code BigDecimal} from a {@code BigInteger}
   * the same program made before it ({@link #referred}).
   */
  private void valuesProgram(int[] p) throws ObjectStreamException {
    // the BigIntegers this program made so far, by slot minus the first id
    java.util.BitSet made = new java.util.BitSet();
    for (int i = 0; i < p.length; ) {
      if (p[i] != Grammar.STEP_VALUES || i + 4 > p.length) {
        throw check.reject("create program step " + p[i] + " at " + i + " is unknown or cut short");
      }
      int kind = p[i + 1];
      int n = p[i + 3];
      if (!Values.isKind(kind)) {
        throw check.reject("makes values of unknown kind " + kind);
      }
      if (segment && !Values.inStreams(kind)) {
        // its serial form holds objects (a BigInteger's magnitude) a stream's hooks would see
        throw check.reject(
            "makes values of " + Values.className(kind) + ", which streams do not make");
      }
      if (version < Values.since(kind)) {
        throw check.reject(
            "makes values of "
                + Values.className(kind)
                + ", which format "
                + version
                + " does not make (from format "
                + Values.since(kind)
                + " on)");
      }
      if (n < 0 || i + 4 + 2L * n > p.length) {
        throw check.reject("create program step at " + i + " is cut short");
      }
      if (!(check.raw(p[i + 2]) instanceof Constant.PrimArray d
          && d.array() instanceof long[] data)) {
        throw check.reject("makes values from constant " + p[i + 2] + ", which is not a long[]");
      }
      if (!named.containsKey(Values.streamClassName(kind))
          || !named.containsKey(Values.className(kind))) {
        throw check.reject(
            "makes values of "
                + Values.className(kind)
                + " without that class and its stream class "
                + Values.streamClassName(kind)
                + " in its class table for the filter");
      }
      for (Class<?> other : Values.otherStreamClasses(kind)) {
        String name = other.getName().replace('.', '/');
        if (!named.containsKey(name)) {
          throw check.reject(
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
          throw check.reject(
              "makes a value from offset " + offset + " of " + data.length + " longs");
        }
        if (kind == 'M') {
          bigWords(data, offset);
        }
        // the array a JDK stream holds for the value: the filter is asked about its length
        longestDataArray = Math.max(longestDataArray, Values.magnitudeLength(kind, data, offset));
        if (Values.referredKind(kind) != 0) {
          referred(made, kind, p[at], data[offset], data[offset + 1]);
        }
        check.fill(p[at], VALUE, type, 0);
        if (kind == 'B' || kind == 'M') {
          made.set(p[at] - first);
        }
      }
      i += 4 + 2 * n;
    }
  }

  /**
   * Checks a {@code BigInteger} of words ({@code 'M'}) at {@code offset}: its word count is from 0
   * to {@link Values#MAX_MAGNITUDE_WORDS}, and its words lie in the data, so that its magnitude's
   * bytes fit in an array and a lying count cannot read past them.
   */
  private void bigWords(long[] data, int offset) throws ObjectStreamException {
    long words = data[offset + 1];
    if (words < 0 || words > Values.MAX_MAGNITUDE_WORDS || offset + 2 + words > data.length) {
      throw check.reject(
          "makes a BigInteger of "
              + words
              + " words from offset "
              + offset
              + " of "
              + data.length
              + " longs");
    }
  }

  /**
   * Checks a {@code BigDecimal} value ({@link Values#referredKind}) to be made at table slot {@code
   * id}: the slot its data name must hold a {@code BigInteger} that a {@code 'B'} step of this
   * program made before it ({@code made}, by slot minus the first id; never an object of another
   * kind, of another program, which may run on another thread, or not made yet), and its scale must
   * be an {@code int}. So it is never made from null, as {@code BigDecimal.readObject} refuses.
   */
  private void referred(java.util.BitSet made, int kind, int id, long slot, long scale)
      throws ObjectStreamException {
    String what = "makes the " + Values.type(kind).getName() + " of table slot " + id;
    if (slot < first || slot >= check.end) {
      throw check.reject(
          what
              + " from the BigInteger of slot "
              + slot
              + ", outside this snapshot's table slots "
              + first
              + " to "
              + (check.end - 1));
    }
    if (!made.get((int) slot - first)) {
      throw check.reject(
          what
              + " from slot "
              + slot
              + ", which holds no BigInteger an earlier step of its program made (it holds "
              + (check.type[(int) slot - first] == null
                  ? "nothing yet"
                  : "a " + check.type[(int) slot - first].getName())
              + ")");
    }
    if ((int) scale != scale) {
      throw check.reject(what + " with scale " + scale + ", which is not an int");
    }
  }
}
