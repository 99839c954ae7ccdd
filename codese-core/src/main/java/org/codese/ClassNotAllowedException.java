package org.codese;

import java.io.InvalidClassException;
import java.util.List;

/**
 * A snapshot would instantiate or write a class that {@code ObjectInputStream} would refuse (one
 * that is not {@code Serializable}, or that it would not allocate the way the snapshot does), and
 * the options do not admit it. Thrown while the snapshot is loaded, before any class it names is
 * initialised and before any of its code runs.
 *
 * <p>{@link #classname} names the first such class; {@link #classesToAllow()} gives the patterns
 * that admit every class the snapshot needs, for {@link CodeseOptions#withAllowedClasses}. Admit
 * them only for snapshots from a trusted source.
 */
public final class ClassNotAllowedException extends InvalidClassException {
  private static final long serialVersionUID = 1L;

  /** The patterns that would admit the snapshot; not serialized with the exception. */
  private final transient List<String> classesToAllow;

  /**
   * Creates the exception; its message names the class and why it is refused.
   *
   * @param className the first class not admitted
   * @param reason why {@code ObjectInputStream} would refuse it, and the option that admits it
   * @param classesToAllow the allowed-class patterns that admit every class the snapshot needs
   */
  public ClassNotAllowedException(String className, String reason, List<String> classesToAllow) {
    super(className, reason);
    this.classesToAllow = List.copyOf(classesToAllow);
  }

  /**
   * Returns the allowed-class patterns that would admit every class the snapshot needs.
   *
   * @return the allowed-class patterns that admit the snapshot (those already given, then the
   *     classes it needs beyond them), for {@link CodeseOptions#withAllowedClasses}; empty after
   *     the exception was deserialized
   */
  public List<String> classesToAllow() {
    return classesToAllow == null ? List.of() : classesToAllow;
  }
}
