package org.codese;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import org.codese.format.SnapshotFile;
import org.codese.load.AllowList;
import org.codese.load.LoadedSnapshot;

/**
 * A captured object graph, loaded once and restorable many times.
 *
 * <p>Obtain one with {@link #capture(Object)} or {@link Codese#load}. Each call of {@link
 * #restore()} runs the snapshot's code and returns a new graph, isomorphic to the captured one and
 * independent of every other restored graph. {@code restore} may be called from many threads at
 * once. {@link #close()} releases the generated classes so that the JVM can unload them; a closed
 * snapshot refuses to restore.
 */
public final class Snapshot implements AutoCloseable {
  /** A snapshot just captured in this JVM is not bounded: it holds what the caller gave it. */
  private static final CodeseLimits OWN_CAPTURE =
      CodeseLimits.defaults()
          .withMaxObjects(Integer.MAX_VALUE)
          .withMaxArrayLength(Integer.MAX_VALUE)
          .withMaxBytes(Long.MAX_VALUE)
          .withMaxClasses(Integer.MAX_VALUE)
          .withMaxDepth(Integer.MAX_VALUE);

  private final SnapshotFile file;
  private final CodeseOptions options;
  private volatile LoadedSnapshot loaded;

  Snapshot(SnapshotFile file, LoadedSnapshot loaded, CodeseOptions options) {
    this.file = file;
    this.loaded = loaded;
    this.options = options;
  }

  /**
   * Captures the graph reachable from {@code root} in memory, with default options.
   *
   * @param root the root of the graph; may be {@code null}
   * @return the snapshot, ready to restore
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws IOException if a class's own {@code writeObject} fails
   */
  public static Snapshot capture(Object root) throws IOException {
    return capture(root, CodeseOptions.defaults());
  }

  /**
   * Captures the graph reachable from {@code root} in memory. The snapshot restores every class of
   * the captured graph in this JVM without an allowed-class list, since it holds the caller's own
   * objects; its bytes ({@link #toBytes()}) loaded elsewhere need {@link #classesToAllow()}
   * admitted if the graph has classes that are not {@code Serializable}.
   *
   * @param root the root of the graph; may be {@code null}
   * @param options capture and restore settings
   * @return the snapshot, ready to restore
   * @throws CaptureException if an object in the graph cannot be captured
   * @throws java.io.NotSerializableException if {@code Serializable} is required and a class lacks
   *     it
   * @throws IOException if a class's own {@code writeObject} fails
   */
  public static Snapshot capture(Object root, CodeseOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    SnapshotFile file = Pipeline.capture(root, options);
    return new Snapshot(
        file,
        LoadedSnapshot.load(
            file,
            options.classLoader(),
            null,
            OWN_CAPTURE,
            AllowList.ALL.withGlobals(true, options.globals())),
        options);
  }

  /**
   * The classes this snapshot needs admitted with {@link CodeseOptions#withAllowedClasses} when its
   * bytes are loaded with {@link Codese#load} or read by {@link CodeseInputStream}: those it
   * instantiates or writes where {@code ObjectInputStream} would refuse to, as {@link
   * Codese#classesToAllow} computes them. Record them beside a snapshot you capture to load it
   * again later:
   *
   * <pre>{@code
   * Snapshot s = Snapshot.capture(graph);
   * Files.write(file, s.toBytes());
   * Files.write(allowFile, s.classesToAllow());  // one class per line
   * }</pre>
   *
   * @return binary class names, sorted; empty for a graph of {@code Serializable} classes
   * @throws ClassMismatchException if a class cannot be found through the options' class loader
   */
  public List<String> classesToAllow() throws ClassMismatchException {
    return AllowList.neededBy(file, options.classLoader());
  }

  /**
   * Restores a new graph, with the number of threads set in the options.
   *
   * @return the root of the new graph
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw); nothing partial is returned
   * @throws IOException if the snapshot is closed, or what a class's own restore code threw, or
   *     what {@code ObjectInputStream} throws in its place ({@link java.io.InvalidObjectException}
   *     for a record constructor that threw, {@link java.io.InvalidClassException} "unable to
   *     create instance" for a constructor that threw, and one naming the class when the
   *     serialization filter rejects the class of what a {@code readResolve} returned)
   */
  public Object restore() throws IOException {
    return restore(options.restoreThreads());
  }

  /**
   * Restores a new graph. Object creation and field setting are each split across {@code threads}
   * threads, with a barrier between the two phases; the calls of classes' own restore hooks ({@code
   * readObject}, {@code readResolve}, ...) then run in order on the calling thread.
   *
   * @param threads at least 1; 1 restores on the calling thread only
   * @return the root of the new graph
   * @throws IllegalArgumentException if {@code threads < 1}
   * @throws RestoreException if a class's own restore code throws anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause is what {@code ObjectInputStream}
   *     would throw); nothing partial is returned
   * @throws IOException if the snapshot is closed, or what a class's own restore code threw, or
   *     what {@code ObjectInputStream} throws in its place ({@link java.io.InvalidObjectException}
   *     for a record constructor that threw, {@link java.io.InvalidClassException} "unable to
   *     create instance" for a constructor that threw, and one naming the class when the
   *     serialization filter rejects the class of what a {@code readResolve} returned)
   */
  public Object restore(int threads) throws IOException {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    LoadedSnapshot current = loaded;
    if (current == null) {
      throw new IOException("snapshot is closed; load it again with Codese.load");
    }
    return current.restoreRoot(threads);
  }

  /**
   * Returns the snapshot's bytes, as {@link Codese#toBytes} would have written them.
   *
   * @return the snapshot in its file format, as written by {@link #writeTo}; compressed if the
   *     options say so ({@link CodeseOptions#withCompression}), then signed if they carry a signing
   *     key
   */
  public byte[] toBytes() {
    return Pipeline.envelopes(file.bytes(), options);
  }

  /**
   * Writes the snapshot in its file format.
   *
   * @param out the stream to write to; not closed
   * @throws IOException if writing fails
   */
  public void writeTo(OutputStream out) throws IOException {
    out.write(toBytes());
  }

  /**
   * Releases the generated classes. Restored graphs stay valid; further {@link #restore()} calls
   * fail. Closing twice has no effect.
   */
  @Override
  public void close() {
    loaded = null;
  }
}
