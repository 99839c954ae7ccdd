package org.codese.jvm;

import java.io.DataOutput;
import java.io.IOException;
import java.util.Map;

/** Type descriptors and the raw-bits encoding of primitive values used throughout the pipeline. */
public final class Types {
  private static final Map<String, Class<?>> PRIMITIVE_NAMES =
      Map.of(
          "int",
          int.class,
          "long",
          long.class,
          "boolean",
          boolean.class,
          "byte",
          byte.class,
          "char",
          char.class,
          "short",
          short.class,
          "float",
          float.class,
          "double",
          double.class,
          "void",
          void.class);

  private Types() {}

  /**
   * @param name a class name as {@link Class#getName()} gives it
   * @return the primitive class or {@code void.class} of that name, or {@code null} if {@code name}
   *     names no such class ({@code Class.forName} finds none of them)
   */
  public static Class<?> primitiveNamed(String name) {
    return PRIMITIVE_NAMES.get(name);
  }

  /**
   * @param type any class
   * @return its JVM descriptor, such as {@code I} or {@code Ljava/lang/String;}
   */
  public static String descriptor(Class<?> type) {
    return DESCRIPTORS.get(type);
  }

  /** Descriptors by class, made once: capture and planning ask for them per object. */
  private static final ClassValue<String> DESCRIPTORS = new Descriptors();

  private static final class Descriptors extends ClassValue<String> {
    @Override
    protected String computeValue(Class<?> type) {
      return descriptorOf(type);
    }
  }

  private static String descriptorOf(Class<?> type) {
    if (type.isPrimitive()) {
      return String.valueOf(primitiveCode(type));
    }
    if (type.isArray()) {
      return type.getName().replace('.', '/');
    }
    return "L" + type.getName().replace('.', '/') + ";";
  }

  /**
   * Whether generated code (the restore's, or capture's field readers) may be a nestmate of {@code
   * c} and read or set its fields directly: {@code c} must be in Codese's own module (on the class
   * path, the same class loader), so that Codese has full privilege access to it, and not hidden.
   *
   * @param c a class
   * @return whether code may join its nest
   */
  public static boolean nestable(Class<?> c) {
    return c.getModule() == Types.class.getModule()
        && !c.isHidden()
        && c.getClassLoader() == Types.class.getClassLoader();
  }

  /**
   * @param type a class or array class
   * @return its internal name ({@code java/lang/String}) or, for arrays, its descriptor
   */
  public static String internalName(Class<?> type) {
    return type.isArray() ? descriptor(type) : type.getName().replace('.', '/');
  }

  /**
   * @param type a primitive class
   * @return its descriptor character ({@code Z B C S I J F D})
   */
  public static char primitiveCode(Class<?> type) {
    if (type == int.class) {
      return 'I';
    } else if (type == long.class) {
      return 'J';
    } else if (type == boolean.class) {
      return 'Z';
    } else if (type == byte.class) {
      return 'B';
    } else if (type == char.class) {
      return 'C';
    } else if (type == short.class) {
      return 'S';
    } else if (type == float.class) {
      return 'F';
    } else if (type == double.class) {
      return 'D';
    }
    throw new IllegalArgumentException("not a primitive type: " + type);
  }

  /**
   * @param code a descriptor character
   * @return the primitive class
   */
  public static Class<?> primitiveClass(char code) {
    return switch (code) {
      case 'I' -> int.class;
      case 'J' -> long.class;
      case 'Z' -> boolean.class;
      case 'B' -> byte.class;
      case 'C' -> char.class;
      case 'S' -> short.class;
      case 'F' -> float.class;
      case 'D' -> double.class;
      default -> throw new IllegalArgumentException("not a primitive code: " + code);
    };
  }

  /**
   * Packs a boxed primitive into raw bits (floating point via its exact bit pattern).
   *
   * @param box a boxed primitive
   * @return the raw bits
   */
  public static long bits(Object box) {
    if (box instanceof Integer i) {
      return i;
    } else if (box instanceof Long l) {
      return l;
    } else if (box instanceof Boolean b) {
      return b ? 1 : 0;
    } else if (box instanceof Byte b) {
      return b;
    } else if (box instanceof Character c) {
      return c;
    } else if (box instanceof Short s) {
      return s;
    } else if (box instanceof Float f) {
      return Float.floatToRawIntBits(f);
    } else if (box instanceof Double d) {
      return Double.doubleToRawLongBits(d);
    }
    throw new IllegalArgumentException("not a box: " + box);
  }

