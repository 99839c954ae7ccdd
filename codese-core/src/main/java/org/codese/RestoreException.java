package org.codese;

import java.io.ObjectStreamException;

/**
 * Running a snapshot failed. From {@link Codese#fromBytes}, {@link Codese#read} and {@link
 * Snapshot#restore}: a class's own {@code readObject}, {@code readExternal}, {@code readResolve} or
 * {@code validateObject} threw something that is not an {@code IOException} (a {@code
 * RuntimeException}, an {@code Error}, a {@code ClassNotFoundException}: the cause, exactly what
 * {@code ObjectInputStream} would have thrown), or restoring failed in Codese. A {@code
 * VirtualMachineError} ({@code OutOfMemoryError}, {@code StackOverflowError}) is never wrapped: it
 * leaves as it is, as from {@code ObjectInputStream}. {@link CodeseInputStream} throws the cause
 * itself, as {@code ObjectInputStream} does, and this exception only for a failure in Codese. No
 * part of the graph is returned.
 */
public final class RestoreException extends ObjectStreamException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception with the failure that caused it.
   *
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
