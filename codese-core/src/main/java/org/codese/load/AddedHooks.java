package org.codese.load;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.format.SnapshotFile;
import org.codese.jvm.FieldValues;
import org.codese.jvm.Jvm;
import org.codese.jvm.Slot;
import org.codese.jvm.SlotFields;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Tape;

/**
 * The calls {@code ObjectInputStream} makes on the objects of classes that changed since capture
 * and the snapshot's code does not: the {@code readObjectNoData} of a class inserted into an
 * object's hierarchy, and a {@code readObject} added to a class.
 *
 * <p>A {@code readObject} added to a class since capture (serialization specification, section
 * 5.6.2): the snapshot's code set the class's fields directly, as it may for a class without one,
 * and {@code ObjectInputStream} would call the method with those fields as the default data and no
 * optional data. After the set phase, for each object of the class (superclass slots first), the
 * values the code set are read back, the fields reset to their defaults, and {@code readObject} is
 * called over a replay whose {@code defaultReadObject} and {@code readFields} give those values and
 * whose optional data is empty. Built at load only where a class gained one ({@link
 * ClassTable#hookAdded()}); nothing happens per object otherwise.
 */
final class AddedHooks {
  private final NoData noData;
  private final int[] ids;
  private final Slot[] slots;
  private final ObjectInputFilter filter;
  private final int maxArrayLength;

  private AddedHooks(
      NoData noData, int[] ids, Slot[] slots, ObjectInputFilter filter, int maxArrayLength) {
    this.noData = noData;
    this.ids = ids;
    this.slots = slots;
    this.filter = filter;
    this.maxArrayLength = maxArrayLength;
  }

  /**
   * @return the calls, or {@code null} if no class gained a {@code readObject} and no hierarchy
   *     gained a class with {@code readObjectNoData} to call
   */
  static AddedHooks of(
      SnapshotFile file,
      ClassTable table,
      ProgramCheck checked,
      boolean sameJdk,
      ObjectInputFilter filter,
      int maxArrayLength)
      throws IOException {
    NoData noData = noData(file, table, checked, sameJdk);
    if (table.hookAdded().isEmpty()) {
      return noData == null
          ? null
          : new AddedHooks(noData, new int[0], new Slot[0], filter, maxArrayLength);
    }
    List<Slot> classes = new ArrayList<>();
    for (int index : table.hookAdded()) {
      classes.add(table.slot(index));
    }
    // superclass slots first, as ObjectInputStream reads an object's slots (an insertion sort: no
    // comparator object on the load path)
    for (int i = 1; i < classes.size(); i++) {
      for (int j = i;
          j > 0 && depth(classes.get(j - 1).type()) > depth(classes.get(j).type());
          j--) {
        classes.set(j, classes.set(j - 1, classes.get(j)));
      }
    }
    int n = 0;
    int[] ids = new int[8];
    Slot[] slots = new Slot[8];
    for (int id = checked.firstId(); id < checked.endId(); id++) {
      Class<?> c = checked.instanceClass(id);
      if (c == null) {
        continue;
      }
      for (Slot s : classes) {
        if (s.type().isAssignableFrom(c)) {
          if (n == ids.length) {
            ids = Arrays.copyOf(ids, n * 2);
            slots = Arrays.copyOf(slots, n * 2);
          }
          ids[n] = id;
          slots[n++] = s;
        }
      }
    }
    return new AddedHooks(
        noData, Arrays.copyOf(ids, n), Arrays.copyOf(slots, n), filter, maxArrayLength);
  }

