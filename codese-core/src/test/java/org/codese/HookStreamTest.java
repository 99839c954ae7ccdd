package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The stream a class's own {@code readObject} reads on restore answers every read the way {@code
 * ObjectInputStream} answers it for the same {@code writeObject}: values, end of data, lines,
 * skips, partial reads, and the refusal of a null validation.
 */
class HookStreamTest {
  /** Writes one of everything and reads it back with every read method, recording the answers. */
  static final class Everything implements Serializable {
    private static final long serialVersionUID = 1L;
    int kept = 3;
    transient String read;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeBoolean(true);
      out.writeBoolean(false);
      out.writeByte(-2);
      out.writeByte(200);
      out.writeChar('\u503c');
      out.writeShort(-3);
      out.writeShort(65000);
      out.writeInt(-4);
      out.writeLong(5L << 40);
      out.writeFloat(1.5f);
      out.writeDouble(-2.25);
      out.writeUTF("h\u00e9llo \u503c");
      out.writeBytes("one\r\ntw\0o\nthree");
      out.writeByte('\n');
      out.write(new byte[] {1, 2, 3, 4, 5, 6, 7});
      out.writeObject("between");
      out.writeInt(99);
      out.writeBytes("last");
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      StringBuilder b = new StringBuilder();
      b.append(in.readBoolean())
          .append(' ')
          .append(in.readBoolean())
          .append(' ')
          .append(in.readByte())
          .append(' ')
          .append(in.readUnsignedByte())
          .append(' ')
          .append((int) in.readChar())
          .append(' ')
          .append(in.readShort())
          .append(' ')
          .append(in.readUnsignedShort())
          .append(' ')
          .append(in.readInt())
          .append(' ')
          .append(in.readLong())
          .append(' ')
          .append(in.readFloat())
          .append(' ')
          .append(in.readDouble())
          .append(' ')
          .append(in.readUTF())
          .append(" |");
      @SuppressWarnings("deprecation")
      String lines = in.readLine() + "|" + in.readLine() + "|" + in.readLine();
      b.append(lines)
          .append("| ")
          .append(in.available() > 0)
          .append(' ')
          .append(in.skipBytes(2))
          .append(' ');
      byte[] two = new byte[2];
      in.readFully(two);
      byte[] three = new byte[5];
      b.append(Arrays.toString(two))
          .append(' ')
          .append(in.read(three, 1, 4))
          .append(' ')
          .append(Arrays.toString(three))
          .append(' ')
          .append(in.read(three, 0, 0))
          .append(' ')
          .append(in.read())
          .append(' ')
          .append(in.skipBytes(3))
          .append(' ')
          .append(in.readObject())
          .append(' ')
          .append(in.readInt())
          .append(' ');
      in.readFully(new byte[2]);
      @SuppressWarnings("deprecation")
      String tail = in.readLine();
      b.append(tail).append(' ');
      @SuppressWarnings("deprecation")
      String none = in.readLine();
      b.append(none).append(' ').append(in.read()).append(' ').append(in.available());
      try {
        in.registerValidation(null, 0);
        b.append(" validation accepted");
      } catch (java.io.InvalidObjectException e) {
        b.append(" null validation refused");
      }
      read = b.toString();
    }
  }

  @Test
  void everyReadAnswersAsObjectInputStreamDoes() throws Exception {
    Everything original = new Everything();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(original);
    }
    Everything jdk;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      jdk = (Everything) in.readObject();
    }
    Everything codese = (Everything) Codese.fromBytes(Codese.toBytes(original));
    assertTrue(jdk.read.startsWith("true false -2 200 " + 0x503c + " -3 65000 -4 "), jdk.read);
    assertTrue(jdk.read.endsWith("null validation refused"), jdk.read);
    assertEquals(jdk.read, codese.read);
    assertEquals(3, codese.kept);
  }
}
