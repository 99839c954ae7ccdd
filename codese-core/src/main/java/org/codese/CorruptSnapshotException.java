package org.codese;

import java.io.StreamCorruptedException;

/**
 * A snapshot is damaged, truncated or not a snapshot at all. The message names the section and the
 * byte offset where reading failed.
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
