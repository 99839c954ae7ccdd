package org.codese.testkit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.codese.ClassNotAllowedException;
import org.codese.Codese;
import org.codese.CodeseInputStream;
import org.codese.CodeseOptions;
import org.codese.CodeseOutputStream;
import org.codese.Snapshot;

/**
 * The round-trip kit every test uses. For one object graph it:
 *
 * <ol>
 *   <li>JDK-serializes the original to bytes A (when the graph is serializable), and checks that
 *       the graph itself is a fair test: JDK deserialization of A gives a graph that serializes to
 *       A again and passes the identity walk (otherwise the test graph is wrong, not the engine);
 *   <li>restores the graph through every restore path of the public API ({@link Path});
 *   <li>JDK-serializes every restored graph to bytes B and requires B == A byte for byte, with the
 *       first differing offset and the classes around it in the message;
 *   <li>walks original and copy in parallel with {@link GraphWalker} (identity, sharing, classes,
 *       cached boxes, hashed look-ups), and checks that the two restores of one snapshot share no
 *       object with each other nor with the original;
 *   <li>runs the test's own checks on every copy, and compares a side-effect counter (e.g. a
 *       constructor that counts its runs) with what JDK deserialization does;
 *   <li>finally checks that capturing did not change the original.
 * </ol>
 *
 * <p>All paths are tried even when one fails; the assertion message lists every failure.
 */
public final class RoundTrip {

  /**
   * Flip to {@code true} once {@code org.codese.CodeseOutputStream} and {@code
   * org.codese.CodeseInputStream} exist. They are created by reflection, so this kit compiles
   * either way; when the flag is on and the classes are missing, the stream path fails loudly.
   */
  public static final boolean CODESE_STREAMS = true;

  /** The restore paths of the public API. */
  public enum Path {
    /** {@code Codese.toBytes} then {@code Codese.fromBytes}. */
    TO_BYTES_FROM_BYTES,
    /** {@code Snapshot.capture} then {@code restore()} twice; the two copies must be disjoint. */
    CAPTURE_RESTORE_TWICE,
    /** {@code Snapshot.restore(2)}: object creation and field setting on two threads. */
    RESTORE_PARALLEL,
    /** {@code Snapshot.capture(root, options.withRestoreThreads(2)).restore()}. */
    OPTIONS_THREADS,
    /** {@code Snapshot.toBytes()} then {@code Codese.load(byte[]).restore()}. */
    SNAPSHOT_TO_BYTES_LOAD,
    /**
     * {@code Codese.write(Object, Path)} then {@code Codese.read(Path)}, and {@code load(Path)}.
     */
    FILE,
    /** {@code Codese.write(Object, OutputStream)} then {@code Codese.read(InputStream)}. */
    STREAM_API,
    /** {@code CodeseOutputStream.writeObject} then {@code CodeseInputStream.readObject}. */
    OBJECT_STREAMS
  }

  /** Whether and how JDK serialization takes part. */
  public enum Jdk {
    /** The graph is JDK-serializable: compare bytes, and use JDK deserialization as oracle. */
    SERIALIZABLE,
    /** The graph is not serializable (checked): rely on the walker only. */
    NOT_SERIALIZABLE,
    /** Do not involve JDK serialization at all (e.g. a chain too deep for its recursion). */
    SKIP
  }

  private final Object graph;
  private String name = "graph";
  private Jdk jdk = Jdk.SERIALIZABLE;
  private final List<Consumer<Object>> checks = new ArrayList<>();
  private IntSupplier counter;
  private Set<Path> paths = EnumSet.allOf(Path.class);
  private List<String> allowed = List.of();
  private boolean compressed;

  private RoundTrip(Object graph) {
    this.graph = graph;
  }

  /** Starts a round trip of {@code graph}. */
  public static RoundTrip of(Object graph) {
    return new RoundTrip(graph);
  }

  /** Names the graph in messages. */
  public RoundTrip name(String name) {
    this.name = name;
    return this;
  }

  /** Sets how JDK serialization takes part; default {@link Jdk#SERIALIZABLE}. */
  public RoundTrip jdk(Jdk jdk) {
    this.jdk = jdk;
    return this;
  }

