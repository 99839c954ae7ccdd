package org.codese;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.NotActiveException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.ObjectStreamClass;
import java.io.OptionalDataException;
import java.io.PushbackInputStream;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.codese.jvm.DescriptorForm;
import org.codese.jvm.Jvm;
import org.codese.load.ObjectResolver;
import org.codese.load.StreamReader;
import org.codese.program.ClassDescriptor;

/**
 * A drop-in {@link ObjectInputStream} that reads what a {@link CodeseOutputStream} wrote, by
 * running its code, and reads JDK serialization data as {@code ObjectInputStream} does.
 *
 * <p><b>Codese data.</b> {@code readObject} calls return the objects written, in order and with the
 * same sharing (until the writer's {@code reset()}), and the primitive reads return the data
 * written between them, across as many of the writer's buffers as it spans. Each segment (one per
 * {@code writeObject}) is checked completely (checksums, class fingerprints, the serialization
 * filter) before its code runs. At the end of the data after a complete object or complete
 * primitive data, {@code readObject} and the primitive reads throw {@link EOFException}, {@code
 * read} returns -1, as with the JDK, whether or not the writer closed its stream (a peer that
 * crashed, a log still being appended to: a later call reads what arrived since). Data that ends
 * inside an object or inside the primitive data the writer wrote at once is {@link
 * CorruptSnapshotException}. A primitive read where an object was written, or the reverse, throws
 * {@link EOFException} or {@link java.io.OptionalDataException}, as with the JDK. {@link
 * #available()} never blocks. Like {@code ObjectInputStream}'s handle table, the stream holds every
 * object read since the writer's last {@code reset()}; it also keeps, until then, what the writer's
 * segments sent for later ones to refer to and the classes it checked and defined for them (one set
 * per class and shape, not per object), so that a small object of a class already read costs
 * neither a new hidden class nor a second grammar check. Every segment is still checked against the
 * limits, the filter and the program check before its code runs.
 *
 * <p>Like {@code ObjectInputStream}, it restores by default only classes that are {@code
 * Serializable}, the way Java serialization allocates them; {@link
 * CodeseOptions#withAllowedClasses} admits others. Classes of Codese data are resolved with {@link
 * CodeseOptions#classLoader()} (or the thread's context class loader), not initialised.
 *
 * <p><b>Subclass hooks</b>, for Codese data as for JDK data, as {@code ObjectInputStream} calls
 * them, in the same order and number for the same graph (streams written by this version: stream
 * format 5): {@link #readClassDescriptor} and {@link #resolveClass} for each class descriptor the
 * writer wrote, before anything of the segment that holds it is loaded, checked or initialised and
 * before the serialization filter is asked about the class; inside them the primitive read methods
 * read what the writer's {@link CodeseOutputStream#writeClassDescriptor} and {@link
 * CodeseOutputStream#annotateClass} wrote. Every other class a segment names (streams of earlier
 * versions name classes without descriptors) is resolved through {@code resolveClass} too, with a
 * descriptor made from what the segment records of it, so that an allow-list there sees every
 * class; a {@code resolveClass} that throws stops the read before any class of the segment is
 * initialised. The class it returns is the one the segment's objects get (another loader's copy,
 * for example), under its name. {@link #resolveObject}, once {@link #enableResolveObject} enabled
 * it, for every object read (not for {@code Class} and {@code ObjectStreamClass} objects), after
 * the object's own {@code readObject} and {@code readResolve}, children before the objects that
 * refer to them; its result is what {@code readObject} returns and what the fields and elements
 * that refer to the object get, except those of objects read inside it (a cycle back to it), which
 * keep the object, as with the JDK. {@link #resolveProxyClass} for each dynamic proxy class
 * descriptor (stream format 10), in the writer's order among the class descriptors, reading what
 * {@link CodeseOutputStream#annotateProxyClass} wrote. A filter set with {@link
 * #setObjectInputFilter} applies to the segments read after it; the JDK refuses to set one after an
 * object was read. The filter is asked once per segment, before its code runs: about each class it
 * names, then about the segment as a whole. Its {@link ObjectInputFilter.FilterInfo#streamBytes()}
 * is, as with {@code ObjectInputStream}, a running total: the bytes read from the underlying stream
 * so far, up to the end of the segment (header, frames and primitive data included), so that a
 * {@code maxbytes} limit bounds the stream as a whole; its {@code references} and {@code depth} are
 * the segment's own (the objects it creates, the depth its writer recorded).
 *
 * <p><b>JDK data.</b> A stream that starts with the JDK's magic number ({@code 0xACED}) is read by
 * the JDK's own {@code ObjectInputStream}: the same objects, exceptions and filter checks (the
 * stream's filter, the JVM-wide filter of {@code -Djdk.serialFilter} and the filter factory, as for
 * any {@code ObjectInputStream}). A subclass that overrides {@code resolveClass}, {@code
 * resolveProxyClass}, {@code resolveObject} (with {@link #enableResolveObject}) or {@code
 * readClassDescriptor} sees the calls a subclass of {@code ObjectInputStream} would. The default
 * {@code resolveClass} tries {@link CodeseOptions#classLoader()} first, if set. The options' filter
 * is the stream's filter; their limits and allowed classes do not apply: the data can do what it
 * can do to {@code ObjectInputStream}, so use a filter for untrusted sources. With a signing key in
 * the options, JDK data, which cannot be signed, is refused with {@link AuthenticityException}. A
 * filter set with {@code setObjectInputFilter} after an object was read makes the next {@code
 * readObject} throw {@link IllegalStateException} (the JDK throws it from {@code
 * setObjectInputFilter}); a JVM-wide filter factory sees such a filter a second time, as the
 * current filter of the internal stream's request.
 *
 * <p>Exceptions are the JDK's: what a class's own {@code readObject}, {@code readExternal}, {@code
 * readResolve}, {@code validateObject} or constructor throws reaches the caller of {@link
 * #readObject()} as {@code ObjectInputStream} lets it through (a record constructor's exception as
 * the cause of an {@link java.io.InvalidObjectException}, a throwing constructor as {@link
 * java.io.InvalidClassException} "unable to create instance"); a class that cannot be found is the
 * class loader's {@link ClassNotFoundException}. What only Codese detects is an {@code
 * ObjectStreamException} subclass: {@link CorruptSnapshotException}, {@link
 * UnsafeSnapshotException}, {@link ClassMismatchException}, {@link ClassNotAllowedException}, and
 * {@link RestoreException} for a failure of Codese itself. After an object of Codese data failed to
 * restore, the stream refuses further reads ({@link java.io.StreamCorruptedException}); the JDK
 * goes on after a {@code ClassNotFoundException}.
 *
 * <p>Not thread-safe, like {@code ObjectInputStream}. Where a {@code SecurityManager} is installed
 * (JDK 17), every constructor requires {@code
 * SerializablePermission("enableSubclassImplementation")}, as {@code ObjectInputStream()} does.
 */
