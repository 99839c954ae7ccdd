package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.util.function.BiConsumer;
import org.codese.Codese;
import org.codese.format.SnapshotFile;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;

/**
 * A snapshot whose code an earlier snapshot had reuses the classes defined for it, in the same host
 * class only, and only after its own checks: reuse never lets a snapshot skip one.
 */
class DefinedCodeTest {
  /** A class of this test alone, so that what is kept for it counts this test's loads only. */
  static final class Cell implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
    Cell next;
    Cell back;
  }

  /** A second such class, for the bound. */
  static final class Bounded {}

  private static Cell chain(int n, int seed) {
    Cell first = new Cell();
    Cell c = first;
    for (int i = 1; i < n; i++) {
      Cell d = new Cell();
      d.value = i * seed;
      d.back = c;
      c.next = d;
      c = d;
    }
    return first;
  }

  @Test
  void aSnapshotWithCodeLoadedBeforeDefinesNoClassAgain() throws IOException {
    byte[] small = Codese.toBytes(chain(200, 3));
    byte[] large = Codese.toBytes(chain(700, 5));
    assertEquals(
        SnapshotFile.parse(small).classFiles().size(),
        SnapshotFile.parse(large).classFiles().size());

    Object first = Codese.fromBytes(small);
    int kept = DefinedCode.kept(Cell.class);
    assertTrue(kept > 0, "the chain's code joins the nest of its class");
    Object second = Codese.fromBytes(large);

    assertEquals(kept, DefinedCode.kept(Cell.class), "the second chain defined no new class");
    assertArrayEquals(JdkBytes.serialize(chain(200, 3)), JdkBytes.serialize(first));
    assertArrayEquals(JdkBytes.serialize(chain(700, 5)), JdkBytes.serialize(second));
    Cell c = (Cell) second;
    assertSame(c, c.next.back, "links restored as links");
  }

  @Test
  void theSameCodeWithAHostileClassTableIsStillRefused() throws IOException {
    byte[] good = Codese.toBytes(chain(50, 7));
    byte[] hostile = SnapshotEdit.of(good).rename(Cell.class, "java.util.Timer").bytes();
    IOException cold = assertThrows(IOException.class, () -> Codese.load(hostile));

    Codese.fromBytes(good); // its classes are kept now
    IOException warm = assertThrows(IOException.class, () -> Codese.load(hostile));

    assertEquals(cold.getClass(), warm.getClass());
    assertEquals(cold.getMessage(), warm.getMessage());
  }

  @Test
  void onlyTheSameBytesInTheSameHostAreFound() {
    BiConsumer<Object[], Object[]> instance = (t, c) -> {};
    byte[] code = {1, 2, 3, 4};
    DefinedCode.keep(Bounded.class, code, instance);

    assertSame(instance, DefinedCode.find(Bounded.class, code.clone()));
    assertNull(DefinedCode.find(Bounded.class, new byte[] {1, 2, 3, 5}));
    assertNull(DefinedCode.find(Cell.class, code), "another host's classes are its own");
  }

  @Test
  void theLeastRecentlyUsedAreDroppedBeyondTheBound() {
    class Host {}
    BiConsumer<Object[], Object[]> instance = (t, c) -> {};
    byte[] recent = {0};
    DefinedCode.keep(Host.class, recent, instance);
    for (int i = 1; i <= DefinedCode.KEPT_PER_CLASS; i++) {
      DefinedCode.keep(Host.class, new byte[] {(byte) i}, instance);
      assertNotNull(DefinedCode.find(Host.class, recent), "used, so kept");
    }
    assertEquals(DefinedCode.KEPT_PER_CLASS, DefinedCode.kept(Host.class));
    assertNull(DefinedCode.find(Host.class, new byte[] {1}), "the least recently used went first");
  }
}
