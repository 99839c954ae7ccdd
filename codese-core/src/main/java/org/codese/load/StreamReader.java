package org.codese.load;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidObjectException;
import java.io.NotActiveException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputValidation;
import java.io.OptionalDataException;
import java.io.StreamCorruptedException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.codese.ClassMismatchException;
import org.codese.CodeseLimits;
import org.codese.CorruptSnapshotException;
import org.codese.format.Compression;
import org.codese.format.Signing;
import org.codese.format.SnapshotFile;
import org.codese.format.StreamSegments;
import org.codese.jvm.DescriptorForm;
import org.codese.jvm.Jvm;
import org.codese.jvm.Types;
import org.codese.program.ClassDescriptor;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;

/**
 * Reads a Codese object stream: a header, then frames, each a {@code u4} word and what it
 * announces: a positive word is the length of a snapshot segment that follows; a negative one,
 * other than {@link #RESET}, is minus the length of the primitive data that follows; {@link #RESET}
 * makes the reader forget the objects read so far; {@link #END} is the end mark written by {@code
 * close()}. Every segment is restored into one growing table, so later segments refer to objects of
 * earlier ones exactly as later {@code writeObject} calls share objects with earlier ones, until a
 * reset.
 *
 * <p>The end of the underlying data at a frame boundary is the end of the stream, as for {@code
 * ObjectInputStream}, whether or not the end mark was written; the end of the data inside a frame
 * is a {@link CorruptSnapshotException}. Frames are read only when the reader needs them; {@link
 * #available()} never blocks.
 */
public final class StreamReader {
  /** The stream magic number, {@code "CDSS"} in ASCII. */
  public static final int STREAM_MAGIC = SnapshotFile.STREAM_MAGIC;

  /**
   * The stream format version written: 2 adds data and reset frames to version 1; 3 writes segments
   * in the compact form of {@link StreamSegments}, which refer to the class entries and class files
   * of earlier segments; 4 changes only the code of compact segments, which follows snapshot format
   * version 2 ({@code Grammar.ALLOCATE_VERSION}) where version 3's follows version 1; 5 adds to
   * segments the class descriptors the writer wrote ({@link ClassDescriptor}, for the reader's
   * {@code resolveClass}) and numbers a segment's objects in the order the JDK's reader completes
   * them (for its {@code resolveObject}); 6 changes only the code of compact segments, which
   * follows snapshot format version 3 ({@code RuntimeContract.RUNTIME_VERSION}); 7 only the code
   * and data of compact segments, which follow snapshot format version 4 ({@code
   * Grammar.FILL_VERSION}: JDK collections filled through their public API); 8 only the code and
   * data of compact segments, which follow snapshot format version 5 ({@code
   * Grammar.VALUE_VERSION}: dates, times and UUIDs made from data); 9 only the constants of compact
   * segments, which follow snapshot format version 6 ({@code Grammar.GLOBAL_VERSION}: global
   * references); 10 only the class tables of segments, which follow snapshot format version 7
   * ({@code Grammar.PROXY_VERSION}: dynamic proxy classes), and the class descriptors, which may be
   * those of proxy classes; 11 only the code of compact segments, which follows snapshot format
   * version 8 ({@code Grammar.COLLECTION_VERSION}: collections made through their own entry); 12
   * only the code of compact segments, which follows snapshot format version 10 ({@code
   * Grammar.STORE_VERSION}: field stores through {@code FieldStore}).
   */
  public static final int STREAM_VERSION = 12;

  /** The first stream version whose compact segments hold code of snapshot format version 2. */
  private static final int ALLOCATING_STREAM_VERSION = 4;

  /** The first stream version whose compact segments hold code of snapshot format version 3. */
  private static final int RUNTIME_STREAM_VERSION = 6;

  /** The first stream version whose compact segments hold code of snapshot format version 4. */
  private static final int FILL_STREAM_VERSION = 7;

  /** The first stream version whose compact segments hold code of snapshot format version 5. */
  private static final int VALUE_STREAM_VERSION = 8;

  /** The first stream version whose compact segments hold code of snapshot format version 6. */
  private static final int GLOBAL_STREAM_VERSION = 9;

  /** The first stream version whose segments hold snapshot format version 7: proxy classes. */
  public static final int PROXY_STREAM_VERSION = 10;

