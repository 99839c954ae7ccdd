package org.codese.cli.it;

import java.io.Serializable;

/** A superclass the end-to-end tests remove from {@link Tagged}'s hierarchy behind its back. */
public class Labelled implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A label. */
  public String label = "labelled";

  /** A number. */
  public int rank = 3;
}