public class CodeseInputStream extends ObjectInputStream {
  private final StreamReader reader;
  private final JdkFormatStream jdk;
  private final ClassLoader loader;
  private final byte[] scratch = new byte[8];

  /** The filter this stream had when {@link #jdk}'s was last set to match it. */
  private ObjectInputFilter filterSeen;

  private DataInputStream lines;

  /** What this stream's class overrides of the hooks ({@link Overrides}). */
  private final int overrides;

  /** Whether {@link #enableResolveObject} enabled {@link #resolveObject}. */
  private boolean resolveEnabled;

  /**
   * What the primitive reads read while {@code readClassDescriptor} or {@code resolveClass} runs
   * for a class descriptor of Codese data (its form, then its annotation), else {@code null}.
   */
  private byte[] side;

  private int sidePos;

  /** Reads descriptor forms back as the JDK does; made on first use. */
  private DescriptorForm.Reader forms;

  /**
   * Creates a stream with default options and reads the stream header.
   *
   * @param in the underlying stream
   * @throws EOFException if the stream ends before its header
   * @throws CorruptSnapshotException if the header is neither a Codese stream header nor the JDK's
   *     magic number
   * @throws java.io.StreamCorruptedException if the JDK's magic number is followed by a version
   *     other than 5, as {@code ObjectInputStream} throws it
   * @throws IOException if reading fails
   * @throws SecurityException if a security manager denies {@code
   *     SerializablePermission("enableSubclassImplementation")}
   */
  public CodeseInputStream(InputStream in) throws IOException {
    this(in, CodeseOptions.defaults());
  }

