package org.codese.load;

import java.io.InvalidClassException;
import java.io.ObjectStreamException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import org.codese.ClassNotAllowedException;
import org.codese.RestoreException;
import org.codese.UnsafeSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;

/**
 * The exceptions of a load or restore that fails, made apart from the classes that throw them so
 * that one that succeeds never loads, parses and verifies this code, nor the verifier the exception
 * classes (each costs a cold load about a quarter of a millisecond): the factories return them as
 * their superclasses, which the callers' verification loads anyway.
 */
final class Failures {
  private Failures() {}

  /**
   * The {@link RestoreException} of a restore that failed with {@code cause}: a class's own restore
   * code threw anything but an {@code IOException} or a {@code VirtualMachineError}, or the restore
   * failed in Codese.
   *
   * @param cause what was thrown
   * @return the exception to throw, typed as its superclass so that the verifier of the caller does
   *     not load its class
   */
  static ObjectStreamException restoreFailed(Throwable cause) {
    return new RestoreException("restore failed: " + cause, cause);
  }

  /**
   * The {@link HookFailure} carrying what a validation threw ({@link RestoreRun#finish}).
   *
   * @param cause what was thrown
   * @return the exception to throw, typed as its superclass so that the verifier of the caller does
   *     not load its class
   */
  static RuntimeException hookFailed(Throwable cause) {
    return new HookFailure(cause);
  }

  /**
   * The {@link UnsafeSnapshotException} of code outside the restore grammar.
   *
   * @param violations what breaks the grammar, where
   * @return the exception to throw, typed as its superclass so that the verifier of the caller does
   *     not load its class
   */
  static ObjectStreamException unsafe(List<String> violations) {
    return new UnsafeSnapshotException(violations);
  }

  /**
   * The {@link ClassNotAllowedException} of a snapshot whose classes the allow-list does not admit
   * ({@link Surface#check}): it names the first class refused and why, and the option that admits
   * every class the snapshot needs.
   *
   * @param allowed the admitted classes
   * @param needed the classes the snapshot needs admitted, in class-table order
   * @param firstClass the first class that is not admitted
   * @param firstReason why {@code ObjectInputStream} would refuse it
   * @return the exception to throw, typed as its superclass so that the verifier of the caller does
   *     not load its class
   */
  static InvalidClassException notAllowed(
      AllowList allowed, List<String> needed, String firstClass, String firstReason) {
    List<String> patterns = allowed.with(needed);
    return new ClassNotAllowedException(
        firstClass,
        firstReason
            + ". If the snapshot comes from"
            + " a trusted source, admit "
            + (patterns.size() - allowed.patterns().size() > 1
                ? "it and the other classes it needs"
                : "it")
            + " with "
            + AllowList.optionsLine(patterns),
        patterns);
  }

  /**
   * What {@code ObjectInputStream} throws when the constructor it runs to create an instance (the
   * no-argument constructor of the first non-serializable superclass, or an {@code Externalizable}
   * class's public one) throws: {@code InvalidClassException(class, "unable to create instance")}
   * with the {@code InvocationTargetException} as cause; an {@code Error} leaves as it is from JDK
   * 24 on, where {@code ObjectStreamClass.newInstance} rethrows it (JDK 17 and 21 wrap it like an
   * exception).
   *
   * @param e what the constructor threw, wrapped by reflection
   * @param file the snapshot whose restore failed
   * @param constants its resolved constants, whose allocators name the classes
   * @return the exception to throw
   * @throws HookFailure carrying an {@code Error} from JDK 24 on, which the restore lets leave as
   *     it is
   */
  static InvalidClassException unableToCreate(
      InvocationTargetException e, SnapshotFile file, Object[] constants) {
    Throwable cause = e.getCause();
    if (cause instanceof Error && Runtime.version().feature() >= 24) {
      throw new HookFailure(cause);
    }
    InvalidClassException x =
        new InvalidClassException(
            instantiated(cause, file, constants), "unable to create instance");
    x.initCause(e);
    return x;
  }

  /**
   * The class whose allocation failed with {@code cause}: the first in the class table whose
   * allocator runs the constructor that threw, the outermost {@code <init>} frame of {@code cause}
   * before reflection (the generated code that called it is not in the stack trace's first frames).
   * The grammar calls constructors only through allocator constants.
   */
  private static String instantiated(Throwable cause, SnapshotFile file, Object[] constants) {
    String thrower = null;
    StackTraceElement[] st = cause == null ? new StackTraceElement[0] : cause.getStackTrace();
    for (StackTraceElement f : st) {
      String c = f.getClassName();
      if (c.startsWith("java.lang.reflect.")
          || c.startsWith("jdk.internal.reflect.")
          || c.startsWith("java.lang.invoke.")
          || c.startsWith("sun.reflect.")) {
        break;
      }
      if (f.getMethodName().equals("<init>")) {
        thrower = c;
      }
    }
    String first = null;
    List<Constant> raw = file.constants();
    for (int k = 0; k < raw.size(); k++) {
      if (raw.get(k) instanceof Constant.Allocator a
          && constants[k] instanceof Constructor<?> ctor) {
        String name = file.classes().get(a.type()).name();
        for (Class<?> c = ctor.getDeclaringClass(); c != null; c = c.getSuperclass()) {
          if (c.getName().equals(thrower)) {
            return name;
          }
        }
        if (first == null && ctor.getDeclaringClass() != Object.class) {
          first = name;
        }
      }
    }
    return first != null ? first : "(unknown class)";
  }
}