  /** The first stream version whose compact segments hold code of snapshot format version 8. */
  private static final int COLLECTION_STREAM_VERSION = 11;

  /** The first stream version whose segments' code stores fields through {@code FieldStore}. */
  private static final int STORE_STREAM_VERSION = 12;

  /**
   * The first stream version whose segments carry class descriptors and number their objects in
   * completion order.
   */
  public static final int DESCRIBING_STREAM_VERSION = 5;

  /**
   * The subclass hooks of the stream that reads: its {@code resolveClass} (with {@code
   * readClassDescriptor}) and {@code resolveObject}, which a reader calls for Codese data as {@code
   * ObjectInputStream} calls them for JDK data.
   */
  public interface Hooks {
    /**
     * @return whether the stream overrides {@code resolveClass} or {@code readClassDescriptor}:
     *     then every class of a segment is resolved through {@link #resolveClass} before anything
     *     of the segment is loaded
     */
    boolean resolvesClasses();

    /**
     * Resolves one class as {@code ObjectInputStream.readNonProxyDesc} does (for a proxy class's
     * descriptor, as {@code readProxyDesc} does: calls {@code resolveProxyClass} with the interface
     * names, where the annotation can be read, and puts the class under {@code ProxyClasses#key}):
     * reads the descriptor (with {@code readClassDescriptor} if the writer wrote it, else from the
     * JDK form given), calls {@code resolveClass} with it, where the annotation can be read, and
     * puts the class under the descriptor's name.
     *
     * @param descriptor the descriptor's form and annotation
     * @param written whether the writer wrote it; if not, {@code form} is the JDK form made from a
     *     class entry no descriptor described, and there is no annotation
     * @param into the classes resolved so far, by name
     * @throws ClassNotFoundException as {@code resolveClass} throws it, or if it returns {@code
     *     null}
     * @throws IOException as the hooks throw it, or if the class has another name
     */
    void resolveClass(ClassDescriptor descriptor, boolean written, Map<String, Class<?>> into)
        throws IOException, ClassNotFoundException;

    /**
     * @return what to call for each object of the next segment, or {@code null} if {@code
     *     resolveObject} is not enabled or not overridden
     */
    ObjectResolver resolver();
  }

  /** The oldest stream format version read: segments and the end mark only. */
  public static final int OLDEST_VERSION = 1;

  /** The frame word of the end mark. */
  public static final int END = 0;

  /** The frame word of a reset. */
  public static final int RESET = Integer.MIN_VALUE;

  private static final int INITIAL_TABLE = 16;

  private final InputStream in;
  private final ClassLoader loader;
  private final Supplier<ObjectInputFilter> filter;
  private final CodeseLimits limits;
  private final byte[] signingKey;
  private final AllowList allowed;
  private final int version;

  /** The stream's hooks, or {@code null} if it overrides none. */
  private final Hooks hooks;

  /** The classes the stream's {@code resolveClass} gave, by name, since the last reset. */
  private final Map<String, Class<?>> resolvedClasses = new HashMap<>();

  /**
   * The exception the hooks threw (or made for a {@code null}) for each class of {@link
   * #resolvedClasses} they did not find: an object of such a class is lost to it, as {@code
   * ObjectInputStream} marks the object's handle with the exception of its descriptor.
   */
  private final Map<String, ClassNotFoundException> refusedBy = new HashMap<>();

  /** The class descriptors of {@link #pending}. */
  private List<ClassDescriptor> pendingDescriptors = List.of();

  /** What earlier segments of a version 3 or later stream sent, since the last reset. */
  private final StreamSegments.Decoder segments;

  /** The checked and defined classes of earlier segments, since the last reset. */
  private final SegmentMemo memo = new SegmentMemo();

  private final byte[] word = new byte[4];

  /** The objects read since the last reset, at their ids; entry {@link #size} stays null. */
  private Object[] table = new Object[INITIAL_TABLE];

  private int size;

  /** The current segment's top-level items, or {@code null}. */
  private ReplayStream current;

  /** The current segment while its code has not run: it runs when its first object is read. */
  private SnapshotFile pending;

  private RestoreRun pendingRun;

  /**
   * The bytes read from the stream up to the end of {@link #pending}: the filter's stream bytes.
   */
  private long pendingEnd;

  /**
   * The objects of the segments before {@link #pending}, resets included: the filter is told the
   * running total of references, as {@code ObjectInputStream}'s is.
   */
  private long refsBefore;

