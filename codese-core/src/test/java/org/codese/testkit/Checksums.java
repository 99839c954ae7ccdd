package org.codese.testkit;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Recomputes a snapshot's checksums after a test changed its bytes, so that the change reaches the
 * checks behind them. Uses only the layout documented in {@code org.codese.format.SnapshotFile}:
 * magic (4), version (2), then sections of tag (1), length (4), CRC-32C of the payload (4) and
 * payload, then a CRC-32C of everything before it.
 */
public final class Checksums {
  private Checksums() {}

  /**
   * Recomputes, in place, the checksums of a snapshot found at {@code [start, end)}: each
   * section's while its length stays inside the snapshot, then the trailer. Damage elsewhere (a
   * lying length, say) is left as it is.
   *
   * @param b the bytes holding the snapshot
   * @param start where the snapshot starts
   * @param end where it ends
   */
  public static void fix(byte[] b, int start, int end) {
    if (end - start < 10) {
      return;
    }
    ByteBuffer buf = ByteBuffer.wrap(b);
    int pos = start + 6;
    int body = end - 4;
    while (pos + 9 <= body) {
      int len = buf.getInt(pos + 1);
      if (len < 0 || pos + 9L + len > body) {
        break;
      }
      CRC32C c = new CRC32C();
      c.update(b, pos + 9, len);
      buf.putInt(pos + 5, (int) c.getValue());
      pos += 9 + len;
    }
    CRC32C c = new CRC32C();
    c.update(b, start, body - start);
    buf.putInt(body, (int) c.getValue());
  }

  /**
   * @param snapshot a snapshot's bytes; not changed
   * @return a copy with its checksums recomputed
   */
  public static byte[] fixed(byte[] snapshot) {
    byte[] b = snapshot.clone();
    fix(b, 0, b.length);
    return b;
  }

  /**
   * Recomputes, in place, the checksums of every snapshot a test changed in place.
   *
   * @param snapshot a snapshot's bytes
   * @return {@code snapshot}
   */
  public static byte[] fixInPlace(byte[] snapshot) {
    fix(snapshot, 0, snapshot.length);
    return snapshot;
  }
}
