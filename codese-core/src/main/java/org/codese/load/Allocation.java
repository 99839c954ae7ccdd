package org.codese.load;

import java.lang.reflect.Constructor;
import org.codese.jvm.Jvm;

/**
 * Where generated code of format version 2 creates objects ({@code Grammar.ALLOCATE_*}): {@code
 * table[id] = Allocation.allocate(constants[k])}, in classes hosted in this package only. Format
 * 2's runtime contract names this class, so it keeps its name and method; format 3 and later call
 * {@code org.codese.runtime.Entry.allocate}, which does the same.
 *
 * <p>An allocator constant resolves ({@link Constants}) to the class itself where creating an
 * instance the way {@code ObjectInputStream} does runs no code (the constructor it would run is
 * {@code Object}'s or one that {@code Jvm.hasTrivialConstructor} knows to do nothing), and to the
 * constructor to run otherwise ({@code Externalizable} classes, serialization constructors of other
 * first non-serializable superclasses). The JDK's serialization constructors are generated classes,
 * one per allocated class, which in a fresh JVM cost about a millisecond for the first and a few
 * tenths for each further class; allocating without them costs nothing of the kind.
 *
 * <p>Package-private: generated code reaches object creation without a constructor only here, and
 * only with allocator constants the loader resolved for classes its checks admitted; the primitive
 * itself is {@code Jvm.allocateInstance}, in an internal package.
 */
final class Allocation {
  private Allocation() {}

  /**
   * Creates one object.
   *
   * @param allocator a resolved allocator constant: a {@code Class} or a {@code Constructor}, or
   *     {@code null} for an object the loader does not make (the program check admitted it)
   * @return the new object, or {@code null} for {@code null}
   * @throws ReflectiveOperationException what {@code Constructor.newInstance} throws, notably
   *     {@code InvocationTargetException} for a constructor that threw
   */
  static Object allocate(Object allocator) throws ReflectiveOperationException {
    if (allocator instanceof Class<?> c) {
      return Jvm.allocateInstance(c);
    }
    if (allocator == null) {
      return null; // an object of a class not found that nothing live refers to: not made
    }
    return ((Constructor<?>) allocator).newInstance((Object[]) null);
  }
}
