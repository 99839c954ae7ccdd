package org.codese;

import java.io.ObjectStreamException;

/**
 * An object in the graph cannot be captured. The message names the path from the root to the object
 * (for example {@code root.children[3].owner}), its class, why it cannot be captured and, where one
 * exists, what would help.
 */
public final class CaptureException extends ObjectStreamException {
  private static final long serialVersionUID = 1L;

  /** The path from the root to the offending object. */
  private final String path;

  /** The name of the offending object's class. */
  private final String className;

  /**
   * Creates the exception; its message names the path, the class and the reason.
   *
   * @param path the path from the root to the offending object
   * @param className the offending object's class name
   * @param reason why it cannot be captured and what to do
   */
  public CaptureException(String path, String className, String reason) {
    super("cannot capture " + path + " (" + className + "): " + reason);
    this.path = path;
    this.className = className;
  }

  /**
   * Returns the path from the root to the object that cannot be captured.
   *
   * @return the path from the root to the offending object, such as {@code root.items[2]}
   */
  public String path() {
    return path;
  }

  /**
   * Returns the class of the object that cannot be captured.
   *
   * @return the name of the offending object's class
   */
  public String className() {
    return className;
  }
}
