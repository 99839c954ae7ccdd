package org.codese.jvm;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamConstants;
import java.io.StreamCorruptedException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The JDK's own form of a class descriptor, as {@code ObjectOutputStream.writeClassDescriptor}
 * writes it ({@code ObjectStreamClass.writeNonProxy}: the class name, the {@code serialVersionUID},
 * the flags, the fields with their type strings) as the first descriptor of a stream, and its
 * reading back into an {@code ObjectStreamClass} without a local class, as {@code
 * ObjectInputStream.readClassDescriptor} returns it. Object streams (stream format 5) record the
 * descriptors a writer writes in this form unless the writer overrides {@code
 * writeClassDescriptor}, so that a reader's {@code resolveClass} gets the descriptor the JDK's
 * would.
 */
public final class DescriptorForm {
  private static final ClassValue<byte[]> FORMS =
      new ClassValue<>() {
        @Override
        protected byte[] computeValue(Class<?> type) {
          try {
            return write(type);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  /** The bytes before a stream's first descriptor form: header, then {@code TC_CLASSDESC}. */
  private static final int PREFIX = 5;

  private DescriptorForm() {}

  /**
   * The form of {@code type}'s descriptor ({@code ObjectStreamClass.lookupAny}), the same array for
   * every call with the same class: do not change it.
   *
   * @param type a class that is not a dynamic proxy class
   * @return the bytes {@code writeClassDescriptor} writes for it
   * @throws IOException if the JDK cannot describe the class
   */
  public static byte[] of(Class<?> type) throws IOException {
    try {
      return FORMS.get(type);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * The JDK form of a descriptor of a {@code Serializable} class with the given name, {@code
   * serialVersionUID} and fields, as a stream holds it: for class entries of a snapshot, which
   * record no more.
   *
   * @param name the class name
   * @param suid the {@code serialVersionUID}
   * @param fieldNames the fields' names, primitive fields first
   * @param fieldTypes the fields' type descriptors ({@code I}, {@code Ljava/lang/String;})
   * @return the form
   * @throws IOException if a name is too long for a descriptor
   */
  public static byte[] of(String name, long suid, String[] fieldNames, String[] fieldTypes)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF(name);
    out.writeLong(suid);
    out.writeByte(ObjectStreamConstants.SC_SERIALIZABLE);
    out.writeShort(fieldNames.length);
    for (int i = 0; i < fieldNames.length; i++) {
      String t = fieldTypes[i];
      char code = t.isEmpty() ? '?' : t.charAt(0);
      out.writeByte(code);
      out.writeUTF(fieldNames[i]);
      if (code == 'L' || code == '[') {
        out.writeByte(ObjectStreamConstants.TC_STRING);
        out.writeUTF(t);
      }
    }
    return bytes.toByteArray();
  }

  private static byte[] write(Class<?> type) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(ObjectStreamClass.lookupAny(type));
    }
    byte[] all = bytes.toByteArray();
    int n = all.length > PREFIX ? length(all, PREFIX, all.length) : -1;
    if (n < 0 || all[PREFIX - 1] != ObjectStreamConstants.TC_CLASSDESC) {
      throw new StreamCorruptedException(
          "the JDK wrote the descriptor of " + type.getName() + " in a form Codese cannot read");
    }
    return Arrays.copyOfRange(all, PREFIX, PREFIX + n);
  }

  /**
   * The length of the descriptor form that starts at {@code b[from]}, within {@code to}: a name, a
   * {@code serialVersionUID}, flags, and the fields, each with its type string as a string or a
   * reference to one of the form (a later field of the same type).
   *
   * @return the length, or -1 if the bytes are not such a form
   */
  public static int length(byte[] b, int from, int to) {
    int p = utf(b, from, to);
    if (p < 0 || (p += 9) + 2 > to) {
      return -1;
    }
    int fields = ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    p += 2;
    if (fields > Short.MAX_VALUE) {
      return -1;
    }
    for (int i = 0; i < fields; i++) {
      if (p >= to) {
        return -1;
      }
      int code = b[p++];
      p = utf(b, p, to);
      if (p < 0) {
        return -1;
      }
      if (code == 'L' || code == '[') {
        if (p >= to) {
          return -1;
        }
        int tc = b[p++];
        if (tc == ObjectStreamConstants.TC_STRING) {
          p = utf(b, p, to);
        } else if (tc == ObjectStreamConstants.TC_REFERENCE) {
          p = p + 4 <= to ? p + 4 : -1;
        } else {
          return -1;
        }
        if (p < 0) {
          return -1;
        }
      }
    }
    return p - from;
  }

  /** The position after the modified-UTF-8 string at {@code p}, or -1. */
  private static int utf(byte[] b, int p, int to) {
    if (p < 0 || p + 2 > to) {
      return -1;
    }
    int end = p + 2 + (((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF));
    return end <= to ? end : -1;
  }

  /**
   * Reads descriptor forms back as {@code ObjectInputStream.readClassDescriptor} does, with the
   * JDK's own code: each form is handed to one {@code ObjectInputStream}, made on first use, as the
   * next object of its stream (after a reset, so that the form's references to its own type strings
   * hold). One per object stream; not thread-safe.
   */
  public static final class Reader {
    private final Feed feed = new Feed();
    private Parser parser;

    /**
     * @param form a descriptor form
     * @return the descriptor it describes, without a local class
     * @throws IOException as {@code ObjectInputStream} throws it for a malformed form (a {@link
     *     StreamCorruptedException}, an {@code InvalidClassException} for inconsistent flags), or
     *     if a JVM-wide filter rejects it
     */
    public ObjectStreamClass read(byte[] form) throws IOException {
      byte[] framed = new byte[form.length + 4];
      framed[0] = ObjectStreamConstants.TC_RESET;
      framed[1] = ObjectStreamConstants.TC_CLASSDESC;
      System.arraycopy(form, 0, framed, 2, form.length);
      framed[form.length + 2] = ObjectStreamConstants.TC_ENDBLOCKDATA;
      framed[form.length + 3] = ObjectStreamConstants.TC_NULL;
      try {
        if (parser == null) {
          feed.set(
              new byte[] {
                (byte) (ObjectStreamConstants.STREAM_MAGIC >>> 8),
                (byte) ObjectStreamConstants.STREAM_MAGIC,
                0,
                (byte) ObjectStreamConstants.STREAM_VERSION
              });
          parser = new Parser(feed);
        }
        feed.set(framed);
        parser.read = null;
        try {
          parser.readObject();
        } catch (ClassNotFoundException expected) {
          // the parser resolves no class ("null class"); the descriptor is what was read
        }
        if (parser.read == null || feed.pos != feed.end) {
          throw new StreamCorruptedException("malformed class descriptor form");
        }
        return parser.read;
      } catch (IOException | RuntimeException e) {
        parser = null; // its state is unknown: the next form gets a new one
        throw e;
      }
    }
  }

  /** The JDK's reader, keeping the descriptor it read and resolving no class. */
  private static final class Parser extends ObjectInputStream {
    ObjectStreamClass read;

    Parser(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
      ObjectStreamClass d = super.readClassDescriptor();
      read = d;
      return d;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) {
      return null;
    }
  }

  /** An input stream over one array at a time. */
  private static final class Feed extends InputStream {
    private byte[] bytes = new byte[0];
    private int pos;
    private int end;

    void set(byte[] b) {
      bytes = b;
      pos = 0;
      end = b.length;
    }

    @Override
    public int read() {
      return pos < end ? bytes[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (pos >= end) {
        return -1;
      }
      int n = Math.min(len, end - pos);
      System.arraycopy(bytes, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return end - pos;
    }
  }
}
