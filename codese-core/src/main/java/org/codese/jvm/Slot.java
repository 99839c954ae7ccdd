package org.codese.jvm;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * One class of an object's hierarchy as Java serialization sees it: the fields it contributes and
 * its own serialization methods. An object's data is a sequence of slots, superclass first.
 *
 * @param type the declaring class
 * @param fields the serializable fields, in serialization order
 * @param writeObject the class's private {@code writeObject}, or {@code null}
 * @param readObject the class's private {@code readObject}, or {@code null}
 * @param accessible whether every field with a real declaration may be read and written by
 *     reflection (false for classes of modules that are not open, such as {@code java.base})
 * @param direct whether the generated code may set this slot's fields directly: no custom
 *     serialization methods, and every field real and accessible; what {@link #of} computes, kept
 *     because capture asks it for every object
 * @param reader how to read the fields, made once with the slot (capture reads every object's
 *     fields through it)
 */
public record Slot(
    Class<?> type,
    List<SerialField> fields,
    MethodHandle writeObject,
    MethodHandle readObject,
    boolean accessible,
    boolean direct,
    FieldReader reader) {

  /**
   * A slot, with {@link #direct} computed from the other components.
   *
   * @param type the declaring class
   * @param fields the serializable fields, in serialization order
   * @param writeObject the class's private {@code writeObject}, or {@code null}
   * @param readObject the class's private {@code readObject}, or {@code null}
   * @param accessible whether every real field may be read and written by reflection
   * @return the slot
   */
  public static Slot of(
      Class<?> type,
      List<SerialField> fields,
      MethodHandle writeObject,
      MethodHandle readObject,
      boolean accessible) {
    boolean backed = true;
    for (SerialField f : fields) {
      backed &= f.field() != null;
    }
    boolean direct = writeObject == null && readObject == null && accessible && backed;
    return new Slot(
        type,
        fields,
        writeObject,
        readObject,
        accessible,
        direct,
        new FieldReader(fields, !accessible && !Jvm.hasDefaultFieldHandles()));
  }

  /**
   * @return the number of primitive fields; they come first in {@link #fields()}
   */
  public int primitiveCount() {
    return reader.primitives();
  }

  /**
   * @return the names of the serializable fields no declared field backs ({@code
   *     serialPersistentFields} entries without a non-static field of that name and type), which
   *     only {@code putFields} can write; empty for most classes
   */
  public List<String> unbackedFields() {
    List<String> names = null; // capture asks per object: no allocation in the common case
    for (SerialField f : fields) {
      if (f.field() == null) {
        if (names == null) {
          names = new ArrayList<>();
        }
        names.add(f.name());
      }
    }
    return names == null ? List.of() : names;
  }
}
