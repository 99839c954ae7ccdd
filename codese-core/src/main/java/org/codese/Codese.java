package org.codese;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.codese.format.Compression;
import org.codese.format.Signing;
import org.codese.format.SnapshotFile;
import org.codese.load.AllowList;
import org.codese.load.LoadedSnapshot;

/**
 * Static entry points: capture an object graph as code, and restore it by running that code.
 *
 * <pre>{@code
 * byte[] snapshot = Codese.toBytes(graph);        // capture
 * MyGraph copy = (MyGraph) Codese.fromBytes(snapshot); // restore
 *
 * try (Snapshot s = Codese.load(path)) {          // load once ...
 *   for (int i = 0; i < 100; i++) use(s.restore()); // ... restore many times
 * }
 * }</pre>
 *
 * <p>Every method is thread-safe. Methods that read a snapshot check it completely (format,
 * checksums, the classes it names) before any of its code runs. They read compressed snapshots
 * ({@link CodeseOptions#withCompression}) as they read uncompressed ones: the compression envelope
 * is recognised by its magic number, checked and inflated after the signature check and before
 * every other, never beyond {@link CodeseLimits#maxBytes()}.
 *
 * <p>Restoring throws only {@code IOException}s: what a class's own restore code ({@code
 * readObject}, {@code readExternal}, {@code readResolve}, {@code validateObject}, constructors)
 * throws, or {@code ObjectInputStream} throws in its place, arrives as it is when it is an {@code
 * IOException} (a record constructor's exception as the cause of an {@code InvalidObjectException},
 * a throwing constructor as {@code InvalidClassException} "unable to create instance"), and as the
 * cause of a {@link RestoreException} otherwise, except a {@link VirtualMachineError} ({@code
 * OutOfMemoryError}, {@code StackOverflowError}, whoever threw it), which leaves as it is, as from
 * {@code ObjectInputStream}. {@link CodeseInputStream} throws those causes themselves, as {@code
 * ObjectInputStream} does.
 *
 * <p>By default a snapshot restores only what {@link java.io.ObjectInputStream} would restore from
 * the same classes; a snapshot of classes that are not {@code Serializable} loads once its options
 * admit them (for snapshots from a trusted source):
 *
 * <pre>{@code
 * Object copy = Codese.fromBytes(snapshot,
 *     CodeseOptions.defaults().withAllowedClasses("com.example.Foo", "com.example.model.*"));
 * }</pre>
 */
public final class Codese {
  private Codese() {}

  /**
   * Captures the graph reachable from {@code root} and writes it as a snapshot.
   *
   * @param root the root of the graph; may be {@code null}
   * @param out where to write; not closed
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws IOException if writing fails or a class's own {@code writeObject} fails
   */
  public static void write(Object root, OutputStream out) throws IOException {
    write(root, out, CodeseOptions.defaults());
  }

  /**
   * Captures the graph reachable from {@code root} with the given options (signing key,
   * compression, {@code Serializable} requirement) and writes it as a snapshot.
   *
   * @param root the root of the graph; may be {@code null}
   * @param out where to write; not closed
   * @param options capture settings
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws IOException if writing fails or a class's own {@code writeObject} fails
   */
  public static void write(Object root, OutputStream out, CodeseOptions options)
      throws IOException {
    Objects.requireNonNull(out, "out");
    out.write(toBytes(root, options));
  }

  /**
   * Captures the graph reachable from {@code root} into a snapshot file. The file is written to a
   * temporary file beside the target and moved into place, so a failure never leaves a truncated
   * file under the target name.
   *
   * @param root the root of the graph; may be {@code null}
   * @param file the snapshot file to create or replace
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws IOException if writing fails or a class's own {@code writeObject} fails
   */
  public static void write(Object root, Path file) throws IOException {
    write(root, file, CodeseOptions.defaults());
  }

  /**
   * Captures the graph reachable from {@code root} with the given options into a snapshot file,
   * through a temporary file and an atomic move as {@link #write(Object, Path)} does.
   *
   * @param root the root of the graph; may be {@code null}
   * @param file the snapshot file to create or replace
   * @param options capture settings
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws IOException if writing fails or a class's own {@code writeObject} fails
   */
  public static void write(Object root, Path file, CodeseOptions options) throws IOException {
    Objects.requireNonNull(file, "file");
    Pipeline.writeFile(toBytes(root, options), file);
  }

