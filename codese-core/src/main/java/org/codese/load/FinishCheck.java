package org.codese.load;

import static org.codese.load.ProgramCheck.ARRAY;
import static org.codese.load.ProgramCheck.EMPTY;
import static org.codese.load.ProgramCheck.FILLABLE;
import static org.codese.load.ProgramCheck.FILLED;
import static org.codese.load.ProgramCheck.INSTANCE;
import static org.codese.load.ProgramCheck.NOT_MADE;
import static org.codese.load.ProgramCheck.RECORD;
import static org.codese.load.ProgramCheck.RESOLVED;

import java.io.Externalizable;
import java.io.ObjectStreamException;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Factories;
import org.codese.program.Fills;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.codese.verify.Stmt;

/**
 * The program check of the finish phase ({@link ProgramCheck}): its only statement runs the finish
 * program, whose steps are checked in order: fill steps fill a JDK collection this snapshot made to
 * be filled, once, with whole elements; hook steps run a {@code readObject}, {@code readExternal},
 * record or {@code readResolve} hook of a fitting class on a fitting slot, each constant once and
 * each class's hook at most once per object, over data ({@link Tape}) that refers only to table
 * slots; field and element steps store as the set phase does ({@link SetCheck}).
 *
 * <p>One per program check; {@link #statement} is called for each finish-phase statement, in
 * program order, after every statement of the earlier phases. Each check that fails throws the
 * {@link org.codese.UnsafeSnapshotException} of {@link ProgramCheck#reject}, or what {@link
 * SetCheck#setter} throws for a field step.
 */
final class FinishCheck {
  private final ProgramCheck check;
  private final SetCheck set;
  private final ClassTable classes;
  private final List<ClassEntry> entries;
  private final int version;

  /** {@link ProgramCheck}'s per-slot kinds, classes and lengths, and its table ids. */
  private final byte[] kind;

  private final Class<?>[] type;
  private final int[] length;
  private final int first;
  private final int end;

  /**
   * Per array class, the longest array the fills' collections hold, which {@code readObject} would
   * have asked the serialization filter about.
   */
  private final Map<Class<?>, Integer> fillArrays = new HashMap<>(4);

  /** Whether {@link #fillArrays} holds a {@code ConcurrentHashMap}'s segments already. */
  private boolean segmentsNoted;

  private final boolean segment;

  /** Per constant, whether the finish program ran it as a hook already. */
  private final boolean[] hooksRun;

  private final Map<Class<?>, Integer> depths = new HashMap<>();
  private Class<?> depthOf;
  private int depth;

  /**
   * @param check the program check, for what each slot holds, constants and rejections
   * @param set the set phase's check, for the stores of field and element steps
   * @param classes the snapshot's resolved class table
   * @param entries its class entries
   * @param version its format version
   * @param constants the number of its constants
   * @param segment whether the file is a segment of an object stream, which makes no immutable
   *     collection (a stream replays them)
   */
  FinishCheck(
      ProgramCheck check,
      SetCheck set,
      ClassTable classes,
      List<ClassEntry> entries,
      int version,
      int constants,
      boolean segment) {
    this.segment = segment;
    this.check = check;
    this.set = set;
    this.classes = classes;
    this.entries = entries;
    this.version = version;
    this.hooksRun = new boolean[constants];
    this.kind = check.kind;
    this.type = check.type;
    this.length = check.length;
    this.first = check.first;
    this.end = check.end;
  }

  /**
   * @return per array class, the longest storage array a filled JDK collection has, which its
   *     {@code readObject} would have asked the serialization filter about ({@link Fills})
   */
  Map<Class<?>, Integer> fillArrays() {
    return fillArrays;
  }