  /**
   * Unpacks raw bits into a box of the given primitive type.
   *
   * @param code a descriptor character
   * @param bits raw bits as made by {@link #bits(Object)}
   * @return the boxed value
   */
  public static Object box(char code, long bits) {
    return switch (code) {
      case 'I' -> (int) bits;
      case 'J' -> bits;
      case 'Z' -> bits != 0;
      case 'B' -> (byte) bits;
      case 'C' -> (char) bits;
      case 'S' -> (short) bits;
      case 'F' -> Float.intBitsToFloat((int) bits);
      case 'D' -> Double.longBitsToDouble(bits);
      default -> throw new IllegalArgumentException("not a primitive code: " + code);
    };
  }

  /**
   * Stores raw bits into an element of a primitive array, without boxing.
   *
   * @param array a primitive array
   * @param index the element
   * @param bits raw bits, as {@link #bits} gives them
   * @throws IllegalArgumentException if {@code array} is not a primitive array
   */
  public static void setBits(Object array, int index, long bits) {
    if (array instanceof int[] a) {
      a[index] = (int) bits;
    } else if (array instanceof long[] a) {
      a[index] = bits;
    } else if (array instanceof boolean[] a) {
      a[index] = bits != 0;
    } else if (array instanceof byte[] a) {
      a[index] = (byte) bits;
    } else if (array instanceof char[] a) {
      a[index] = (char) bits;
    } else if (array instanceof short[] a) {
      a[index] = (short) bits;
    } else if (array instanceof float[] a) {
      a[index] = Float.intBitsToFloat((int) bits);
    } else if (array instanceof double[] a) {
      a[index] = Double.longBitsToDouble(bits);
    } else {
      throw new IllegalArgumentException("not a primitive array: " + array);
    }
  }

  /**
   * Writes a primitive value in {@link DataOutput} form.
   *
   * @param out the output
   * @param code a descriptor character
   * @param bits raw bits
   * @throws IOException if writing fails
   */
  public static void write(DataOutput out, char code, long bits) throws IOException {
    switch (code) {
      case 'I', 'F' -> out.writeInt((int) bits);
      case 'J', 'D' -> out.writeLong(bits);
      case 'Z', 'B' -> out.writeByte((int) bits);
      case 'C', 'S' -> out.writeShort((int) bits);
      default -> throw new IllegalArgumentException("not a primitive code: " + code);
    }
  }

  /**
   * @param code a descriptor character
   * @return the number of bytes {@link #write} uses
   */
  public static int size(char code) {
    return switch (code) {
      case 'I', 'F' -> 4;
      case 'J', 'D' -> 8;
      case 'Z', 'B' -> 1;
      case 'C', 'S' -> 2;
      default -> throw new IllegalArgumentException("not a primitive code: " + code);
    };
  }

  /**
   * A shallow copy of an array, as {@code ObjectInputStream.cloneArray} makes it: cloned through
   * its type, since {@code Array.newInstance} with a component type known only at run time is a
   * slow call for each of a graph's many small arrays.
   *
   * @param array any array
   * @return a new array of the same class, length and elements
   * @throws ClassCastException if {@code array} is not an array
   */
  public static Object cloneArray(Object array) {
    if (array instanceof Object[] o) {
      return o.clone();
    } else if (array instanceof int[] a) {
      return a.clone();
    } else if (array instanceof byte[] a) {
      return a.clone();
    } else if (array instanceof long[] a) {
      return a.clone();
    } else if (array instanceof char[] a) {
      return a.clone();
    } else if (array instanceof double[] a) {
      return a.clone();
    } else if (array instanceof float[] a) {
      return a.clone();
    } else if (array instanceof short[] a) {
      return a.clone();
    }
    return ((boolean[]) array).clone();
  }
}
