package org.codese.load;

import java.io.InvalidObjectException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.List;
import org.codese.ClassMismatchException;
import org.codese.jvm.FieldValues;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;

/**
 * Makes records of one class from the field values a hook's data carries, as {@code
 * ObjectInputStream} does: each component takes the serializable field of its name (zero or {@code
 * null} where the data has none), is checked against the component's type, and the canonical
 * constructor runs. Built once per record class at load: a restore neither reflects over the record
 * nor adapts a method handle per object.
 */
final class RecordMaker {
  private final String record;

  /**
   * The canonical constructor, called by reflection as {@code ObjectInputStream} calls {@code
   * readObject}: in a cold JVM a method handle spread over an argument array costs milliseconds of
   * lambda-form spinning per record shape.
   */
  private final Constructor<?> ctor;

  private final String[] names;
  private final Class<?>[] types;

  /** Per component, the class an argument must be an instance of (the box of a primitive). */
  private final Class<?>[] accepted;

  /** Per component, the argument where the data has no field of its name. */
  private final Object[] absent;

  /** Per component, the index of the field of its name in the slot's fields, or -1. */
  private final int[] field;

  /** Per component, the primitive code of that field's type, or 0 for a reference field. */
  private final char[] fieldCode;

  private RecordMaker(Class<?> type, Constructor<?> ctor, RecordComponent[] comps, Slot slot) {
    this.record = type.getName();
    this.ctor = ctor;
    int n = comps.length;
    names = new String[n];
    types = new Class<?>[n];
    accepted = new Class<?>[n];
    absent = new Object[n];
    field = new int[n];
    fieldCode = new char[n];
    List<SerialField> fields = slot.fields();
    for (int c = 0; c < n; c++) {
      names[c] = comps[c].getName();
      types[c] = comps[c].getType();
      absent[c] = types[c].isPrimitive() ? Types.box(Types.primitiveCode(types[c]), 0) : null;
      accepted[c] = types[c].isPrimitive() ? absent[c].getClass() : types[c];
      field[c] = -1;
      for (int f = 0; f < fields.size(); f++) {
        if (fields.get(f).name().equals(names[c])) {
          field[c] = f;
          Class<?> ft = fields.get(f).type();
          fieldCode[c] = ft.isPrimitive() ? Types.primitiveCode(ft) : 0;
        }
      }
    }
  }

  /**
   * Prepares the making of records of {@code type}.
   *
   * @param type the class a record hook names
   * @param slot its slot, with the fields the snapshot recorded
   * @return the maker
   * @throws ClassMismatchException if {@code type} is not a record now, or its canonical
   *     constructor cannot be called
   */
  static RecordMaker of(Class<?> type, Slot slot) throws ClassMismatchException {
    if (!type.isRecord()) {
      throw new ClassMismatchException(type.getName(), null, "was a record at capture, is not now");
    }
    RecordComponent[] comps = type.getRecordComponents();
    Class<?>[] params = new Class<?>[comps.length];
    for (int i = 0; i < comps.length; i++) {
      params[i] = comps[i].getType();
    }
    try {
      Constructor<?> ctor = type.getDeclaredConstructor(params);
      ctor.setAccessible(true);
      return new RecordMaker(type, ctor, comps, slot);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ClassMismatchException(
          type.getName(), null, "its canonical constructor cannot be called: " + e.getMessage());
    }
  }

  /**
   * The canonical constructor's arguments for one record.
   *
   * @param values the field values the hook's data carries, primitives first in slot order
   * @return one argument per component
   * @throws InvalidObjectException if a value does not fit its component, as the JDK's record
   *     deserialization reports it, before the constructor is called
   */
  Object[] arguments(FieldValues values) throws InvalidObjectException {
    long[] prims = values.prims();
    Object[] refs = values.refs();
    Object[] args = new Object[names.length];
    for (int c = 0; c < args.length; c++) {
      int f = field[c];
      Object arg =
          f < 0
              ? null
              : f < prims.length ? Types.box(fieldCode[c], prims[f]) : refs[f - prims.length];
      if (arg == null) {
        arg = absent[c];
      } else if (!accepted[c].isInstance(arg)) {
        throw new InvalidObjectException(
            "cannot assign instance of "
                + arg.getClass().getTypeName()
                + " to record component "
                + names[c]
                + " of type "
                + types[c].getTypeName()
                + " in "
                + record);
      }
      args[c] = arg;
    }
    return args;
  }

  /**
   * Calls the canonical constructor.
   *
   * @param args the arguments from {@link #arguments}
   * @return the record
   * @throws Throwable what the constructor threw, unwrapped; or a reflective failure
   */
  Object construct(Object[] args) throws Throwable {
    try {
      return ctor.newInstance(args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
