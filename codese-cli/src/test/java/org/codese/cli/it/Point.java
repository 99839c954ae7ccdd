package org.codese.cli.it;

import java.io.Serializable;

/** A small class whose shape the end-to-end tests change behind a snapshot's back. */
public final class Point implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Coordinates. */
  public int x;

  /** Coordinates. */
  public int y;

  /** A label. */
  public String label;

  /**
   * @param x x
   * @param y y
   * @param label a label
   */
  public Point(int x, int y, String label) {
    this.x = x;
    this.y = y;
    this.label = label;
  }
}
