package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.codese.ClassMismatchException;
import org.codese.Codese;
import org.codese.UnsafeSnapshotException;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

/** The grammar check that runs beside the loader's class resolution. */
class CodeCheckTest {
  @Test
  void everyPreloadedClassExists() {
    for (String[] names : new String[][] {CodeCheck.LOAD_CLASSES, CodeCheck.HOOK_CLASSES}) {
      for (String name : names) {
        assertDoesNotThrow(() -> Class.forName(name, false, CodeCheck.class.getClassLoader()),
            name + " is preloaded but does not exist");
      }
    }
  }

  /** Code outside the grammar is the reason given, even when a class is missing too. */
  @Test
  void aGrammarViolationTakesPrecedenceOverAMissingClass() {
    Crafted c = new Crafted();
    c.type("org.codese.no.SuchClass");
    c.code(0, ch -> {
      ch.mv.visitInsn(Opcodes.ACONST_NULL);
      ch.mv.visitInsn(Opcodes.ATHROW);
    });
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes()));
    assertTrue(e.getMessage().contains("ATHROW") || e.getMessage().contains("athrow"),
        e.getMessage());
  }

  /**
   * A load that fails after the grammar check passed but before the class table is handed over
   * (here: a class that does not exist) ends the check thread, which would otherwise wait for the
   * table forever: no check thread outlives the failed loads.
   */
  @Test
  void aLoadThatFailsBeforeTheProgramCheckLeavesNoThreadWaiting() throws Exception {
    Crafted c = new Crafted();
    int t = c.type("org.codese.no.SuchClass");
    int k = c.constant(new org.codese.program.Constant.TypeRef(t));
    c.slots(1).code(0, ch -> ch.storeConstant(0, k));
    byte[] bytes = c.bytes();
    for (int i = 0; i < 20; i++) {
      assertThrows(ClassMismatchException.class, () -> Codese.load(bytes));
    }
    List<Thread> alive = new ArrayList<>();
    long deadline = System.nanoTime() + 10_000_000_000L; // a bound on the wait, not a measurement
    for (Thread th : Thread.getAllStackTraces().keySet()) {
      if (th.getName().equals("codese-code-check")) {
        th.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        if (th.isAlive()) {
          alive.add(th);
        }
      }
    }
    assertEquals(List.of(), alive, "check threads still waiting");
  }

  /**
   * The program check runs beside constant resolution, on the check thread: its rejection is
   * still the one a load reports, and a load that passes it restores.
   */
  @Test
  void theProgramCheckOnTheThreadRejectsAndPasses() throws Exception {
    Crafted twice = new Crafted();
    int t = twice.type(String.class.getName());
    int k = twice.constant(new org.codese.program.Constant.TypeRef(t));
    twice.slots(1).code(0, ch -> ch.storeConstant(0, k).storeConstant(0, k));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(twice.bytes()));
    assertTrue(e.getMessage().contains("a second time"), e.getMessage());
    Crafted once = new Crafted();
    int t1 = once.type(String.class.getName());
    int k1 = once.constant(new org.codese.program.Constant.TypeRef(t1));
    once.slots(1).code(0, ch -> ch.storeConstant(0, k1));
    try (var s = Codese.load(once.bytes())) {
      assertEquals(String.class, s.restore());
    }
    assertFalse(Thread.currentThread().isInterrupted());
  }
}