  /**
   * Checks the finish-phase statement at {@code code[pc]}, which must run the finish program, and
   * each step of that program.
   *
   * @param code a lifted method of a generated class
   * @param pc the statement's offset in {@code code}
   * @throws ObjectStreamException if the statement or a step breaks an invariant
   */
  void statement(int[] code, int pc) throws ObjectStreamException {
    if (code[pc] != Stmt.RUN_STEPS) {
      throw check.reject(
          "the finish phase only runs the finish program, not statement " + code[pc]);
    }
    int[] p = check.intArray(code[pc + 1]);
    int i = 0;
    while (i < p.length) {
      int step = p[i];
      boolean immutable = step == Grammar.STEP_IMMUTABLE && version >= Grammar.IMMUTABLE_VERSION;
      boolean factory = step == Grammar.STEP_FACTORY && version >= Grammar.FACTORY_VERSION;
      // a long: a count near Integer.MAX_VALUE must not wrap the size around to a negative one
      long size =
          step == Grammar.STEP_HOOK
              ? 2
              : step == Grammar.STEP_FILL
                  ? (i + 2 < p.length ? 3L + Math.max(0, p[i + 2]) : 3)
                  : immutable || factory ? (i + 4 < p.length ? 5L + Math.max(0, p[i + 4]) : 5) : 4;
      int last = version < Grammar.FILL_VERSION ? Grammar.STEP_ELEMENT : Grammar.STEP_FILL;
      if ((!immutable && !factory && (step < Grammar.STEP_HOOK || step > last))
          || i + size > p.length) {
        throw check.reject("finish step " + step + " at " + i + " is unknown or cut short");
      }
      if (immutable) {
        immutableStep(p, i);
      } else if (factory) {
        factoryStep(p, i);
      } else if (step == Grammar.STEP_FILL) {
        fillStep(p, i);
      } else if (step == Grammar.STEP_HOOK) {
        hook(p[i + 1]);
      } else if (step == Grammar.STEP_FIELD) {
        int at = check.own(p[i + 2]);
        if (kind[at] == NOT_MADE) {
          // an object not made: only its class's removed fields, whose steps are skipped
          if (!set.removed(set.setter(p[i + 1], 'L', null))) {
            throw check.notMadeFailure(p[i + 2]);
          }
          check.lateStore();
          check.skipped('L', p[i + 3], Object.class);
          i += (int) size;
          continue;
        }
        if (kind[at] != INSTANCE) {
          throw check.reject(
              "a finish step sets a field of slot "
                  + p[i + 2]
                  + ", which holds no object this snapshot allocated");
        }
        Field f = set.setter(p[i + 1], 'L', null);
        if (!set.removed(f) && !f.getDeclaringClass().isAssignableFrom(type[at])) {
          if (!ObjectDrops.droppable(f.getDeclaringClass(), f.getName(), type[at], classes)) {
            throw set.notInHierarchy(f, type[at]);
          }
          // a class removed from this object's hierarchy only: the step is skipped
          check.drops().dropStep(f.getDeclaringClass(), code[pc + 1], p, i);
          check.skipped('L', p[i + 3], f.getType());
        } else if (set.removed(f)) {
          check.lateStore();
          check.skipped('L', p[i + 3], f.getType()); // skipped: an object not made may be its value
        } else {
          check.lateStore();
          check.ref(p[i + 3], f.getType());
        }
      } else {
        check.lateStore();
        set.target = check.own(p[i + 1]);
        check.ref(p[i + 3], set.element(p[i + 2], 'L'));
        set.target = -1;
      }
      i += (int) size; // at most p.length - i
    }
  }

  /**
   * A fill step: its target must be a collection this snapshot made to be filled, filled once, with
   * whole elements (pairs for maps), an initial capacity within {@link Fills#maxCapacity} of them,
   * and references to table check.
   */
  private void fillStep(int[] p, int i) throws ObjectStreamException {
    int id = p[i + 1];
    int n = p[i + 2];
    int at = check.own(id);
    if (kind[at] != FILLABLE) {
      throw check.reject(
          "fills slot "
              + id
              + ", which holds no JDK collection this snapshot made to be filled"
              + (kind[at] == FILLED ? " (it was filled before)" : ""));
    }
    Class<?> c = type[at];
    int fillKind = Fills.kind(c);
    int width = Fills.width(fillKind);
    if (n < 0 || n % width != 0) {
      throw check.reject(
          "fills a " + c.getTypeName() + " with " + n + " references, not whole elements");
    }
    boolean words = fillKind == Fills.WORDS;
    if (words) {
      wordsFill(p, i, at);
    } else if (c == java.util.concurrent.ConcurrentHashMap.class) {
      concurrentFill(p, i, at);
    } else if (length[at] > Fills.maxCapacity(n / width)) {
      throw check.reject(
          "makes a "
              + c.getTypeName()
              + " of initial capacity "
              + length[at]
              + " for "
              + n / width
              + " elements");
    }
    for (int k = i + 3; k < i + 3 + n; k++) {
      check.ref(p[k], words ? long[].class : Object.class);
    }
    Class<?> array = Fills.checkedArray(c);
    if (array != null) {
      long checked = Fills.checkedLength(c, Math.max(length[at], 0), n / width);
      storage(array, (int) Math.min(checked, Integer.MAX_VALUE));
    }
    kind[at] = FILLED;
    check.unfilled--;
  }

