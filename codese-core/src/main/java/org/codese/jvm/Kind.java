package org.codese.jvm;

/**
 * The kind of a value a restore program stores: one of the eight primitive types, or a reference.
 * Each kind has its JVM descriptor character ({@code Z B C S I J F D}, and {@code L} for
 * references), which is how class files and the snapshot format spell it.
 *
 * <p>Capture, planning and emitting use this type; code on the restore path keeps to the descriptor
 * characters of {@link Types}, so that a cold restore loads no enum for them (see docs/DESIGN.md).
 */
public enum Kind {
  /** {@code boolean}. */
  BOOLEAN('Z', boolean.class, "Boolean"),
  /** {@code byte}. */
  BYTE('B', byte.class, "Byte"),
  /** {@code char}. */
  CHAR('C', char.class, "Character"),
  /** {@code short}. */
  SHORT('S', short.class, "Short"),
  /** {@code int}. */
  INT('I', int.class, "Integer"),
  /** {@code long}. */
  LONG('J', long.class, "Long"),
  /** {@code float}. */
  FLOAT('F', float.class, "Float"),
  /** {@code double}. */
  DOUBLE('D', double.class, "Double"),
  /** Any reference: an object, an array or {@code null}. */
  REFERENCE('L', Object.class, null);

  private final char descriptor;
  private final Class<?> type;
  private final String box;

  Kind(char descriptor, Class<?> type, String box) {
    this.descriptor = descriptor;
    this.type = type;
    this.box = box;
  }

  /**
   * @return the descriptor character: {@code Z B C S I J F D}, or {@code L} for references
   */
  public char descriptor() {
    return descriptor;
  }

  /**
   * @return whether this is a primitive kind
   */
  public boolean isPrimitive() {
    return this != REFERENCE;
  }

  /**
   * @return the primitive class, or {@code Object.class} for {@link #REFERENCE}
   */
  public Class<?> type() {
    return type;
  }

  /**
   * @return the internal name of the box class, such as {@code java/lang/Integer}
   * @throws IllegalStateException for {@link #REFERENCE}
   */
  public String boxOwner() {
    return "java/lang/" + primitiveOnly(box);
  }

  /**
   * @return the suffix of the {@code java.lang.reflect.Field} setter of this kind, such as {@code
   *     Int} for {@code setInt}
   * @throws IllegalStateException for {@link #REFERENCE}
   */
  public String setterSuffix() {
    primitiveOnly(box);
    return this == CHAR ? "Char" : this == INT ? "Int" : box;
  }

  private String primitiveOnly(String value) {
    if (value == null) {
      throw new IllegalStateException("a reference has no box class");
    }
    return value;
  }

  /**
   * @param type any class
   * @return the kind of a value of that type: its primitive kind, or {@link #REFERENCE}
   * @throws IllegalArgumentException for {@code void.class}
   */
  public static Kind of(Class<?> type) {
    if (!type.isPrimitive()) {
      return REFERENCE;
    }
    for (Kind k : values()) {
      if (k.type == type) {
        return k;
      }
    }
    throw new IllegalArgumentException("no value is of type " + type);
  }

  /**
   * @param type a primitive class
   * @return its kind
   * @throws IllegalArgumentException if {@code type} is not a primitive value type
   */
  public static Kind primitive(Class<?> type) {
    Kind k = of(type);
    if (k == REFERENCE) {
      throw new IllegalArgumentException("not a primitive type: " + type);
    }
    return k;
  }

  /**
   * @param descriptor a descriptor character
   * @return its kind
   * @throws IllegalArgumentException if no kind has that descriptor character
   */
  public static Kind ofDescriptor(char descriptor) {
    for (Kind k : values()) {
      if (k.descriptor == descriptor) {
        return k;
      }
    }
    throw new IllegalArgumentException("not a kind's descriptor character: " + descriptor);
  }
}