  /**
   * Captures the graph reachable from {@code root} as a snapshot in memory.
   *
   * @param root the root of the graph; may be {@code null}
   * @return the snapshot's bytes
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws IOException if a class's own {@code writeObject} fails
   */
  public static byte[] toBytes(Object root) throws IOException {
    return toBytes(root, CodeseOptions.defaults());
  }

  /**
   * Captures the graph reachable from {@code root} as a snapshot in memory, with the given options;
   * compressed if they say so ({@link CodeseOptions#withCompression}), then signed if they carry a
   * signing key.
   *
   * @param root the root of the graph; may be {@code null}
   * @param options capture settings
   * @return the snapshot's bytes
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws IOException if a class's own {@code writeObject} fails
   */
  public static byte[] toBytes(Object root, CodeseOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    return Pipeline.envelopes(Pipeline.capture(root, options).bytes(), options);
  }

  /**
   * Opens the envelopes {@link #envelopes} puts around a snapshot, outermost first: refuses data of
   * another kind, checks and removes the signature (with a key configured, a snapshot must be
   * signed), inflates a compressed snapshot up to {@code maxBytes}, and checks the snapshot's size
   * against the limit.
   */
  private static byte[] open(byte[] snapshot, CodeseOptions options) throws IOException {
    rejectOtherKind(snapshot);
    // the constants are inlined: an unsigned load without a key does not load the Signing class,
    // nor an uncompressed one the Compression class
    boolean signed = magic(snapshot) == Signing.MAGIC;
    byte[] key = options.signingKey();
    if (signed || key != null) {
      snapshot = Signing.unwrap(snapshot, key);
    }
    long max = options.limits().maxBytes();
    if (magic(snapshot) == Compression.MAGIC) {
      snapshot = Compression.inflate(snapshot, signed ? Signing.HEADER : 0, max);
    }
    if (snapshot.length > max) {
      throw new java.io.InvalidObjectException(
          "snapshot has "
              + snapshot.length
              + " bytes or more, over the limit of "
              + max
              + "; raise it with CodeseLimits.withMaxBytes if it is trusted");
    }
    return snapshot;
  }

  /**
   * Restores the graph held in a snapshot read from {@code in}, with default options.
   *
   * @param in the stream holding exactly one snapshot; read to its end, not closed
   * @return the root of the restored graph
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw)
   * @throws IOException if reading fails
   */
  public static Object read(InputStream in) throws IOException {
    return read(in, CodeseOptions.defaults());
  }

  /**
   * Restores the graph held in a snapshot read from {@code in}, with the given options. At most
   * {@link CodeseLimits#maxBytes()} bytes are read before the snapshot is rejected.
   *
   * @param in the stream holding exactly one snapshot; read to its end, not closed
   * @param options restore settings (allowed classes, filter, limits, class loader, threads)
   * @return the root of the restored graph
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   *     and the options do not admit
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw)
   * @throws IOException if reading fails or another check rejects the snapshot
   */
  public static Object read(InputStream in, CodeseOptions options) throws IOException {
    return restoreOnce(load(in, options));
  }

  /**
   * Restores the graph held in a snapshot file, with default options.
   *
   * @param file the snapshot file
   * @return the root of the restored graph
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw)
   * @throws IOException if reading fails
   */
  public static Object read(Path file) throws IOException {
    return read(file, CodeseOptions.defaults());
  }

  /**
   * Restores the graph held in a snapshot file, with the given options.
   *
   * @param file the snapshot file
   * @param options restore settings (allowed classes, filter, limits, class loader, threads)
   * @return the root of the restored graph
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   *     and the options do not admit
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw)
   * @throws IOException if reading fails or another check rejects the snapshot
   */
  public static Object read(Path file, CodeseOptions options) throws IOException {
    return restoreOnce(load(file, options));
  }

  /**
   * Restores the graph held in a snapshot, with default options.
   *
   * @param snapshot the snapshot's bytes, as made by {@link #toBytes}
   * @return the root of the restored graph
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   *     (one that is not {@code Serializable}); admit it with {@link #fromBytes(byte[],
   *     CodeseOptions)} and {@link CodeseOptions#withAllowedClasses}
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw)
   */
  public static Object fromBytes(byte[] snapshot) throws IOException {
    return fromBytes(snapshot, CodeseOptions.defaults());
  }

