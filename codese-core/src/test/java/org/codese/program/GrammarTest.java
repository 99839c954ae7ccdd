package org.codese.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

/** The grammar's JVM numbers against ASM's, and no silent fallback for an unknown kind. */
class GrammarTest {
  @Test
  void arrayLoadsAreTheJvmsAndUnknownKindsAreRefused() {
    Map<Character, Integer> jvm =
        Map.of(
            'Z', Opcodes.BALOAD,
            'B', Opcodes.BALOAD,
            'C', Opcodes.CALOAD,
            'S', Opcodes.SALOAD,
            'I', Opcodes.IALOAD,
            'J', Opcodes.LALOAD,
            'F', Opcodes.FALOAD,
            'D', Opcodes.DALOAD);
    jvm.forEach((k, op) -> assertEquals(op, Grammar.arrayLoadOpcode(k), "kind " + k));
    for (char k : new char[] {'L', 'V', '[', 'x'}) {
      assertThrows(IllegalArgumentException.class, () -> Grammar.arrayLoadOpcode(k), "kind " + k);
    }
  }
}