  /** The objects of all segments read so far, resets included. */
  private long refsRead;

  /** What failed to restore; the stream cannot go past it. */
  private Throwable failed;

  /**
   * The objects of segments whose classes were not all found, since the last reset: the stream
   * reads past them, throwing the exception again for every object that reaches one.
   */
  private final LostObjects lost = new LostObjects();

  /** The ids read with {@code readUnshared} since the last reset, shared by every segment. */
  private final BitSet unshared = new BitSet();

  /** Bytes of the current data frame not yet read from {@link #in}. */
  private int dataLeft;

  /** Whether {@link #available()} read the word of the next frame, a segment's length. */
  private boolean peeked;

  private int peekedWord;
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
   * @throws EOFException if the stream ends before its header, as {@code ObjectInputStream}'s
   *     constructor does
   * @throws CorruptSnapshotException if the header is not a Codese stream header
   * @throws IOException if reading fails
   */
  public StreamReader(
      InputStream in,
      ClassLoader loader,
      Supplier<ObjectInputFilter> filter,
      CodeseLimits limits,
      byte[] signingKey,
      AllowList allowed)
      throws IOException {
    this(in, loader, filter, limits, signingKey, allowed, null);
  }

  /**
   * Reads and checks the stream header, for a stream with subclass hooks.
   *
   * @param in the underlying stream
   * @param loader the class loader for the classes segments name, or {@code null}
   * @param filter gives the stream's current serialization filter when a segment is loaded
   * @param limits bounds on what each segment may create
   * @param signingKey the key every segment must be signed with, or {@code null}
   * @param allowed the classes segments may restore beyond {@code ObjectInputStream}'s surface
   * @param hooks the stream's hooks, or {@code null} if it overrides none
   * @throws EOFException if the stream ends before its header
   * @throws CorruptSnapshotException if the header is not a Codese stream header
   * @throws IOException if reading fails
   */
  public StreamReader(
      InputStream in,
      ClassLoader loader,
      Supplier<ObjectInputFilter> filter,
      CodeseLimits limits,
      byte[] signingKey,
      AllowList allowed,
      Hooks hooks)
      throws IOException {
    this.hooks = hooks;
    this.signingKey = signingKey;
    this.allowed = allowed;
    this.in = in;
    this.loader = loader;
    this.filter = filter;
    this.limits = limits;
    byte[] header = in.readNBytes(6);
    if (header.length < 6) {
      throw new EOFException(
          "the stream ends after "
              + header.length
              + " bytes, before its"
              + " 6-byte Codese stream header");
    }
    int magic =
        ((header[0] & 0xFF) << 24)
            | ((header[1] & 0xFF) << 16)
            | ((header[2] & 0xFF) << 8)
            | (header[3] & 0xFF);
    int v = ((header[4] & 0xFF) << 8) | (header[5] & 0xFF);
    if (magic == SnapshotFile.MAGIC || magic == Signing.MAGIC || magic == Compression.MAGIC) {
      throw new CorruptSnapshotException(
          "stream header",
          0,
          "not a Codese object stream but a Codese snapshot (magic "
              + (magic == SnapshotFile.MAGIC
                  ? "CDSE"
                  : magic == Signing.MAGIC ? "CDSG, signed" : "CDSZ, compressed")
              + ": written by Codese.write or toBytes; file extension .cdse)",
          "load it with Codese.load, read or fromBytes. CodeseInputStream reads object streams"
              + " (.cdss), which CodeseOutputStream and codese convert write, and JDK"
              + " serialization data");
    }
    if (magic != STREAM_MAGIC) {
      throw new CorruptSnapshotException(
          "stream header", 0, "not a Codese object stream (bad magic number)");
    }
    if (v < OLDEST_VERSION || v > STREAM_VERSION) {
      throw new CorruptSnapshotException(
          "stream header",
          4,
          "stream version "
              + v
              + " is not supported; this library reads versions "
              + OLDEST_VERSION
              + " to "
              + STREAM_VERSION);
    }
    this.version = v;
    this.segments = decoder(v);
    offset = 6;
  }

  /**
   * The key under which the classes a stream resolved hold a proxy class.
   *
   * @param interfaces its interface names
   * @return the key, which no class name equals
   */
  public static String proxyKey(List<String> interfaces) {
    return ProxyClasses.key(interfaces);
  }

