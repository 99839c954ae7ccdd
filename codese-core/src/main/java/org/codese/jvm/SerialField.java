package org.codese.jvm;

import java.lang.reflect.Field;
import java.util.Comparator;

/**
 * One serializable field of one class, in the order Java serialization uses (primitives first, then
 * references, each sorted by name).
 *
 * @param name the field name
 * @param type the field type; a primitive class or {@code Object.class}-compatible reference type
 * @param field the reflective field, or {@code null} when a {@code serialPersistentFields} entry
 *     matches no real field (none of that name and exactly that type, the JDK's rule)
 * @param unshared whether the value is written as with {@code writeUnshared}: a {@code
 *     serialPersistentFields} entry made with {@code ObjectStreamField(name, type, true)}
 */
public record SerialField(String name, Class<?> type, Field field, boolean unshared) {
  /**
   * Java serialization's field order: primitives first, then references, each by name (a named
   * class rather than a lambda, whose first use costs a fresh JVM about a millisecond).
   */
  public static final Comparator<SerialField> ORDER = new Order();

  private static final class Order implements Comparator<SerialField> {
    @Override
    public int compare(SerialField a, SerialField b) {
      if (a.primitive() != b.primitive()) {
        return a.primitive() ? -1 : 1;
      }
      return a.name.compareTo(b.name);
    }
  }

  /**
   * A field written as shared, the usual case.
   *
   * @param name the field name
   * @param type the field type
   * @param field the reflective field, or {@code null}
   */
  public SerialField(String name, Class<?> type, Field field) {
    this(name, type, field, false);
  }

  /**
   * @return whether the field holds a primitive value
   */
  public boolean primitive() {
    return type.isPrimitive();
  }

  /**
   * @return the JVM type descriptor of {@link #type()}
   */
  public String descriptor() {
    return Types.descriptor(type);
  }
}