  /** Adds a check run on every restored graph (and on JDK's copy, as a check of the check). */
  public RoundTrip check(Consumer<Object> check) {
    checks.add(check);
    return this;
  }

  /**
   * A counter of side effects (such as constructor runs). Every restore must change it exactly as
   * much as JDK deserialization does; capture must not change it.
   */
  public RoundTrip sideEffects(IntSupplier counter) {
    this.counter = counter;
    return this;
  }

  /**
   * The allowed-class patterns every path that loads bytes uses ({@link
   * CodeseOptions#withAllowedClasses}); a graph with classes that are not {@code Serializable}
   * needs them, as a program restoring it would. The kit checks that a load with default options
   * rejects the snapshot exactly when {@code Codese.classesToAllow} names classes, that the
   * rejection names the same classes, and that a {@link Jdk#SERIALIZABLE} graph needs none.
   */
  public RoundTrip allow(String... patterns) {
    this.allowed = List.of(patterns);
    return this;
  }

  private CodeseOptions options() {
    return CodeseOptions.defaults().withAllowedClasses(allowed.toArray(String[]::new));
  }

  /**
   * Writes every snapshot that goes through bytes ({@code Codese.toBytes}, {@code write} to a file
   * and to a stream, {@code Snapshot.toBytes}) with {@link CodeseOptions#withCompression}, and
   * checks that what was written is a compression envelope; the restores read it with options that
   * say nothing of compression, as a program loading a file does. Object streams are not
   * compressed.
   */
  public RoundTrip compressed() {
    this.compressed = true;
    return this;
  }

  /** The options every path that writes bytes captures with. */
  private CodeseOptions captureOptions() {
    return CodeseOptions.defaults().withCompression(compressed);
  }

  /** The bytes a path wrote are compressed exactly when {@link #compressed()} was asked for. */
  private void checkEnvelope(String where, byte[] bytes) {
    boolean isCompressed =
        bytes.length >= 4
            && bytes[0] == 'C'
            && bytes[1] == 'D'
            && bytes[2] == 'S'
            && bytes[3] == 'Z';
    if (isCompressed != compressed) {
      failure(
          where,
          compressed
              ? "the snapshot was not written compressed"
              : "the snapshot was written compressed without being asked to");
    }
  }

  /** Restricts the restore paths (default: all). */
  public RoundTrip paths(Path first, Path... more) {
    this.paths = EnumSet.of(first, more);
    return this;
  }

  /** What a run measured. */
  public static final class Report {
    /** Milliseconds per step, in order. */
    public final Map<String, Long> millis = new LinkedHashMap<>();

    /** Number of distinct objects the walker reached in the original. */
    public int objects;

    /** Snapshot size in bytes (from {@code Codese.toBytes}), -1 if unknown. */
    public long snapshotBytes = -1;

    /** JDK serialization size in bytes, -1 if not serializable. */
    public long jdkBytes = -1;

    @Override
    public String toString() {
      return "objects="
          + objects
          + ", snapshot="
          + snapshotBytes
          + " B, jdk="
          + jdkBytes
          + " B, ms="
          + millis;
    }
  }

  private final List<String> failures = new ArrayList<>();
  private Throwable firstCause;
  private final Report report = new Report();

  private void failure(String where, String message) {
    failures.add("[" + where + "] " + message);
  }

  private void failure(String where, Throwable t) {
    StringWriter sw = new StringWriter();
    t.printStackTrace(new PrintWriter(sw));
    String trace = sw.toString();
    String[] lines = trace.split("\n");
    StringBuilder shortTrace = new StringBuilder();
    for (int i = 1; i < Math.min(lines.length, 8); i++) {
      shortTrace.append("\n      ").append(lines[i].strip());
    }
    failures.add("[" + where + "] threw " + t + shortTrace);
    if (firstCause == null) {
      firstCause = t;
    }
  }

  private long t0;

  private void tick() {
    t0 = System.nanoTime();
  }

  private void tock(String step) {
    report.millis.merge(step, (System.nanoTime() - t0) / 1_000_000, Long::sum);
  }