  /**
   * A {@code ConcurrentHashMap}'s fill: made with the number of its pairs as initial capacity (the
   * no-arg constructor for none), which gives the table its {@code readObject} gives them and which
   * the fill hashes the keys into ({@link Fills#concurrentTable}); no {@code null} key or value,
   * which its {@code writeObject} never writes but after the last pair (a slot that holds {@code
   * null} when the fill runs, as a {@code readResolve} may leave it, ends the fill, as it ends
   * {@code readObject}'s reading).
   */
  private void concurrentFill(int[] p, int i, int at) throws ObjectStreamException {
    if (!segmentsNoted) {
      // the segments a JDK stream holds, an array the filter is asked about with its length
      storage(Fills.concurrentSegments(), Fills.CONCURRENT_SEGMENTS);
      segmentsNoted = true;
    }
    int pairs = p[i + 2] / 2;
    if (length[at] != (pairs == 0 ? -1 : pairs)) {
      throw check.reject(
          "makes a java.util.concurrent.ConcurrentHashMap of initial capacity "
              + length[at]
              + " for "
              + pairs
              + " pairs; it is made with its number of pairs, or with no capacity for none");
    }
    for (int k = i + 3; k < i + 3 + 2 * pairs; k++) {
      if (p[k] == end) {
        throw check.reject(
            "fills a java.util.concurrent.ConcurrentHashMap with null (slot "
                + end
                + ") at "
                + (k - i - 3)
                + "; it holds no null key or value");
      }
    }
  }

  /**
   * Notes an array of class {@code array} and {@code length} elements that the class's {@code
   * readObject} would have asked the filter about ({@link #fillArrays}: the longest per class); a
   * length of 0 too (an empty {@code List.of()}'s {@code CollSer.readObject} and an empty {@code
   * PriorityQueue}'s {@code readObject} ask about {@code Object[]} of length 0), none for a
   * negative one (a {@code readObject} that asks nothing: {@link Fills#checkedLength}).
   */
  private void storage(Class<?> array, int length) {
    Integer longest = fillArrays.get(array);
    if (length >= 0 && (longest == null || longest < length)) {
      fillArrays.put(array, length);
    }
  }

  /**
   * A {@code BitSet}'s fill: one reference, to a {@code long[]} this snapshot made, and a capacity
   * of at most 64 bits per word of it, so that the set allocates no more than the array holds.
   */
  private void wordsFill(int[] p, int i, int at) throws ObjectStreamException {
    int n = p[i + 2];
    int words = n == 1 && p[i + 3] >= first && p[i + 3] < end ? p[i + 3] - first : -1;
    if (words < 0 || kind[words] != ARRAY || type[words] != long[].class) {
      throw check.reject(
          "fills a java.util.BitSet with "
              + n
              + " references, not with one long[] this snapshot made");
    }
    if (length[at] > (long) length[words] * Long.SIZE) {
      throw check.reject(
          "makes a java.util.BitSet of " + length[at] + " bits for " + length[words] + " words");
    }
  }

  /** {@code CollSer}'s binary name: the class a JDK stream holds for an immutable collection. */
  private static final String COLL_SER = "java.util.CollSer";

