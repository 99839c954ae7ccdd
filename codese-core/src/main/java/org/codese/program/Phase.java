package org.codese.program;

/**
 * The three phases of a restore program, in the order they run; a generated class belongs to one.
 * The ordinal is the number the snapshot format writes.
 */
public enum Phase {
  /** Creates every object: allocations, strings, boxes, arrays, constants. */
  CREATE,
  /** Sets every field and element. */
  SET,
  /** Deferred reference stores and hooks ({@code readObject}, {@code readResolve}, records). */
  FINISH;

  private static final Phase[] VALUES = values();

  /**
   * @param code a phase's number in the format, as {@link #ordinal()} gives it
   * @return the phase
   * @throws IllegalArgumentException if {@code code} names no phase
   */
  public static Phase of(int code) {
    if (code < 0 || code >= VALUES.length) {
      throw new IllegalArgumentException("no phase " + code);
    }
    return VALUES[code];
  }
}
