package org.codese;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamConstants;
import java.io.OutputStream;
import java.util.Objects;
import org.codese.capture.Capturer;
import org.codese.capture.StreamHooks;
import org.codese.format.Signing;
import org.codese.format.StreamSegments;
import org.codese.jvm.DescriptorForm;
import org.codese.load.StreamReader;
import org.codese.program.ClassDescriptor;

/**
 * A drop-in {@link ObjectOutputStream} that writes objects as Codese code instead of JDK
 * serialization data; read them back with {@link CodeseInputStream}.
 *
 * <p>As with the JDK, objects are captured when {@code writeObject} is called, object identity is
 * shared across the {@code writeObject} calls of one stream until {@link #reset()}, {@link
 * #writeUnshared} writes a fresh copy that no later write refers back to (an object replaced by
 * {@code writeReplace} is replaced once, and later writes write that replacement anew), and
 * primitive data may be written between objects. Each top-level object records which objects of
 * earlier writes it refers back to, so that {@link CodeseInputStream#readUnshared} can refuse back
 * references as {@code ObjectInputStream} does.
 *
 * <p><b>When bytes reach the underlying stream</b> is as with {@code ObjectOutputStream}, so that a
 * socket or pipe sees the same thing at the same time: the constructor writes the stream header;
 * {@code writeObject} and {@code writeUnshared} write the object (one snapshot segment) before they
 * return; primitive data is held in a buffer of 1024 bytes, as {@code ObjectOutputStream} holds its
 * block data, and written when the buffer is full and at the next {@code writeObject}, {@code
 * writeUnshared}, {@link #reset()}, {@link #drain()}, {@link #flush()} and {@link #close()}; {@code
 * reset()} writes its mark at once. Only {@code flush()} and {@code close()} flush the underlying
 * stream. {@code close()} writes an end mark; a reader that meets the end of the data after a
 * complete object gets {@link java.io.EOFException} with or without it.
 *
 * <p><b>Memory.</b> Like {@code ObjectOutputStream}'s handle table, the stream keeps a reference to
 * every object written since the last {@code reset()} (and to the original of each {@code
 * writeReplace}), so that a later write of it is a reference; a long-lived stream should call
 * {@code reset()} from time to time. It also keeps what its segments sent (class entries, class
 * files, the constants that name classes and fields, the shapes of segments), which grows with the
 * number of distinct classes and shapes, not of objects, and is forgotten at {@code reset()}.
 *
 * <p><b>Size.</b> A segment refers to what earlier segments of the stream sent since the last
 * {@code reset()} (stream format 3): the first object of a class carries the class's entry and
 * generated code (a kilobyte or two), a later object of the same shape only its data, tens of
 * bytes. {@code reset()} makes the next segments send everything again.
 *
 * <p><b>Subclass hooks</b> are called as {@code ObjectOutputStream} calls them, in the same order
 * and number for the same graph: {@link #replaceObject} (once {@link #enableReplaceObject} enabled
 * it) for each object written for the first time, after its {@code writeReplace}; {@link
 * #writeClassDescriptor} and {@link #annotateClass} for each class whose descriptor the JDK would
 * write, when it would write it (before the first object of the class, then for its {@code
 * Serializable} superclasses; once per class until {@link #reset()}). What {@code
 * writeClassDescriptor} and {@code annotateClass} write reaches {@link
 * CodeseInputStream#readClassDescriptor} and {@link CodeseInputStream#resolveClass} of the reader
 * as with the JDK; it must be primitive data: an object written there is refused with {@link
 * java.io.InvalidClassException}. For a dynamic proxy class, {@link #annotateProxyClass} is called
 * instead of {@code writeClassDescriptor} and {@code annotateClass}, as by the JDK, and what it
 * writes reaches {@link CodeseInputStream#resolveProxyClass}.
 *
 * <p><b>Differences from {@code ObjectOutputStream}.</b> A {@code writeObject} that fails (an
 * object that cannot be captured, an exception from a class's own {@code writeObject}) writes
 * nothing and leaves the stream usable, where {@code ObjectOutputStream} writes the exception into
 * the stream for the reader to rethrow as {@link java.io.WriteAbortedException}. {@link
 * #useProtocolVersion} is checked and has no effect. Writing after {@code close()} throws {@link
 * IOException}. Not thread-safe, like {@code ObjectOutputStream}.
 *
 * <p>Where a {@code SecurityManager} is installed (JDK 17), every constructor requires {@code
 * SerializablePermission("enableSubclassImplementation")}, as {@code ObjectOutputStream()} does.
 */