  /**
   * Creates a stream and reads the stream header.
   *
   * @param in the underlying stream; if it does not support {@code mark}, two bytes are read ahead
   *     through a {@link PushbackInputStream}
   * @param options restore settings (allowed classes, filter, limits, class loader, signing key); a
   *     segment that restores a class {@code ObjectInputStream} would refuse, and the options do
   *     not admit, is rejected with {@link ClassNotAllowedException} before any of its code runs
   * @throws EOFException if the stream ends before its header
   * @throws CorruptSnapshotException if the header is neither a Codese stream header nor the JDK's
   *     magic number
   * @throws java.io.StreamCorruptedException if the JDK's magic number is followed by a version
   *     other than 5, as {@code ObjectInputStream} throws it
   * @throws AuthenticityException if the options have a signing key and the stream is JDK data
   * @throws IOException if reading fails
   * @throws SecurityException if a security manager denies {@code
   *     SerializablePermission("enableSubclassImplementation")}
   */
  public CodeseInputStream(InputStream in, CodeseOptions options) throws IOException {
    super();
    Objects.requireNonNull(in, "in");
    this.loader = options.classLoader();
    this.overrides = Overrides.of(getClass());
    InputStream src;
    byte[] first;
    if (in.markSupported()) {
      src = in;
      in.mark(2);
      first = in.readNBytes(2);
      in.reset();
    } else {
      PushbackInputStream p = new PushbackInputStream(in, 2);
      first = p.readNBytes(2);
      p.unread(first);
      src = p;
    }
    if (first.length == 2 && (first[0] & 0xFF) == 0xAC && (first[1] & 0xFF) == 0xED) {
      if (options.signingKey() != null) {
        throw new AuthenticityException(
            "the stream is JDK serialization data (it starts with"
                + " 0xACED), which cannot be signed, and a signing key is configured; convert it"
                + " with 'codese convert' and a signing key, or read it without one");
      }
      this.reader = null;
      this.jdk = new JdkFormatStream(src, this);
    } else {
      this.jdk = null;
      this.reader =
          new StreamReader(
              src,
              loader,
              new Supplier<ObjectInputFilter>() {
                @Override
                public ObjectInputFilter get() {
                  return getObjectInputFilter();
                }
              },
              options.limits(),
              options.signingKey(),
              options.allowList(),
              overrides == 0 ? null : new Hooks());
    }
    if (options.objectInputFilter() != null) {
      setObjectInputFilter(options.objectInputFilter());
      if (jdk != null) {
        jdk.setObjectInputFilter(options.objectInputFilter());
      }
    }
    filterSeen = getObjectInputFilter();
  }

  /**
   * For subclasses that implement the whole stream themselves, as {@code ObjectInputStream()}
   * allows: {@code readObject} calls {@link #readObjectOverride}, which returns {@code null} unless
   * overridden; every other read method of this class that the subclass does not override throws
   * {@link NullPointerException}, as {@code ObjectInputStream}'s do when made this way.
   *
   * @throws IOException never (declared as by {@code ObjectInputStream()})
   * @throws SecurityException if a security manager denies {@code
   *     SerializablePermission("enableSubclassImplementation")}
   */
  protected CodeseInputStream() throws IOException, SecurityException {
    super();
    this.reader = null;
    this.jdk = null;
    this.loader = null;
    this.overrides = 0;
  }

  /** The stream's hooks as its reader of Codese data calls them. */
  private final class Hooks implements StreamReader.Hooks, ObjectResolver {
    @Override
    public boolean resolvesClasses() {
      return (overrides
              & (Overrides.RESOLVE_CLASS
                  | Overrides.READ_CLASS_DESCRIPTOR
                  | Overrides.RESOLVE_PROXY_CLASS))
          != 0;
    }

