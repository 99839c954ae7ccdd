package org.codese;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.util.Objects;
import org.codese.load.StreamReader;

/**
 * A drop-in {@link ObjectInputStream} that reads what a {@link CodeseOutputStream} wrote, by
 * running its code: {@code readObject} calls return the objects written, in order and with the
 * same sharing, and the primitive reads return the data written between them.
 *
 * <p>Each segment is checked completely (checksums, class fingerprints) before its code runs.
 * Reading past the end of the data throws {@link EOFException}, as the JDK does; a primitive read
 * where an object was written, or the reverse, throws {@link java.io.OptionalDataException} or
 * {@link EOFException}. Not thread-safe, like {@code ObjectInputStream}.
 *
 * <p>Like {@code ObjectInputStream}, it restores by default only classes that are {@code
 * Serializable}, the way Java serialization allocates them; {@link
 * CodeseOptions#withAllowedClasses} admits others.
 *
 * <p>Exceptions are the JDK's: what a class's own {@code readObject}, {@code readExternal}, {@code
 * readResolve}, {@code validateObject} or constructor throws reaches the caller of {@link
 * #readObject()} as {@code ObjectInputStream} lets it through (a record constructor's exception as
 * the cause of an {@link java.io.InvalidObjectException}, a throwing constructor as {@link
 * java.io.InvalidClassException} "unable to create instance"); a class that cannot be found is the
 * class loader's {@link ClassNotFoundException}. What only Codese detects is an {@code
 * ObjectStreamException} subclass: {@link CorruptSnapshotException}, {@link
 * UnsafeSnapshotException}, {@link ClassMismatchException}, {@link ClassNotAllowedException}, and
 * {@link RestoreException} for a failure of Codese itself.
 *
 * <p>The objects a {@link CodeseOutputStream} wrote between two flushes are checked and restored
 * together, when the first of them is read; primitive data before them is readable whatever they
 * hold. So a failure in any of them is thrown by the {@code readObject} that reads the first,
 * their validations run once all of them are restored, and after a failure the stream refuses
 * further reads ({@link java.io.StreamCorruptedException}); the JDK goes on after a {@code
 * ClassNotFoundException}.
 */
public class CodeseInputStream extends ObjectInputStream {
  private final StreamReader reader;

  /**
   * Creates a stream with default options and reads the stream header.
   *
   * @param in the underlying stream
   * @throws CorruptSnapshotException if the header is not a Codese stream header
   * @throws IOException if reading fails
   */
  public CodeseInputStream(InputStream in) throws IOException {
    this(in, CodeseOptions.defaults());
  }

  /**
   * Creates a stream and reads the stream header.
   *
   * @param in the underlying stream
   * @param options restore settings (allowed classes, filter, limits, class loader, signing key);
   *     a segment that restores a class {@code ObjectInputStream} would refuse, and the options
   *     do not admit, is rejected with {@link ClassNotAllowedException} before any of its code
   *     runs
   * @throws CorruptSnapshotException if the header is not a Codese stream header
   * @throws IOException if reading fails
   */
  public CodeseInputStream(InputStream in, CodeseOptions options) throws IOException {
    super();
    this.reader = new StreamReader(Objects.requireNonNull(in, "in"), options.classLoader(),
        this::getObjectInputFilter, options.limits(), options.signingKey(), options.allowList());
    if (options.objectInputFilter() != null) {
      setObjectInputFilter(options.objectInputFilter());
    }
  }

  private ObjectInputStream current() throws IOException {
    ObjectInputStream s = reader.stream();
    if (s == null) {
      throw new EOFException("end of Codese stream");
    }
    return s;
  }

  /**
   * Reads the next object, as {@link ObjectInputStream#readObject()} does.
   *
   * @return the object
   * @throws ClassNotFoundException if a class of the object cannot be found (thrown by the class
   *     loader), or a class's own {@code readObject} or {@code readExternal} threw it
   * @throws java.io.InvalidObjectException if the object refers back to an object read with
   *     {@link #readUnshared}, or a record's canonical constructor threw (the cause)
   * @throws java.io.InvalidClassException if the constructor run to create an instance threw
   *     ("unable to create instance"), the serialization filter rejects a class, or a class
   *     changed ({@link ClassMismatchException}) or is not admitted ({@link
   *     ClassNotAllowedException})
   * @throws java.io.OptionalDataException if primitive data is next
   * @throws EOFException at the end of the data
   * @throws IOException what a class's own restore code threw, or another rejection
   */
  @Override
  protected Object readObjectOverride() throws IOException, ClassNotFoundException {
    return reader.readObject(false);
  }

  /**
   * Reads the next object as an unshared one, as {@link ObjectInputStream#readUnshared()} does:
   * later reads that refer back to it throw {@link java.io.InvalidObjectException} ("cannot read
   * back reference to unshared object"), unless its {@code readResolve} returned another object,
   * which they then get; an array that {@code readResolve} returned is returned as a copy.
   *
   * @return the object
   * @throws java.io.InvalidObjectException if the object was written before by {@code
   *     writeObject} ("cannot read back reference as unshared"), or refers back to an object read
   *     unshared
   * @throws ClassNotFoundException as {@link #readObject()}
   * @throws IOException as {@link #readObject()}
   */
  @Override
  public Object readUnshared() throws IOException, ClassNotFoundException {
    return reader.readObject(true);
  }

  /** Closes the underlying stream. */
  @Override
  public void close() throws IOException {
    reader.close();
  }

  @Override
  public int read() throws IOException {
    ObjectInputStream s = reader.stream();
    return s == null ? -1 : s.read();
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    ObjectInputStream s = reader.stream();
    return s == null ? -1 : s.read(buf, off, len);
  }

  @Override
  public int available() throws IOException {
    ObjectInputStream s = reader.stream();
    return s == null ? 0 : s.available();
  }

  @Override
  public void readFully(byte[] buf) throws IOException {
    readFully(buf, 0, buf.length);
  }

  @Override
  public void readFully(byte[] buf, int off, int len) throws IOException {
    current().readFully(buf, off, len);
  }

  @Override
  public int skipBytes(int len) throws IOException {
    ObjectInputStream s = reader.stream();
    return s == null ? 0 : s.skipBytes(len);
  }

  @Override
  public boolean readBoolean() throws IOException {
    return current().readBoolean();
  }

  @Override
  public byte readByte() throws IOException {
    return current().readByte();
  }

  @Override
  public int readUnsignedByte() throws IOException {
    return current().readUnsignedByte();
  }

  @Override
  public char readChar() throws IOException {
    return current().readChar();
  }

  @Override
  public short readShort() throws IOException {
    return current().readShort();
  }

  @Override
  public int readUnsignedShort() throws IOException {
    return current().readUnsignedShort();
  }

  @Override
  public int readInt() throws IOException {
    return current().readInt();
  }

  @Override
  public long readLong() throws IOException {
    return current().readLong();
  }

  @Override
  public float readFloat() throws IOException {
    return current().readFloat();
  }

  @Override
  public double readDouble() throws IOException {
    return current().readDouble();
  }

  @Override
  public String readUTF() throws IOException {
    return current().readUTF();
  }

  @Override
  @Deprecated
  @SuppressWarnings("deprecation")
  public String readLine() throws IOException {
    ObjectInputStream s = reader.stream();
    return s == null ? null : s.readLine();
  }
}