public class CodeseOutputStream extends ObjectOutputStream {
  /** Primitive data held before it is written: {@code ObjectOutputStream}'s block size. */
  static final int MAX_BLOCK = 1024;

  /**
   * Whether this JDK's {@code ObjectOutputStream} writes its buffer as soon as {@code writeBytes}
   * or the ASCII part of {@code writeUTF} fills it, and, in the rest of {@code writeUTF}, before a
   * character that would reach its end (later JDKs), rather than at the next write, splitting
   * characters byte by byte (JDK 17). Asked of the JDK itself, once.
   */
  private static final boolean EAGER_STRINGS = eagerStrings();

  private static boolean eagerStrings() {
    try {
      ByteArrayOutputStream sink = new ByteArrayOutputStream();
      ObjectOutputStream probe = new ObjectOutputStream(sink);
      int start = sink.size();
      probe.writeBytes("a".repeat(MAX_BLOCK - 3));
      probe.writeUTF("\u00e9");
      // JDK 17 splits the character and writes a full block when more comes; later JDKs write
      // the 1023 bytes before it (1 + 4 bytes of block header)
      return sink.size() - start == 5 + MAX_BLOCK - 1;
    } catch (IOException e) {
      return false;
    }
  }

  private final OutputStream out;
  private final Capturer capturer;

  /** What earlier segments sent, so that later ones refer to it (stream format 3). */
  private final StreamSegments.Encoder segments;

  private final byte[] signingKey;

  /** Primitive data not yet written, as a frame: word, then {@link #pos} - 4 bytes. */
  private final byte[] frame;

  private final DataOutputStream data;
  private int pos = 4;
  private boolean closed;

  /** What this stream's class overrides of the hooks ({@link Overrides}). */
  private final int overrides;

  /** Whether {@link #enableReplaceObject} enabled {@link #replaceObject}. */
  private boolean replaceEnabled;

  /** The protocol version {@link #useProtocolVersion} set. */
  private int protocol = ObjectStreamConstants.PROTOCOL_VERSION_2;

  /** Whether a {@code writeObject} of this stream is capturing. */
  private boolean capturing;

  /**
   * Where primitive writes go while {@code writeClassDescriptor} or {@code annotateClass} runs,
   * else {@code null}.
   */
  private DataOutputStream side;

  private ByteArrayOutputStream sideBytes;

  /** The class being described while {@link #side} is set, for messages. */
  private Class<?> describing;

  /**
   * Creates a stream with default options and writes the stream header.
   *
   * @param out the underlying stream
   * @throws IOException if writing the header fails
   * @throws SecurityException if a security manager denies {@code
   *     SerializablePermission("enableSubclassImplementation")}
   */
  public CodeseOutputStream(OutputStream out) throws IOException {
    this(out, CodeseOptions.defaults());
  }