  /**
   * Runs every check.
   *
   * @return timings and sizes
   * @throws AssertionError listing every failure
   */
  public Report run() {
    byte[] a = null;
    GraphWalker.Result jdkRef = null;
    int jdkEffects = 0;
    if (jdk == Jdk.SERIALIZABLE) {
      try {
        tick();
        a = JdkBytes.serialize(graph);
        tock("jdk-serialize");
        report.jdkBytes = a.length;
        int before = counter == null ? 0 : counter.getAsInt();
        tick();
        Object e = JdkBytes.deserialize(a);
        tock("jdk-deserialize");
        jdkEffects = counter == null ? 0 : counter.getAsInt() - before;
        byte[] a2 = JdkBytes.serialize(e);
        String diff = JdkBytes.explainDifference(a, a2);
        if (diff != null) {
          throw new AssertionError(
              "TEST BUG in graph '"
                  + name
                  + "': JDK's own round trip is not"
                  + " byte-stable, so it cannot serve as oracle:\n"
                  + diff);
        }
        jdkRef = GraphWalker.walk(graph, e, GraphWalker.Mode.JDK_REFERENCE, null);
        if (!jdkRef.failures().isEmpty()) {
          throw new AssertionError(
              "TEST BUG in graph '"
                  + name
                  + "': JDK's own copy fails the"
                  + " walker:\n  "
                  + String.join("\n  ", jdkRef.failures()));
        }
        for (Consumer<Object> check : checks) {
          check.accept(e);
        }
      } catch (IOException ex) {
        throw new AssertionError(
            "TEST BUG in graph '" + name + "': expected it to be" + " JDK-serializable", ex);
      }
    } else if (jdk == Jdk.NOT_SERIALIZABLE) {
      try {
        JdkBytes.serialize(graph);
        throw new AssertionError(
            "TEST BUG in graph '"
                + name
                + "': declared not serializable,"
                + " but JDK serialization accepts it");
      } catch (NotSerializableException expected) {
        // as declared
      } catch (IOException ex) {
        throw new AssertionError(ex);
      }
    }

    for (Path p : paths) {
      if (p == Path.OBJECT_STREAMS && !CODESE_STREAMS) {
        continue;
      }
      try {
        runPath(p, a, jdkRef, jdkEffects);
      } catch (Throwable t) {
        failure(p.name(), t);
      }
    }

    if (a != null) {
      try {
        String diff = JdkBytes.explainDifference(a, JdkBytes.serialize(graph));
        if (diff != null) {
          failure("original", "capturing changed the original graph: " + diff);
        }
      } catch (Throwable t) {
        failure("original", t);
      }
    }

    if (!failures.isEmpty()) {
      AssertionError err =
          new AssertionError(
              "round trip of '"
                  + name
                  + "' failed "
                  + failures.size()
                  + " check(s):\n  "
                  + String.join("\n  ", grouped(failures)));
      if (firstCause != null) {
        err.initCause(firstCause);
      }
      throw err;
    }
    return report;
  }

  /** Merges failures with the same message on several paths into one line. */
  private static List<String> grouped(List<String> failures) {
    Map<String, List<String>> byMessage = new LinkedHashMap<>();
    for (String f : failures) {
      int close = f.indexOf("] ");
      String where = f.substring(1, close);
      String message = f.substring(close + 2);
      byMessage.computeIfAbsent(message, k -> new ArrayList<>()).add(where);
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : byMessage.entrySet()) {
      out.add(e.getValue() + " " + e.getKey());
    }
    return out;
  }