    @Override
    public void resolveClass(
        ClassDescriptor descriptor, boolean written, Map<String, Class<?>> into)
        throws IOException, ClassNotFoundException {
      if (descriptor.isProxy()) {
        resolveProxy(descriptor, into);
        return;
      }
      ObjectStreamClass desc;
      if (written) {
        side = descriptor.form();
        sidePos = 0;
        try {
          desc = readClassDescriptor();
        } catch (ClassNotFoundException e) {
          // as ObjectInputStream.readNonProxyDesc
          InvalidClassException x = new InvalidClassException("failed to read class descriptor");
          x.initCause(e);
          throw x;
        } finally {
          side = null;
        }
      } else {
        desc = forms().read(descriptor.form());
      }
      if (desc == null) {
        throw new InvalidClassException(
            "readClassDescriptor returned null for a class descriptor of the stream");
      }
      Class<?> c;
      side = descriptor.annotation();
      sidePos = 0;
      try {
        c = CodeseInputStream.this.resolveClass(desc);
      } catch (ClassNotFoundException e) {
        into.put(desc.getName(), null); // not found for the stream: never asked of a loader
        throw e;
      } finally {
        side = null; // what resolveClass left of the annotation is skipped, as by the JDK
      }
      if (c == null) {
        into.put(desc.getName(), null);
        throw new ClassNotFoundException("null class");
      }
      if (!c.getName().equals(desc.getName())) {
        // as ObjectStreamClass.initNonProxy
        throw new InvalidClassException(
            c.getName(),
            "local class name incompatible with stream class name \"" + desc.getName() + "\"");
      }
      into.put(desc.getName(), c);
    }

    /** As {@code ObjectInputStream.readProxyDesc}: {@code resolveProxyClass} with the names. */
    private void resolveProxy(ClassDescriptor descriptor, Map<String, Class<?>> into)
        throws IOException, ClassNotFoundException {
      Class<?> c;
      side = descriptor.annotation();
      sidePos = 0;
      try {
        c =
            CodeseInputStream.this.resolveProxyClass(
                descriptor.interfaces().toArray(new String[0]));
      } finally {
        side = null; // what resolveProxyClass left of the annotation is skipped, as by the JDK
      }
      if (c == null) {
        throw new ClassNotFoundException("null class");
      }
      if (!java.lang.reflect.Proxy.isProxyClass(c)) {
        throw new InvalidClassException("Not a proxy"); // ObjectInputStream's words
      }
      into.put(StreamReader.proxyKey(descriptor.interfaces()), c);
    }

    @Override
    public ObjectResolver resolver() {
      return resolveEnabled && (overrides & Overrides.RESOLVE_OBJECT) != 0 ? this : null;
    }

    @Override
    public Object resolveObject(Object obj) throws IOException {
      return CodeseInputStream.this.resolveObject(obj);
    }
  }

  private DescriptorForm.Reader forms() {
    if (forms == null) {
      forms = new DescriptorForm.Reader();
    }
    return forms;
  }

  /** The bytes left of {@link #side}. */
  private int sideLeft() {
    return side.length - sidePos;
  }

  /**
   * What reading an object throws while a class descriptor's data is read: the JDK reads block data
   * there.
   */
  private OptionalDataException noObjectInDescriptor() {
    OptionalDataException e = Jvm.optionalData(sideLeft() == 0);
    e.length = sideLeft();
    return e;
  }

  private StreamReader codese() {
    if (reader == null) {
      throw new NullPointerException(
          "this CodeseInputStream was made with the protected"
              + " no-argument constructor, which has no underlying stream; the subclass must"
              + " override the methods it calls");
    }
    return reader;
  }

  /** Gives the JDK stream this stream's filter if it was set since the last call. */
  private void syncFilter() {
    ObjectInputFilter f = getObjectInputFilter();
    if (f != filterSeen) {
      filterSeen = f;
      jdk.setObjectInputFilter(f);
    }
  }

  /**
   * @return how many objects the stream holds for later references (for tests)
   */
  int heldObjects() {
    return codese().heldObjects();
  }

  /**
   * @return how many hidden classes the stream defined, and how many class entries and class files
   *     its segment dictionaries hold (for tests)
   */
  int[] codeStatistics() {
    return codese().codeStatistics();
  }

