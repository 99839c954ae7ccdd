package org.codese.load;

import java.io.Serializable;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.jvm.Types;
import org.codese.program.ClassEntry;
import org.codese.program.Grammar;
import org.codese.runtime.FieldStore;

/**
 * The stores a snapshot makes into fields of a {@code Serializable} class removed since capture
 * from the hierarchy of <em>some</em> of its objects while other objects of the snapshot still are
 * of that class (the specification's section 5.6.2, "removing classes", per object): {@code
 * ObjectInputStream} skips the removed class's data in an object whose class no longer has it, and
 * restores the objects of the class itself with theirs. So the drops are per pair of object and
 * declaring class, where {@link ClassTable#detach} drops a class's stores for every object.
 *
 * <p>The program check records each drop as it meets the store ({@link SetCheck}, {@link
 * FinishCheck}), where it knows the class of the object stored into; the loader then takes the
 * recorded stores out before any code is defined ({@link Evolution#adapt}), and rewrites what the
 * finish programs run ({@link #apply}). Only stores are taken out: a single store is popped, a
 * cluster loop reads a copy of its rows without the dropped ones, a finish step's setter becomes
 * the inert {@link Evolution#REMOVED}, a {@code readObject} replay becomes {@link
 * Evolution#REMOVED}, which {@link Hooks} skips. Made by the program check at the first drop; a
 * snapshot that drops nothing never loads this class.
 */
final class ObjectDrops {
  /**
   * Per declaring class (internal name), the table ids of the objects whose stores into the class's
   * fields are dropped.
   */
  private final Map<String, BitSet> dead = new HashMap<>();

  /**
   * Per class file, chunk method and loop of the method (in program order), the constants of the
   * loop's rows to read instead of the snapshot's: original index to replacement index.
   */
  private final Map<Long, Map<Integer, Integer>> loops = new HashMap<>();

  /** The constants added after the snapshot's own, from {@link #base} on. */
  private final List<Object> added = new ArrayList<>();

  /** Resolved constants replaced: a finish program without its dropped steps, a dropped hook. */
  private final Map<Integer, Object> replaced = new HashMap<>();

  /** The binary names of the classes whose stores or replays are dropped, in the order met. */
  private final java.util.Set<String> classes = new java.util.LinkedHashSet<>();

  /** The number of the snapshot's own constants. */
  private final int base;

  /** The index of the added inert setter finish steps are redirected to, or -1. */
  private int inert = -1;

  /**
   * @param base the number of the snapshot's own constants
   */
  ObjectDrops(int base) {
    this.base = base;
  }

