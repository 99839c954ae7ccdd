package org.codese.testkit;

import java.io.Serializable;

/**
 * A small serializable object with a primitive and a reference, shared by the conformance tests:
 * {@code toString} is {@code "Box" + v}, so that lists of restored boxes compare as text.
 */
public final class Box implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A value that tells boxes apart. */
  public int v;

  /** Another object, or {@code null}. */
  public Object ref;

  /**
   * @param v the box's value
   */
  public Box(int v) {
    this.v = v;
  }

  @Override
  public String toString() {
    return "Box" + v;
  }
}
