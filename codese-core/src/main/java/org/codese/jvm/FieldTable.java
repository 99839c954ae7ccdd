package org.codese.jvm;

import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.List;

/**
 * Named access to one slot's field values, behind the JDK's {@code PutField} and {@code GetField}
 * views. Unknown names and wrong types are rejected with {@link IllegalArgumentException}, as the
 * JDK does; as in the JDK, {@code GetField} answers a field the class has but the recorded data
 * lacks with the caller's default ({@code defaulted} is then true).
 */
public final class FieldTable {
  private final Slot slot;

  /** The field after the one a {@code get} found last: where the next is looked for first. */
  private int next;

  private final int nPrims;
  private final long[] prims;
  private final Object[] refs;

  /**
   * A table with every field at its default value.
   *
   * @param slot the slot whose fields are held
   */
  public FieldTable(Slot slot) {
    this(
        slot,
        new FieldValues(
            new long[slot.primitiveCount()],
            new Object[slot.fields().size() - slot.primitiveCount()]));
  }

  /**
   * A table holding the given values.
   *
   * @param slot the slot whose fields are held
   * @param values the values in field order
   */
  public FieldTable(Slot slot, FieldValues values) {
    this.slot = slot;
    this.nPrims = slot.primitiveCount();
    this.prims = values.prims();
    this.refs = values.refs();
  }

  /**
   * @return the values held, in field order
   */
  public FieldValues values() {
    return new FieldValues(prims, refs);
  }

  private int index(String name, Class<?> type) {
    List<SerialField> fields = slot.fields();
    for (int i = 0; i < fields.size(); i++) {
      SerialField f = fields.get(i);
      if (f.name().equals(name)) {
        if (type.isPrimitive() ? f.type() != type : f.primitive()) {
          throw new IllegalArgumentException(
              "field "
                  + name
                  + " of "
                  + slot.type().getName()
                  + " has type "
                  + f.type().getTypeName()
                  + ", not "
                  + type.getTypeName());
        }
        return i;
      }
    }
    throw new IllegalArgumentException(
        "no serializable field " + name + " in " + slot.type().getName());
  }

  /**
   * Where {@code GetField} finds field {@code name}, as {@code ObjectInputStream}'s {@code
   * GetField} does: the recorded field of that name and type; else, when the class itself has a
   * serializable field of that name and type (its {@code ObjectStreamClass}) that the snapshot did
   * not record, -1, and the reader gets its default.
   *
   * @param name the field's name
   * @param type a primitive class, {@code Object.class} for any reference type, or {@code null} for
   *     any type
   * @return the field's index among the values, or -1 for a field the data lacks
   * @throws IllegalArgumentException if neither the data nor the class has such a field
   */
  private int readIndex(String name, Class<?> type) {
    List<SerialField> fields = slot.fields();
    // the JDK's default read and most readObject methods ask in field order: try the next first
    if (next < fields.size()) {
      SerialField f = fields.get(next);
      if (f.name().equals(name) && matches(f.type(), type)) {
        return next++;
      }
    }
    for (int i = 0; i < fields.size(); i++) {
      SerialField f = fields.get(i);
      if (f.name().equals(name) && matches(f.type(), type)) {
        next = i + 1;
        return i;
      }
    }
    java.io.ObjectStreamField local = ObjectStreamClass.lookupAny(slot.type()).getField(name);
    if (local != null && matches(local.getType(), type)) {
      return -1;
    }
    throw new IllegalArgumentException(
        "no serializable field "
            + name
            + (type == null ? "" : " of type " + type.getTypeName())
            + " in "
            + slot.type().getName()
            + (local == null ? "" : " (it has type " + local.getType().getTypeName() + ")")
            + "; readObject must ask for the fields the class declares, with their types");
  }

  /** Whether a field of type {@code actual} answers a request for {@code type}, as in the JDK. */
  private static boolean matches(Class<?> actual, Class<?> type) {
    return type == null || (type == Object.class ? !actual.isPrimitive() : actual == type);
  }

  private void put(String name, Class<?> type, long bits) {
    int i = index(name, type);
    prims[i] = bits;
  }

  private long get(String name, Class<?> type, long val) {
    int i = readIndex(name, type);
    return i < 0 ? val : prims[i];
  }

  /**
   * @return a {@code PutField} view that stores into this table
   */
  public ObjectOutputStream.PutField putField() {
    return new ObjectOutputStream.PutField() {
      @Override
      public void put(String name, boolean val) {
        FieldTable.this.put(name, boolean.class, val ? 1 : 0);
      }

      @Override
      public void put(String name, byte val) {
        FieldTable.this.put(name, byte.class, val);
      }

      @Override
      public void put(String name, char val) {
        FieldTable.this.put(name, char.class, val);
      }

      @Override
      public void put(String name, short val) {
        FieldTable.this.put(name, short.class, val);
      }

      @Override
      public void put(String name, int val) {
        FieldTable.this.put(name, int.class, val);
      }

      @Override
      public void put(String name, long val) {
        FieldTable.this.put(name, long.class, val);
      }

      @Override
      public void put(String name, float val) {
        FieldTable.this.put(name, float.class, Float.floatToRawIntBits(val));
      }

      @Override
      public void put(String name, double val) {
        FieldTable.this.put(name, double.class, Double.doubleToRawLongBits(val));
      }

      @Override
      public void put(String name, Object val) {
        int i = index(name, Object.class);
        refs[i - nPrims] = val;
      }

      @Override
      @Deprecated
      public void write(ObjectOutput out) {
        throw new UnsupportedOperationException("PutField.write is deprecated; use writeFields");
      }
    };
  }

  /**
   * @return a {@code GetField} view that reads from this table
   */
  public ObjectInputStream.GetField getField() {
    return new ObjectInputStream.GetField() {
      @Override
      public ObjectStreamClass getObjectStreamClass() {
        try {
          return StreamDescriptors.of(slot.type()); // the stream's, as ObjectInputStream's is
        } catch (java.io.InvalidClassException e) {
          throw new IllegalStateException(e.getMessage(), e);
        }
      }

      @Override
      public boolean defaulted(String name) {
        return readIndex(name, null) < 0;
      }

      @Override
      public boolean get(String name, boolean val) {
        return FieldTable.this.get(name, boolean.class, val ? 1 : 0) != 0;
      }

      @Override
      public byte get(String name, byte val) {
        return (byte) FieldTable.this.get(name, byte.class, val);
      }

      @Override
      public char get(String name, char val) {
        return (char) FieldTable.this.get(name, char.class, val);
      }

      @Override
      public short get(String name, short val) {
        return (short) FieldTable.this.get(name, short.class, val);
      }

      @Override
      public int get(String name, int val) {
        return (int) FieldTable.this.get(name, int.class, val);
      }

      @Override
      public long get(String name, long val) {
        return FieldTable.this.get(name, long.class, val);
      }

      @Override
      public float get(String name, float val) {
        return Float.intBitsToFloat(
            (int) FieldTable.this.get(name, float.class, Float.floatToRawIntBits(val)));
      }

      @Override
      public double get(String name, double val) {
        return Double.longBitsToDouble(
            FieldTable.this.get(name, double.class, Double.doubleToRawLongBits(val)));
      }

      @Override
      public Object get(String name, Object val) {
        int i = readIndex(name, Object.class);
        return i < 0 ? val : refs[i - nPrims];
      }
    };
  }
}