  /**
   * Whether a store into field {@code field} of {@code declaring} on an object of class {@code
   * target} may be dropped as {@code ObjectInputStream} skips it: both classes {@code
   * Serializable}, {@code declaring} no superclass of {@code target} now (removed since capture, or
   * made final, or the store is crafted: dropping it is harmless either way), and {@code field} one
   * the snapshot's class table records for {@code declaring}, whose data the snapshot carries.
   *
   * @param declaring the class declaring the field stored into
   * @param field the field's name
   * @param target the class of the object stored into
   * @param table the class table
   * @return whether the store is dropped
   */
  static boolean droppable(Class<?> declaring, String field, Class<?> target, ClassTable table) {
    if (declaring.isAssignableFrom(target)
        || declaring.isInterface()
        || declaring.isArray()
        || !Serializable.class.isAssignableFrom(declaring)
        || !Serializable.class.isAssignableFrom(target)) {
      return false;
    }
    for (int i = 0; i < table.size(); i++) {
      if (!table.gone(i) && table.get(i) == declaring && records(table, i, field)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a {@code readObject} replay of {@code declaring} on an object of class {@code target}
   * may be skipped, as {@code ObjectInputStream} skips the custom data of a class removed from the
   * object's hierarchy: both {@code Serializable}, {@code declaring} no superclass of {@code
   * target} now.
   */
  static boolean droppableHook(Class<?> declaring, Class<?> target) {
    return !declaring.isAssignableFrom(target)
        && !declaring.isInterface()
        && !declaring.isArray()
        && Serializable.class.isAssignableFrom(declaring)
        && Serializable.class.isAssignableFrom(target);
  }

  /**
   * Whether the cast of an object of class {@code target} to {@code declaring}, made only to store
   * into {@code declaring}'s fields with {@code putfield}, may become {@code null} with those
   * stores taken out: as {@link #droppableHook}, and the class table records fields of {@code
   * declaring} (a class whose data the snapshot does not carry is never cast to by Codese's code).
   */
  static boolean droppableCast(Class<?> declaring, Class<?> target, ClassTable table) {
    if (!droppableHook(declaring, target)) {
      return false;
    }
    for (int i = 0; i < table.size(); i++) {
      if (!table.gone(i)
          && table.get(i) == declaring
          && !table.entries().get(i).fields().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static boolean records(ClassTable table, int index, String field) {
    for (ClassEntry.FieldEntry f : table.entries().get(index).fields()) {
      if (f.name().equals(field)) {
        return true;
      }
    }
    return false;
  }

  /** Records the stores into fields of {@code declaring} on object {@code id} as dropped. */
  void dropStores(Class<?> declaring, int id) {
    classes.add(declaring.getName());
    String owner = Types.internalName(declaring);
    BitSet ids = dead.get(owner);
    if (ids == null) {
      ids = new BitSet();
      dead.put(owner, ids);
    }
    ids.set(id);
  }

  /**
   * @return whether the stores into fields of the class of internal name {@code owner} on object
   *     {@code id} are dropped
   */
  boolean dropped(String owner, int id) {
    BitSet ids = dead.get(owner);
    return ids != null && id >= 0 && ids.get(id);
  }

  /**
   * Records that loop {@code loop} of chunk {@code method} of class file {@code classFile} reads
   * only rows {@code keep} of its ids and of its columns' values.
   *
   * @param declaring the class whose fields the dropped rows would have set
   * @param ids the loop's ids constant, resolved
   * @param idsIndex its index
   * @param columns the indices of the loop's value constants
   * @param resolved the resolved constants
   * @param keep the rows kept
   */
  void filterLoop(
      Class<?> declaring,
      int classFile,
      int method,
      int loop,
      int[] ids,
      int idsIndex,
      int[] columns,
      Object[] resolved,
      BitSet keep) {
    classes.add(declaring.getName());
    Map<Integer, Integer> swap = new HashMap<>();
    swap.put(idsIndex, add(rows(ids, keep)));
    for (int k : columns) {
      if (!swap.containsKey(k)) {
        swap.put(k, add(rows(resolved[k], keep)));
      }
    }
    loops.put(loopKey(classFile, method, loop), swap);
  }

  /**
   * @return the constants to read instead in loop {@code loop} of chunk {@code method} of class
   *     file {@code classFile}, or {@code null} if it reads the snapshot's own
   */
  Map<Integer, Integer> loop(int classFile, int method, int loop) {
    return loops.get(loopKey(classFile, method, loop));
  }

  private static long loopKey(int classFile, int method, int loop) {
    return ((long) classFile << 40) | ((long) method << 20) | loop;
  }

  /** The rows {@code keep} of the array {@code values}, as a new array of its class. */
  private static Object rows(Object values, BitSet keep) {
    Object kept = Array.newInstance(values.getClass().getComponentType(), keep.cardinality());
    int j = 0;
    for (int i = keep.nextSetBit(0); i >= 0; i = keep.nextSetBit(i + 1)) {
      Array.set(kept, j++, Array.get(values, i));
    }
    return kept;
  }

  private int add(Object constant) {
    added.add(constant);
    return base + added.size() - 1;
  }

  /**
   * Drops the finish step at {@code step} of the program {@code program} (a field store): its
   * setter becomes an added inert one, in a copy of the program.
   */
  void dropStep(Class<?> declaring, int program, int[] original, int step) {
    classes.add(declaring.getName());
    if (inert < 0) {
      inert = add(Evolution.REMOVED);
    }
    int[] p = (int[]) replaced.get(program);
    if (p == null) {
      p = original.clone();
      replaced.put(program, p);
    }
    p[step + 1] = inert;
  }

  /** Drops hook constant {@code hook}, a replay of class {@code declaring}: it is skipped. */
  void dropHook(Class<?> declaring, int hook) {
    classes.add(declaring.getName());
    replaced.put(hook, Evolution.REMOVED);
  }

  /**
   * @return the binary names of the classes whose stores or replays are dropped on some objects, in
   *     the order the program check met them
   */
  java.util.Set<String> classes() {
    return classes;
  }

  /**
   * Gives the constants the restore runs with: {@code resolved} with the replaced ones, plus the
   * added ones. Run after {@link Constants#toStores}: the added inert setter is made a field store
   * as the snapshot's own setters are.
   *
   * @param resolved the resolved constants (replaced in place)
   * @param version the snapshot's format version
   * @return the constants, longer than {@code resolved} if some were added
   */
  Object[] apply(Object[] resolved, int version) {
    for (Map.Entry<Integer, Object> e : replaced.entrySet()) {
      resolved[e.getKey()] = e.getValue();
    }
    if (added.isEmpty()) {
      return resolved;
    }
    Object[] all = java.util.Arrays.copyOf(resolved, base + added.size());
    for (int i = 0; i < added.size(); i++) {
      Object k = added.get(i);
      all[base + i] =
          k == Evolution.REMOVED && version >= Grammar.STORE_VERSION
              ? FieldStore.inert((Field) k)
              : k;
    }
    return all;
  }
}
