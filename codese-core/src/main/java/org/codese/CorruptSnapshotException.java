package org.codese;

import java.io.StreamCorruptedException;

/**
 * A snapshot is damaged, truncated or not a snapshot at all. The message names the section and the
 * byte offset where reading failed; for data of another known kind (a Codese object stream where a
 * snapshot was expected or the other way round, JDK serialization data) it says what the data is
 * and what reads it.
 */
public final class CorruptSnapshotException extends StreamCorruptedException {
  private static final long serialVersionUID = 1L;

  /** The section of the snapshot in which the damage was found. */
  private final String section;

  /** The byte offset, from the start of the snapshot, where the damage was found. */
  private final long offset;

  /**
   * Creates the exception; its message names the problem, the section and the byte offset.
   *
   * @param section the section of the snapshot being read, such as {@code header} or {@code code}
   * @param offset the byte offset from the start of the snapshot
   * @param problem what is wrong
   */
  public CorruptSnapshotException(String section, long offset, String problem) {
    super(
        "corrupt snapshot: "
            + problem
            + " (section "
            + section
            + ", byte offset "
            + offset
            + "); the file was damaged or truncated, capture it again");
    this.section = section;
    this.offset = offset;
  }

  /**
   * Creates the exception for intact data of another kind than the reader expects (a Codese object
   * stream given to {@code Codese.load}, JDK serialization data, a snapshot given to {@code
   * CodeseInputStream}); its message says what the data is and what reads it, not that it is
   * damaged.
   *
   * @param section the section being read, such as {@code header}
   * @param offset the byte offset from the start of the data
   * @param what what the data is
   * @param instead what to use instead
   */
  public CorruptSnapshotException(String section, long offset, String what, String instead) {
    super(what + " (section " + section + ", byte offset " + offset + "); " + instead);
    this.section = section;
    this.offset = offset;
  }

  /**
   * Creates the exception with a message as given, for {@link SnapshotContents}, whose messages
   * name where in a file of many segments the damage is.
   *
   * @param message the whole message
   * @param section the section being read
   * @param offset the byte offset from the start of the file
   */
  CorruptSnapshotException(String message, String section, long offset) {
    super(message);
    this.section = section;
    this.offset = offset;
  }

  /**
   * Returns the section of the snapshot that was being read when the damage was found.
   *
   * @return the section in which the damage was found, such as {@code header} or {@code code}
   */
  public String section() {
    return section;
  }

  /**
   * Returns where in the snapshot the damage was found.
   *
   * @return the byte offset, from the start of the snapshot, where the damage was found
   */
  public long offset() {
    return offset;
  }
}
