package org.codese;

import java.io.ObjectStreamException;

/**
 * A signing key is configured and the snapshot is unsigned, or was signed with another key, or was
 * changed after signing. Nothing of it was loaded.
 */
public final class AuthenticityException extends ObjectStreamException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong and what to do
   */
  public AuthenticityException(String message) {
    super(message);
  }
}