  /**
   * Makes a dynamic proxy class as the stream does for Codese data when its {@code
   * resolveProxyClass} is not overridden: the interfaces loaded with the stream's class loader (or
   * the thread's context class loader), not initialised, the proxy class defined as {@code
   * ObjectInputStream.resolveProxyClass} defines it.
   *
   * @param interfaces the interface names
   * @return the proxy class, not initialised
   * @throws ClassNotFoundException if an interface is not found or the JDK refuses the proxy class
   * @throws IOException never; declared as {@code resolveProxyClass} declares it
   */
  public Class<?> resolveProxyByDefault(String[] interfaces)
      throws IOException, ClassNotFoundException {
    ClassEntry e = ClassEntry.proxy("a dynamic proxy class", Arrays.asList(interfaces));
    ClassLoader l = defaultLoader();
    try {
      return ProxyClasses.make(e, ProxyClasses.interfaces(e, l), l);
    } catch (org.codese.ClassMismatchException x) {
      // as ObjectInputStream.resolveProxyClass, which wraps what Proxy refuses
      throw new ClassNotFoundException(x.getMessage(), x);
    }
  }

  /**
   * Resolves a class as the stream resolves the classes of Codese data when its {@code
   * resolveClass} is not overridden: primitive types by name, others with the stream's class loader
   * (or the thread's context class loader), not initialised.
   *
   * @param name a binary class name
   * @return the class
   * @throws ClassNotFoundException if the loader does not find it
   */
  public Class<?> resolveByDefault(String name) throws ClassNotFoundException {
    Class<?> p = Types.primitiveNamed(name);
    if (p != null) {
      return p;
    }
    return Class.forName(name, false, defaultLoader());
  }

  /**
   * The loader classes of Codese data are resolved with by default: the stream's, else the thread's
   * context class loader, else Codese's own.
   */
  private ClassLoader defaultLoader() {
    ClassLoader l = loader != null ? loader : Thread.currentThread().getContextClassLoader();
    return l != null ? l : StreamReader.class.getClassLoader();
  }

  /**
   * The decoder of a stream's compact segments (stream version 3 and later), for the stream format
   * version its header gives: which form of code the segments carry, and whether they may carry
   * class descriptors.
   *
   * @param streamVersion a stream format version, {@link #OLDEST_VERSION} to {@link
   *     #STREAM_VERSION}
   * @return a new decoder, with empty dictionaries
   */
  public static StreamSegments.Decoder decoder(int streamVersion) {
    int code = SnapshotFile.OLDEST_VERSION;
    for (int i = 0; i < SEGMENT_CODE.length && streamVersion >= SEGMENT_CODE[i][0]; i++) {
      code = SEGMENT_CODE[i][1];
    }
    return new StreamSegments.Decoder(code, streamVersion >= DESCRIBING_STREAM_VERSION);
  }

  /**
   * Per stream version that changed it, in ascending order: the snapshot format version of the code
   * and data its compact segments carry from that stream version on.
   */
  private static final int[][] SEGMENT_CODE = {
    {ALLOCATING_STREAM_VERSION, Grammar.ALLOCATE_VERSION},
    {RUNTIME_STREAM_VERSION, RuntimeContract.RUNTIME_VERSION},
    {FILL_STREAM_VERSION, Grammar.FILL_VERSION},
    {VALUE_STREAM_VERSION, Grammar.VALUE_VERSION},
    {GLOBAL_STREAM_VERSION, Grammar.GLOBAL_VERSION},
    {PROXY_STREAM_VERSION, Grammar.PROXY_VERSION},
    {COLLECTION_STREAM_VERSION, Grammar.COLLECTION_VERSION},
    {STORE_STREAM_VERSION, Grammar.STORE_VERSION}
  };

  /**
   * @return how many objects the reader holds for later references: those read since the last reset
   */
  public int heldObjects() {
    return size;
  }

  /**
   * @return how many hidden classes the reader defined, and how many class entries and class files
   *     the stream's dictionaries hold (for tests)
   */
  public int[] codeStatistics() {
    return new int[] {memo.definedClasses(), segments.entries()};
  }