  private static int depth(Class<?> c) {
    int d = 0;
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      d++;
    }
    return d;
  }

  /**
   * Runs the {@code readObjectNoData} of inserted classes, then each added {@code readObject} over
   * the values the code set.
   */
  void run(Object[] table, RestoreRun run) throws IOException {
    if (noData != null) {
      noData.run(table);
    }
    for (int i = 0; i < ids.length; i++) {
      Object obj = table[ids[i]];
      Slot slot = slots[i];
      FieldValues set = SlotFields.read(slot, obj);
      SlotFields.write(
          slot, obj, new FieldValues(new long[set.prims().length], new Object[set.refs().length]));
      ReplayStream in =
          new ReplayStream(
              set.refs(), tape(slot, set), obj, slot, run, filter, maxArrayLength, false);
      HookRuns.readObject(slot.readObject(), obj, in);
    }
  }

  /**
   * One default-fields record of {@code values}: the primitives as data, each reference as an item
   * naming its index in {@code values.refs()}, which is the replay's table.
   */
  private static Tape tape(Slot slot, FieldValues values) {
    long[] prims = values.prims();
    Object[] refs = values.refs();
    int bytes = 0;
    for (int i = 0; i < prims.length; i++) {
      bytes += Types.size(Types.primitiveCode(slot.fields().get(i).type()));
    }
    byte[] data = new byte[bytes];
    int pos = 0;
    for (int i = 0; i < prims.length; i++) {
      int size = Types.size(Types.primitiveCode(slot.fields().get(i).type()));
      for (int b = size - 1; b >= 0; b--) {
        data[pos++] = (byte) (prims[i] >>> (8 * b));
      }
    }
    int[] items = new int[2 + 2 * refs.length];
    items[0] = Tape.FIELDS;
    items[1] = refs.length;
    for (int r = 0; r < refs.length; r++) {
      items[2 + 2 * r] = Tape.OBJECT;
      items[3 + 2 * r] = refs[r] == null ? -1 : r;
    }
    return new Tape(data, items);
  }

  /**
   * The {@code readObjectNoData} calls a snapshot's objects need: for each class the snapshot
   * allocates with {@code Constant.Mode.SERIAL}, the {@code Serializable} classes of its hierarchy
   * (below the first that is not) that are not in the class table, which lists every such class at
   * capture, were inserted since capture; {@code ObjectInputStream} calls such a class's {@code
   * readObjectNoData}, if it declares one, for each object of the class. Per class, and only where
   * a hierarchy has a class the table lacks does this look for the method or at the objects.
   *
   * @return the calls, or {@code null} if there are none (the common case)
   */
  private static NoData noData(
      SnapshotFile file, ClassTable table, ProgramCheck checked, boolean sameJdk)
      throws java.io.InvalidClassException {
    Set<Class<?>> listed = null;
    Map<Class<?>, java.lang.reflect.Method[]> calls = null;
    for (Constant k : file.constants()) {
      if (!(k instanceof Constant.Allocator a) || a.mode() != Constant.Mode.SERIAL) {
        continue;
      }
      Class<?> c = table.get(a.type());
      if (c == null) {
        continue; // a class not found: its objects are not made (ProgramCheck.NOT_MADE)
      }
      if (sameJdk && org.codese.jvm.Jvm.isJdkClass(c)) {
        continue; // the JDK's classes are the capture's
      }
      if (listed == null) {
        listed = new HashSet<>();
        for (int i = 0; i < table.size(); i++) {
          listed.add(table.get(i));
        }
      }
      java.lang.reflect.Method[] m = inserted(c, listed);
      if (m != null) {
        if (calls == null) {
          calls = new HashMap<>();
        }
        calls.put(c, m);
      }
    }
    return calls == null ? null : NoData.of(checked, calls);
  }

  /** The {@code readObjectNoData} methods of the classes inserted above {@code c}, or null. */
  private static java.lang.reflect.Method[] inserted(Class<?> c, Set<Class<?>> listed)
      throws java.io.InvalidClassException {
    java.util.List<java.lang.reflect.Method> found = null;
    for (Class<?> k = c; k != null && java.io.Serializable.class.isAssignableFrom(k); ) {
      java.lang.reflect.Method m = listed.contains(k) ? null : readObjectNoData(k);
      if (m != null) {
        if (found == null) {
          found = new java.util.ArrayList<>();
        }
        found.add(0, m); // superclass first, as the JDK calls them
      }
      k = k.getSuperclass();
    }
    return found == null ? null : found.toArray(new java.lang.reflect.Method[0]);
  }

  /** {@code k}'s {@code private void readObjectNoData()}, made accessible, or null. */
  private static java.lang.reflect.Method readObjectNoData(Class<?> k)
      throws java.io.InvalidClassException {
    java.lang.reflect.Method m = Jvm.privateMethod(k, "readObjectNoData", null);
    if (m != null) {
      try {
        m.setAccessible(true);
      } catch (RuntimeException e) {
        throw new org.codese.ClassMismatchException(
            k.getName(),
            null,
            "the class was inserted into the hierarchy since capture and its readObjectNoData"
                + " cannot be called: open its package to Codese");
      }
    }
    return m;
  }

  /** Objects of classes with inserted superclasses, and the methods to call on each. */
  static final class NoData {
    private final int[] ids;
    private final java.lang.reflect.Method[][] methods;

    private NoData(int[] ids, java.lang.reflect.Method[][] methods) {
      this.ids = ids;
      this.methods = methods;
    }

    static NoData of(ProgramCheck checked, Map<Class<?>, java.lang.reflect.Method[]> calls) {
      int n = 0;
      int[] ids = new int[8];
      java.lang.reflect.Method[][] methods = new java.lang.reflect.Method[8][];
      for (int id = checked.firstId(); id < checked.endId(); id++) {
        Class<?> c = checked.instanceClass(id);
        java.lang.reflect.Method[] m = c == null ? null : calls.get(c);
        if (m != null) {
          if (n == ids.length) {
            ids = java.util.Arrays.copyOf(ids, n * 2);
            methods = java.util.Arrays.copyOf(methods, n * 2);
          }
          ids[n] = id;
          methods[n++] = m;
        }
      }
      return new NoData(java.util.Arrays.copyOf(ids, n), java.util.Arrays.copyOf(methods, n));
    }

    /**
     * Calls the methods on the objects of {@code table}. What a method throws leaves as it is, as
     * from {@code ObjectInputStream}.
     */
    void run(Object[] table) throws java.io.IOException {
      for (int i = 0; i < ids.length; i++) {
        for (java.lang.reflect.Method m : methods[i]) {
          try {
            m.invoke(table[ids[i]]);
          } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof java.io.IOException x) {
              throw x;
            }
            throw new HookFailure(e.getCause());
          } catch (IllegalAccessException e) {
            throw new java.io.InvalidClassException(
                m.getDeclaringClass().getName(), "readObjectNoData cannot be called: " + e);
          }
        }
      }
    }
  }
}
