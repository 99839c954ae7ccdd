package org.codese.load;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.codese.jvm.FieldValues;
import org.codese.jvm.Slot;
import org.codese.jvm.SlotFields;
import org.codese.jvm.Types;
import org.codese.program.Tape;

/**
 * A {@code readObject} added to a class since capture (serialization specification, section 5.6.2):
 * the snapshot's code set the class's fields directly, as it may for a class without one, and
 * {@code ObjectInputStream} would call the method with those fields as the default data and no
 * optional data. After the set phase, for each object of the class (superclass slots first), the
 * values the code set are read back, the fields reset to their defaults, and {@code readObject} is
 * called over a replay whose {@code defaultReadObject} and {@code readFields} give those values and
 * whose optional data is empty. Built at load only where a class gained one ({@link
 * ClassTable#hookAdded()}); nothing happens per object otherwise.
 */
final class AddedHooks {
  private final int[] ids;
  private final Slot[] slots;
  private final ObjectInputFilter filter;
  private final int maxArrayLength;

  private AddedHooks(int[] ids, Slot[] slots, ObjectInputFilter filter, int maxArrayLength) {
    this.ids = ids;
    this.slots = slots;
    this.filter = filter;
    this.maxArrayLength = maxArrayLength;
  }

  /**
   * @return the calls, or {@code null} if no class gained a {@code readObject}
   */
  static AddedHooks of(
      ClassTable table, ProgramCheck checked, ObjectInputFilter filter, int maxArrayLength)
      throws IOException {
    if (table.hookAdded().isEmpty()) {
      return null;
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
    return new AddedHooks(Arrays.copyOf(ids, n), Arrays.copyOf(slots, n), filter, maxArrayLength);
  }

  private static int depth(Class<?> c) {
    int d = 0;
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      d++;
    }
    return d;
  }

  /** Runs each {@code readObject} over the values the code set. */
  void run(Object[] table, RestoreRun run) throws IOException {
    for (int i = 0; i < ids.length; i++) {
      Object obj = table[ids[i]];
      Slot slot = slots[i];
      FieldValues set = SlotFields.read(slot, obj);
      SlotFields.write(
          slot, obj, new FieldValues(new long[set.prims().length], new Object[set.refs().length]));
      ReplayStream in =
          new ReplayStream(
              set.refs(), tape(slot, set), obj, slot, run, filter, maxArrayLength, false);
      Hooks.readObject(slot.readObject(), obj, in);
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
}
