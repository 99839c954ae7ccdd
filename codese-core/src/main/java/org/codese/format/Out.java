package org.codese.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Big-endian writer for the snapshot format. Strings are stored as UTF-16 code units.
 *
 * <p>A <em>compact</em> writer (the segments of stream format 3) writes every {@link #u4} and
 * {@link #u8} as a zigzag variable-length integer (7 bits a byte, low bits first) and every string
 * as such a count and one unsigned variable-length integer per UTF-16 unit (one byte for ASCII);
 * {@link In} in compact mode reads them.
 */
final class Out {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream data = new DataOutputStream(bytes);
  private final boolean compact;

  Out() {
    this(false);
  }

  /**
   * @param compact whether integers and strings are written in the compact form
   */
  Out(boolean compact) {
    this.compact = compact;
  }

  boolean compact() {
    return compact;
  }

  /** Writes {@code v} as a zigzag variable-length integer, whatever the mode. */
  Out varint(long v) {
    long z = (v << 1) ^ (v >> 63);
    while ((z & ~0x7FL) != 0) {
      bytes.write((int) ((z & 0x7F) | 0x80));
      z >>>= 7;
    }
    bytes.write((int) z);
    return this;
  }

  /** Writes {@code v} as four big-endian bytes, whatever the mode. */
  Out fixed4(int v) {
    return run(() -> data.writeInt(v));
  }

  Out u1(int v) {
    return run(() -> data.writeByte(v));
  }

  Out u2(int v) {
    return run(() -> data.writeShort(v));
  }

  Out u4(int v) {
    return compact ? varint(v) : fixed4(v);
  }

  Out u8(long v) {
    return compact ? varint(v) : run(() -> data.writeLong(v));
  }

  Out raw(byte[] b) {
    return run(() -> data.write(b));
  }

  Out bytes(byte[] b) {
    u4(b.length);
    return raw(b);
  }

  Out str(String s) {
    u4(s.length());
    if (compact) {
      for (int i = 0; i < s.length(); i++) {
        char u = s.charAt(i);
        // unsigned, 7 bits a byte: one byte for ASCII, at most three
        while (u >= 0x80) {
          bytes.write((u & 0x7F) | 0x80);
          u >>>= 7;
        }
        bytes.write(u);
      }
      return this;
    }
    return run(() -> data.writeChars(s));
  }

  int size() {
    return bytes.size();
  }

  byte[] toByteArray() {
    return bytes.toByteArray();
  }

  private interface IoAction {
    void run() throws IOException;
  }

  private Out run(IoAction a) {
    try {
      a.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }
}