  /**
   * Restores the graph held in a snapshot, with the given options.
   *
   * @param snapshot the snapshot's bytes, as made by {@link #toBytes}
   * @param options restore settings (allowed classes, filter, limits, class loader, threads)
   * @return the root of the restored graph
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   *     and the options do not admit
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw)
   * @throws IOException if another check rejects the snapshot
   */
  public static Object fromBytes(byte[] snapshot, CodeseOptions options) throws IOException {
    return restoreOnce(load(snapshot, options));
  }

  private static Object restoreOnce(Snapshot s) throws IOException {
    try {
      return s.restore();
    } finally {
      s.close();
    }
  }

  /**
   * The classes a snapshot needs admitted with {@link CodeseOptions#withAllowedClasses} to load:
   * those it instantiates or writes where {@code ObjectInputStream} would refuse to (classes that
   * are not {@code Serializable}, and {@code Serializable} ones it allocates without any
   * constructor). Computed without running any of the snapshot's code and without initialising any
   * class; the classes are loaded through the options' class loader. Empty for a graph of {@code
   * Serializable} classes. Admitting classes is not all a load may need: a snapshot that refers to
   * static constants ({@link CodeseOptions#withStaticConstants}) or named globals ({@link
   * CodeseOptions#withGlobal}) also needs those options, whatever this returns ({@code codese
   * inspect} lists such references).
   *
   * <pre>{@code
   * List<String> needed = Codese.classesToAllow(bytes, CodeseOptions.defaults());
   * // review them, then, for a snapshot from a trusted source:
   * Object graph = Codese.fromBytes(bytes,
   *     CodeseOptions.defaults().withAllowedClasses(needed.toArray(String[]::new)));
   * }</pre>
   *
   * @param snapshot the snapshot's bytes
   * @param options the class loader and signing key to use (a configured key is verified first)
   * @return binary class names, sorted
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it names is missing, or the snapshot gives a class a
   *     role no snapshot Codese writes gives it
   * @throws AuthenticityException if a signing key is configured and the signature is missing or
   *     wrong
   * @throws IOException if the snapshot is rejected for another reason
   */
  public static List<String> classesToAllow(byte[] snapshot, CodeseOptions options)
      throws IOException {
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(options, "options");
    SnapshotFile file = SnapshotFile.parse(open(snapshot, options));
    return AllowList.neededBy(file, options.classLoader());
  }

  /**
   * Loads a snapshot file once, for many restores.
   *
   * @param file the snapshot file
   * @return the loaded snapshot
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws IOException if reading fails
   */
  public static Snapshot load(Path file) throws IOException {
    return load(file, CodeseOptions.defaults());
  }

  /**
   * Loads a snapshot file once, for many restores, with the given options. A file larger than
   * {@link CodeseLimits#maxBytes()} is rejected before it is read.
   *
   * @param file the snapshot file
   * @param options restore settings (allowed classes, filter, limits, class loader, threads)
   * @return the loaded snapshot
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   *     and the options do not admit
   * @throws java.io.InvalidObjectException if it exceeds a limit
   * @throws java.io.InvalidClassException if the serialization filter rejects it
   * @throws UnsafeSnapshotException if its code is outside the restore grammar
   * @throws IOException if reading fails
   */
  public static Snapshot load(Path file, CodeseOptions options) throws IOException {
    return load(readFile(file, options.limits().maxBytes()), options);
  }

  /**
   * Reads a snapshot file whole, refusing one over {@code maxBytes} before reading it. A file of
   * the default file system is read through {@code java.io}, whose classes a JVM has loaded at
   * start: {@code Files.readAllBytes} loads some thirty classes of the channel machinery in a fresh
   * JVM, about 2 ms of a cold restore. Where that read fails, the file is read again through {@code
   * java.nio.file}, so that the exception is the one {@code Files} gives ({@code
   * NoSuchFileException}, {@code AccessDeniedException}, ...).
   */
  private static byte[] readFile(Path file, long maxBytes) throws IOException {
    if (file.getFileSystem() == java.nio.file.FileSystems.getDefault()) {
      java.io.File f = file.toFile();
      try (java.io.FileInputStream in = new java.io.FileInputStream(f)) {
        checkSize(file, f.length(), maxBytes);
        return in.readAllBytes();
      } catch (IOException e) {
        // the catch type is not FileNotFoundException, which the verifier would load on every load
        if (!(e instanceof java.io.FileNotFoundException)) {
          throw e;
        }
        // not there, not readable or a directory: as Files reports it, below
      }
    }
    checkSize(file, Files.size(file), maxBytes);
    return Files.readAllBytes(file);
  }

