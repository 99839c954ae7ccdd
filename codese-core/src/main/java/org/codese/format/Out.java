package org.codese.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Big-endian writer for the snapshot format. Strings are stored as UTF-16 code units. */
final class Out {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream data = new DataOutputStream(bytes);

  Out u1(int v) {
    return run(() -> data.writeByte(v));
  }

  Out u2(int v) {
    return run(() -> data.writeShort(v));
  }

  Out u4(int v) {
    return run(() -> data.writeInt(v));
  }

  Out u8(long v) {
    return run(() -> data.writeLong(v));
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
    return run(() -> data.writeChars(s));
  }

  int size() {
    return data.size();
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
