package org.codese.cli.it;

/** A class whose superclass {@link Labelled} the end-to-end tests remove since capture. */
public class Tagged extends Labelled {
  private static final long serialVersionUID = 1L;

  /** A tag. */
  public int tag = 5;
}