  /**
   * Creates a stream and writes the stream header. Unless {@code options} set {@link
   * CodeseOptions#withRequireSerializable}, the stream requires {@code Serializable} as {@link
   * java.io.ObjectOutputStream} does: {@code writeObject} of an object that is not throws {@link
   * java.io.NotSerializableException}.
   *
   * @param out the underlying stream
   * @param options capture settings
   * @throws IOException if writing the header fails
   * @throws SecurityException if a security manager denies {@code
   *     SerializablePermission("enableSubclassImplementation")}
   */
  public CodeseOutputStream(OutputStream out, CodeseOptions options) throws IOException {
    super();
    this.out = Objects.requireNonNull(out, "out");
    this.overrides = Overrides.of(getClass());
    LinkAhead.startCapture();
    this.capturer =
        new Capturer(Objects.requireNonNull(options, "options").forStream(), new Hooks());
    this.segments = new StreamSegments.Encoder();
    this.signingKey = options.signingKey();
    this.frame = new byte[4 + MAX_BLOCK];
    this.data =
        new DataOutputStream(
            new OutputStream() {
              @Override
              public void write(int b) throws IOException {
                writeData(b);
              }

              @Override
              public void write(byte[] b, int off, int len) throws IOException {
                writeData(b, off, len, true);
              }
            });
    byte[] header = new byte[6];
    putInt(header, 0, StreamReader.STREAM_MAGIC);
    header[4] = (byte) (StreamReader.STREAM_VERSION >>> 8);
    header[5] = (byte) StreamReader.STREAM_VERSION;
    out.write(header);
  }

  /**
   * For subclasses that implement the whole stream themselves, as {@code ObjectOutputStream()}
   * allows: {@code writeObject} calls {@link #writeObjectOverride}, which does nothing unless
   * overridden; every other method of this class that the subclass does not override throws {@link
   * NullPointerException}, as {@code ObjectOutputStream}'s do when made this way.
   *
   * @throws IOException never (declared as by {@code ObjectOutputStream()})
   * @throws SecurityException if a security manager denies {@code
   *     SerializablePermission("enableSubclassImplementation")}
   */
  protected CodeseOutputStream() throws IOException, SecurityException {
    super();
    this.out = null;
    this.overrides = 0;
    this.capturer = null;
    this.segments = null;
    this.signingKey = null;
    this.frame = null;
    this.data = null;
  }

  private void ensureOpen() throws IOException {
    if (out == null) {
      throw new NullPointerException(
          "this CodeseOutputStream was made with the protected"
              + " no-argument constructor, which has no underlying stream; the subclass must"
              + " override the methods it calls");
    }
    if (closed) {
      throw new IOException("stream closed");
    }
  }

  /**
   * Writes {@code obj} as the next object of the stream: captures it and writes it, after the
   * primitive data before it, to the underlying stream.
   *
   * @param obj the object, or {@code null}
   * @throws IOException if capturing or writing fails; a failed capture writes nothing
   */
  @Override
  protected void writeObjectOverride(Object obj) throws IOException {
    if (out == null) {
      super.writeObjectOverride(obj);
      return;
    }
    refuseInDescriptor(obj);
    write(obj, false);
  }

  /**
   * Refuses an object written inside {@code writeClassDescriptor} or {@code annotateClass}: Codese
   * records only the primitive data written there.
   */
  private void refuseInDescriptor(Object obj) throws InvalidClassException {
    if (side != null) {
      throw new InvalidClassException(
          describing.getName(),
          "the stream's annotateClass or writeClassDescriptor wrote an object ("
              + (obj == null ? "null" : obj.getClass().getName())
              + "); Codese records only primitive data there: write names and versions with"
              + " writeUTF or writeInt, and read them the same way in resolveClass");
    }
  }

  /**
   * Writes {@code obj} as a new object, as {@link ObjectOutputStream#writeUnshared} does: even if
   * it was written before, and no later {@code writeObject} or {@code writeUnshared} refers back to
   * this copy. The objects it refers to are shared as usual.
   *
   * @param obj the object, or {@code null}
   * @throws CaptureException if an object of the graph cannot be captured
   * @throws IOException if the stream is closed, a class's own {@code writeObject} fails or writing
   *     fails; a failed capture writes nothing
   */
  @Override
  public void writeUnshared(Object obj) throws IOException {
    refuseInDescriptor(obj);
    write(obj, true);
  }

