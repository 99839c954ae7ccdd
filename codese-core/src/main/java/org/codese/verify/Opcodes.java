package org.codese.verify;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/** Names of JVM opcodes, for messages. */
final class Opcodes {
  private static final Map<Integer, String> NAMES = new HashMap<>();

  static {
    for (Field f : org.objectweb.asm.Opcodes.class.getFields()) {
      int m = f.getModifiers();
      if (Modifier.isStatic(m) && f.getType() == int.class && !f.getName().startsWith("ACC_")
          && !f.getName().startsWith("V") && !f.getName().startsWith("ASM")
          && !f.getName().startsWith("H_") && !f.getName().startsWith("T_")
          && !f.getName().startsWith("F_") && !f.getName().startsWith("SOURCE")) {
        try {
          NAMES.putIfAbsent(f.getInt(null), f.getName().toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
  }

  private Opcodes() {}

  static String name(int opcode) {
    return NAMES.getOrDefault(opcode, "opcode " + opcode);
  }
}
