package org.codese.verify;

/** Default limits on what a snapshot may ask the loader to create. */
public final class Limits {
  /** The default longest array a snapshot may create: 2^27 elements. */
  public static final int DEFAULT_MAX_ARRAY_LENGTH = 1 << 27;

  private Limits() {}
}