  /**
   * Reads the next top-level object, running the code of its segment first if this is the segment's
   * first object. Checks and code run only now, as {@code ObjectInputStream} reads nothing of an
   * object before {@code readObject}: primitive data before it stays readable whatever the segment
   * holds.
   *
   * @param unshared whether {@code readUnshared} asks
   * @return the object
   * @throws EOFException at the end of the data
   * @throws OptionalDataException if primitive data comes first ({@code length} is what is left of
   *     its frame)
   * @throws ClassNotFoundException if the segment names a class the loader cannot find, or a
   *     class's own {@code readObject} or {@code readExternal} threw it
   * @throws InvalidObjectException for a back reference to an object read with {@code
   *     readUnshared}, or {@code readUnshared} of an object written before
   * @throws StreamCorruptedException after an object failed to restore: the stream cannot go past
   *     it
   * @throws IOException if a segment is damaged or rejected, or a class's own restore code threw
   *     one
   */
  public Object readObject(boolean unshared) throws IOException, ClassNotFoundException {
    checkNotFailed();
    if (!advance()) {
      throw new EOFException("end of the Codese object stream");
    }
    if (dataLeft > 0) {
      OptionalDataException e = Jvm.optionalData(false);
      e.length = dataLeft;
      throw e;
    }
    if (pending != null && current.objectNext()) {
      current.checkTopLevel(); // the segment's items, like its code, are checked before it runs
      restorePending();
    }
    // an object of a segment lost to a class not found, or reaching one, throws its exception
    return current.readTopLevel(unshared, lost.isEmpty() ? null : lost);
  }

  /**
   * Registers a validation with the segment being restored, as {@code
   * ObjectInputStream.registerValidation} registers one while a {@code readObject} is under way.
   *
   * @param v the validation
   * @param priority its priority
   * @throws NotActiveException if no segment of this stream is being restored on this thread
   * @throws InvalidObjectException if {@code v} is {@code null}
   */
  public void registerValidation(ObjectInputValidation v, int priority)
      throws NotActiveException, InvalidObjectException {
    if (pendingRun == null) {
      throw new NotActiveException("stream inactive");
    }
    pendingRun.register(v, priority);
  }

  private void checkNotFailed() throws StreamCorruptedException {
    if (failed != null) {
      throw new StreamCorruptedException(
          "the stream cannot be read past an object that failed" + " to restore (" + failed + ")");
    }
  }

  /**
   * Loads and runs the pending segment. A class of it not found (before anything of it ran) loses
   * its objects ({@link #lost}) and returns: {@code readObject} throws the exception for each of
   * them and reads on, as {@code ObjectInputStream} reads on past an object whose class it did not
   * find. Anything else fails the stream.
   */
  private void restorePending() throws IOException, ClassNotFoundException {
    SnapshotFile file = pending;
    pending = null;
    try {
      Map<String, Class<?>> resolved = null;
      LoadedSnapshot loaded;
      try {
        if (hooks != null && hooks.resolvesClasses()) {
          resolveClasses(file);
          resolved = resolvedClasses;
        }
        loaded =
            LoadedSnapshot.loadSegment(
                file, loader, filter, limits, allowed, memo, pendingEnd, refsBefore, resolved);
      } catch (ClassMismatchException e) {
        if (e.getCause() instanceof ClassNotFoundException c) {
          // as ObjectInputStream.resolveClass threw (the hook's own exception where it threw)
          ClassNotFoundException hook = refusedBy.get(e.classname);
          lost.add(file.firstId(), file.tableSize(), hook != null ? hook : c);
          return;
        }
        throw e;
      } catch (ClassNotFoundException e) {
        lost.add(
            file.firstId(), file.tableSize(), e); // a hook's, kept as ObjectInputStream keeps it
        return;
      }
      if (!lost.isEmpty()) {
        // an object of a lost segment this one reaches: the JDK throws for it, nothing runs
        ClassNotFoundException reached = loaded.reaches(lost);
        if (reached != null) {
          lost.add(file.firstId(), file.tableSize(), reached);
          return;
        }
      }
      // objects of classes not found that nothing live refers to: lost to whatever reaches them
      loaded.loseNotMade(lost, refusedBy);
      ObjectResolver resolver = hooks == null ? null : hooks.resolver();
      if (resolver != null) {
        ObjectResolution resolution =
            new ObjectResolution(
                resolver,
                filter == null ? null : filter.get(),
                file.firstId(),
                file.tableSize(),
                file.depth(),
                pendingEnd,
                Admission.references(file, refsBefore));
        resolution.notMade(loaded.notMadeIds());
        pendingRun.resolveObjects(resolution);
      }
      loaded.restoreAsStream(table, pendingRun);
    } catch (IOException | ClassNotFoundException | RuntimeException | Error e) {
      failed = e;
      throw e;
    }
  }

