package org.codese.jvm;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.util.List;

/**
 * Reads and writes the default fields of one slot of an object, choosing the only warning-free way
 * the running JDK offers: reflection where the class is open to it; for classes of closed modules
 * (such as {@code java.base}), {@code sun.misc.Unsafe} before JDK 24 and {@code
 * ReflectionFactory}'s default-field handles from JDK 24 on.
 */
public final class SlotFields {
  private SlotFields() {}

  /**
   * Reads the slot's default field values from {@code obj}.
   *
   * @param slot the slot
   * @param obj an instance of the slot's class
   * @return the values in field order
   * @throws IOException if a closed class's fields cannot be read
   */
  public static FieldValues read(Slot slot, Object obj) throws IOException {
    if (!slot.accessible() && Jvm.hasDefaultFieldHandles()) {
      return FieldGrabber.grab(slot, obj);
    }
    FieldReader reader = slot.reader();
    long[] prims = new long[reader.primitives()];
    Object[] refs = new Object[reader.references()];
    if (slot.accessible()) {
      try {
        reader.readPrimitives(obj, prims);
        reader.readReferences(obj, refs);
      } catch (IllegalAccessException e) {
        throw new IOException("cannot read fields of " + slot.type().getName(), e);
      }
      return new FieldValues(prims, refs);
    }
    List<SerialField> fields = slot.fields();
    int nPrims = prims.length;
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i).field();
      if (f == null) {
        continue;
      }
      long off = reader.offset(i);
      if (i < nPrims) {
        prims[i] = off >= 0 ? UnsafeFields.get(f, obj, off) : UnsafeFields.get(f, obj);
      } else {
        refs[i - nPrims] =
            off >= 0 ? UnsafeFields.getObject(obj, off) : UnsafeFields.getObject(f, obj);
      }
    }
    return new FieldValues(prims, refs);
  }

  /**
   * Writes default field values into {@code obj}. Fields without a real declaration are skipped.
   *
   * @param slot the slot
   * @param obj an instance of the slot's class
   * @param values the values in field order
   * @throws IOException if a closed class's fields cannot be written
   */
  public static void write(Slot slot, Object obj, FieldValues values) throws IOException {
    checkTypes(slot, obj, values);
    if (!slot.accessible() && Jvm.hasDefaultFieldHandles()) {
      FieldFeeder.feed(slot, obj, values);
      return;
    }
    List<SerialField> fields = slot.fields();
    int nPrims = slot.primitiveCount();
    FieldReader reader = slot.reader();
    try {
      for (int i = 0; i < fields.size(); i++) {
        SerialField sf = fields.get(i);
        Field f = sf.field();
        if (f == null) {
          continue;
        }
        long off = reader.offset(i);
        if (i < nPrims) {
          long bits = values.prims()[i];
          if (slot.accessible()) {
            f.set(obj, Types.box(Types.primitiveCode(sf.type()), bits));
          } else if (off >= 0) {
            UnsafeFields.put(f, obj, bits, off);
          } else {
            UnsafeFields.put(f, obj, bits);
          }
        } else {
          Object v = values.refs()[i - nPrims];
          if (slot.accessible()) {
            f.set(obj, v);
          } else if (off >= 0) {
            UnsafeFields.putObject(obj, off, v);
          } else {
            UnsafeFields.putObject(f, obj, v);
          }
        }
      }
    } catch (IllegalAccessException e) {
      throw new IOException("cannot write fields of " + slot.type().getName(), e);
    }
  }

  /**
   * Checks every value against its field's declared type before anything is written: the writes
   * below store through {@code Unsafe} or JDK handles that may not check, and a damaged snapshot
   * must not be able to put an object of the wrong type into a field.
   */
  private static void checkTypes(Slot slot, Object obj, FieldValues values) throws IOException {
    if (!slot.type().isInstance(obj)) {
      throw new java.io.InvalidObjectException(
          "cannot restore fields of "
              + slot.type().getName()
              + " into "
              + (obj == null ? "null" : obj.getClass().getTypeName()));
    }
    List<SerialField> fields = slot.fields();
    int nPrims = slot.primitiveCount();
    if (values.prims().length != nPrims || values.refs().length != fields.size() - nPrims) {
      throw new java.io.InvalidObjectException(
          "wrong number of field values for " + slot.type().getName());
    }
    for (int i = nPrims; i < fields.size(); i++) {
      Field f = fields.get(i).field();
      Object v = values.refs()[i - nPrims];
      if (f != null && v != null && !f.getType().isInstance(v)) {
        throw new java.io.InvalidObjectException(
            "cannot assign "
                + v.getClass().getTypeName()
                + " to field "
                + f.getDeclaringClass().getName()
                + "."
                + f.getName()
                + " of type "
                + f.getType().getTypeName());
      }
    }
  }

  /** Collects the values a JDK 24+ default-write handle puts into {@code putFields()}. */
  private static final class FieldGrabber extends ObjectOutputStream {
    private final Slot slot;
    private final FieldTable table;

    private FieldGrabber(Slot slot) throws IOException {
      this.slot = slot;
      this.table = new FieldTable(slot);
    }

    static FieldValues grab(Slot slot, Object obj) throws IOException {
      FieldGrabber g = new FieldGrabber(slot);
      MethodHandle h = Jvm.defaultWriteObject(slot.type());
      try {
        h.invokeExact(obj, (ObjectOutputStream) g);
      } catch (IOException | RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IOException("cannot read fields of " + slot.type().getName(), t);
      }
      return g.table.values();
    }

    @Override
    public PutField putFields() {
      return table.putField();
    }

    @Override
    public void writeFields() {}
  }

  /**
   * Offers values to a JDK 24+ default-read handle through {@code readFields()}. One per thread,
   * reused: an {@code ObjectInputStream}'s constructor calls the JVM's filter factory, which cost
   * about a fifth of a warm restore of a graph of many replayed {@code ArrayList} subclasses (JFR,
   * JDK 25, jgrapht-graph); the handle only reads the fields it is offered, so no other code can
   * hold the stream; a call made while the thread's feeder is in use gets a new one.
   */
  private static final class FieldFeeder extends ObjectInputStream {
    private static final ThreadLocal<FieldFeeder> SPARE = new ThreadLocal<>();

    private FieldTable table;

    private FieldFeeder() throws IOException {}

    static void feed(Slot slot, Object obj, FieldValues values) throws IOException {
      MethodHandle h = Jvm.defaultReadObject(slot.type());
      FieldFeeder feeder = SPARE.get();
      if (feeder == null) {
        feeder = new FieldFeeder();
        SPARE.set(feeder);
      } else if (feeder.table != null) {
        feeder = new FieldFeeder(); // the thread's is in use by a call this one runs inside
      }
      feeder.table = new FieldTable(slot, values);
      try {
        h.invokeExact(obj, (ObjectInputStream) feeder);
      } catch (IOException | RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IOException("cannot write fields of " + slot.type().getName(), t);
      } finally {
        feeder.table = null;
      }
    }

    @Override
    public GetField readFields() {
      return table.getField();
    }
  }
}
