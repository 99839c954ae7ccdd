package org.codese.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import org.codese.Codese;
import org.junit.jupiter.api.Test;

/**
 * Reproducers of what fuzzing (and the checks around it) found, one test per finding, with the
 * input under {@code src/test/resources/org/codese/fuzz/findings/}. A new one stays
 * {@code @Disabled} until the core is fixed, so that the build stays green; once it passes, its
 * input also goes into the fuzz test's corpus directory, where every build replays it.
 */
class FindingsTest {

  static byte[] input(String name) throws IOException {
    try (InputStream in = FindingsTest.class.getResourceAsStream("findings/" + name)) {
      assertNotNull(in, "missing resource findings/" + name);
      return in.readAllBytes();
    }
  }

  /** Requires a typed rejection that is not an OutOfMemoryError or StackOverflowError wrapped. */
  static void assertCleanRejection(ThrowingRunnable r) {
    IOException e = assertThrows(IOException.class, r::run);
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      if (c instanceof VirtualMachineError) {
        fail("rejected only after " + c + ", reported as " + e, e);
      }
    }
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  /**
   * Finding 1: memory amplification. A 1,116-byte snapshot, with valid checksums and code inside
   * the restore grammar, creates eight {@code long[1 << 27]} arrays (8 GiB) under the default
   * limits: each array length is within {@code CodeseLimits.maxArrayLength} (2^27), and a
   * zero-filled array costs no bytes of the file, so nothing bounds the memory a restore allocates
   * by the size of the snapshot (or by {@code maxBytes}). With {@code -Xmx3g} the restore dies of
   * {@code OutOfMemoryError}, which {@code LoadedSnapshot.restoreInto} then wraps in a {@code
   * RestoreException}. Made by capturing {@code new Object[] {new long[0xABCDE], ...8 times}} (the
   * length is emitted once) and replacing the int {@code 0xABCDE} by {@code 1 << 27}, then
   * recomputing the checksums. Fixed on main by counting all arrays of a snapshot together against
   * the array limit; the input is also in the fuzz corpus.
   */
  @Test
  void finding1ZeroFilledArraysAmplifyMemory() throws IOException {
    byte[] snapshot = input("finding-1-zero-filled-arrays");
    assertCleanRejection(() -> Codese.fromBytes(snapshot));
  }

  /**
   * Finding 2: an {@link java.io.ObjectStreamClass} is captured and restored as a plain object. A
   * {@code .ser} file whose top-level item is a class descriptor ({@code TC_CLASSDESC}, here of
   * {@code int[]}, which an allow-list filter accepts) reads back as an {@code ObjectStreamClass};
   * {@code Codese.toBytes} captures it without complaint and {@code Codese.fromBytes} returns an
   * uninitialized {@code ObjectStreamClass}, on which every use fails with {@code
   * java.lang.InternalError: Unexpected call when not initialized} (here: writing it with {@code
   * ObjectOutputStream}). Either capture should refuse it with a {@code CaptureException}, or
   * restore should give the descriptor of the same class ({@code ObjectStreamClass.lookup}), as JDK
   * serialization does. The fuzzer's input is {@code
   * findings/finding-2-object-stream-class.ser-data}; the test uses the equivalent {@code
   * ObjectStreamClass.lookup(int[].class)}. Fixed on main: capture takes the descriptor and restore
   * gives a working descriptor of the same class, built as {@code ObjectInputStream} builds one it
   * reads back ({@code StreamDescriptors}), which this test asserts; the input is also in the fuzz
   * corpus.
   */
  @Test
  void finding2ObjectStreamClassRestoresBroken() throws Exception {
    Object descriptor;
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(
            new java.io.ByteArrayInputStream(input("finding-2-object-stream-class.ser-data")))) {
      descriptor = in.readObject();
    }
    org.junit.jupiter.api.Assertions.assertInstanceOf(java.io.ObjectStreamClass.class, descriptor);
    for (Object osc : new Object[] {descriptor, java.io.ObjectStreamClass.lookup(int[].class)}) {
      // the fix on main: capture takes the descriptor; restore gives a working descriptor of the
      // same class, as ObjectInputStream reads one back (not lookup's own, JOSS 4.1)
      Object restored = Codese.fromBytes(Codese.toBytes(osc));
      org.junit.jupiter.api.Assertions.assertEquals(
          int[].class, ((java.io.ObjectStreamClass) restored).forClass());
      org.junit.jupiter.api.Assertions.assertNotSame(
          java.io.ObjectStreamClass.lookupAny(int[].class), restored);
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          JdkSerFuzzTest.jdkBytes(osc), JdkSerFuzzTest.jdkBytes(restored));
    }
  }
}