  private void write(Object obj, boolean unshared) throws IOException {
    ensureOpen();
    if (capturing) {
      throw new IOException(
          "writeObject of a CodeseOutputStream called while the stream captures an object (from"
              + " replaceObject, writeClassDescriptor or annotateClass): Codese writes each object as"
              + " a whole; write it after the enclosing writeObject returns");
    }
    drainData();
    capturing = true;
    try {
      capturer.writeObject(obj, unshared);
    } finally {
      capturing = false;
    }
    byte[] segment = segments.encode(Pipeline.toSegment(capturer.drain()), capturer.descriptors());
    if (signingKey != null) {
      segment = Signing.sign(segment, signingKey);
    }
    byte[] f = new byte[4 + segment.length];
    putInt(f, 0, segment.length);
    System.arraycopy(segment, 0, f, 4, segment.length);
    out.write(f);
  }

  /**
   * Forgets the objects written so far, as {@link ObjectOutputStream#reset} does: objects written
   * from now on are written anew, the stream no longer holds the earlier ones, and the reader
   * forgets them at the same point. Writes the primitive data held and the reset mark.
   *
   * @throws IOException if writing fails
   */
  @Override
  public void reset() throws IOException {
    ensureOpen();
    if (capturing) {
      throw new IOException("stream active"); // as ObjectOutputStream's, inside a writeObject
    }
    drainData();
    writeWord(StreamReader.RESET);
    capturer.reset();
    segments.reset();
  }

  /**
   * Writes the primitive data held to the underlying stream, without flushing it, as {@link
   * ObjectOutputStream#drain} does.
   *
   * @throws IOException if writing fails
   */
  @Override
  protected void drain() throws IOException {
    ensureOpen();
    if (side == null) {
      drainData();
    }
  }

  /**
   * Writes the primitive data held and flushes the underlying stream.
   *
   * @throws IOException if writing or flushing fails
   */
  @Override
  public void flush() throws IOException {
    ensureOpen();
    if (side != null) {
      return; // inside annotateClass: what it wrote is the class's, not the stream's
    }
    drainData();
    out.flush();
  }

  /**
   * Writes the primitive data held and the end mark, then closes the underlying stream. Closing
   * again does nothing.
   *
   * @throws IOException if writing or closing fails
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    ensureOpen();
    drainData();
    writeWord(StreamReader.END);
    out.flush();
    closed = true;
    out.close();
  }

  /**
   * Checks {@code version} as {@link ObjectOutputStream#useProtocolVersion} does; the protocol
   * version has no effect on what Codese writes.
   *
   * @param version {@link ObjectStreamConstants#PROTOCOL_VERSION_1} or {@link
   *     ObjectStreamConstants#PROTOCOL_VERSION_2}
   * @throws IllegalStateException if objects were written since the stream was made or reset
   * @throws IllegalArgumentException if {@code version} is neither
   * @throws IOException if the stream is closed
   */
  @Override
  public void useProtocolVersion(int version) throws IOException {
    ensureOpen();
    if (capturer.knownObjects() != 0) {
      throw new IllegalStateException("stream non-empty");
    }
    if (version != ObjectStreamConstants.PROTOCOL_VERSION_1
        && version != ObjectStreamConstants.PROTOCOL_VERSION_2) {
      throw new IllegalArgumentException("unknown version: " + version);
    }
    protocol = version;
  }

  /**
   * Enables {@link #replaceObject}, as {@link ObjectOutputStream#enableReplaceObject} does (with
   * its {@code SerializablePermission("enableSubstitution")} check under a security manager).
   *
   * @param enable whether to call {@code replaceObject}
   * @return the previous setting
   * @throws SecurityException if a security manager denies the permission
   */
  @Override
  protected boolean enableReplaceObject(boolean enable) throws SecurityException {
    boolean was = super.enableReplaceObject(enable);
    replaceEnabled = enable;
    return was;
  }

