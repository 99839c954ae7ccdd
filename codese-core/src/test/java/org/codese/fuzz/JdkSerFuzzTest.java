package org.codese.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.codese.Codese;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;

/**
 * Fuzzes a converter-shaped round trip over mutated JDK serialization data ({@code .ser} files),
 * through the public API only: read the objects with {@link ObjectInputStream} under a strict
 * allow-list filter (the classes the sample graphs use, and bounds on depth, references, bytes and
 * array lengths), capture them with {@link Codese#toBytes}, restore them with {@link
 * Codese#fromBytes}, and require the restored graph to have the same JDK serialization as the one
 * read.
 *
 * <p>What the JDK does with bad input is not under test: an {@link IOException} or {@link
 * ClassNotFoundException} from the JDK reading ends the trial, and so does a RuntimeException
 * thrown there (some JDK classes' {@code readObject} methods throw those on malformed data, so a
 * converter must catch them; see {@link #jdkRuntimeExceptions}). From the Codese steps, only an
 * IOException may escape; a graph that restores differently, a hang or an {@link OutOfMemoryError}
 * anywhere is a finding.
 *
 * <p>Corpus: {@code src/test/resources/org/codese/fuzz/JdkSerFuzzTestInputs/convertRoundTrip}.
 */
class JdkSerFuzzTest {
  /** The classes the sample graphs' JDK serialization names, found once by reading them. */
  static final Set<Class<?>> ALLOWED = allowedClasses();

  /** Counts the RuntimeExceptions the JDK's own reading threw (not findings; for the record). */
  static long jdkRuntimeExceptions;

  private static Set<Class<?>> allowedClasses() {
    Set<Class<?>> seen = new HashSet<>();
    ObjectInputFilter record =
        info -> {
          Class<?> c = info.serialClass();
          while (c != null && c.isArray()) {
            c = c.getComponentType();
          }
          if (c != null && !c.isPrimitive()) {
            seen.add(c);
          }
          return ObjectInputFilter.Status.UNDECIDED;
        };
    try {
      for (Object graph : seedGraphs()) {
        ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(jdkBytes(graph)));
        in.setObjectInputFilter(record);
        in.readObject();
      }
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("the sample graphs do not read back", e);
    }
    return Set.copyOf(seen);
  }

  /**
   * @return the graphs the seeds of this target are made of
   */
  static List<Object> seedGraphs() {
    return List.of(
        RedBlackTree.random(1, 1),
        RedBlackTree.random(12, 7),
        SampleGraphs.jdkCollections(),
        new java.util.ArrayList<>(List.of(1, "two", 3L)),
        new java.util.HashMap<>(java.util.Map.of("a", 1, "b", 2.5)),
        new java.util.TreeMap<>(java.util.Map.of(3, "c", 1, "a")),
        new java.util.LinkedList<>(List.of('x', (short) 2, (byte) 3, true, 1.5f)),
        new int[] {1, 2, 3},
        new String[] {"a", null, "a"});
  }

  /** The filter a converter would use: the allow-list, and bounds on the stream's shape. */
  static final ObjectInputFilter FILTER =
      info -> {
        if (info.depth() > 200
            || info.references() > 100_000
            || info.streamBytes() > 4_000_000
            || info.arrayLength() > 100_000) {
          return ObjectInputFilter.Status.REJECTED;
        }
        Class<?> c = info.serialClass();
        if (c == null) {
          return ObjectInputFilter.Status.UNDECIDED;
        }
        while (c.isArray()) {
          c = c.getComponentType();
        }
        return c.isPrimitive() || ALLOWED.contains(c)
            ? ObjectInputFilter.Status.ALLOWED
            : ObjectInputFilter.Status.REJECTED;
      };

  static byte[] jdkBytes(Object graph) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(buffer)) {
      out.writeObject(graph);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.toByteArray();
  }

  /** Reads one object as the converter would; {@code null} with {@code ok[0] false} if refused. */
  private static Object jdkRead(byte[] data, boolean[] ok) {
    try {
      ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(data));
      in.setObjectInputFilter(FILTER);
      Object o = in.readObject();
      ok[0] = true;
      return o;
    } catch (IOException | ClassNotFoundException e) {
      return null;
    } catch (RuntimeException e) {
      synchronized (JdkSerFuzzTest.class) {
        jdkRuntimeExceptions++;
      }
      return null;
    }
  }

  /**
   * @return whether {@code rounds} JDK round trips of {@code bytes} all give them back
   */
  private static boolean jdkStable(byte[] bytes, int rounds) {
    for (int i = 0; i < rounds; i++) {
      boolean[] ok = new boolean[1];
      Object o = jdkRead(bytes, ok);
      if (!ok[0] || !Arrays.equals(bytes, jdkBytes(o))) {
        return false;
      }
    }
    return true;
  }

  @FuzzTest(maxDuration = "5m")
  void convertRoundTrip(byte[] data) {
    FuzzSupport.run(
        "JDK read + Codese round trip",
        () -> {
          boolean[] ok = new boolean[1];
          Object read = jdkRead(data, ok);
          if (!ok[0]) {
            return null;
          }
          byte[] expected;
          boolean stable;
          try {
            expected = jdkBytes(read);
            boolean[] again = new boolean[1];
            Object reread = jdkRead(expected, again);
            stable = again[0] && Arrays.equals(expected, jdkBytes(reread));
          } catch (RuntimeException e) {
            // the JDK cannot write back what it read: not Codese's business
            return null;
          }
          byte[] snapshot = Codese.toBytes(read);
          Object restored = Codese.fromBytes(snapshot);
          // the JDK's own round trip of some graphs is not stable (identity hash codes, of arrays
          // or
          // of objects without their own hashCode, decide the order of a hashed collection):
          // compare
          // only where it is, checked again on a difference since one round trip may agree by
          // chance
          if (stable && !Arrays.equals(expected, jdkBytes(restored)) && jdkStable(expected, 8)) {
            throw new AssertionError(
                "the restored graph's JDK serialization differs from the one"
                    + " read ("
                    + expected.length
                    + " bytes, root "
                    + read.getClass().getName()
                    + ")");
          }
          return null;
        });
  }
}
