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
 *   <li>Phases keep their roles: the create phase only fills slots, the set phase only writes
 *       fields and elements, the finish phase only runs the finish program; and there are no more
 *       generated classes than the statements need.
 * </ul>
 *
 * References to objects of earlier stream segments are checked when the restore starts ({@link
 * #priorIds()}, {@link #priorTypes()}).
 *
 * <p>The checks of each phase are {@link CreateCheck}, {@link SetCheck} and {@link FinishCheck},
 * over what {@link CheckedSlots} records per slot; this class runs them in program order ({@link
 * #check}), names the statement being checked in every rejection ({@link #reject}), and gives the
 * results the loader needs.
 */
final class ProgramCheck {
  private final List<Constant> raw;

  /**
   * Per generated class (by class-file index), the work its statements do: one per statement plus
   * one per loop row and column ({@link #cost}), which {@link Parallel} divides threads by.
   */
  private long[] classCosts = new long[0];

  /** The classes the snapshot's class table lists, and {@code Object[]}, by internal name. */
  private final Map<String, Class<?>> named = new HashMap<>();

  /** What the program put into each table slot. */
  private final CheckedSlots slots;

  private final CreateCheck create;
  private final SetCheck set;
  private final FinishCheck finish;

  /** The generated class, method and statement being checked, for rejections; -1 when none. */
  private int whereClass = -1;

  private int whereMethod;
  private int whereStatement;

  /** The names of the generated class being checked (a clone's descriptor: {@link CreateCheck}). */
  List<String> names = List.of();

  private ProgramCheck(
      SnapshotFile file, ClassTable classes, Object[] resolved, int slotCount, boolean segment) {
    this.raw = file.constants();
    for (int i = 0; i < classes.size(); i++) {
      if (!classes.gone(i)) { // a gone class is named by no code that is checked and defined
        named.putIfAbsent(Types.internalName(classes.get(i)), classes.get(i));
      }
    }
    named.put("[Ljava/lang/Object;", Object[].class);
    this.slots =
        new CheckedSlots(
            this, classes, file.classes(), file.firstId(), file.tableSize(), slotCount);
    this.create =
        new CreateCheck(this, this.slots, classes, resolved, file.version(), segment, named);
    this.set = new SetCheck(this, this.slots, classes, resolved);
    this.finish =
        new FinishCheck(this, this.slots, set, classes, file.classes(), file.version(), raw.size());
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
    return slots.instanceClass(id);
  }

  /**
   * @return the first table id of this snapshot
   */
  int firstId() {
    return slots.first;
  }

  /**
   * @return one past the last table id of this snapshot
   */
  int endId() {
    return slots.end;
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
    return slots.priorIds();
  }

  /**
   * @return the class each of {@link #priorIds()} must be an instance of (or be null)
   */
  Class<?>[] priorTypes() {
    return slots.priorTypes();
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
    if (slots.unfilled != 0) {
      throw reject(
          "makes "
              + slots.unfilled
              + " JDK collection(s) to be filled but never fills them; a restore fills each once");
    }
  }

  /** Whether statement {@code op} stores one value into the table ({@code table[id] = ...}). */
  static boolean isStore(int op) {
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
   * @return the rejection of the statement being checked, for {@code what}
   */
  UnsafeSnapshotException reject(String what) {
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
