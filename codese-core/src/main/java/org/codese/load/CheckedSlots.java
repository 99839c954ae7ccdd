package org.codese.load;

import java.io.ObjectStreamException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.program.ClassEntry;

/**
 * What a snapshot's program put into each of its table slots, as {@link ProgramCheck} follows the
 * program, and the checks of the program's reads and writes against it: every slot is filled once
 * ({@link #fill}), every reference read fits where it is stored ({@link #ref}), and the field and
 * element stores stay within what the allocated objects hold ({@link #write}). References to
 * objects of earlier stream segments are recorded ({@link #prior}) for the check when the restore
 * starts.
 *
 * <p>One per program check, made before its first statement and used by the phase checks ({@link
 * CreateCheck}, {@link SetCheck}, {@link FinishCheck}) in the order the program runs. Every method
 * that checks throws the {@link org.codese.UnsafeSnapshotException} of {@link ProgramCheck#reject},
 * which names the statement being checked.
 */
final class CheckedSlots {
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

  private final ProgramCheck check;
  private final ClassTable classes;
  private final List<ClassEntry> entries;

  /** The first table id of the snapshot, and one past its last. */
  final int first;

  final int end;

  /** Per slot (table id minus {@link #first}): its kind ({@link #EMPTY}...), class and length. */
  final byte[] kind;

  final Class<?>[] type;
  final int[] length;

  /** Collections made to be filled and not filled yet. */
  int unfilled;

  /** The class each allocation loop's id constant filled its slots with. */
  final Map<Integer, Class<?>> loopClasses = new HashMap<>();

  private int[] priorIds = new int[0];
  private Class<?>[] priorTypes = new Class<?>[0];
  private int priors;
  private final Map<Class<?>, Integer> fieldCounts = new HashMap<>();
  private Map<Class<?>, Integer> listed;

  /** Field and element stores the allocated objects can take: each field and element once. */
  long capacity;

  /** Field and element stores the program makes. */
  private long writes;

  /** The last class found to fit {@link #lastRequired}: repeated checks of a column are free. */
  private Class<?> lastFit;

  private Class<?> lastRequired;
  private Class<?> fitWanted;
  private Class<?> fitActual;
  private Class<?> countOf;
  private int count;

  /**
   * @param check the program check, for rejections
   * @param classes the snapshot's resolved class table
   * @param entries its class entries
   * @param first its first table id
   * @param end one past its last table id
   * @param slots the number of its table slots
   */
  CheckedSlots(
      ProgramCheck check,
      ClassTable classes,
      List<ClassEntry> entries,
      int first,
      int end,
      int slots) {
    this.check = check;
    this.classes = classes;
    this.entries = entries;
    this.first = first;
    this.end = end;
    int n = slots;
    this.kind = new byte[n];
    this.type = new Class<?>[n];
    this.length = new int[n];
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
   * Fills slot {@code id}, which must be one of this snapshot's and empty, with kind {@code k},
   * class {@code c} and length {@code len}, and counts the stores the new object or array takes.
   */
  void fill(int id, byte k, Class<?> c, int len) throws ObjectStreamException {
    int at = own(id);
    if (kind[at] != EMPTY) {
      throw check.reject("fills table slot " + id + " a second time");
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
   * Counts {@code n} field or element stores against the capacity of the objects allocated: a
   * program writes each field and element at most once, so its loops cannot multiply the work.
   */
  void write(long n) throws ObjectStreamException {
    writes += n;
    if (writes > capacity) {
      throw check.reject(
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
      throw check.reject(
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

  /** Checks {@code refs[0..rows)} with {@link #ref}, in blocks. */
  void refs(int[] refs, int rows, Class<?> required) throws ObjectStreamException {
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
  void ref(int ref, Class<?> required) throws ObjectStreamException {
    if (ref < 0 || ref > end) {
      throw check.reject("reads table slot " + ref + ", outside the table");
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
      throw check.reject(
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
}
