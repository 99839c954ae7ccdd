package org.codese.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.corpus.Types.Key;
import org.codese.corpus.Types.Link;
import org.codese.corpus.Types.Pair;
import org.codese.corpus.Types.Point;
import org.junit.jupiter.api.Test;

/** The kit's own checks catch what they claim to catch (no engine involved). */
class TestkitSelfTest {

  private static List<String> walk(Object original, Object copy) {
    return GraphWalker.walk(original, copy, GraphWalker.Mode.CODESE, null).failures();
  }

  private static void expectFailure(List<String> failures, String fragment) {
    assertTrue(
        failures.stream().anyMatch(f -> f.contains(fragment)),
        "expected a failure containing '" + fragment + "', got " + failures);
  }

  @SuppressWarnings("removal")
  private static Integer newInteger(int v) {
    return new Integer(v);
  }

  @Test
  void acceptsAFaithfulCopy() throws Exception {
    Point shared = new Point(1, 2);
    Object[] original = {shared, shared, new String("s"), Integer.valueOf(5), newInteger(5)};
    Object[] copy = {new Point(1, 2), null, new String("s"), Integer.valueOf(5), newInteger(5)};
    copy[1] = copy[0];
    assertEquals(List.of(), walk(original, copy));
  }

  @Test
  void catchesTheOriginalReturned() {
    Pair p = new Pair("a", null);
    expectFailure(walk(p, p), "IS the original");
  }

  @Test
  void catchesMergedEqualStrings() {
    Object[] original = {new String("x"), new String("x")};
    String one = new String("x");
    expectFailure(walk(original, new Object[] {one, one}), "distinct objects merged");
  }

  @Test
  void catchesLostSharing() {
    Point p = new Point(1, 1);
    expectFailure(
        walk(new Object[] {p, p}, new Object[] {new Point(1, 1), new Point(1, 1)}), "sharing lost");
  }

  @Test
  void catchesCachedBoxNotCanonical() {
    expectFailure(
        walk(new Object[] {Integer.valueOf(7)}, new Object[] {newInteger(7)}), "cached box");
    expectFailure(
        walk(new Object[] {newInteger(7)}, new Object[] {Integer.valueOf(7)}),
        "box cache identity differs");
  }

  @Test
  void catchesWrongValuesAndClasses() {
    expectFailure(walk(new Point(1, 2), new Point(1, 3)), "field .y differs");
    expectFailure(walk(new Object[] {1L}, new Object[] {1}), "class differs");
    expectFailure(walk(new int[] {1, 2}, new int[] {1, 3}), "array element [1]");
    expectFailure(
        walk(new ArrayList<>(List.of("a")), new ArrayList<>(List.of("b"))), "value differs");
  }

  @Test
  void catchesStaleHashes() {
    Map<Key, String> original = new HashMap<>();
    original.put(new Key("k", 1), "v");
    // a copy whose key was mutated after insertion: iteration finds it, get() does not
    Map<Key, String> copy = new HashMap<>();
    Key k = new Key("k", 2);
    copy.put(k, "v");
    try {
      var f = Key.class.getDeclaredField("n");
      f.setAccessible(true);
      f.setInt(k, 1);
      var h = Key.class.getDeclaredField("hash");
      h.setAccessible(true);
      h.setInt(k, 0);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
    expectFailure(walk(original, copy), "cannot find its own key");
  }

  @Test
  void sharedObjectsBetweenTwoCopiesAreReported() {
    Point p = new Point(1, 1);
    Object[] original = {p};
    Point q = new Point(1, 1);
    var r1 = GraphWalker.walk(original, new Object[] {q}, GraphWalker.Mode.CODESE, null);
    var r2 = GraphWalker.walk(original, new Object[] {q}, GraphWalker.Mode.CODESE, null);
    assertTrue(!r1.sharedWith(r2, "other").isEmpty());
  }

  @Test
  void walksAMillionDeepChainWithoutRecursion() {
    Link a = null;
    Link b = null;
    for (int i = 0; i < 1_000_000; i++) {
      a = new Link(i, a);
      b = new Link(i == 3 ? -1 : i, b);
    }
    List<String> f = walk(a, b);
    assertEquals(1, f.size(), f.toString());
    assertTrue(f.get(0).contains("more steps"), "long paths are shortened: " + f.get(0));
  }

  @Test
  void bytesDiffNamesOffsetAndClasses() throws Exception {
    byte[] a = JdkBytes.serialize(new Pair(new Point(1, 2), "x"));
    byte[] b = JdkBytes.serialize(new Pair(new Point(1, 3), "x"));
    assertNull(JdkBytes.explainDifference(a, a.clone()));
    String d = JdkBytes.explainDifference(a, b);
    assertNotNull(d);
    assertTrue(d.contains("offset"), d);
    assertTrue(d.contains("Point"), d);
  }

  @Test
  void roundTripRejectsAnUnstableTestGraph() {
    // HashSet(Collection) sizes its table to 16, HashSet.readObject to 8: JDK is no oracle here
    AssertionError e =
        org.junit.jupiter.api.Assertions.assertThrows(
            AssertionError.class,
            () ->
                RoundTrip.of(new java.util.HashSet<>(List.of(1, 2, 3, 4))).name("unstable").run());
    assertTrue(e.getMessage().contains("TEST BUG"), e.getMessage());
  }

  /**
   * {@link Checksums#fixedStream} leaves a stream whose checksums are right as it is (it fixes a
   * compact segment's trailer only, not sections it does not have), and makes a segment changed
   * after writing pass the checksum, so that the change reaches the checks behind it.
   */
  @Test
  void streamChecksumsAreFixedAndOnlyThem() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = RoundTrip.CodeseStreams.newOutput(bytes)) {
      for (int i = 0; i < 4; i++) {
        out.writeObject(new ArrayList<>(List.of(new Point(i, -i), "p" + i)));
        out.writeInt(i);
      }
    }
    byte[] stream = bytes.toByteArray();
    org.junit.jupiter.api.Assertions.assertArrayEquals(stream, Checksums.fixedStream(stream));
    byte[] changed = stream.clone();
    int firstLength = java.nio.ByteBuffer.wrap(stream).getInt(6); // after the 6-byte header
    changed[10 + firstLength / 2] ^= 1; // in the first segment
    assertTrue(read(changed).contains("checksum"), read(changed));
    assertTrue(
        !read(Checksums.fixedStream(changed)).contains("checksum"),
        read(Checksums.fixedStream(changed)));
  }

  /** Reads a stream to its end: what it read, or the exception that stopped it. */
  private static String read(byte[] stream) {
    StringBuilder s = new StringBuilder();
    try (java.io.ObjectInputStream in =
        RoundTrip.CodeseStreams.newInput(new java.io.ByteArrayInputStream(stream))) {
      for (int i = 0; i < 4; i++) {
        s.append(in.readObject()).append(' ').append(in.readInt()).append(' ');
      }
    } catch (Exception e) {
      s.append(e);
    }
    return s.toString();
  }
}
