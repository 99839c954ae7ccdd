package org.codese;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.codese.capture.Capturer;
import org.codese.format.Signing;
import org.codese.load.StreamReader;

/**
 * A drop-in {@link ObjectOutputStream} that writes objects as Codese code instead of JDK
 * serialization data; read them back with {@link CodeseInputStream}.
 *
 * <p>As with the JDK, objects are captured when {@code writeObject} is called, object identity is
 * shared across the {@code writeObject} calls of one stream until {@link #reset()}, {@link
 * #writeUnshared} writes a fresh copy that no later write refers back to (an object replaced by
 * {@code writeReplace} is replaced once, and later writes write that replacement anew), and
 * primitive data may be written between objects. Each top-level object records which objects of
 * earlier writes it refers back to, so that {@link CodeseInputStream#readUnshared} can refuse
 * back references as {@code ObjectInputStream} does. What was
 * written is emitted as one snapshot segment on every {@link #flush()} and on {@link #close()}.
 * {@code close()} must be called: it writes the end mark the reader expects.
 *
 * <p>Not supported: {@code replaceObject}/{@code enableReplaceObject} and {@code annotateClass}
 * (Codese writes classes by name). Not thread-safe, like {@code ObjectOutputStream}.
 */
public class CodeseOutputStream extends ObjectOutputStream {
  private final DataOutputStream out;
  private final Capturer capturer;
  private final DataOutputStream block;
  private final byte[] signingKey;
  private boolean closed;

  /**
   * Creates a stream with default options and writes the stream header.
   *
   * @param out the underlying stream
   * @throws IOException if writing the header fails
   */
  public CodeseOutputStream(OutputStream out) throws IOException {
    this(out, CodeseOptions.defaults());
  }

  /**
   * Creates a stream and writes the stream header.
   *
   * @param out the underlying stream
   * @param options capture settings
   * @throws IOException if writing the header fails
   */
  public CodeseOutputStream(OutputStream out, CodeseOptions options) throws IOException {
    super();
    this.out = new DataOutputStream(Objects.requireNonNull(out, "out"));
    this.capturer = new Capturer(Objects.requireNonNull(options, "options"));
    this.signingKey = options.signingKey();
    this.block = new DataOutputStream(new OutputStream() {
      @Override
      public void write(int b) {
        capturer.writeBlock(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        capturer.writeBlock(b, off, len);
      }
    });
    this.out.writeInt(StreamReader.STREAM_MAGIC);
    this.out.writeShort(StreamReader.STREAM_VERSION);
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("stream closed");
    }
  }

  @Override
  protected void writeObjectOverride(Object obj) throws IOException {
    ensureOpen();
    capturer.writeObject(obj, false);
  }

  /**
   * Writes {@code obj} as a new object, as {@link ObjectOutputStream#writeUnshared} does: even if
   * it was written before, and no later {@code writeObject} or {@code writeUnshared} refers back
   * to this copy. The objects it refers to are shared as usual.
   *
   * @param obj the object, or {@code null}
   * @throws CaptureException if an object of the graph cannot be captured
   * @throws IOException if the stream is closed or a class's own {@code writeObject} fails
   */
  @Override
  public void writeUnshared(Object obj) throws IOException {
    ensureOpen();
    capturer.writeObject(obj, true);
  }

  @Override
  public void reset() throws IOException {
    ensureOpen();
    capturer.reset();
  }

  /** Emits everything written since the last flush as one segment, then flushes. */
  @Override
  public void flush() throws IOException {
    ensureOpen();
    if (capturer.hasPending()) {
      byte[] segment = Pipeline.toFile(capturer.drain()).bytes();
      if (signingKey != null) {
        segment = Signing.sign(segment, signingKey);
      }
      out.writeInt(segment.length);
      out.write(segment);
    }
    out.flush();
  }

  /** Emits what is pending, writes the end mark and closes the underlying stream. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    flush();
    out.writeInt(0);
    closed = true;
    out.close();
  }

  @Override
  public void write(int val) throws IOException {
    ensureOpen();
    block.write(val);
  }

  @Override
  public void write(byte[] buf) throws IOException {
    write(buf, 0, buf.length);
  }

  @Override
  public void write(byte[] buf, int off, int len) throws IOException {
    ensureOpen();
    Objects.checkFromIndexSize(off, len, buf.length);
    block.write(buf, off, len);
  }

  @Override
  public void writeBoolean(boolean val) throws IOException {
    ensureOpen();
    block.writeBoolean(val);
  }

  @Override
  public void writeByte(int val) throws IOException {
    ensureOpen();
    block.writeByte(val);
  }

  @Override
  public void writeShort(int val) throws IOException {
    ensureOpen();
    block.writeShort(val);
  }

  @Override
  public void writeChar(int val) throws IOException {
    ensureOpen();
    block.writeChar(val);
  }

  @Override
  public void writeInt(int val) throws IOException {
    ensureOpen();
    block.writeInt(val);
  }

  @Override
  public void writeLong(long val) throws IOException {
    ensureOpen();
    block.writeLong(val);
  }

  @Override
  public void writeFloat(float val) throws IOException {
    ensureOpen();
    block.writeFloat(val);
  }

  @Override
  public void writeDouble(double val) throws IOException {
    ensureOpen();
    block.writeDouble(val);
  }

  @Override
  public void writeBytes(String str) throws IOException {
    ensureOpen();
    block.writeBytes(str);
  }

  @Override
  public void writeChars(String str) throws IOException {
    ensureOpen();
    block.writeChars(str);
  }

  @Override
  public void writeUTF(String str) throws IOException {
    ensureOpen();
    block.writeUTF(str);
  }
}
