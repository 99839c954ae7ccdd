package org.codese;

import java.io.InvalidClassException;

/**
 * A class a snapshot needs is missing, or its shape changed since capture. {@link #classname} names
 * the class; {@link #fieldName()} names the field that changed, when one did.
 */
public final class ClassMismatchException extends InvalidClassException {
  private static final long serialVersionUID = 1L;

  /** The field that changed shape, or {@code null}. */
  private final String fieldName;

  /**
   * Creates the exception; its message names the class and what differs.
   *
   * @param className the class that is missing or changed
   * @param fieldName the field that changed, or {@code null}
   * @param problem what differs and what to do
   */
  public ClassMismatchException(String className, String fieldName, String problem) {
    super(className, problem);
    this.fieldName = fieldName;
  }

  /**
   * Returns the field whose shape changed since capture, if the mismatch is in one field.
   *
   * @return the field that changed shape, or {@code null} when the class as a whole differs
   */
  public String fieldName() {
    return fieldName;
  }
}
