package org.codese.jvm;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * Holds {@code sun.misc.Unsafe}, which a cold JVM reaches by reflection: loaded only by the users
 * that need it ({@link UnsafeFields} and {@code org.codese.runtime.FieldStore} before JDK 24,
 * {@link Jvm#allocateInstance} on every JDK). Public for {@code FieldStore} only; the package is
 * not exported.
 */
public final class TheUnsafe {
  /** The instance. */
  public static final Unsafe UNSAFE = find();

  private TheUnsafe() {}

  private static Unsafe find() {
    try {
      Field f = Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("sun.misc.Unsafe is not available", e);
    }
  }
}