  /**
   * Resolves every class of a segment through the stream's hooks, before anything of the segment is
   * loaded: first the class descriptors the writer wrote, in its order (the order and number of
   * {@code ObjectInputStream}'s calls for the same graph), then every class of the class table no
   * descriptor described since the last reset, with a descriptor made from its entry (streams
   * written before format 5, and crafted ones, name classes without describing them: an allow-list
   * in {@code resolveClass} sees them all the same).
   */
  private void resolveClasses(SnapshotFile file) throws IOException, ClassNotFoundException {
    ClassNotFoundException notFound = null;
    int refusedBefore = refused();
    failures = 0;
    for (ClassDescriptor d : pendingDescriptors) {
      notFound = resolveOne(d, true, notFound);
    }
    if (notFound != null && !onlyRemovedSuperclasses(file, refusedBefore)) {
      throw notFound; // the classes no descriptor described are none of the JDK's calls
    }
    List<ClassEntry> classes = file.classes();
    for (int i = 0; i < classes.size(); i++) {
      ClassEntry e = classes.get(i);
      if (e.isProxy()) {
        // a proxy class no descriptor described and no constant names is the element class of an
        // array class only (an empty $Proxy5[]), which ObjectInputStream never asks
        // resolveProxyClass about: ClassTable takes it from the array class resolveClass gave, or
        // makes it, and nothing makes an object of it. Any other (a crafted stream's) goes to
        // the hook
        if (!resolvedClasses.containsKey(ProxyClasses.key(e.interfaces())) && named(file, i)) {
          notFound = resolveOne(ClassDescriptor.proxy(e.interfaces(), NOTHING), false, notFound);
        }
        continue;
      }
      if (!resolvedClasses.containsKey(e.name()) && Types.primitiveNamed(e.name()) == null) {
        notFound = resolveOne(new ClassDescriptor(form(e), NOTHING), false, notFound);
      }
    }
    if (notFound != null && !onlyRemovedSuperclasses(file, refusedBefore)) {
      throw notFound;
    }
  }

  /** The {@code ClassNotFoundException}s the hooks threw for the pending segment so far. */
  private int failures;

  /** The number of class names the hooks did not find since the last reset. */
  private int refused() {
    int n = 0;
    for (Class<?> c : resolvedClasses.values()) {
      n += c == null ? 1 : 0;
    }
    return n;
  }

