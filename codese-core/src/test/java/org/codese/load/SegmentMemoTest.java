package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.function.BiConsumer;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.codese.verify.GrammarCheck;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

/**
 * What the loader keeps between the segments of one stream is found only by the same bytes for
 * a host of the same name, and used only in the same host class: a later segment cannot make the
 * loader skip the check of code it did not check.
 */
class SegmentMemoTest {
  private static final GrammarCheck.Checked CHECKED =
      new GrammarCheck.Checked(List.of(), List.of(), 0, 0);
  private static final BiConsumer<Object[], Object[]> INSTANCE = (t, c) -> { };

  private static SnapshotFile file(byte[] code, int host) {
    return new SnapshotFile("", 0, 0, 0,
        List.of(new ClassEntry("x.Host", List.of(), 0, false)), List.of(), List.of(code),
        List.<int[]>of(new int[] {1, host}), new Tape(new byte[0], new int[0]));
  }

  private static SnapshotFile renamedHost(byte[] code) {
    return new SnapshotFile("", 0, 0, 0,
        List.of(new ClassEntry("y.Host", List.of(), 0, false)), List.of(), List.of(code),
        List.<int[]>of(new int[] {1, 0}), new Tape(new byte[0], new int[0]));
  }

  @Test
  void onlyTheSameBytesForAHostOfTheSameNameAreKnown() {
    byte[] code = {1, 2, 3, 4};
    SegmentMemo memo = new SegmentMemo();
    SnapshotFile first = file(code, 0);
    memo.remember(first, new GrammarCheck.Checked[] {CHECKED});
    assertSame(CHECKED, memo.known(first)[0]);
    assertSame(CHECKED, memo.known(file(code.clone(), 0))[0], "equal content, another array");
    assertNull(memo.known(file(new byte[] {1, 2, 3, 5}, 0))[0], "one byte changed");
    assertNull(memo.known(file(code, -1))[0], "in Codese's package instead");
    assertNull(memo.known(renamedHost(code))[0], "the same array for another host");
    memo.clear();
    assertNull(memo.known(first)[0], "after a reset");
  }

  @Test
  void aDefinedClassIsUsedAgainOnlyInTheSameHost() {
    byte[] code = {9, 9};
    SegmentMemo memo = new SegmentMemo();
    SnapshotFile f = file(code, 0);
    memo.remember(f, new GrammarCheck.Checked[] {CHECKED});
    memo.defined(f, 0, String.class, INSTANCE);
    assertSame(INSTANCE, memo.instance(file(code.clone(), 0), 0, String.class));
    assertNull(memo.instance(f, 0, Integer.class), "a class of the same name from elsewhere");
  }

  @Test
  void codeOutsideTheGrammarIsNeverKept() throws Exception {
    Crafted c = new Crafted();
    c.code(0, ch -> {
      ch.mv.visitInsn(Opcodes.ACONST_NULL);
      ch.mv.visitInsn(Opcodes.ATHROW);
    });
    SnapshotFile f = SnapshotFile.parse(c.bytes());
    GrammarCheck.Checked[] known = new GrammarCheck.Checked[1];
    assertFalse(GrammarCheck.check(f, known).violations().isEmpty());
    assertNull(known[0]);
  }
}