  /**
   * An immutable-collection step: of class {@code java.util.CollSer} of the JDK, with a tag {@code
   * readResolve} knows, whole pairs for a map, references to table slots, into a slot nothing made
   * before, which then holds an object of no class the checks rely on (as after {@code
   * readResolve}). The elements' array is what {@code readObject} would have asked the filter
   * about.
   */
  private void immutableStep(int[] p, int i) throws ObjectStreamException {
    if (segment) {
      throw check.reject(
          "makes an immutable collection in an object stream's segment, which replays them");
    }
    int t = p[i + 1];
    int tag = p[i + 2];
    int n = p[i + 4];
    Class<?> c = classes.found(t);
    if (c == null || c.getClassLoader() != null || !c.getName().equals(COLL_SER)) {
      throw check.reject(
          "makes an immutable collection as class "
              + t
              + (c == null ? "" : " (" + c.getTypeName() + ")")
              + ", not as "
              + COLL_SER);
    }
    if (tag < Grammar.IMMUTABLE_LIST || tag > Grammar.IMMUTABLE_MAP) {
      throw check.reject("makes an immutable collection of unknown tag " + tag);
    }
    if (n < 0 || (tag == Grammar.IMMUTABLE_MAP && n % 2 != 0)) {
      throw check.reject(
          "makes an immutable "
              + (tag == Grammar.IMMUTABLE_MAP ? "map" : "collection")
              + " of "
              + n
              + " references, not whole elements");
    }
    int at = emptyTarget(p[i + 3], "an immutable collection");
    for (int k = i + 5; k < i + 5 + n; k++) {
      check.ref(p[k], Object.class);
    }
    storage(Object[].class, n);
    made(at, n);
  }

  /**
   * The slot, of this snapshot and empty, that a step making {@code what} fills.
   *
   * @throws ObjectStreamException if something was made in it before
   */
  private int emptyTarget(int id, String what) throws ObjectStreamException {
    int at = check.own(id);
    if (kind[at] != EMPTY) {
      throw check.reject("makes " + what + " in slot " + id + ", which is filled already");
    }
    return at;
  }

  /**
   * Notes slot {@code at} made by a finish step of {@code n} references: it then holds an object of
   * no class the checks rely on (as after {@code readResolve}), and its references count into the
   * store capacity ({@link ProgramCheck#holds}).
   */
  private void made(int at, int n) {
    check.holds(n);
    kind[at] = RESOLVED;
    type[at] = null;
  }

  /**
   * A factory step: of a {@link Factories} kind whose class is the class-table entry {@code t}, a
   * class of the JDK (the boot loader's), with as many references as the kind's factory takes, to
   * table slots, into a slot nothing made before, which then holds an object of no class the checks
   * rely on. An {@code Arrays.asList}'s array must be one this snapshot made, of a reference
   * component type, or {@code null} (the table's last slot), which fails at run time. The
   * references count into the store capacity ({@link ProgramCheck#holds}).
   */
  private void factoryStep(int[] p, int i) throws ObjectStreamException {
    if (segment) {
      throw check.reject("makes an object by a factory in an object stream's segment");
    }
    int t = p[i + 1];
    int factoryKind = p[i + 2];
    int n = p[i + 4];
    if (factoryKind < 1 || factoryKind > Factories.LAST) {
      throw check.reject("makes an object by unknown factory kind " + factoryKind);
    }
    Class<?> c = classes.found(t);
    if (c == null || Factories.kind(c) != factoryKind) {
      throw check.reject(
          "makes an object by "
              + Factories.factory(factoryKind)
              + " as class "
              + t
              + (c == null ? "" : " (" + c.getTypeName() + ")")
              + ", not as "
              + Factories.className(factoryKind));
    }
    if (n != Factories.arity(factoryKind)) {
      throw check.reject(
          "makes an object by " + Factories.factory(factoryKind) + " of " + n + " references");
    }
    int at = emptyTarget(p[i + 3], "an object by a factory");
    for (int k = i + 5; k < i + 5 + n; k++) {
      check.ref(p[k], factoryKind == Factories.ARRAY_LIST ? Object[].class : Object.class);
    }
    if (factoryKind == Factories.ARRAY_LIST
        && p[i + 5] != end
        && (p[i + 5] < first || kind[p[i + 5] - first] != ARRAY)) {
      throw check.reject(
          "makes an object by Arrays.asList of slot "
              + p[i + 5]
              + ", which holds no array this snapshot made");
    }
    made(at, n);
  }

