package org.codese.load;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * Where generated code of format version 2 and later creates objects ({@code Grammar.ALLOCATE_*}):
 * {@code table[id] = Allocation.allocate(constants[k])}, in classes hosted in this package only.
 *
 * <p>An allocator constant resolves ({@link Constants}) to the class itself where creating an
 * instance the way {@code ObjectInputStream} does runs no code (the constructor it would run is
 * {@code Object}'s or one that {@code Jvm.hasTrivialConstructor} knows to do nothing), and to the
 * constructor to run otherwise ({@code Externalizable} classes, serialization constructors of other
 * first non-serializable superclasses). The JDK's serialization constructors are generated classes,
 * one per allocated class, which in a fresh JVM cost about a millisecond for the first and a few
 * tenths for each further class; allocating without them costs nothing of the kind.
 *
 * <p>Package-private: creating an object without running a constructor is a capability only the
 * loader hands out, for classes its checks admitted.
 */
final class Allocation {
  private Allocation() {}

  /**
   * Creates one object.
   *
   * @param allocator a resolved allocator constant: a {@code Class} or a {@code Constructor}
   * @return the new object
   * @throws ReflectiveOperationException what {@code Constructor.newInstance} throws, notably
   *     {@code InvocationTargetException} for a constructor that threw
   */
  static Object allocate(Object allocator) throws ReflectiveOperationException {
    if (allocator instanceof Class<?> c) {
      return Bare.UNSAFE.allocateInstance(c);
    }
    return ((Constructor<?>) allocator).newInstance((Object[]) null);
  }

  /**
   * Holds {@code Unsafe}, which costs a cold JVM reflection to reach: loaded only when an allocator
   * resolved to a class, never for snapshots whose allocators are all constructors.
   */
  static final class Bare {
    static final Unsafe UNSAFE = unsafe();

    private Bare() {}

    private static Unsafe unsafe() {
      try {
        Field f = Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (Unsafe) f.get(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("sun.misc.Unsafe is not available", e);
      }
    }
  }
}