  /**
   * Reads the next object, as {@link ObjectInputStream#readObject()} does.
   *
   * @return the object
   * @throws ClassNotFoundException if a class of the object cannot be found (thrown by the class
   *     loader), or a class's own {@code readObject} or {@code readExternal} threw it
   * @throws java.io.InvalidObjectException if the object refers back to an object read with {@link
   *     #readUnshared}, or a record's canonical constructor threw (the cause)
   * @throws java.io.InvalidClassException if the constructor run to create an instance threw
   *     ("unable to create instance"), the serialization filter rejects a class, or a class changed
   *     ({@link ClassMismatchException}) or is not admitted ({@link ClassNotAllowedException})
   * @throws java.io.OptionalDataException if primitive data is next
   * @throws EOFException at the end of the data
   * @throws CorruptSnapshotException if Codese data is damaged or cut short inside an object
   * @throws IOException what a class's own restore code threw, or another rejection
   */
  @Override
  protected Object readObjectOverride() throws IOException, ClassNotFoundException {
    if (side != null) {
      throw noObjectInDescriptor();
    }
    if (jdk != null) {
      syncFilter();
      return jdk.readObject();
    }
    if (reader == null) {
      return super.readObjectOverride();
    }
    return reader.readObject(false);
  }

  /**
   * Reads the next object as an unshared one, as {@link ObjectInputStream#readUnshared()} does:
   * later reads that refer back to it throw {@link java.io.InvalidObjectException} ("cannot read
   * back reference to unshared object"), unless its {@code readResolve} returned another object,
   * which they then get; an array that {@code readResolve} returned is returned as a copy.
   *
   * @return the object
   * @throws java.io.InvalidObjectException if the object was written before by {@code writeObject}
   *     ("cannot read back reference as unshared"), or refers back to an object read unshared
   * @throws ClassNotFoundException as {@link #readObject()}
   * @throws IOException as {@link #readObject()}
   */
  @Override
  public Object readUnshared() throws IOException, ClassNotFoundException {
    if (side != null) {
      throw noObjectInDescriptor();
    }
    if (jdk != null) {
      syncFilter();
      return jdk.readUnshared();
    }
    return codese().readObject(true);
  }

  /**
   * Resolves the class of a descriptor, as {@link ObjectInputStream#resolveClass} does; called as
   * {@code ObjectInputStream} calls it, for JDK data and for Codese data (see the class comment).
   * For Codese data it loads the class, not initialised, with {@link CodeseOptions#classLoader()},
   * or the thread's context class loader if none is set (primitive types by name); for JDK data it
   * tries {@link CodeseOptions#classLoader()} first, if set, then {@link
   * ObjectInputStream#resolveClass}. A subclass may return another class of the same name (another
   * loader's copy), or refuse the class by throwing ({@link InvalidClassException} for an
   * allow-list): nothing of the segment is loaded then.
   *
   * @param desc the descriptor as the writer wrote it, without a local class
   * @return the class
   * @throws ClassNotFoundException if the class is not found
   * @throws IOException as a subclass throws it
   */
  @Override
  protected Class<?> resolveClass(ObjectStreamClass desc)
      throws IOException, ClassNotFoundException {
    if (reader != null) {
      return reader.resolveByDefault(desc.getName());
    }
    if (loader != null) {
      try {
        return Class.forName(desc.getName(), false, loader);
      } catch (ClassNotFoundException e) {
        // primitive types, and the JDK's own rule, below
      }
    }
    return super.resolveClass(desc);
  }

  /**
   * Returns the dynamic proxy class for the interfaces a stream names, as {@link
   * ObjectInputStream#resolveProxyClass} does; called for JDK data and for Codese data (stream
   * format 10 on) as {@code ObjectInputStream} calls it, once per proxy class descriptor the writer
   * wrote, before anything of the segment that holds it is loaded and before the filter is asked
   * about the interfaces and the proxy class. Inside it the primitive read methods read what the
   * writer's {@link CodeseOutputStream#annotateProxyClass} wrote. For Codese data the default loads
   * the interfaces with {@link CodeseOptions#classLoader()} (or the thread's context class loader)
   * without initialising them and defines the proxy class in the loader of the non-public
   * interfaces, if there are any, else in that loader; for JDK data it is the JDK's method.
   *
   * @param interfaces the interface names the writer wrote
   * @return a proxy class; one that is not is refused with {@link InvalidClassException}
   * @throws ClassNotFoundException if an interface is not found or no proxy class can be made
   * @throws IOException as a subclass throws it
   */
  @Override
  protected Class<?> resolveProxyClass(String[] interfaces)
      throws IOException, ClassNotFoundException {
    if (reader != null) {
      return reader.resolveProxyByDefault(interfaces);
    }
    return super.resolveProxyClass(interfaces);
  }

