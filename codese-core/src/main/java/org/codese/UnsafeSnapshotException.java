package org.codese;

import java.io.ObjectStreamException;
import java.util.List;

/**
 * A snapshot's code does something outside the restore grammar (a call of another method, a field
 * read, a static write, an unbounded loop, an exception handler, a class initializer, ...). It was
 * rejected before any of its classes was defined, so none of its code ran. Such a snapshot was not
 * written by Codese: it was crafted or tampered with.
 */
public final class UnsafeSnapshotException extends ObjectStreamException {
  private static final long serialVersionUID = 1L;

  /** What is outside the restore grammar, one violation per element. */
  private final List<String> violations;

  /**
   * Creates the exception; its message lists the first five violations and counts the rest.
   *
   * @param violations what is outside the grammar: class, method and instruction, one per line
   */
  public UnsafeSnapshotException(List<String> violations) {
    super(
        "snapshot rejected, its code is outside the restore grammar (it was not written by"
            + " Codese; do not load it): "
            + String.join("; ", violations.subList(0, Math.min(5, violations.size())))
            + (violations.size() > 5 ? "; and " + (violations.size() - 5) + " more" : ""));
    this.violations = List.copyOf(violations);
  }

  /**
   * Returns everything found in the snapshot's code that is outside the restore grammar.
   *
   * @return every violation found, one line each (class, method and instruction); unmodifiable
   */
  public List<String> violations() {
    return violations;
  }
}
