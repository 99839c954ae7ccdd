package org.codese.testkit;

import org.codese.CorruptSnapshotException;
import org.codese.format.SnapshotFile;

/**
 * Writes a snapshot again in an older format version that holds the same content, with the format's
 * own writer: for tests of the readers of older versions (the sectioned layout of format 8 and
 * before, whose bytes a test can change section by section).
 */
public final class OlderFormats {
  private OlderFormats() {}

  /**
   * @param snapshot a snapshot's bytes
   * @param version the format version to write, whose code and data the snapshot's follow
   * @return the same snapshot in format {@code version}
   */
  public static byte[] rewrite(byte[] snapshot, int version) {
    try {
      return SnapshotEdit.relabel(SnapshotFile.parse(snapshot), version).bytes();
    } catch (CorruptSnapshotException e) {
      throw new IllegalArgumentException("not a snapshot: " + e.getMessage(), e);
    }
  }

  /**
   * @param snapshot a snapshot's bytes
   * @return the same snapshot in format 8 ({@link SnapshotFile#COMPACT_VERSION}), the newest of the
   *     sectioned layout
   */
  public static byte[] sectioned(byte[] snapshot) {
    return rewrite(snapshot, SnapshotFile.COMPACT_VERSION);
  }
}
