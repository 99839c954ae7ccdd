package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public API's contracts beyond the round trip itself. */
class ApiTest {

  /** A class with a static field that a restore must not write. */
  static final class StaticState implements Serializable {
    private static final long serialVersionUID = 1L;
    static int global = 1;
    int local;
  }

  @Test
  void restoreDoesNotWriteStaticFields() throws Exception {
    StaticState.global = 1;
    StaticState s = new StaticState();
    s.local = 5;
    byte[] snapshot = Codese.toBytes(s);
    StaticState.global = 2;
    StaticState copy = (StaticState) Codese.fromBytes(snapshot);
    assertEquals(5, copy.local);
    assertEquals(2, StaticState.global, "restore wrote a static field");
  }

  @Test
  void nullRoot() throws Exception {
    assertNull(Codese.fromBytes(Codese.toBytes(null)));
    try (Snapshot s = Snapshot.capture(null)) {
      assertNull(s.restore());
      assertNull(s.restore(2));
    }
  }

  @Test
  void closedSnapshotRefusesToRestoreButKeepsRestoredGraphs() throws Exception {
    Snapshot s = Snapshot.capture(RedBlackTree.random(50, 1));
    RedBlackTree before = (RedBlackTree) s.restore();
    s.close();
    assertThrows(IOException.class, s::restore);
    s.close();
    assertTrue(before.isValid());
  }

  @Test
  void invalidThreadCounts() throws Exception {
    assertThrows(
        IllegalArgumentException.class, () -> CodeseOptions.defaults().withRestoreThreads(0));
    try (Snapshot s = Snapshot.capture("x")) {
      assertThrows(IllegalArgumentException.class, () -> s.restore(0));
      assertEquals("x", s.restore(64), "more threads than objects");
    }
  }

  @Test
  void optionsAreImmutable() {
    CodeseOptions d = CodeseOptions.defaults();
    CodeseOptions strict = d.withRequireSerializable(true).withRestoreThreads(3);
    assertEquals(false, d.requireSerializable());
    assertEquals(1, d.restoreThreads());
    assertEquals(true, strict.requireSerializable());
    assertEquals(3, strict.restoreThreads());
    assertEquals(strict, d.withRestoreThreads(3).withRequireSerializable(true));
  }

  /**
   * Options equal by {@code equals} have equal hashes: the signing key is compared, and hashed, by
   * its bytes (issue 12: it was hashed by the array's identity), and so are the allowed classes and
   * limits; the class loader and the filter are the same objects.
   */
  @Test
  void equalOptionsHaveEqualHashes() {
    byte[] key = "0123456789abcdef0123".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    ObjectInputFilter filter = info -> ObjectInputFilter.Status.UNDECIDED;
    ClassLoader loader = ApiTest.class.getClassLoader();
    java.util.function.Supplier<CodeseOptions> make =
        () ->
            CodeseOptions.defaults()
                .withSigningKey(key.clone())
                .withAllowedClasses("com.example.*")
                .withLimits(CodeseLimits.defaults().withMaxObjects(77))
                .withObjectInputFilter(filter)
                .withClassLoader(loader)
                .withRestoreThreads(2);
    CodeseOptions a = make.get();
    CodeseOptions b = make.get();
    assertNotSame(a, b);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(a, a.withSigningKey(key.clone()));
    assertEquals(a.hashCode(), a.withSigningKey(key.clone()).hashCode());
    byte[] other = key.clone();
    other[0]++;
    assertNotEquals(a, a.withSigningKey(other));
    assertNotEquals(a, a.withSigningKey(null));
    assertNotEquals(a, a.withObjectInputFilter(info -> ObjectInputFilter.Status.UNDECIDED));
  }

  @Test
  void writeToFileLeavesNoTemporaryFiles(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tree.cdse");
    Codese.write(RedBlackTree.random(100, 2), file);
    Codese.write(RedBlackTree.random(10, 2), file);
    try (var files = Files.list(dir)) {
      assertEquals(List.of(file), files.toList());
    }
    assertEquals(10, ((RedBlackTree) Codese.read(file)).size());
  }

  @Test
  void snapshotBytesAndWriteToAgree() throws Exception {
    try (Snapshot s = Snapshot.capture(RedBlackTree.random(30, 3))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      s.writeTo(out);
      assertArrayEquals(s.toBytes(), out.toByteArray());
    }
  }

  @Test
  void manyThreadsRestoreOneSnapshotAtOnce() throws Exception {
    RedBlackTree t = RedBlackTree.random(2000, 4);
    byte[] expected = JdkBytes.serialize(t);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (Snapshot s = Snapshot.capture(t)) {
      List<Future<Object>> results = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        int threads = 1 + i % 2;
        results.add(pool.submit(() -> s.restore(threads)));
      }
      Object previous = null;
      for (Future<Object> f : results) {
        Object copy = f.get();
        assertNotSame(previous, copy);
        assertArrayEquals(expected, JdkBytes.serialize(copy));
        previous = copy;
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void restoringManyTimesStaysCorrect() throws Exception {
    // past the JIT's compile thresholds: compiled restore code must give the same graph
    RedBlackTree t = RedBlackTree.random(300, 5);
    byte[] expected = JdkBytes.serialize(t);
    try (Snapshot s = Snapshot.capture(t)) {
      for (int i = 0; i < 3000; i++) {
        Object copy = s.restore();
        if (i % 500 == 0 || i == 2999) {
          assertArrayEquals(expected, JdkBytes.serialize(copy), "restore #" + i);
        }
      }
    }
  }
}
