package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.codese.Codese;
import org.codese.UnsafeSnapshotException;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

/** The grammar check that runs beside the loader's class resolution. */
class CodeCheckTest {
  @Test
  void everyPreloadedClassExists() {
    for (String[] names :
        new String[][] {CodeCheck.BARE_CLASSES, CodeCheck.HOOK_CLASSES, CodeCheck.FILL_CLASSES}) {
      for (String name : names) {
        assertDoesNotThrow(
            () -> Class.forName(name, false, CodeCheck.class.getClassLoader()),
            name + " is preloaded but does not exist");
      }
    }
  }

  /** Code outside the grammar is the reason given, even when a class is missing too. */
  @Test
  void aGrammarViolationTakesPrecedenceOverAMissingClass() {
    Crafted c = new Crafted();
    c.type("org.codese.no.SuchClass");
    c.code(
        0,
        ch -> {
          ch.mv.visitInsn(Opcodes.ACONST_NULL);
          ch.mv.visitInsn(Opcodes.ATHROW);
        });
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes()));
    assertTrue(
        e.getMessage().contains("ATHROW") || e.getMessage().contains("athrow"), e.getMessage());
  }
}
