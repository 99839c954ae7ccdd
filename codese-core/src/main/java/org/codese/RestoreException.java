package org.codese;

import java.io.ObjectStreamException;

/**
 * Running a snapshot failed, for example because a class's own {@code readObject} or
 * {@code readResolve} threw. No part of the graph is returned. The cause, if any, is attached.
 */
public final class RestoreException extends ObjectStreamException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what failed, in which class, and what to do
   * @param cause the underlying failure, or {@code null}
   */
  public RestoreException(String message, Throwable cause) {
    super(message);
    if (cause != null) {
      initCause(cause);
    }
  }
}
