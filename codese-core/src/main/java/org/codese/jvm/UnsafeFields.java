package org.codese.jvm;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * Field access for classes closed to reflection, used only before JDK 24 (where it prints no
 * warning). From JDK 24 on, {@link SlotFields} uses {@code ReflectionFactory} handles instead and
 * this class is never loaded.
 */
final class UnsafeFields {
  private static final Unsafe UNSAFE = TheUnsafe.UNSAFE;

  private UnsafeFields() {}

  /**
   * The offsets of {@code fields} ({@code -1} for a {@code null} entry), or {@code null} where
   * {@code Unsafe} refuses them (the fields of a hidden class or a record).
   */
  @SuppressWarnings("removal")
  static long[] offsets(Field[] fields) {
    long[] offsets = new long[fields.length];
    try {
      for (int i = 0; i < fields.length; i++) {
        offsets[i] = fields[i] == null ? -1 : UNSAFE.objectFieldOffset(fields[i]);
      }
    } catch (UnsupportedOperationException e) {
      return null;
    }
    return offsets;
  }

  @SuppressWarnings("removal")
  static long get(Field f, Object obj) {
    return get(f, obj, UNSAFE.objectFieldOffset(f));
  }

  /** The value of field {@code f}, at offset {@code off}, of {@code obj}, as raw bits. */
  @SuppressWarnings("removal")
  static long get(Field f, Object obj, long off) {
    Class<?> t = f.getType();
    if (t == int.class) {
      return UNSAFE.getInt(obj, off);
    } else if (t == long.class) {
      return UNSAFE.getLong(obj, off);
    } else if (t == boolean.class) {
      return UNSAFE.getBoolean(obj, off) ? 1 : 0;
    } else if (t == byte.class) {
      return UNSAFE.getByte(obj, off);
    } else if (t == char.class) {
      return UNSAFE.getChar(obj, off);
    } else if (t == short.class) {
      return UNSAFE.getShort(obj, off);
    } else if (t == float.class) {
      return Float.floatToRawIntBits(UNSAFE.getFloat(obj, off));
    }
    return Double.doubleToRawLongBits(UNSAFE.getDouble(obj, off));
  }

  @SuppressWarnings("removal")
  static Object getObject(Field f, Object obj) {
    return getObject(obj, UNSAFE.objectFieldOffset(f));
  }

  /** The reference at offset {@code off} of {@code obj}. */
  @SuppressWarnings("removal")
  static Object getObject(Object obj, long off) {
    return UNSAFE.getObject(obj, off);
  }

  @SuppressWarnings("removal")
  static void put(Field f, Object obj, long bits) {
    put(f, obj, bits, UNSAFE.objectFieldOffset(f));
  }

  /** Writes raw bits {@code bits} into field {@code f}, at offset {@code off}, of {@code obj}. */
  @SuppressWarnings("removal")
  static void put(Field f, Object obj, long bits, long off) {
    Class<?> t = f.getType();
    if (t == int.class) {
      UNSAFE.putInt(obj, off, (int) bits);
    } else if (t == long.class) {
      UNSAFE.putLong(obj, off, bits);
    } else if (t == boolean.class) {
      UNSAFE.putBoolean(obj, off, bits != 0);
    } else if (t == byte.class) {
      UNSAFE.putByte(obj, off, (byte) bits);
    } else if (t == char.class) {
      UNSAFE.putChar(obj, off, (char) bits);
    } else if (t == short.class) {
      UNSAFE.putShort(obj, off, (short) bits);
    } else if (t == float.class) {
      UNSAFE.putFloat(obj, off, Float.intBitsToFloat((int) bits));
    } else {
      UNSAFE.putDouble(obj, off, Double.longBitsToDouble(bits));
    }
  }

  /** The value of static reference field {@code f} of an initialised class. */
  @SuppressWarnings("removal")
  static Object getStatic(Field f) {
    return UNSAFE.getObject(UNSAFE.staticFieldBase(f), UNSAFE.staticFieldOffset(f));
  }

  /**
   * The value of a static field of type {@code long}, {@code int}, {@code short}, {@code char} or
   * {@code byte}, widened.
   */
  @SuppressWarnings("removal")
  static long getStaticIntegral(Field f) {
    Object base = UNSAFE.staticFieldBase(f);
    long off = UNSAFE.staticFieldOffset(f);
    Class<?> t = f.getType();
    if (t == long.class) {
      return UNSAFE.getLong(base, off);
    } else if (t == int.class) {
      return UNSAFE.getInt(base, off);
    } else if (t == short.class) {
      return UNSAFE.getShort(base, off);
    } else if (t == char.class) {
      return UNSAFE.getChar(base, off);
    }
    return UNSAFE.getByte(base, off);
  }

  @SuppressWarnings("removal")
  static void putObject(Field f, Object obj, Object value) {
    putObject(obj, UNSAFE.objectFieldOffset(f), value);
  }

  /** Writes reference {@code value} at offset {@code off} of {@code obj}. */
  @SuppressWarnings("removal")
  static void putObject(Object obj, long off, Object value) {
    UNSAFE.putObject(obj, off, value);
  }
}
