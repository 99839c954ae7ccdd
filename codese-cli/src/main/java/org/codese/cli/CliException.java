package org.codese.cli;

/**
 * A failure the command reports as one line, with its exit code: {@link Main#FAILED} for a failed
 * check or operation. The message names the file and says what to do.
 */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliException(String message) {
    this(message, null);
  }

  CliException(String message, Throwable cause) {
    super(message, cause);
    this.exitCode = Main.FAILED;
  }

  int exitCode() {
    return exitCode;
  }
}
