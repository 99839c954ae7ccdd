package org.codese.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.codese.program.Grammar;
import org.junit.jupiter.api.Test;

/** The finish program holds deferred stores at their object's completion, hooks in call order. */
class FinishProgramTest {
  @Test
  void deferredStoresComeAtCompletionBeforeTheObjectsHooks() {
    FinishProgram p = new FinishProgram(10, 3);
    assertTrue(p.isEmpty());
    p.deferField(11, 7, 12);
    p.deferElement(10, 4, 12);
    p.deferField(11, 8, 10);
    p.complete(12); // nothing deferred to 12
    p.hook(5);
    p.complete(11);
    p.hook(6);
    p.complete(10);
    assertFalse(p.isEmpty());
    assertArrayEquals(
        new int[] {
          Grammar.STEP_HOOK,
          5,
          Grammar.STEP_FIELD,
          7,
          11,
          12,
          Grammar.STEP_FIELD,
          8,
          11,
          10,
          Grammar.STEP_HOOK,
          6,
          Grammar.STEP_ELEMENT,
          10,
          4,
          12
        },
        p.toArray());
  }
}