  /**
   * Returns the object to use instead of {@code obj}, as {@link ObjectInputStream#resolveObject}
   * does; called once {@link #enableResolveObject} enabled it, for JDK data and for Codese data, as
   * {@code ObjectInputStream} calls it (see the class comment).
   *
   * @param obj an object read
   * @return {@code obj}, unless a subclass replaces it
   * @throws IOException as a subclass throws it
   */
  @Override
  protected Object resolveObject(Object obj) throws IOException {
    return super.resolveObject(obj);
  }

  /**
   * Registers a validation to run once the object being read is complete, as {@link
   * ObjectInputStream#registerValidation} does: only while a {@code readObject} of this stream is
   * under way (from a class's own {@code readObject}, on this stream or on the stream that method
   * was given), with the highest priority first and, among equal priorities, the last registered
   * first. A validation registered while a Codese segment is restored runs when that segment's
   * objects are complete, before the {@code readObject} that read it returns.
   *
   * @param obj the validation
   * @param prio its priority
   * @throws NotActiveException if no {@code readObject} of this stream is under way, as before and
   *     after top-level reads and while validations run ("stream inactive")
   * @throws InvalidObjectException if {@code obj} is {@code null}
   */
  @Override
  public void registerValidation(ObjectInputValidation obj, int prio)
      throws NotActiveException, InvalidObjectException {
    if (jdk != null) {
      jdk.registerValidation(obj, prio);
    } else if (reader != null) {
      reader.registerValidation(obj, prio);
    } else {
      super.registerValidation(obj, prio);
    }
  }

  /**
   * Enables {@link #resolveObject}, as {@link ObjectInputStream#enableResolveObject} does (with its
   * {@code SerializablePermission("enableSubstitution")} check under a security manager), for JDK
   * data and for the Codese segments read from the next {@code readObject} on.
   *
   * @param enable whether to call {@code resolveObject}
   * @return the previous setting
   * @throws SecurityException if a security manager denies the permission
   */
  @Override
  protected boolean enableResolveObject(boolean enable) throws SecurityException {
    boolean was = super.enableResolveObject(enable);
    resolveEnabled = enable;
    if (jdk != null) {
      jdk.enableResolve(enable);
    }
    return was;
  }