  /**
   * Writes the class descriptor of a class the stream writes for the first time, as {@link
   * ObjectOutputStream#writeClassDescriptor} does: by default the JDK's own form (name, {@code
   * serialVersionUID}, flags, fields). A subclass may write another form with the primitive write
   * methods, and read it back in {@link CodeseInputStream#readClassDescriptor}; it is called only
   * when the JDK would call it (not after {@code useProtocolVersion(PROTOCOL_VERSION_1)}).
   *
   * @param desc the descriptor of the class ({@code ObjectStreamClass.lookupAny})
   * @throws IOException if writing fails
   */
  @Override
  protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
    Class<?> c = desc.forClass();
    if (c == null) {
      throw new InvalidClassException(
          desc.getName(),
          "writeClassDescriptor of a descriptor without a local class: Codese writes the JDK form"
              + " of a class's own descriptor (ObjectStreamClass.lookupAny)");
    }
    write(DescriptorForm.of(c));
  }

  /** The writer's hooks as the capturer calls them. */
  private final class Hooks implements StreamHooks {
    @Override
    public boolean replacing() {
      return replaceEnabled && (overrides & Overrides.REPLACE_OBJECT) != 0;
    }

    @Override
    public Object replaceObject(Object obj) throws IOException {
      return CodeseOutputStream.this.replaceObject(obj);
    }

    @Override
    public ClassDescriptor describe(Class<?> c) throws IOException {
      if (java.lang.reflect.Proxy.isProxyClass(c)) {
        return describeProxy(c);
      }
      byte[] form;
      if ((overrides & Overrides.WRITE_CLASS_DESCRIPTOR) == 0
          || protocol == ObjectStreamConstants.PROTOCOL_VERSION_1) {
        form = DescriptorForm.of(c);
      } else {
        startSide(c);
        try {
          writeClassDescriptor(ObjectStreamClass.lookupAny(c));
        } finally {
          form = endSide();
        }
      }
      byte[] annotation = NOTHING;
      if ((overrides & Overrides.ANNOTATE_CLASS) != 0) {
        startSide(c);
        try {
          annotateClass(c);
        } finally {
          annotation = endSide();
        }
      }
      return new ClassDescriptor(form, annotation);
    }
  }

  /**
   * The descriptor of a dynamic proxy class, as {@code ObjectOutputStream.writeProxyDesc} writes
   * it: the interface names, then what {@code annotateProxyClass} writes (no {@code
   * writeClassDescriptor}).
   */
  private ClassDescriptor describeProxy(Class<?> c) throws IOException {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (Class<?> i : c.getInterfaces()) {
      names.add(i.getName());
    }
    byte[] annotation = NOTHING;
    if ((overrides & Overrides.ANNOTATE_PROXY_CLASS) != 0) {
      startSide(c);
      try {
        annotateProxyClass(c);
      } finally {
        annotation = endSide();
      }
    }
    return ClassDescriptor.proxy(names, annotation);
  }

  private static final byte[] NOTHING = new byte[0];

  private void startSide(Class<?> c) {
    sideBytes = new ByteArrayOutputStream();
    side = new DataOutputStream(sideBytes);
    describing = c;
  }

  private byte[] endSide() {
    byte[] b = sideBytes.toByteArray();
    side = null;
    sideBytes = null;
    describing = null;
    return b;
  }

  /**
   * @return how many objects the stream holds for later references (for tests)
   */
  int heldObjects() {
    return capturer.knownObjects();
  }

  /** Writes one frame word (a length, or a reset or end mark) to the underlying stream. */
  private void writeWord(int v) throws IOException {
    byte[] word = new byte[4];
    putInt(word, 0, v);
    out.write(word);
  }

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  /** Writes the primitive data held as one frame, as {@code ObjectOutputStream} drains a block. */
  private void drainData() throws IOException {
    if (pos == 4) {
      return;
    }
    putInt(frame, 0, 4 - pos);
    out.write(frame, 0, pos);
    pos = 4;
  }

  private void writeData(int b) throws IOException {
    if (pos >= frame.length) {
      drainData();
    }
    frame[pos++] = (byte) b;
  }

  /**
   * Buffers primitive data as {@code ObjectOutputStream}'s block data: a full buffer is written
   * before more data is added, and without {@code copy} whole blocks are written directly when the
   * buffer is empty.
   */
  private void writeData(byte[] b, int off, int len, boolean copy) throws IOException {
    while (len > 0) {
      if (pos >= frame.length) {
        drainData();
      }
      if (len >= MAX_BLOCK && !copy && pos == 4) {
        writeWord(-MAX_BLOCK);
        out.write(b, off, MAX_BLOCK);
        off += MAX_BLOCK;
        len -= MAX_BLOCK;
      } else {
        int n = Math.min(len, frame.length - pos);
        System.arraycopy(b, off, frame, pos, n);
        pos += n;
        off += n;
        len -= n;
      }
    }
  }

  @Override
  public void write(int val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.write(val);
      return;
    }
    writeData(val);
  }

  @Override
  public void write(byte[] buf) throws IOException {
    write(buf, 0, buf.length);
  }

  @Override
  public void write(byte[] buf, int off, int len) throws IOException {
    ensureOpen();
    if (side != null) {
      side.write(buf, off, len);
      return;
    }
    Objects.checkFromIndexSize(off, len, buf.length);
    writeData(buf, off, len, false);
  }

  @Override
  public void writeBoolean(boolean val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeBoolean(val);
      return;
    }
    data.writeBoolean(val);
  }

  @Override
  public void writeByte(int val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeByte(val);
      return;
    }
    data.writeByte(val);
  }

  @Override
  public void writeShort(int val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeShort(val);
      return;
    }
    data.writeShort(val);
  }

  @Override
  public void writeChar(int val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeChar(val);
      return;
    }
    data.writeChar(val);
  }

  @Override
  public void writeInt(int val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeInt(val);
      return;
    }
    data.writeInt(val);
  }

  @Override
  public void writeLong(long val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeLong(val);
      return;
    }
    data.writeLong(val);
  }

  @Override
  public void writeFloat(float val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeFloat(val);
      return;
    }
    data.writeFloat(val);
  }

  @Override
  public void writeDouble(double val) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeDouble(val);
      return;
    }
    data.writeDouble(val);
  }

  @Override
  public void writeBytes(String str) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeBytes(str);
      return;
    }
    if (EAGER_STRINGS) {
      for (int i = 0; i < str.length(); i++) {
        writeEager(str.charAt(i));
      }
    } else {
      data.writeBytes(str);
    }
  }

  /** Buffers a byte and writes a full buffer at once, as later JDKs' {@code writeBytes} does. */
  private void writeEager(int b) throws IOException {
    writeData(b);
    if (pos == frame.length) {
      drainData();
    }
  }

  @Override
  public void writeChars(String str) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeChars(str);
      return;
    }
    data.writeChars(str);
  }

  @Override
  public void writeUTF(String str) throws IOException {
    ensureOpen();
    if (side != null) {
      side.writeUTF(str);
      return;
    }
    if (!EAGER_STRINGS) {
      data.writeUTF(str);
      return;
    }
    long utflen = 0;
    for (int i = 0; i < str.length(); i++) {
      char c = str.charAt(i);
      utflen += c != 0 && c < 0x80 ? 1 : c >= 0x800 ? 3 : 2;
    }
    if (utflen > 0xFFFF) {
      throw new java.io.UTFDataFormatException("encoded string too long: " + utflen + " bytes");
    }
    data.writeShort((int) utflen);
    int i = 0;
    while (i < str.length() && str.charAt(i) != 0 && str.charAt(i) < 0x80) {
      writeEager(str.charAt(i++));
    }
    for (; i < str.length(); i++) {
      char c = str.charAt(i);
      int size = c != 0 && c < 0x80 ? 1 : c >= 0x800 ? 3 : 2;
      if (pos - 4 + size >= MAX_BLOCK) {
        drainData();
      }
      if (size == 1) {
        writeData(c);
      } else if (size == 2) {
        writeData(0xC0 | ((c >> 6) & 0x1F));
        writeData(0x80 | (c & 0x3F));
      } else {
        writeData(0xE0 | ((c >> 12) & 0x0F));
        writeData(0x80 | ((c >> 6) & 0x3F));
        writeData(0x80 | (c & 0x3F));
      }
    }
  }
}