  private void runPath(Path p, byte[] a, GraphWalker.Result jdkRef, int jdkEffects)
      throws Exception {
    String where = p.name();
    switch (p) {
      case TO_BYTES_FROM_BYTES -> {
        int before = effects();
        tick();
        byte[] snapshot = Codese.toBytes(graph, captureOptions());
        tock("capture");
        report.snapshotBytes = snapshot.length;
        checkEnvelope(where, snapshot);
        expectEffects(where + " capture", before, 0);
        checkDefaultSurface(where, snapshot);
        before = effects();
        tick();
        Object copy = Codese.fromBytes(snapshot, options());
        tock("restore(fromBytes)");
        expectEffects(where, before, jdkEffects);
        verify(where, copy, a, jdkRef);
      }
      case CAPTURE_RESTORE_TWICE -> {
        int before = effects();
        try (Snapshot s = Snapshot.capture(graph)) {
          expectEffects(where + " capture", before, 0);
          before = effects();
          tick();
          Object c1 = s.restore();
          tock("restore#1");
          expectEffects(where + "#1", before, jdkEffects);
          before = effects();
          tick();
          Object c2 = s.restore();
          tock("restore#2");
          expectEffects(where + "#2", before, jdkEffects);
          GraphWalker.Result r1 = verify(where + "#1", c1, a, jdkRef);
          GraphWalker.Result r2 = verify(where + "#2", c2, a, jdkRef);
          if (r1 != null && r2 != null) {
            for (String f : r1.sharedWith(r2, "restore #2")) {
              failure(where, f);
            }
          }
        }
      }
      case RESTORE_PARALLEL -> {
        try (Snapshot s = Snapshot.capture(graph)) {
          int before = effects();
          tick();
          Object copy = s.restore(2);
          tock("restore(2)");
          expectEffects(where, before, jdkEffects);
          verify(where, copy, a, jdkRef);
        }
      }
      case OPTIONS_THREADS -> {
        try (Snapshot s = Snapshot.capture(graph, CodeseOptions.defaults().withRestoreThreads(2))) {
          int before = effects();
          Object copy = s.restore();
          expectEffects(where, before, jdkEffects);
          verify(where, copy, a, jdkRef);
        }
      }
      case SNAPSHOT_TO_BYTES_LOAD -> {
        byte[] bytes;
        try (Snapshot s = Snapshot.capture(graph, captureOptions())) {
          bytes = s.toBytes();
        }
        checkEnvelope(where, bytes);
        try (Snapshot s = Codese.load(bytes, options())) {
          int before = effects();
          Object copy = s.restore();
          expectEffects(where, before, jdkEffects);
          verify(where, copy, a, jdkRef);
        }
      }
      case FILE -> {
        java.nio.file.Path dir = Files.createTempDirectory("codese-roundtrip");
        java.nio.file.Path file = dir.resolve("graph.cdse");
        try {
          Codese.write(graph, file, captureOptions());
          checkEnvelope(where, Files.readAllBytes(file));
          int before = effects();
          Object copy = Codese.read(file, options());
          expectEffects(where + " read(Path)", before, jdkEffects);
          verify(where + " read(Path)", copy, a, jdkRef);
          try (Snapshot s = Codese.load(file, options())) {
            before = effects();
            Object copy2 = s.restore();
            expectEffects(where + " load(Path)", before, jdkEffects);
            verify(where + " load(Path)", copy2, a, jdkRef);
          }
        } finally {
          Files.deleteIfExists(file);
          Files.deleteIfExists(dir);
        }
      }
      case STREAM_API -> {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Codese.write(graph, out, captureOptions());
        checkEnvelope(where, out.toByteArray());
        int before = effects();
        Object copy = Codese.read(new ByteArrayInputStream(out.toByteArray()), options());
        expectEffects(where + " read(InputStream)", before, jdkEffects);
        verify(where + " read(InputStream)", copy, a, jdkRef);
        try (Snapshot s = Codese.load(new ByteArrayInputStream(out.toByteArray()), options())) {
          before = effects();
          Object copy2 = s.restore();
          expectEffects(where + " load(InputStream)", before, jdkEffects);
          verify(where + " load(InputStream)", copy2, a, jdkRef);
        }
      }
      case OBJECT_STREAMS -> {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        // as the JDK's, the stream requires Serializable unless told otherwise
        try (ObjectOutputStream out =
            jdk == Jdk.SERIALIZABLE
                ? CodeseStreams.newOutput(bytes)
                : new CodeseOutputStream(
                    bytes, CodeseOptions.defaults().withRequireSerializable(false))) {
          out.writeObject(graph);
        }
        int before = effects();
        Object copy;
        try (ObjectInputStream in =
            new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()), options())) {
          copy = in.readObject();
        }
        expectEffects(where, before, jdkEffects);
        verify(where, copy, a, jdkRef);
      }
      default -> throw new AssertionError(p);
    }
  }

  /**
   * A load with default options admits the snapshot exactly when it needs no classes admitted;
   * otherwise it fails, before running anything, naming the classes {@code Codese.classesToAllow}
   * names. A graph JDK serialization restores needs none.
   */
  private void checkDefaultSurface(String where, byte[] snapshot) throws IOException {
    List<String> needed = Codese.classesToAllow(snapshot, CodeseOptions.defaults());
    if (jdk == Jdk.SERIALIZABLE && !needed.isEmpty()) {
      failure(where, "a Serializable graph needs classes admitted: " + needed);
    }
    int before = effects();
    try (Snapshot s = Codese.load(snapshot)) {
      if (!needed.isEmpty()) {
        failure(where, "default options loaded a snapshot that needs " + needed);
      }
    } catch (ClassNotAllowedException e) {
      if (!e.classesToAllow().equals(needed)) {
        failure(
            where,
            "the rejection asks for " + e.classesToAllow() + ", classesToAllow says " + needed);
      }
      if (!e.getMessage().contains("CodeseOptions.defaults().withAllowedClasses(")
          || !e.getMessage().contains("\"" + e.classname + "\"")) {
        failure(
            where,
            "the rejection does not give the line that admits "
                + e.classname
                + ": "
                + e.getMessage());
      }
    }
    expectEffects(where + " default-options load", before, 0);
  }

  private int effects() {
    return counter == null ? 0 : counter.getAsInt();
  }

  private void expectEffects(String where, int before, int expected) {
    if (counter == null) {
      return;
    }
    int delta = counter.getAsInt() - before;
    if (delta != expected) {
      failure(
          where,
          "side effects (e.g. constructor runs) changed the counter by "
              + delta
              + ", JDK deserialization changes it by "
              + expected
              + (where.endsWith("capture") ? " (capture must not run constructors)" : ""));
    }
  }

  private GraphWalker.Result verify(
      String where, Object copy, byte[] a, GraphWalker.Result jdkRef) {
    if (a != null) {
      try {
        tick();
        byte[] b = JdkBytes.serialize(copy);
        tock("jdk-serialize(copy)");
        String diff = JdkBytes.explainDifference(a, b);
        if (diff != null) {
          failure(where, diff);
        }
      } catch (Throwable t) {
        failure(where + " jdk-serialize(copy)", t);
      }
    }
    tick();
    GraphWalker.Result r = GraphWalker.walk(graph, copy, GraphWalker.Mode.CODESE, jdkRef);
    tock("walk");
    report.objects = r.objectCount();
    for (String f : r.failures()) {
      failure(where, f);
    }
    for (Consumer<Object> check : checks) {
      try {
        check.accept(copy);
      } catch (Throwable t) {
        failure(where + " check", t);
      }
    }
    return r;
  }

  /** Creates the Codese object streams by reflection, so that tests compile before they exist. */
  public static final class CodeseStreams {
    private CodeseStreams() {}

    /**
     * @return a new {@code org.codese.CodeseOutputStream} over {@code out}
     */
    public static ObjectOutputStream newOutput(OutputStream out) throws IOException {
      return (ObjectOutputStream) create("org.codese.CodeseOutputStream", OutputStream.class, out);
    }

    /**
     * @return a new {@code org.codese.CodeseInputStream} over {@code in}
     */
    public static ObjectInputStream newInput(InputStream in) throws IOException {
      return (ObjectInputStream) create("org.codese.CodeseInputStream", InputStream.class, in);
    }

    private static Object create(String className, Class<?> param, Object arg) throws IOException {
      Objects.requireNonNull(arg);
      try {
        return Class.forName(className).getConstructor(param).newInstance(arg);
      } catch (java.lang.reflect.InvocationTargetException e) {
        if (e.getCause() instanceof IOException io) {
          throw io;
        }
        throw new AssertionError(className + " constructor failed", e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(className + " is not available (" + e + ")", e);
      }
    }
  }
}
