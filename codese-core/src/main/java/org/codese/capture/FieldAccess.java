package org.codese.capture;

/**
 * Reads the default fields of one direct slot of an object: the superclass of the field readers
 * {@link FieldAccessors} generates per class, so that capture reads an object's fields with {@code
 * getfield} instructions rather than one reflective call per field.
 *
 * <p>Public only so that a generated subclass, a hidden class in the nest of the slot's class (and
 * so in that class's package), may extend it; the package is not exported.
 */
public abstract class FieldAccess {
  /** For generated subclasses. */
  protected FieldAccess() {}

  /**
   * Reads the slot's fields of {@code obj}, in the slot's field order.
   *
   * @param obj an instance of the slot's class
   * @param prims receives primitive field {@code i}'s raw bits ({@code Types.bits}: an {@code int}
   *     value, a {@code float}'s raw bits and a {@code boolean} as 0 or 1, widened with sign) at
   *     index {@code i}
   * @param refs receives reference field {@code i}, counted from the first reference field, at
   *     index {@code i}
   */
  public abstract void read(Object obj, long[] prims, Object[] refs);
}
