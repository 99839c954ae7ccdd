package org.codese.testkit;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Recomputes the checksums of a snapshot or of an object stream's segments after a test changed
 * their bytes, so that the change reaches the checks behind them: the one place the tests do this.
 * Uses only the layouts documented in {@code org.codese.format.SnapshotFile} (magic (4), version
 * (2), then sections of tag (1), length (4), CRC-32C of the payload (4) and payload, then a CRC-32C
 * of everything before it; from format 9 on only that last CRC-32C), {@code
 * org.codese.format.StreamSegments} (a compact segment: its bytes, then a CRC-32C of them) and
 * {@code org.codese.load.StreamReader} (a stream: magic (4), version (2), then frames of a {@code
 * u4} word and what it announces).
 */
public final class Checksums {
  /** The first snapshot format without section checksums ({@code SnapshotFile.PACKED_VERSION}). */
  private static final int PACKED_VERSION = 9;

  private Checksums() {}

  /**
   * Recomputes, in place, the checksums of a snapshot found at {@code [start, end)}: each section's
   * while its length stays inside the snapshot, then the trailer. Damage elsewhere (a lying length,
   * say) is left as it is.
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
    if (buf.getShort(start + 4) >= PACKED_VERSION) {
      fixTrailer(b, start, end); // the packed form has no section checksums
      return;
    }
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

  /**
   * Recomputes, in place, the trailer of a snapshot or stream segment at {@code [start, end)}: the
   * CRC-32C of its bytes before the last four, in those four. Section checksums are left alone,
   * which is all a compact stream segment (stream format 3) has.
   *
   * @param b the bytes holding the snapshot or segment
   * @param start where it starts
   * @param end where it ends
   */
  public static void fixTrailer(byte[] b, int start, int end) {
    if (end - start < 4) {
      return;
    }
    CRC32C c = new CRC32C();
    c.update(b, start, end - 4 - start);
    ByteBuffer.wrap(b).putInt(end - 4, (int) c.getValue());
  }

  /**
   * @param stream a Codese object stream's bytes; not changed
   * @return a copy with the checksums of each framed segment recomputed: the trailer of a compact
   *     segment (stream format 3), all of a snapshot's checksums for the older formats, whose
   *     segments are whole snapshots; frames after a length that runs past the end are left alone
   */
  public static byte[] fixedStream(byte[] stream) {
    byte[] b = stream.clone();
    if (b.length < 6) {
      return b;
    }
    ByteBuffer buf = ByteBuffer.wrap(b);
    boolean compact = buf.getShort(4) >= 3;
    int pos = 6;
    while (pos + 4 <= b.length) {
      int len = buf.getInt(pos);
      if (len == Integer.MIN_VALUE) {
        pos += 4; // a reset
        continue;
      }
      if (len == 0 || pos + 4L + Math.abs((long) len) > b.length) {
        break;
      }
      if (len > 0 && compact) {
        fixTrailer(b, pos + 4, pos + 4 + len);
      } else if (len > 0) {
        fix(b, pos + 4, pos + 4 + len);
      }
      pos += 4 + Math.abs(len); // a segment, or primitive data
    }
    return b;
  }
}
