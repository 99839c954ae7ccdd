package org.codese.emit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.codese.Codese;
import org.codese.CodeseOptions;
import org.codese.capture.Capturer;
import org.codese.plan.Plan;
import org.codese.plan.Planner;
import org.codese.testkit.Box;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;

/**
 * Code made once per shape: graphs planned alike share their class files, which are exactly what
 * the emitter makes of each plan; graphs planned differently do not.
 */
class CodeCacheTest {
  private static Plan plan(Object root) throws IOException {
    Capturer c = new Capturer(CodeseOptions.defaults());
    c.writeObject(root, false);
    return Planner.plan(c.drain());
  }

  /** A chain of {@code n} boxes whose values start at {@code first}. */
  private static Box chain(int n, int first) {
    Box head = null;
    for (int i = n - 1; i >= 0; i--) {
      Box b = new Box(first + i);
      b.ref = head;
      head = b;
    }
    return head;
  }

  private static void assertSameBytes(Emitted expected, Emitted actual) {
    assertEquals(expected.classFiles().size(), actual.classFiles().size());
    for (int i = 0; i < expected.classFiles().size(); i++) {
      assertArrayEquals(expected.classFiles().get(i), actual.classFiles().get(i));
    }
    assertEquals(expected.placements(), actual.placements());
  }

  @Test
  void likeGraphsShareTheirClassFiles() throws IOException {
    Plan first = plan(chain(200, 1));
    Plan second = plan(chain(200, 1_000));
    Emitted a = CodeCache.emit(first);
    Emitted b = CodeCache.emit(second);
    assertSame(a, b, "a graph of the same shape with other values gets the same class files");
    assertSameBytes(Emitter.emit(second), b);
  }

  @Test
  void unlikeGraphsGetTheirOwnClassFiles() throws IOException {
    Plan small = plan(chain(3, 1));
    Plan other = plan(new ArrayList<>(List.of(chain(3, 1), "text")));
    Emitted a = CodeCache.emit(small);
    Emitted b = CodeCache.emit(other);
    assertNotEquals(a, b);
    assertSameBytes(Emitter.emit(small), a);
    assertSameBytes(Emitter.emit(other), b);
  }

  @Test
  void aGraphCapturedAgainRestoresItsOwnValues() throws Exception {
    Box first = chain(100, 1);
    Box second = chain(100, 7_000);
    CodeseOptions options = CodeseOptions.defaults().withAllowedClasses("org.codese.testkit.*");
    Object one = Codese.load(Codese.toBytes(first), options).restore();
    Object two = Codese.load(Codese.toBytes(second), options).restore();
    assertArrayEquals(JdkBytes.serialize(first), JdkBytes.serialize(one));
    assertArrayEquals(JdkBytes.serialize(second), JdkBytes.serialize(two));
    assertEquals(7_000, ((Box) two).v);
  }

  /**
   * The key hashes a sample of each section's ops: small chains differing in one box's value (an op
   * of straight-line code) mostly differ in ops the sample skips, so their keys' hashes are equal,
   * and only the key's full comparison keeps their code apart.
   */
  @Test
  void plansDifferingInOneOpGetTheirOwnClassFiles() throws Exception {
    CodeseOptions options = CodeseOptions.defaults().withAllowedClasses("org.codese.testkit.*");
    int n = 20;
    for (int changed = 0; changed < n; changed++) {
      Box chain = chain(n, 1);
      Box b = chain;
      for (int i = 0; i < changed; i++) {
        b = (Box) b.ref;
      }
      b.v = -5;
      Plan plan = plan(chain);
      assertSameBytes(Emitter.emit(plan), CodeCache.emit(plan));
      Object restored = Codese.load(Codese.toBytes(chain), options).restore();
      assertArrayEquals(JdkBytes.serialize(chain), JdkBytes.serialize(restored));
    }
  }
}