  /**
   * Whether every class the hooks did not find for this segment is a class the segment carries only
   * the data of, a superclass removed since capture ({@link GoneClasses}): {@code
   * ObjectInputStream} keeps such a class's exception on its descriptor and restores the objects of
   * its former subclasses. Each failure must be a class's, named in the segment's class table; a
   * proxy class's or a failure to read a descriptor is not.
   */
  private boolean onlyRemovedSuperclasses(SnapshotFile file, int refusedBefore) {
    if (refused() - refusedBefore != failures) {
      return false;
    }
    List<ClassEntry> classes = file.classes();
    for (int i = 0; i < classes.size(); i++) {
      ClassEntry e = classes.get(i);
      if (!e.isProxy()
          && resolvedClasses.containsKey(e.name())
          && resolvedClasses.get(e.name()) == null
          && !GoneClasses.onlyData(file, i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Resolves one class through the hooks. A {@code ClassNotFoundException} (a {@code resolveClass}
   * or {@code resolveProxyClass} that throws one or returns {@code null}) does not stop the
   * segment's other classes from being resolved: {@code ObjectInputStream.readNonProxyDesc} and
   * {@code readProxyDesc} keep it and read on through the rest of the object, calling the hooks for
   * every class after it, and {@code readObject} throws it at the end. Any other exception stops at
   * once, as there.
   *
   * @param notFound the first class not found so far in this segment, or {@code null}
   * @return the first class not found, this one's if it is the first
   */
  private ClassNotFoundException resolveOne(
      ClassDescriptor d, boolean written, ClassNotFoundException notFound) throws IOException {
    try {
      hooks.resolveClass(d, written, resolvedClasses);
      return notFound;
    } catch (ClassNotFoundException e) {
      failures++;
      for (Map.Entry<String, Class<?>> r : resolvedClasses.entrySet()) {
        if (r.getValue() == null) {
          refusedBy.putIfAbsent(r.getKey(), e); // the class this call refused: the new one
        }
      }
      return notFound != null ? notFound : e;
    }
  }

  /**
   * Whether a constant of the segment names class-table entry {@code type}: to allocate an object
   * of it, as a {@code Class} or descriptor, or otherwise. Capture names the element proxy class of
   * an array class in the class table only.
   */
  private static boolean named(SnapshotFile file, int type) {
    for (Constant k : file.constants()) {
      int t =
          k instanceof Constant.Allocator a
              ? a.type()
              : k instanceof Constant.TypeRef r
                  ? r.type()
                  : k instanceof Constant.StreamClassRef d
                      ? d.type()
                      : k instanceof Constant.Sized z
                          ? z.type()
                          : k instanceof Constant.ArrayMaker m
                              ? m.type()
                              : k instanceof Constant.Hook h
                                  ? h.type()
                                  : k instanceof Constant.Setter f
                                      ? f.type()
                                      : k instanceof Constant.EnumRef e
                                          ? e.type()
                                          : k instanceof Constant.StaticRef g ? g.type() : -1;
      if (t == type) {
        return true;
      }
    }
    return false;
  }

  private static final byte[] NOTHING = new byte[0];

  /** The JDK form of a descriptor of class entry {@code e}: its name, suid and fields. */
  private static byte[] form(ClassEntry e) throws IOException {
    String[] names = new String[e.fields().size()];
    String[] types = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      names[i] = e.fields().get(i).name();
      types[i] = e.fields().get(i).descriptor();
    }
    // an undeclared value is the one computed at capture where the entry records it (0 in entries
    // of streams before format 5, the only ones read here besides crafted ones): not computed
    // from the local class, which would load it before resolveClass could refuse it
    return DescriptorForm.of(e.name(), e.suid(), names, types);
  }

  /**
   * Reads primitive data, from as many frames as it takes, but not past an object.
   *
   * @param b the buffer
   * @param off where to start in it
   * @param len at most this many bytes
   * @return the number of bytes read, or -1 at an object or the end of the data
   * @throws IOException if reading fails or a frame is damaged
   */
  public int read(byte[] b, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    checkNotFailed();
    if (!advance()) {
      return -1;
    }
    if (dataLeft > 0) {
      int n = in.read(b, off, Math.min(len, dataLeft));
      if (n < 0) {
        throw new CorruptSnapshotException(
            "stream",
            offset,
            "the stream ends inside a frame of"
                + " primitive data, "
                + dataLeft
                + " bytes short: it was cut short");
      }
      dataLeft -= n;
      offset += n;
      return n;
    }
    return current.read(b, off, len);
  }

  /**
   * Reads exactly {@code len} bytes of primitive data.
   *
   * @param b the buffer
   * @param off where to start in it
   * @param len how many bytes
   * @throws EOFException if an object or the end of the data comes first
   * @throws IOException if reading fails or a frame is damaged
   */
  public void readFully(byte[] b, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    while (len > 0) {
      int n = read(b, off, len);
      if (n < 0) {
        throw new EOFException();
      }
      off += n;
      len -= n;
    }
  }

  /**
   * Skips primitive data, not past an object.
   *
   * @param n at most this many bytes
   * @return the number of bytes skipped
   * @throws IOException if reading fails or a frame is damaged
   */
  public int skipBytes(int n) throws IOException {
    byte[] scratch = new byte[Math.max(0, Math.min(n, 4096))];
    int skipped = 0;
    while (skipped < n) {
      int k = read(scratch, 0, Math.min(n - skipped, scratch.length));
      if (k < 0) {
        break;
      }
      skipped += k;
    }
    return skipped;
  }

  /**
   * The number of bytes of primitive data that can be read without blocking, as {@code
   * ObjectInputStream.available} counts them: 0 where an object comes next. Never blocks: it looks
   * at the next frame only if its word has arrived, and never loads a segment.
   *
   * @return the number of bytes
   * @throws IOException if reading fails
   */
  public int available() throws IOException {
    while (true) {
      if (dataLeft > 0) {
        return Math.min(dataLeft, Math.max(0, in.available()));
      }
      if (current != null && !current.exhausted()) {
        return current.available();
      }
      current = null;
      if (ended || peeked || in.available() < 4) {
        return 0;
      }
      int w = readWord();
      if (w > 0) {
        peeked = true;
        peekedWord = w;
        return 0;
      }
      frame(w);
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

  /**
   * Moves to the next object or primitive data, reading frames as needed.
   *
   * @return {@code false} at the end of the data
   */
  private boolean advance() throws IOException {
    while (true) {
      if (dataLeft > 0) {
        return true;
      }
      if (current != null) {
        if (!current.exhausted()) {
          return true;
        }
        current = null;
      }
      if (ended) {
        return false;
      }
      int w;
      if (peeked) {
        peeked = false;
        w = peekedWord;
      } else {
        int first = in.read();
        if (first < 0) {
          // the end of the data where a frame would start: the end of the stream, as for
          // ObjectInputStream; later data (an appended log) is read by a later call
          return false;
        }
        word[0] = (byte) first;
        w = finishWord(1);
      }
      frame(w);
    }
  }

  /** Reads a whole frame word; the caller knows that four bytes are available. */
  private int readWord() throws IOException {
    return finishWord(0);
  }

  private int finishWord(int have) throws IOException {
    int n = in.readNBytes(word, have, 4 - have);
    if (have + n < 4) {
      throw new CorruptSnapshotException(
          "stream",
          offset,
          "the stream ends inside a frame's"
              + " 4-byte length, after "
              + (have + n)
              + " bytes: it was cut short");
    }
    offset += 4;
    return ((word[0] & 0xFF) << 24)
        | ((word[1] & 0xFF) << 16)
        | ((word[2] & 0xFF) << 8)
        | (word[3] & 0xFF);
  }

  private void frame(int w) throws IOException {
    if (w == END) {
      ended = true;
    } else if (w > 0) {
      segment(w);
    } else if (version < 2) {
      throw new CorruptSnapshotException(
          "stream", offset - 4, "negative segment length " + w + " in a version 1 stream");
    } else if (w == RESET) {
      // as ObjectInputStream forgets its handles at TC_RESET: the next segment starts at 0
      LoadedSnapshot.unpin(table);
      table = new Object[INITIAL_TABLE];
      size = 0;
      unshared.clear();
      segments.reset();
      memo.clear();
      resolvedClasses.clear();
      refusedBy.clear();
      lost.clear();
    } else {
      dataLeft = -w;
    }
  }

  private void segment(int len) throws IOException {
    long at = offset;
    if (len > limits.maxBytes()) {
      throw new InvalidObjectException(
          "stream segment of "
              + len
              + " bytes at byte "
              + at
              + " is over the limit of "
              + limits.maxBytes()
              + "; raise it with CodeseLimits.withMaxBytes if the stream is trusted");
    }
    byte[] bytes = in.readNBytes(len);
    offset += bytes.length;
    if (bytes.length != len) {
      throw new CorruptSnapshotException(
          "stream",
          at,
          "segment of "
              + len
              + " bytes is truncated after "
              + bytes.length
              + " bytes: the stream was cut short");
    }
    bytes = Signing.unwrap(bytes, signingKey);
    SnapshotFile file;
    try {
      file = version >= 3 ? segments.decode(bytes, size) : SnapshotFile.parse(bytes);
    } catch (CorruptSnapshotException e) {
      throw new CorruptSnapshotException(
          "stream segment at byte " + at + ": " + e.section(), at + e.offset(), e.getMessage());
    }
    if (file.firstId() != size) {
      throw new CorruptSnapshotException(
          "stream",
          at,
          "segment starts at object "
              + file.firstId()
              + " but "
              + size
              + " objects were read before it"
              + (size == 0 ? " (since the last reset)" : ""));
    }
    int end = file.tableSize();
    if (end >= table.length) {
      // grow geometrically: one small segment per writeObject must not copy the table each time
      table =
          Arrays.copyOf(
              table, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(end + 1L, 2L * table.length)));
    }
    size = end;
    refsBefore = refsRead;
    refsRead += end - file.firstId();
    pending = file;
    pendingDescriptors = version >= 3 ? segments.descriptors() : List.of();
    pendingEnd = offset;
    pendingRun = new RestoreRun(unshared);
    current =
        new ReplayStream(
            table,
            file.items(),
            null,
            null,
            pendingRun,
            filter == null ? null : filter.get(),
            limits.maxArrayLength(),
            false);
  }
}