  private static void checkSize(Path file, long size, long maxBytes) throws IOException {
    if (size > maxBytes) {
      throw new java.io.InvalidObjectException(
          "snapshot "
              + file
              + " has "
              + size
              + " bytes, over the limit of "
              + maxBytes
              + "; raise it with CodeseLimits.withMaxBytes if the file is trusted");
    }
  }

  /**
   * Loads a snapshot from a stream once, for many restores.
   *
   * @param in the stream holding exactly one snapshot; read to its end, not closed
   * @return the loaded snapshot
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws IOException if reading fails
   */
  public static Snapshot load(InputStream in) throws IOException {
    return load(in, CodeseOptions.defaults());
  }

  /**
   * Loads a snapshot from a stream once, for many restores, with the given options. At most {@link
   * CodeseLimits#maxBytes()} bytes are read before the snapshot is rejected.
   *
   * @param in the stream holding exactly one snapshot; read to its end, not closed
   * @param options restore settings (allowed classes, filter, limits, class loader, threads)
   * @return the loaded snapshot
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   *     and the options do not admit
   * @throws IOException if reading fails or another check rejects the snapshot
   */
  public static Snapshot load(InputStream in, CodeseOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    long max = options.limits().maxBytes();
    byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
    return load(bytes, options);
  }

  /**
   * Loads a snapshot once, for many restores.
   *
   * @param snapshot the snapshot's bytes
   * @return the loaded snapshot
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   */
  public static Snapshot load(byte[] snapshot) throws IOException {
    return load(snapshot, CodeseOptions.defaults());
  }

  /**
   * Loads a snapshot once, for many restores, with the given options.
   *
   * @param snapshot the snapshot's bytes
   * @param options restore settings (allowed classes, filter, limits, class loader, threads)
   * @return the loaded snapshot
   * @throws CorruptSnapshotException if the snapshot is damaged, or is not a snapshot but a Codese
   *     object stream or JDK serialization data (the message says what reads it)
   * @throws ClassMismatchException if a class it needs is missing or changed
   * @throws ClassNotAllowedException if it restores a class {@code ObjectInputStream} would refuse
   *     and the options do not admit
   * @throws java.io.InvalidObjectException if it exceeds a limit
   * @throws java.io.InvalidClassException if the serialization filter rejects it
   * @throws UnsafeSnapshotException if its code is outside the restore grammar
   * @throws AuthenticityException if a signing key is configured and the signature is missing or
   *     wrong
   */
  public static Snapshot load(byte[] snapshot, CodeseOptions options) throws IOException {
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(options, "options");
    Filters.prepare();
    SnapshotFile file = SnapshotFile.parse(open(snapshot, options));
    if (file.firstId() != 0) {
      throw new CorruptSnapshotException(
          "header",
          0,
          "this is a segment of a Codese object stream, not a snapshot",
          "read it with CodeseInputStream");
    }
    return new Snapshot(
        file,
        LoadedSnapshot.load(
            file,
            options.classLoader(),
            new Filters(options.objectInputFilter()),
            options.limits(),
            options.allowList()),
        options);
  }

  /** The first four bytes of {@code data} as a big-endian {@code int}, or 0 if it is shorter. */
  private static int magic(byte[] data) {
    return data.length < 4
        ? 0
        : (data[0] & 0xFF) << 24
            | (data[1] & 0xFF) << 16
            | (data[2] & 0xFF) << 8
            | (data[3] & 0xFF);
  }

  /**
   * Refuses a Codese object stream or JDK serialization data given as a snapshot, saying what it is
   * and what reads it; before the signature check, which would otherwise only call it unsigned.
   */
  private static void rejectOtherKind(byte[] data) throws CorruptSnapshotException {
    CorruptSnapshotException otherKind = SnapshotFile.otherKind(data);
    if (otherKind != null) {
      throw otherKind;
    }
  }
}
