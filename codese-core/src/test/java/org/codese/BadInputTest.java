package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.codese.corpus.Types.Ext;
import org.codese.corpus.Types.Line;
import org.codese.corpus.Types.Plain;
import org.codese.corpus.Types.Point;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.Checksums;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.OlderFormats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a user can get wrong: objects that cannot be captured, and damaged or crafted snapshots.
 * Every failure must be a typed {@link IOException}; never a RuntimeException, an Error, an
 * OutOfMemoryError or a hang; but for a {@code VirtualMachineError} that a class's own restore code
 * throws (a {@code readExternal} that sizes an array by a damaged count), which leaves as it is, as
 * from {@code ObjectInputStream}.
 */
class BadInputTest {

  /** A non-serializable holder with an array of items, so that paths read root.items[i]. */
  static final class Holder {
    Object[] items;
    List<Object> list;

    Holder(Object... items) {
      this.items = items;
    }
  }

  /** A serializable class whose readObject fails. */
  static final class FailsOnRead implements Serializable {
    private static final long serialVersionUID = 1L;
    int x = 1;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      throw new IllegalStateException("readObject refuses");
    }
  }

  /** A serializable class whose readResolve fails. */
  static final class FailsOnResolve implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object readResolve() {
      throw new IllegalStateException("readResolve refuses");
    }
  }

  /**
   * Names in {@code serialPersistentFields} a field it does not declare, and has no {@code
   * writeObject}: the default field writing cannot write it.
   */
  static final class UnbackedDefault implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final java.io.ObjectStreamField[] serialPersistentFields = {
      new java.io.ObjectStreamField("real", int.class),
      new java.io.ObjectStreamField("ghost", String.class)
    };
    int real = 1;
  }

  /** Writes its fields twice with {@code defaultWriteObject}, letting the failure propagate. */
  static final class WritesFieldsTwice implements Serializable {
    private static final long serialVersionUID = 1L;
    int x = 1;

    private void writeObject(java.io.ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.defaultWriteObject();
    }
  }

  // ------------------------------------------------------------------ capture errors

  @Test
  void unbackedSerialPersistentFieldsAreRefusedAsTheJdkRefusesThem() throws Exception {
    Holder h = new Holder("ok", new UnbackedDefault());
    assertThrows(
        java.io.InvalidClassException.class,
        () ->
            new java.io.ObjectOutputStream(new java.io.ByteArrayOutputStream())
                .writeObject(new UnbackedDefault()));
    java.io.InvalidClassException e =
        assertThrows(java.io.InvalidClassException.class, () -> Codese.toBytes(h));
    assertEquals(UnbackedDefault.class.getName(), e.classname);
    for (String part :
        List.of(
            "unmatched serializable field(s) declared", "ghost", "root.items[1]", "putFields")) {
      assertTrue(e.getMessage().contains(part), "lacks " + part + ": " + e.getMessage());
    }
  }

  @Test
  void fieldsWrittenTwiceInWriteObjectAreRefusedAsTheJdkRefusesThem() throws Exception {
    Holder h = new Holder(new WritesFieldsTwice());
    assertThrows(
        java.io.NotActiveException.class,
        () ->
            new java.io.ObjectOutputStream(new java.io.ByteArrayOutputStream())
                .writeObject(new WritesFieldsTwice()));
    java.io.NotActiveException e =
        assertThrows(java.io.NotActiveException.class, () -> Codese.toBytes(h));
    for (String part :
        List.of("defaultWriteObject", WritesFieldsTwice.class.getName(), "root.items[0]", "once")) {
      assertTrue(e.getMessage().contains(part), "lacks " + part + ": " + e.getMessage());
    }
  }

  @Test
  void threadInGraphNamesPathAndClass() {
    Thread t = new Thread(() -> {});
    Holder h = new Holder("ok", t, "after");
    CaptureException e = assertThrows(CaptureException.class, () -> Codese.toBytes(h));
    assertTrue(
        e.getMessage().contains("root.items[1]"), "message lacks the path: " + e.getMessage());
    assertTrue(e.getMessage().contains("Thread"), "message lacks Thread: " + e.getMessage());
    assertEquals("root.items[1]", e.path());
    assertEquals(Thread.class.getName(), e.className());
  }

  /** Writes a string, then the object it holds, with its own writeObject. */
  static final class WritesTwoObjects implements Serializable {
    private static final long serialVersionUID = 1L;
    transient Object second;

    WritesTwoObjects(Object second) {
      this.second = second;
    }

    private void writeObject(java.io.ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeObject("first");
      out.writeObject(second);
    }
  }

  /** Writes a string, then the object it holds, with writeExternal. */
  public static final class ExternalHolder implements java.io.Externalizable {
    private static final long serialVersionUID = 1L;
    transient Object second;

    public ExternalHolder() {}

    ExternalHolder(Object second) {
      this.second = second;
    }

    @Override
    public void writeExternal(java.io.ObjectOutput out) throws IOException {
      out.writeObject("first");
      out.writeObject(second);
    }

    @Override
    public void readExternal(java.io.ObjectInput in) {}
  }

  @Test
  void pathsNameLargeIndicesAndObjectsWrittenByTheClassesOwnMethods() {
    Object[] many = new Object[300];
    many[250] = Thread.currentThread();
    assertEquals(
        "root.items[0][250]",
        assertThrows(CaptureException.class, () -> Codese.toBytes(new Holder((Object) many)))
            .path());
    Holder inList = new Holder();
    inList.list = new ArrayList<>(java.util.Collections.nCopies(300, "x"));
    inList.list.set(299, Thread.currentThread());
    assertEquals(
        "root.list[299]",
        assertThrows(CaptureException.class, () -> Codese.toBytes(inList)).path());
    assertEquals(
        "root.items[0].<writeObject object 1>",
        assertThrows(
                CaptureException.class,
                () -> Codese.toBytes(new Holder(new WritesTwoObjects(Thread.currentThread()))))
            .path());
    assertEquals(
        "root.items[0].<writeExternal object 1>",
        assertThrows(
                CaptureException.class,
                () -> Codese.toBytes(new Holder(new ExternalHolder(Thread.currentThread()))))
            .path());
  }

  @Test
  void closedJdkClassNamesTheAddOpensFlag() {
    org.codese.corpus.Types.OptionalHolder h = new org.codese.corpus.Types.OptionalHolder();
    h.name = java.util.Optional.of("name");
    CaptureException e = assertThrows(CaptureException.class, () -> Codese.toBytes(h));
    assertEquals("root.name", e.path());
    assertEquals(java.util.Optional.class.getName(), e.className());
    assertTrue(
        e.getMessage().contains("--add-opens java.base/java.util=ALL-UNNAMED"), e.getMessage());
  }

  @Test
  void threadDeepInGraphAlsoThroughSnapshotCapture() {
    Holder inner = new Holder(1, 2, 3, Thread.currentThread());
    Holder outer = new Holder("x", inner);
    CaptureException e = assertThrows(CaptureException.class, () -> Snapshot.capture(outer));
    assertTrue(e.getMessage().contains("Thread"), e.getMessage());
    assertTrue(e.path().startsWith("root.items[1]"), "path " + e.path());
    assertTrue(e.path().endsWith("items[3]"), "path " + e.path());
  }

  @Test
  void threadInsideAJdkCollection() {
    Holder h = new Holder();
    h.list = new ArrayList<>(List.of("a", Thread.currentThread()));
    CaptureException e = assertThrows(CaptureException.class, () -> Codese.toBytes(h));
    assertTrue(e.getMessage().contains("Thread"), e.getMessage());
    assertTrue(e.path().startsWith("root.list"), "path " + e.path());
  }

  @Test
  void nonSerializableLambdaIsRejectedNamingLambda() {
    Runnable r = () -> System.out.println("not serializable");
    Holder h = new Holder("a", r);
    CaptureException e = assertThrows(CaptureException.class, () -> Codese.toBytes(h));
    assertTrue(e.getMessage().toLowerCase().contains("lambda"), e.getMessage());
    assertTrue(e.getMessage().contains("root.items[1]"), e.getMessage());
  }

  @Test
  void serializableLambdaRoundTripsAndRuns() throws Exception {
    Supplier<String> s = (Supplier<String> & Serializable) () -> "from lambda";
    @SuppressWarnings("unchecked")
    Supplier<String> copy = (Supplier<String>) Codese.fromBytes(Codese.toBytes(s));
    assertEquals("from lambda", copy.get());
  }

  @Test
  void closedJdkClassGivesAddOpensHint() {
    Holder h = new Holder(java.util.OptionalInt.of(3));
    CaptureException e = assertThrows(CaptureException.class, () -> Codese.toBytes(h));
    assertTrue(e.getMessage().contains("--add-opens"), e.getMessage());
  }

  @Test
  void requireSerializableRejectsPlainClass() {
    Holder h = new Holder(new Point(1, 2), new Plain(1, "plain"));
    CodeseOptions strict = CodeseOptions.defaults().withRequireSerializable(true);
    NotSerializableException e =
        assertThrows(NotSerializableException.class, () -> Snapshot.capture(h, strict));
    assertTrue(
        e.getMessage().contains(Holder.class.getName())
            || e.getMessage().contains(Holder.class.getSimpleName()),
        e.getMessage());
    NotSerializableException e2 =
        assertThrows(
            NotSerializableException.class,
            () -> Snapshot.capture(new Object[] {new Plain(1, "p")}, strict));
    assertTrue(e2.getMessage().contains("Plain"), e2.getMessage());
  }

  @Test
  void requireSerializableAcceptsSerializableGraph() throws Exception {
    CodeseOptions strict = CodeseOptions.defaults().withRequireSerializable(true);
    try (Snapshot s = Snapshot.capture(RedBlackTree.random(100, 1), strict)) {
      assertTrue(((RedBlackTree) s.restore()).isValid());
    }
  }

  // ------------------------------------------------------------------ restore hook errors

  @Test
  void failingReadObjectGivesRestoreException() throws Exception {
    byte[] snapshot = Codese.toBytes(new Object[] {"a", new FailsOnRead()});
    RestoreException e = assertThrows(RestoreException.class, () -> Codese.fromBytes(snapshot));
    assertTrue(hasCause(e, IllegalStateException.class), "cause kept: " + e);
  }

  @Test
  void failingReadResolveGivesRestoreException() throws Exception {
    byte[] snapshot = Codese.toBytes(List.of(new FailsOnResolve()));
    RestoreException e = assertThrows(RestoreException.class, () -> Codese.fromBytes(snapshot));
    assertTrue(hasCause(e, IllegalStateException.class), "cause kept: " + e);
  }

  private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  // ------------------------------------------------------------------ damaged snapshots

  private static byte[] sample;

  /**
   * {@link #sample} in format 8, the newest with sections of tag, length and checksum, whose
   * lengths and payloads the tests that change sections change (format 9 compresses most of a
   * snapshot: {@code format.PackedFormTest} changes its inflated block).
   */
  private static byte[] sectioned;

  /** A small snapshot with many kinds of content: classes, constants, hooks, cycles. */
  @BeforeAll
  static void makeSample() throws IOException {
    Map<String, Object> m = new HashMap<>();
    m.put("tree", RedBlackTree.random(12, 3));
    m.put("line", new Line(new Point(1, 2), new Point(3, 4), "l\u00e9"));
    m.put("ext", new Ext(5, "ext", List.of(1, 2)));
    m.put("arr", new long[] {1, 2, Long.MAX_VALUE});
    m.put("str", "x".repeat(100));
    sample = Codese.toBytes(m);
    sectioned = OlderFormats.sectioned(sample);
  }

  private static ExecutorService pool = newPool();

  private static ExecutorService newPool() {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, "bad-input-trial");
          t.setDaemon(true);
          return t;
        });
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  /** Outcome of feeding one damaged snapshot to the loader. */
  private record Outcome(Object restored, Throwable thrown, boolean hung) {}

  /** Loads and restores {@code bytes} on another thread, with a time limit. */
  private static Outcome attempt(byte[] bytes) {
    Future<Object> f =
        pool.submit(
            () -> {
              try (Snapshot s = Codese.load(bytes)) {
                return s.restore();
              }
            });
    try {
      return new Outcome(f.get(20, TimeUnit.SECONDS), null, false);
    } catch (ExecutionException e) {
      return new Outcome(null, e.getCause(), false);
    } catch (TimeoutException e) {
      f.cancel(true);
      pool.shutdownNow();
      pool = newPool();
      return new Outcome(null, null, true);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Collects violations over many damaged inputs and fails once, listing examples. */
  private static final class Violations {
    final List<String> list = new ArrayList<>();
    int trials;

    void add(String what) {
      list.add(what);
    }

    void assertNone(String experiment) {
      if (!list.isEmpty()) {
        fail(
            experiment
                + ": "
                + list.size()
                + " of "
                + trials
                + " damaged snapshots were not"
                + " reported as an IOException; first ones:\n  "
                + String.join("\n  ", list.subList(0, Math.min(12, list.size()))));
      }
    }
  }

  /**
   * Requires an IOException subtype. When {@code mayRestore}, a clean restore is also accepted (a
   * crafted snapshot whose checksums were recomputed may still be a valid one).
   */
  private static void judge(
      Violations v, String label, byte[] bytes, boolean mayRestore, int length) {
    v.trials++;
    if (System.getenv("CODESE_TRACE") != null) {
      System.err.println("TRIAL " + label);
      System.err.flush();
    }
    Outcome o = attempt(bytes);
    if (o.hung) {
      v.add(label + ": no answer within 20 s (hang)");
    } else if (o.thrown == null) {
      if (!mayRestore) {
        v.add(label + ": was accepted and restored " + describe(o.restored));
      }
    } else if (o.thrown instanceof VirtualMachineError && ownCode(o.thrown)) {
      return; // a class's own readExternal sized an array by damaged data, as with the JDK
    } else if (!(o.thrown instanceof IOException)) {
      v.add(label + ": threw " + o.thrown + " at " + top(o.thrown));
    } else if (o.thrown instanceof CorruptSnapshotException c
        && (c.offset() < 0 || c.offset() > length)) {
      v.add(
          label
              + ": CorruptSnapshotException offset "
              + c.offset()
              + " outside [0, "
              + length
              + "]");
    }
  }

  private static String describe(Object o) {
    return o == null ? "null" : o.getClass().getName();
  }

  /**
   * Whether {@code t} was thrown by a class's own restore code: its first frame outside the JDK is
   * in one of the corpus's classes. {@code ObjectInputStream} lets such a {@code
   * VirtualMachineError} through as it is, and so does Codese (issue 12).
   */
  private static boolean ownCode(Throwable t) {
    for (StackTraceElement f : t.getStackTrace()) {
      String c = f.getClassName();
      if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) {
        return c.startsWith("org.codese.corpus.");
      }
    }
    return false;
  }

  private static String top(Throwable t) {
    StackTraceElement[] st = t.getStackTrace();
    return st.length == 0 ? "?" : st[0].toString();
  }

  @Test
  void sampleIsValid() throws Exception {
    Object copy = Codese.fromBytes(sample);
    assertTrue(copy instanceof Map);
  }

  @Test
  void truncatedAtManyOffsets() {
    assertTimeoutPreemptively(
        Duration.ofMinutes(3),
        () -> {
          Violations v = new Violations();
          for (int cut : offsets(sample.length, 400)) {
            judge(v, "cut to " + cut + " bytes", Arrays.copyOf(sample, cut), false, cut);
          }
          v.assertNone("truncated snapshots (length " + sample.length + ")");
        });
  }

  @Test
  void flippedBytesAtManyOffsets() {
    assertTimeoutPreemptively(
        Duration.ofMinutes(3),
        () -> {
          Violations v = new Violations();
          for (int at : offsets(sample.length - 1, 600)) {
            for (int mask : new int[] {0xff, 0x01, 0x80}) {
              byte[] b = sample.clone();
              b[at] ^= (byte) mask;
              judge(v, "byte " + at + " ^ 0x" + Integer.toHexString(mask), b, false, b.length);
            }
          }
          v.assertNone("flipped bytes");
        });
  }

  @Test
  void garbageAndForeignInput() {
    Violations v = new Violations();
    judge(v, "empty", new byte[0], false, 0);
    judge(v, "one byte", new byte[] {0x43}, false, 1);
    judge(v, "magic only", Arrays.copyOf(sample, 4), false, 4);
    judge(v, "header only", Arrays.copyOf(sample, 10), false, 10);
    Random r = new Random(7);
    for (int i = 0; i < 20; i++) {
      byte[] b = new byte[r.nextInt(3000) + 1];
      r.nextBytes(b);
      judge(v, "random " + b.length + " bytes", b, false, b.length);
      byte[] keepHeader = b.clone();
      System.arraycopy(sample, 0, keepHeader, 0, Math.min(6, keepHeader.length));
      judge(v, "magic+version then random " + b.length + " bytes", keepHeader, false, b.length);
    }
    try {
      byte[] ser = JdkBytes.serialize(new ArrayList<>(List.of(1, 2)));
      judge(v, "a JDK serialization stream", ser, false, ser.length);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    byte[] twice = new byte[sample.length * 2];
    System.arraycopy(sample, 0, twice, 0, sample.length);
    System.arraycopy(sample, 0, twice, sample.length, sample.length);
    judge(v, "two snapshots back to back", twice, false, twice.length);
    v.assertNone("garbage input");
    assertThrows(IOException.class, () -> Codese.read(new ByteArrayInputStream(new byte[3])));
  }

  // ------------------------------------------------------------------ crafted snapshots

  /**
   * The section layout as documented in {@code org.codese.format.SnapshotFile}: magic (4), version
   * (2), then five sections of tag (1), length (4), CRC-32C (4) and payload; last a CRC-32C of
   * everything before it. Returns {start, length} of each payload.
   */
  private static List<int[]> sections(byte[] b) {
    List<int[]> out = new ArrayList<>();
    ByteBuffer buf = ByteBuffer.wrap(b);
    int pos = 6;
    while (pos + 9 <= b.length - 4) {
      int len = buf.getInt(pos + 1);
      out.add(new int[] {pos + 9, len});
      pos += 9 + len;
    }
    assertEquals(b.length - 4, pos, "test's reading of the documented layout is off");
    return out;
  }

  /** Recomputes every section checksum and the trailer, so that the damage passes them. */
  private static byte[] rechecksum(byte[] b) {
    return Checksums.fixInPlace(b);
  }

  @Test
  void sectionClaimingHugeLengthIsRejected() {
    List<int[]> secs = sections(sectioned);
    Violations v = new Violations();
    for (int s = 0; s < secs.size(); s++) {
      for (int lie : new int[] {0x7fffffff, -1, 0x40000000, secs.get(s)[1] + 1}) {
        byte[] b = sectioned.clone();
        ByteBuffer.wrap(b).putInt(secs.get(s)[0] - 8, lie);
        judge(v, "section " + s + " claims length " + lie, rechecksum(b), false, b.length);
      }
    }
    v.assertNone("lying section lengths");
  }

  /**
   * Counts and lengths inside the payloads lie (huge, negative), with every checksum recomputed so
   * that only the parser's own range checks stand between the lie and an OutOfMemoryError.
   */
  @Test
  void lyingLengthsInsidePayloadsWithValidChecksums() {
    assertTimeoutPreemptively(
        Duration.ofMinutes(4),
        () -> {
          Violations v = new Violations();
          for (int[] sec : sections(sectioned)) {
            int stride = sec[1] > 1500 ? sec[1] / 500 : 1;
            for (int at = sec[0]; at + 4 <= sec[0] + sec[1]; at += stride) {
              for (int lie : new int[] {0x7fffffff, 0xfffffff0, 0x00ffffff}) {
                byte[] b = sectioned.clone();
                ByteBuffer.wrap(b).putInt(at, lie);
                judge(
                    v,
                    "u4 at " + at + " := 0x" + Integer.toHexString(lie),
                    rechecksum(b),
                    true,
                    b.length);
              }
            }
          }
          v.assertNone("lying lengths with valid checksums");
        });
  }

  /**
   * Single flipped bytes with valid checksums: the loader's verification (format, class files, the
   * restore grammar) must answer with an IOException or a restore, never anything else.
   */
  @Test
  void flippedBytesWithValidChecksums() {
    assertTimeoutPreemptively(
        Duration.ofMinutes(4),
        () -> {
          Violations v = new Violations();
          for (int[] sec : sections(sectioned)) {
            int stride = sec[1] > 1500 ? sec[1] / 500 : 1;
            for (int at = sec[0]; at < sec[0] + sec[1]; at += stride) {
              byte[] b = sectioned.clone();
              b[at] ^= (byte) 0x5a;
              judge(v, "byte " + at + " ^ 0x5a", rechecksum(b), true, b.length);
            }
          }
          v.assertNone("flipped bytes with valid checksums");
        });
  }

  /** All offsets below {@code dense}, then about {@code dense} more spread over the rest. */
  private static int[] offsets(int length, int dense) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < Math.min(length, dense); i++) {
      out.add(i);
    }
    if (length > dense) {
      int step = Math.max(1, (length - dense) / dense);
      for (int i = dense; i < length; i += step) {
        out.add(i);
      }
      for (int i = Math.max(dense, length - 16); i < length; i++) {
        if (!out.contains(i)) {
          out.add(i);
        }
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }
}
