package org.codese.cli.it;

/** A class that is not Serializable: snapshots holding it load only when it is admitted. */
public final class Plain {
  /** A value. */
  public int id;

  /**
   * @param id a value
   */
  public Plain(int id) {
    this.id = id;
  }
}
