package org.codese.jvm;

import java.lang.reflect.Field;
import java.util.List;

/**
 * How to read one slot's default fields, made once per {@link Slot} (so once per class and JVM for
 * capture, where {@link SerialClass} caches its slots in a {@code ClassValue}): the fields as an
 * array and each primitive field's type code, so that reading an object's fields is one typed
 * {@code Field.getInt}, {@code getLong}, … per field, with no boxing and no per-object look-up of
 * fields or their types.
 *
 * <p>Contract: only for fields reflection may read ({@link Slot#accessible()}); a field without a
 * real declaration reads as zero or {@code null}.
 */
public final class FieldReader {
  private final Field[] fields;
  private final char[] codes;
  private final int primitives;

  /** Whether the slot is closed to reflection before JDK 24: its fields go through offsets. */
  private final boolean unsafe;

  /**
   * Each real field's {@code Unsafe} offset ({@code -1} for a field without a declaration), taken
   * on first use; {@link #NO_OFFSETS} where {@code Unsafe} refuses them. Volatile: slots are shared
   * by the threads that capture and restore.
   */
  private volatile long[] offsets;

  private static final long[] NO_OFFSETS = new long[0];

  FieldReader(List<SerialField> serialFields, boolean unsafe) {
    int n = serialFields.size();
    this.fields = new Field[n];
    this.codes = new char[n];
    int p = 0;
    for (int i = 0; i < n; i++) {
      SerialField f = serialFields.get(i);
      fields[i] = f.field();
      if (f.primitive()) {
        codes[i] = Types.primitiveCode(f.type());
        p++;
      }
    }
    this.primitives = p;
    this.unsafe = unsafe;
  }

  /**
   * The {@code Unsafe} offset of field {@code i}, for a slot closed to reflection before JDK 24:
   * taken once per slot, on first use, so that a default read or write of such a class's fields
   * (every replayed {@code ArrayList} subclass's {@code size}) asks {@code
   * Unsafe.objectFieldOffset} and its checks no more per object.
   *
   * @param i a field index
   * @return the offset, or {@code -1} where there is none (a field without a declaration, a slot
   *     open to reflection, or a class whose offsets {@code Unsafe} refuses)
   */
  long offset(int i) {
    if (!unsafe) {
      return -1;
    }
    long[] o = offsets;
    if (o == null) {
      o = UnsafeFields.offsets(fields);
      o = o == null ? NO_OFFSETS : o;
      offsets = o;
    }
    return i < o.length ? o[i] : -1;
  }

  /**
   * @return how many of the slot's fields are primitive (they come first)
   */
  public int primitives() {
    return primitives;
  }

  /**
   * @return how many of the slot's fields are references
   */
  public int references() {
    return fields.length - primitives;
  }

  /**
   * Reads the primitive fields of {@code obj} as raw bits ({@link Types#bits}).
   *
   * @param obj an instance of the slot's class
   * @param into receives field {@code i}'s bits at index {@code i}; at least {@link #primitives()}
   *     long
   * @throws IllegalAccessException if reflection may not read a field
   */
  public void readPrimitives(Object obj, long[] into) throws IllegalAccessException {
    for (int i = 0; i < primitives; i++) {
      Field f = fields[i];
      if (f != null) {
        into[i] = bits(f, codes[i], obj);
      }
    }
  }

  /**
   * Reads the reference fields of {@code obj}.
   *
   * @param obj an instance of the slot's class
   * @param into receives reference field {@code i} (counted from the first reference field) at
   *     index {@code i}; at least {@link #references()} long
   * @throws IllegalAccessException if reflection may not read a field
   */
  public void readReferences(Object obj, Object[] into) throws IllegalAccessException {
    for (int i = primitives; i < fields.length; i++) {
      Field f = fields[i];
      into[i - primitives] = f == null ? null : f.get(obj);
    }
  }

  private static long bits(Field f, char code, Object obj) throws IllegalAccessException {
    return switch (code) {
      case 'I' -> f.getInt(obj);
      case 'J' -> f.getLong(obj);
      case 'Z' -> f.getBoolean(obj) ? 1 : 0;
      case 'B' -> f.getByte(obj);
      case 'C' -> f.getChar(obj);
      case 'S' -> f.getShort(obj);
      case 'F' -> Float.floatToRawIntBits(f.getFloat(obj));
      default -> Double.doubleToRawLongBits(f.getDouble(obj));
    };
  }
}
