package org.codese.load;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.StreamCorruptedException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.function.Supplier;
import java.io.ObjectInputFilter;
import org.codese.ClassMismatchException;
import org.codese.CodeseLimits;
import org.codese.CorruptSnapshotException;
import org.codese.format.Signing;
import org.codese.format.SnapshotFile;

/**
 * Reads a Codese object stream: a header, then snapshot segments framed by their length, then a
 * zero length. Every segment is restored into one growing table, so later segments refer to
 * objects of earlier ones exactly as later {@code writeObject} calls share objects with earlier
 * ones.
 */
public final class StreamReader {
  /** The stream magic number, {@code "CDSS"} in ASCII. */
  public static final int STREAM_MAGIC = 0x43445353;
  /** The stream format version. */
  public static final int STREAM_VERSION = 1;

  private final DataInputStream in;
  private final ClassLoader loader;
  private final Supplier<ObjectInputFilter> filter;
  private final CodeseLimits limits;
  private final byte[] signingKey;
  private final AllowList allowed;
  private Object[] table = new Object[1];
  private ReplayStream current;
  /** The current segment while its code has not run: it runs when its first object is read. */
  private SnapshotFile pending;
  private RestoreRun pendingRun;
  /** What failed to restore; the stream cannot go past it. */
  private Throwable failed;
  /** The ids read with {@code readUnshared}, shared by every segment's restore. */
  private final BitSet unshared = new BitSet();
  private boolean ended;
  private long offset;

  /**
   * Reads and checks the stream header.
   *
   * @param in the underlying stream
   * @param loader the class loader for the classes segments name, or {@code null}
   * @param filter gives the stream's current serialization filter when a segment is loaded
   * @param limits bounds on what each segment may create
   * @param signingKey the key every segment must be signed with, or {@code null}
   * @param allowed the classes segments may restore beyond {@code ObjectInputStream}'s surface
   * @throws CorruptSnapshotException if the header is not a Codese stream header
   * @throws IOException if reading fails
   */
  public StreamReader(InputStream in, ClassLoader loader, Supplier<ObjectInputFilter> filter,
      CodeseLimits limits, byte[] signingKey, AllowList allowed) throws IOException {
    this.signingKey = signingKey;
    this.allowed = allowed;
    this.in = new DataInputStream(in);
    this.loader = loader;
    this.filter = filter;
    this.limits = limits;
    int magic;
    int version;
    try {
      magic = this.in.readInt();
      version = this.in.readUnsignedShort();
    } catch (EOFException e) {
      throw new CorruptSnapshotException("stream header", 0, "the stream ends before its header");
    }
    if (magic != STREAM_MAGIC) {
      throw new CorruptSnapshotException("stream header", 0,
          "not a Codese object stream (bad magic number)");
    }
    if (version != STREAM_VERSION) {
      throw new CorruptSnapshotException("stream header", 4, "stream version " + version
          + " is not supported; this library reads version " + STREAM_VERSION);
    }
    offset = 6;
  }

  /**
   * The stream positioned at the next unread item, loading segments as needed.
   *
   * @return the stream, or {@code null} at the end of all data
   * @throws IOException if a segment is damaged or cannot be restored
   */
  public ObjectInputStream stream() throws IOException {
    if (failed != null) {
      throw new StreamCorruptedException("the stream cannot be read past an object that failed"
          + " to restore (" + failed + "); the objects written in the same flush of the"
          + " CodeseOutputStream are lost");
    }
    while (current == null || current.exhausted()) {
      if (ended || !nextSegment()) {
        return null;
      }
    }
    return current;
  }

  /**
   * Reads the next top-level object, running the code of its segment first if this is the
   * segment's first object. Checks and code run only now, as {@code ObjectInputStream} reads
   * nothing of an object before {@code readObject}: primitive data before it stays readable
   * whatever the segment holds.
   *
   * @param unshared whether {@code readUnshared} asks
   * @return the object
   * @throws java.io.EOFException at the end of all data
   * @throws ClassNotFoundException if the segment names a class the loader cannot find, or a
   *     class's own {@code readObject} or {@code readExternal} threw it
   * @throws java.io.InvalidObjectException for a back reference to an object read with {@code
   *     readUnshared}, or {@code readUnshared} of an object written before
   * @throws IOException if the segment is rejected, or a class's own restore code threw one
   */
  public Object readObject(boolean unshared) throws IOException, ClassNotFoundException {
    ObjectInputStream s = stream();
    if (s == null) {
      throw new EOFException("end of Codese stream");
    }
    if (pending != null && current.objectNext()) {
      restorePending();
    }
    return current.readTopLevel(unshared);
  }

  private void restorePending() throws IOException, ClassNotFoundException {
    SnapshotFile file = pending;
    pending = null;
    try {
      LoadedSnapshot loaded;
      try {
        loaded = LoadedSnapshot.load(file, loader, filter, limits, allowed);
      } catch (ClassMismatchException e) {
        if (e.getCause() instanceof ClassNotFoundException c) {
          throw c; // what ObjectInputStream.resolveClass throws, from readObject
        }
        throw e;
      }
      loaded.restoreAsStream(table, pendingRun);
    } catch (IOException | ClassNotFoundException | RuntimeException | Error e) {
      failed = e;
      throw e;
    }
  }

  /**
   * Closes the underlying stream.
   *
   * @throws IOException if closing fails
   */
  public void close() throws IOException {
    in.close();
  }

  private boolean nextSegment() throws IOException {
    int len;
    try {
      len = in.readInt();
    } catch (EOFException e) {
      throw new CorruptSnapshotException("stream", offset, "the stream ends without its end mark;"
          + " was the CodeseOutputStream closed?");
    }
    offset += 4;
    if (len == 0) {
      ended = true;
      return false;
    }
    if (len < 0) {
      throw new CorruptSnapshotException("stream", offset - 4, "negative segment length " + len);
    }
    if (len > limits.maxBytes()) {
      throw new java.io.InvalidObjectException("stream segment of " + len + " bytes at byte "
          + offset + " is over the limit of " + limits.maxBytes()
          + "; raise it with CodeseLimits.withMaxBytes if the stream is trusted");
    }
    byte[] bytes = in.readNBytes(len);
    if (bytes.length != len) {
      throw new CorruptSnapshotException("stream", offset, "segment of " + len
          + " bytes is truncated after " + bytes.length + " bytes");
    }
    bytes = Signing.unwrap(bytes, signingKey);
    SnapshotFile file;
    try {
      file = SnapshotFile.parse(bytes);
    } catch (CorruptSnapshotException e) {
      throw new CorruptSnapshotException("stream segment at byte " + offset + ": " + e.section(),
          offset + e.offset(), e.getMessage());
    }
    offset += len;
    if (file.firstId() != table.length - 1) {
      throw new CorruptSnapshotException("stream", offset, "segment starts at object "
          + file.firstId() + " but " + (table.length - 1) + " objects were read before it");
    }
    table = Arrays.copyOf(table, file.tableSize() + 1);
    pending = file;
    pendingRun = new RestoreRun(unshared);
    current = new ReplayStream(table, file.items(), null, null, pendingRun,
        filter == null ? null : filter.get(), limits.maxArrayLength());
    return true;
  }
}