  private void hook(int constant) throws ObjectStreamException {
    if (!(check.raw(constant) instanceof Constant.Hook h)) {
      throw check.reject("runs constant " + constant + " as a hook, which it is not");
    }
    int at = check.own(h.id());
    Class<?> c = classes.get(h.type());
    if (hooksRun[constant]) {
      throw check.reject("runs hook constant " + constant + " a second time");
    }
    hooksRun[constant] = true;
    if (h.kind() != Constant.HookKind.RESOLVE && h.tape() == null) {
      throw check.reject("runs a " + h.kind() + " hook without the data it reads");
    }
    // an if-chain, not a switch over the enum: a switch would load a synthetic class per load
    Constant.HookKind hk = h.kind();
    boolean gone = classes.gone(h.type());
    if (hk == Constant.HookKind.SLOT
        && (kind[at] == INSTANCE || (gone && kind[at] == NOT_MADE))
        && (gone || classes.detached(c))) {
      // removed since capture from the object's hierarchy, or the replay of the class of an object
      // not made: the step is skipped (Constants), and its data with it
      tape(h.tape(), false);
      return;
    }
    if (kind[at] == NOT_MADE) {
      // a replay of a class still found on an object not made: live data of an object the JDK lacks
      throw check.notMadeFailure(h.id());
    }
    if (hk == Constant.HookKind.SLOT
        && kind[at] == INSTANCE
        && !c.isAssignableFrom(type[at]) // first, so that unchanged classes never load ObjectDrops
        && ObjectDrops.droppableHook(c, type[at])) {
      // removed since capture from this object's hierarchy only: the replay is skipped, as
      // ObjectInputStream skips the class's data, custom data and all, in such an object
      check.drops().dropHook(c, constant);
      tape(h.tape(), false);
      return;
    }
    if (gone) {
      throw check.reject(
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
          || !check.fits(c, type[at])
          || (hk == Constant.HookKind.EXTERNAL
              && !Externalizable.class.isAssignableFrom(type[at]))) {
        throw check.reject(
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
        throw check.reject(
            "makes record "
                + c.getTypeName()
                + " in slot "
                + h.id()
                + ", which is filled already or not a record");
      }
      kind[at] = RECORD;
      type[at] = c;
    } else {
      if ((kind[at] != INSTANCE && kind[at] != RECORD) || !check.fits(c, type[at])) {
        throw check.reject(
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
      throw check.reject(
          "runs more hooks on slot "
              + h.id()
              + " than its class has classes,"
              + " plus readResolve; a restore runs each class's hook once per object");
    }
    tape(h.tape(), true);
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
   * Checks a hook's data: its items well formed, its objects in the table; where the hook runs
   * ({@code live}), none an object not made, which the replay would read as {@code null} where the
   * JDK throws its class's {@code ClassNotFoundException}.
   */
  private void tape(Tape tape, boolean live) throws ObjectStreamException {
    if (tape == null) {
      return;
    }
    int[] items = tape.items();
    long blocks = 0;
    if (items.length % 2 != 0) {
      throw check.reject("a hook's data has an item without its argument");
    }
    for (int i = 0; i < items.length; i += 2) {
      int arg = items[i + 1];
      if (items[i] == Tape.OBJECT && (arg < -1 || arg > end)) {
        throw check.reject("a hook's data refers to table slot " + arg);
      } else if (items[i] == Tape.OBJECT && arg >= 0 && arg < first) {
        check.prior(arg, Object.class);
      } else if (items[i] == Tape.OBJECT && live && check.isNotMade(arg)) {
        throw check.notMadeFailure(arg);
      } else if (items[i] == Tape.BLOCK && (arg < 0 || (blocks += arg) > tape.data().length)) {
        throw check.reject(
            "a hook's data has blocks longer than its " + tape.data().length + " bytes");
      } else if (items[i] < Tape.BLOCK || items[i] > Tape.FIELDS) {
        throw check.reject("a hook's data has an item of unknown kind " + items[i]);
      }
    }
  }
}
