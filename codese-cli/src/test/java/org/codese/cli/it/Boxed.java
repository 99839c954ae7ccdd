package org.codese.cli.it;

import java.io.Serializable;

/** A class whose field {@code content} the end-to-end tests remove behind a snapshot's back. */
public class Boxed implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What the box holds. */
  public Object content = new Labelled();

  /** A number. */
  public int size = 1;
}