  /**
   * Reads a class descriptor as {@link ObjectInputStream#readClassDescriptor} does: for JDK data
   * from the stream; for Codese data from what the writer's {@link
   * CodeseOutputStream#writeClassDescriptor} wrote, the JDK's own form unless a subclass wrote
   * another (a subclass that overrides both may read its own form with the primitive read methods).
   *
   * @return the descriptor, without a local class
   * @throws IOException if the descriptor is malformed
   * @throws ClassNotFoundException as a subclass throws it
   */
  @Override
  protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
    if (jdk != null) {
      return jdk.defaultReadClassDescriptor();
    }
    if (side != null) {
      int n = DescriptorForm.length(side, sidePos, side.length);
      if (n < 0) {
        throw new CorruptSnapshotException(
            "class descriptor",
            sidePos,
            "not a class descriptor in the JDK's form; a writer that overrides"
                + " writeClassDescriptor needs a reader that overrides readClassDescriptor");
      }
      byte[] form = java.util.Arrays.copyOfRange(side, sidePos, sidePos + n);
      sidePos += n;
      return forms().read(form);
    }
    return super.readClassDescriptor();
  }

  /** Closes the underlying stream. */
  @Override
  public void close() throws IOException {
    if (jdk != null) {
      jdk.close();
    } else {
      codese().close();
    }
  }

  @Override
  public int read() throws IOException {
    if (side != null) {
      return sidePos < side.length ? side[sidePos++] & 0xFF : -1;
    }
    if (jdk != null) {
      return jdk.read();
    }
    return codese().read(scratch, 0, 1) < 0 ? -1 : scratch[0] & 0xFF;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    if (side != null) {
      Objects.checkFromIndexSize(off, len, buf.length);
      int n = Math.min(len, sideLeft());
      if (n == 0 && len > 0) {
        return -1;
      }
      System.arraycopy(side, sidePos, buf, off, n);
      sidePos += n;
      return n;
    }
    if (jdk != null) {
      return jdk.read(buf, off, len);
    }
    return codese().read(buf, off, len);
  }

  /**
   * @return the bytes of primitive data that can be read without blocking; never blocks
   */
  @Override
  public int available() throws IOException {
    if (side != null) {
      return sideLeft();
    }
    if (jdk != null) {
      return jdk.available();
    }
    return codese().available();
  }

  @Override
  public void readFully(byte[] buf) throws IOException {
    readFully(buf, 0, buf.length);
  }

  @Override
  public void readFully(byte[] buf, int off, int len) throws IOException {
    if (side != null) {
      Objects.checkFromIndexSize(off, len, buf.length);
      if (len > sideLeft()) {
        sidePos = side.length;
        throw new EOFException();
      }
      System.arraycopy(side, sidePos, buf, off, len);
      sidePos += len;
      return;
    }
    if (jdk != null) {
      jdk.readFully(buf, off, len);
    } else {
      codese().readFully(buf, off, len);
    }
  }

  @Override
  public int skipBytes(int len) throws IOException {
    if (side != null) {
      int n = Math.max(0, Math.min(len, sideLeft()));
      sidePos += n;
      return n;
    }
    if (jdk != null) {
      return jdk.skipBytes(len);
    }
    return codese().skipBytes(len);
  }

  private byte[] next(int n) throws IOException {
    if (side != null) {
      readFully(scratch, 0, n);
    } else {
      codese().readFully(scratch, 0, n);
    }
    return scratch;
  }

  @Override
  public boolean readBoolean() throws IOException {
    return jdk != null ? jdk.readBoolean() : next(1)[0] != 0;
  }

  @Override
  public byte readByte() throws IOException {
    return jdk != null ? jdk.readByte() : next(1)[0];
  }

  @Override
  public int readUnsignedByte() throws IOException {
    return jdk != null ? jdk.readUnsignedByte() : next(1)[0] & 0xFF;
  }

  @Override
  public char readChar() throws IOException {
    return jdk != null ? jdk.readChar() : (char) readUnsignedShort();
  }

  @Override
  public short readShort() throws IOException {
    return jdk != null ? jdk.readShort() : (short) readUnsignedShort();
  }

  @Override
  public int readUnsignedShort() throws IOException {
    if (jdk != null) {
      return jdk.readUnsignedShort();
    }
    byte[] b = next(2);
    return ((b[0] & 0xFF) << 8) | (b[1] & 0xFF);
  }

  @Override
  public int readInt() throws IOException {
    if (jdk != null) {
      return jdk.readInt();
    }
    byte[] b = next(4);
    return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
  }

  @Override
  public long readLong() throws IOException {
    if (jdk != null) {
      return jdk.readLong();
    }
    byte[] b = next(8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[i] & 0xFF);
    }
    return v;
  }

  @Override
  public float readFloat() throws IOException {
    return jdk != null ? jdk.readFloat() : Float.intBitsToFloat(readInt());
  }

  @Override
  public double readDouble() throws IOException {
    return jdk != null ? jdk.readDouble() : Double.longBitsToDouble(readLong());
  }

  @Override
  public String readUTF() throws IOException {
    if (jdk != null) {
      return jdk.readUTF();
    }
    if (side == null) {
      codese();
    }
    return DataInputStream.readUTF(this);
  }

  /**
   * Reads a line as {@code ObjectInputStream.readLine} does, through a {@link DataInputStream} kept
   * for the stream's life (a carriage return's lookahead stays in it).
   */
  @Override
  @Deprecated
  @SuppressWarnings("deprecation")
  public String readLine() throws IOException {
    if (jdk != null) {
      return jdk.readLine();
    }
    codese();
    if (lines == null) {
      lines =
          new DataInputStream(
              new InputStream() {
                @Override
                public int read() throws IOException {
                  return CodeseInputStream.this.read();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                  return CodeseInputStream.this.read(b, off, len);
                }
              });
    }
    return lines.readLine();
  }
}
