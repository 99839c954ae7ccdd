package org.codese.runtime;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.codese.jvm.Jvm;
import org.codese.jvm.TheUnsafe;

/**
 * Stores into one instance field the generated code may not {@code putfield} (a final field, or a
 * field of a class whose nest the code may not join): what a setter constant resolves to from
 * snapshot format 10 on, in place of the {@code java.lang.reflect.Field} earlier formats call. The
 * methods have {@code Field}'s names and descriptors, and check what it checks: the target is an
 * instance of the field's class (else {@code IllegalArgumentException}, or {@code
 * NullPointerException} for {@code null}), and the value fits the field; a setter of another kind
 * than the field's is refused. The store itself is a plain one through {@code sun.misc.Unsafe}
 * before JDK 24, as {@code ObjectInputStream} stores final fields, where {@code Field.set} makes a
 * volatile store of every final field; from JDK 24 on (where that {@code Unsafe} use prints a
 * warning) through the {@code Field}.
 *
 * <p>Made by the loader only, for fields it has made accessible; never for a static field or a
 * field of a record or hidden class, which {@code Field.set} refuses to set.
 */
public final class FieldStore {
  private static final boolean THROUGH_FIELD = Jvm.hasDefaultFieldHandles();

  private final Field field;
  private final Class<?> declaring;
  private final Class<?> type;

  /** the field's offset, or -1 to store through {@link #field} */
  private final long offset;

  private FieldStore(Field field, long offset) {
    this.field = field;
    this.declaring = field.getDeclaringClass();
    this.type = field.getType();
    this.offset = offset;
  }

  /**
   * @param field an instance field made accessible ({@code setAccessible(true)} succeeded), not of
   *     a record or hidden class
   * @return a store into it
   * @throws IllegalArgumentException for any other field
   */
  @SuppressWarnings({"deprecation", "removal"})
  public static FieldStore of(Field field) {
    Class<?> c = field.getDeclaringClass();
    if (Modifier.isStatic(field.getModifiers())
        || !field.isAccessible()
        || c.isRecord()
        || c.isHidden()) {
      throw new IllegalArgumentException("no field store for " + field);
    }
    return new FieldStore(field, THROUGH_FIELD ? -1 : TheUnsafe.UNSAFE.objectFieldOffset(field));
  }

  /**
   * A store that never stores, standing for a setter constant whose field was removed from its
   * class since capture: the loader takes the code's stores through it out before the code is
   * defined, and finish programs skip it.
   *
   * @param placeholder the field the loader resolved such a constant to
   * @return a store whose setters throw {@code IllegalStateException}
   */
  public static FieldStore inert(Field placeholder) {
    return new FieldStore(placeholder, INERT);
  }

  /** The offset of an {@link #inert} store. */
  private static final long INERT = -2;

  /**
   * @return the field this stores into
   */
  public Field field() {
    return field;
  }

  private void target(Object target, Class<?> kind) {
    if (offset == INERT) {
      throw new IllegalStateException("no store into " + field + ", a field removed since capture");
    }
    if (!declaring.isInstance(target)) {
      if (target == null) {
        throw new NullPointerException("no object to set " + field + " of");
      }
      throw new IllegalArgumentException(
          "cannot set " + field + " of an instance of " + target.getClass().getName());
    }
    if (type != kind && (kind != Object.class || type.isPrimitive())) {
      throw new IllegalArgumentException("cannot set " + field + " as " + kind.getName());
    }
  }

  /**
   * As {@link Field#set}, for a reference field.
   *
   * @param target the object
   * @param value the value, {@code null} or an instance of the field's type
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void set(Object target, Object value) throws IllegalAccessException {
    if (offset == -1) {
      field.set(target, value); // checks as Field does
      return;
    }
    target(target, Object.class);
    if (value != null && !type.isInstance(value)) {
      throw new IllegalArgumentException(
          "cannot set " + field + " to an instance of " + value.getClass().getName());
    }
    TheUnsafe.UNSAFE.putObject(target, offset, value);
  }

  /**
   * As {@link Field#setBoolean}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setBoolean(Object target, boolean value) throws IllegalAccessException {
    if (offset == -1) {
      field.setBoolean(target, value); // checks as Field does
      return;
    }
    target(target, boolean.class);
    TheUnsafe.UNSAFE.putBoolean(target, offset, value);
  }

  /**
   * As {@link Field#setByte}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setByte(Object target, byte value) throws IllegalAccessException {
    if (offset == -1) {
      field.setByte(target, value); // checks as Field does
      return;
    }
    target(target, byte.class);
    TheUnsafe.UNSAFE.putByte(target, offset, value);
  }

  /**
   * As {@link Field#setChar}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setChar(Object target, char value) throws IllegalAccessException {
    if (offset == -1) {
      field.setChar(target, value); // checks as Field does
      return;
    }
    target(target, char.class);
    TheUnsafe.UNSAFE.putChar(target, offset, value);
  }

  /**
   * As {@link Field#setShort}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setShort(Object target, short value) throws IllegalAccessException {
    if (offset == -1) {
      field.setShort(target, value); // checks as Field does
      return;
    }
    target(target, short.class);
    TheUnsafe.UNSAFE.putShort(target, offset, value);
  }

  /**
   * As {@link Field#setInt}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setInt(Object target, int value) throws IllegalAccessException {
    if (offset == -1) {
      field.setInt(target, value); // checks as Field does
      return;
    }
    target(target, int.class);
    TheUnsafe.UNSAFE.putInt(target, offset, value);
  }

  /**
   * As {@link Field#setLong}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setLong(Object target, long value) throws IllegalAccessException {
    if (offset == -1) {
      field.setLong(target, value); // checks as Field does
      return;
    }
    target(target, long.class);
    TheUnsafe.UNSAFE.putLong(target, offset, value);
  }

  /**
   * As {@link Field#setFloat}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setFloat(Object target, float value) throws IllegalAccessException {
    if (offset == -1) {
      field.setFloat(target, value); // checks as Field does
      return;
    }
    target(target, float.class);
    TheUnsafe.UNSAFE.putFloat(target, offset, value);
  }

  /**
   * As {@link Field#setDouble}.
   *
   * @param target the object
   * @param value the value
   * @throws IllegalAccessException from the {@code Field}, from JDK 24 on
   */
  @SuppressWarnings("removal")
  public void setDouble(Object target, double value) throws IllegalAccessException {
    if (offset == -1) {
      field.setDouble(target, value); // checks as Field does
      return;
    }
    target(target, double.class);
    TheUnsafe.UNSAFE.putDouble(target, offset, value);
  }
}
