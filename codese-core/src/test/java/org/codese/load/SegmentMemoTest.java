package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.BiConsumer;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Phase;
import org.codese.program.Placement;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.codese.verify.GrammarCheck;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

/**
 * What the loader keeps between the segments of one stream is found only by the same bytes for a
 * host of the same name, and used only in the same host class: a later segment cannot make the
 * loader skip the check of code it did not check.
 */
class SegmentMemoTest {
  private static final GrammarCheck.Checked CHECKED =
      new GrammarCheck.Checked(List.of(), List.of(), 0, 0);
  private static final BiConsumer<Object[], Object[]> INSTANCE = (t, c) -> {};

  private static SnapshotFile file(byte[] code, int host) {
    return new SnapshotFile(
        "",
        0,
        0,
        0,
        List.of(new ClassEntry("x.Host", List.of(), 0, false)),
        List.of(),
        List.of(code),
        List.of(new Placement(Phase.SET, host)),
        new Tape(new byte[0], new int[0]));
  }

  private static SnapshotFile renamedHost(byte[] code) {
    return new SnapshotFile(
        "",
        0,
        0,
        0,
        List.of(new ClassEntry("y.Host", List.of(), 0, false)),
        List.of(),
        List.of(code),
        List.of(new Placement(Phase.SET, 0)),
        new Tape(new byte[0], new int[0]));
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

  /**
   * Class files whose hashes collide (the stream chooses their bytes; two-byte blocks {0, 31} and
   * {1, 0} hash alike) are kept and found with a logarithmic number of comparisons each, not a
   * linear one: the memo counts how often a key is compared with one of the same hash and other
   * content, which for n colliding files kept and looked up once each is about 2 n log2 n while the
   * keys are ordered (a tree bin), and n^2 / 2 or more if they were not (a scan of one bin).
   */
  @Test
  void classFilesWhoseHashesCollideCostALogarithmicLookUp() {
    int n = 5_000;
    List<byte[]> colliding = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] c = new byte[32];
      for (int b = 0; b < 16; b++) {
        boolean bit = (i >>> b & 1) != 0;
        c[2 * b] = (byte) (bit ? 1 : 0);
        c[2 * b + 1] = (byte) (bit ? 0 : 31);
      }
      colliding.add(c);
      assertEquals(java.util.Arrays.hashCode(colliding.get(0)), java.util.Arrays.hashCode(c));
    }
    long compared = rememberAll(colliding).collisions();
    org.codese.testkit.Costs.assertCollisionsNLogN(compared, n, "class files");
  }

  /** Keeps and then finds each file (by a copy of its bytes) in a new memo. */
  private static SegmentMemo rememberAll(List<byte[]> files) {
    SegmentMemo memo = new SegmentMemo();
    for (byte[] f : files) {
      SnapshotFile file = file(f, 0);
      memo.remember(file, new GrammarCheck.Checked[] {CHECKED});
      assertSame(CHECKED, memo.known(file(f.clone(), 0))[0]);
    }
    return memo;
  }

  /**
   * Class files whose hashes collide but whose bytes differ are different keys: a stream that sends
   * bytes hashing like checked code gets no check result, also among many colliding keys (a hash
   * bin of that many is a tree ordered by the keys' comparison).
   */
  @Test
  void collidingClassFilesAreNotTakenForEachOther() {
    SegmentMemo memo = new SegmentMemo();
    List<byte[]> files = new java.util.ArrayList<>();
    List<GrammarCheck.Checked> checks = new java.util.ArrayList<>();
    for (int i = 0; i < 16; i++) {
      byte[] c = new byte[8];
      for (int b = 0; b < 4; b++) {
        boolean bit = (i >>> b & 1) != 0;
        c[2 * b] = (byte) (bit ? 1 : 0);
        c[2 * b + 1] = (byte) (bit ? 0 : 31);
      }
      files.add(c);
      checks.add(new GrammarCheck.Checked(List.of(), List.of(), i, 0));
    }
    for (int i = 0; i < 8; i++) {
      memo.remember(file(files.get(i), 0), new GrammarCheck.Checked[] {checks.get(i)});
    }
    for (int i = 0; i < 16; i++) {
      GrammarCheck.Checked found = memo.known(file(files.get(i).clone(), 0))[0];
      if (i < 8) {
        assertSame(checks.get(i), found, "colliding file " + i);
      } else {
        assertNull(found, "colliding file " + i + " was never checked");
      }
    }
  }

  /** A class the surface admitted in some roles is asked again for any other set of roles. */
  @Test
  void surfaceVerdictsHoldOnlyForTheSameRoles() {
    SegmentMemo memo = new SegmentMemo();
    memo.notePassed(String.class, 3);
    assertTrue(memo.surfacePassed(String.class, 3));
    assertFalse(memo.surfacePassed(String.class, 1), "fewer roles are asked again too");
    assertFalse(memo.surfacePassed(String.class, 7), "more roles");
    assertFalse(memo.surfacePassed(Integer.class, 3), "another class");
    memo.notePassed(String.class, 1);
    assertTrue(memo.surfacePassed(String.class, 1));
    assertTrue(memo.surfacePassed(String.class, 3));
  }

  /** A reset forgets class tables, surface verdicts, setters and allocating constructors too. */
  @Test
  void aResetForgetsEverything() throws Exception {
    SegmentMemo memo = new SegmentMemo();
    java.lang.reflect.Field f = SegmentMemoTest.class.getDeclaredField("CHECKED");
    java.lang.reflect.Constructor<?> ctor = Object.class.getDeclaredConstructor();
    memo.notePassed(String.class, 3);
    memo.setter(SegmentMemoTest.class, f);
    memo.allocator(Object.class, org.codese.program.Constant.Mode.SERIAL, ctor);
    List<ClassEntry> entries = List.of(new ClassEntry("java.lang.String", List.of(), 0, false));
    ClassTable table = new ClassTable(entries, String.class.getClassLoader(), AllowList.NONE);
    memo.table(entries, table);
    assertSame(table, memo.table(entries));
    assertSame(f, memo.setter(SegmentMemoTest.class, "CHECKED"));
    assertSame(ctor, memo.allocator(Object.class, org.codese.program.Constant.Mode.SERIAL));
    memo.clear();
    assertFalse(memo.surfacePassed(String.class, 3));
    assertNull(memo.setter(SegmentMemoTest.class, "CHECKED"));
    assertNull(memo.allocator(Object.class, org.codese.program.Constant.Mode.SERIAL));
    assertNull(memo.table(entries));
  }

  @Test
  void codeOutsideTheGrammarIsNeverKept() throws Exception {
    Crafted c = new Crafted();
    c.code(
        0,
        ch -> {
          ch.mv.visitInsn(Opcodes.ACONST_NULL);
          ch.mv.visitInsn(Opcodes.ATHROW);
        });
    SnapshotFile f = SnapshotFile.parse(c.bytes());
    GrammarCheck.Checked[] known = new GrammarCheck.Checked[1];
    assertFalse(GrammarCheck.check(f, known).violations().isEmpty());
    assertNull(known[0]);
  }
}
