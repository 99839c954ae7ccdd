package org.codese.verify;

import static org.codese.verify.Opcodes.*;

import java.util.List;
import java.util.Set;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;

/**
 * The instruction whitelist a chunk that does not lift ({@link Lifter}) is run through, so that the
 * message names the first instruction outside the grammar: constants, locals, array accesses, the
 * calls the runtime contract allows, and the one loop shape {@code for (i = 0; i < ids.length;
 * i++)} with {@code i} in local {@link #INDEX} and {@code ids} in local {@link #IDS}, neither
 * written in the body. Apart from {@link MethodChecker} so that a load of code that lifts, as every
 * snapshot Codese writes does, never loads, parses and verifies this class nor makes its sets.
 */
final class Whitelist {
  private static final int IDS = Grammar.LOCAL_IDS;
  private static final int INDEX = Grammar.LOCAL_INDEX;

  private static final Set<String> BOXES =
      Set.of(
          "java/lang/Integer",
          "java/lang/Long",
          "java/lang/Boolean",
          "java/lang/Byte",
          "java/lang/Character",
          "java/lang/Short",
          "java/lang/Float",
          "java/lang/Double");
  private static final Set<Integer> PLAIN =
      Set.of(
          ACONST_NULL,
          ICONST_M1,
          ICONST_0,
          ICONST_1,
          ICONST_2,
          ICONST_3,
          ICONST_4,
          ICONST_5,
          LCONST_0,
          LCONST_1,
          FCONST_0,
          FCONST_1,
          FCONST_2,
          DCONST_0,
          DCONST_1,
          AALOAD,
          IALOAD,
          BALOAD,
          CALOAD,
          SALOAD,
          LALOAD,
          FALOAD,
          DALOAD,
          AASTORE,
          IASTORE,
          BASTORE,
          CASTORE,
          SASTORE,
          LASTORE,
          FASTORE,
          DASTORE,
          DUP,
          ARRAYLENGTH,
          RETURN);

  /** The method's checker, which the first violation is reported to. */
  private final MethodChecker m;

  private final List<Insn> insns;

  /** The class whose nest the generated class joins, or {@code null}. */
  private final String host;

  private final RuntimeContract contract;

  Whitelist(MethodChecker m, List<Insn> insns, String host, RuntimeContract contract) {
    this.m = m;
    this.insns = insns;
    this.host = host;
    this.contract = contract;
  }

  /**
   * Checks the chunk instruction by instruction, reporting the first that is outside the grammar to
   * the method's checker.
   */
  void checkChunk() {
    int loopEnd = -1;
    for (int at = 0; at < insns.size(); at++) {
      Insn i = insns.get(at);
      int op = i.opcode();
      if (op == GOTO) {
        loopEnd = checkLoop(at);
        if (loopEnd < 0) {
          return;
        }
        at = loopEnd;
      } else if (op == IF_ICMPLT || op == IINC) {
        if (at > loopEnd) {
          m.fail(at, "is a branch or increment outside the grammar's counted loop");
          return;
        }
      } else if (!allowed(at, i)) {
        return;
      }
    }
  }

  /**
   * Checks the loop that starts with the {@code goto} at {@code at}; returns the index of its
   * closing {@code if_icmplt}, or -1 after reporting a violation.
   */
  private int checkLoop(int at) {
    Insn go = insns.get(at);
    if (at < 2
        || !m.is(at - 2, ICONST_0, 0)
        || !m.is(at - 1, ISTORE, INDEX)
        || at + 1 >= insns.size()
        || insns.get(at + 1).opcode() != Insn.LABEL) {
      m.fail(at, "a jump that does not start the grammar's counted loop");
      return -1;
    }
    Object top = insns.get(at + 1).label();
    for (int b = at + 2; b < insns.size(); b++) {
      Insn i = insns.get(b);
      if (i.opcode() == IINC) {
        boolean tail =
            i.operand() == INDEX * 65536 + 1
                && b + 5 < insns.size()
                && insns.get(b + 1).opcode() == Insn.LABEL
                && java.util.Objects.equals(insns.get(b + 1).label(), go.label())
                && m.is(b + 2, ILOAD, INDEX)
                && m.is(b + 3, ALOAD, IDS)
                && m.is(b + 4, ARRAYLENGTH, 0)
                && insns.get(b + 5).opcode() == IF_ICMPLT
                && java.util.Objects.equals(insns.get(b + 5).label(), top);
        if (!tail) {
          m.fail(b, "does not close the grammar's counted loop (i++ then i < ids.length)");
          return -1;
        }
        return b + 5;
      }
      if ((i.opcode() == ISTORE && i.operand() == INDEX)
          || (i.opcode() == ASTORE && i.operand() == IDS)) {
        m.fail(b, "writes the loop's counter or bound inside the loop");
        return -1;
      }
      if (i.opcode() == GOTO || i.opcode() == IF_ICMPLT || i.opcode() == Insn.LABEL) {
        m.fail(b, "a branch inside a loop body");
        return -1;
      }
      if (!allowed(b, i)) {
        return -1;
      }
    }
    m.fail(at, "a loop that never closes");
    return -1;
  }

  /** Checks one non-loop instruction; reports and returns false if it is outside the grammar. */
  private boolean allowed(int at, Insn i) {
    int op = i.opcode();
    String why = null;
    if (op == Insn.LABEL || PLAIN.contains(op) || op == BIPUSH || op == SIPUSH) {
      return true;
    } else if (op == ALOAD || op == ILOAD || op == ASTORE || op == ISTORE) {
      // the operand is one byte (wide is outside the grammar), so always a local below MAX_LOCALS
      if (op == ASTORE && i.operand() < 2) {
        why = "uses a local the grammar does not";
      }
    } else if (op == LDC) {
      Object c = i.constant();
      if (c == ClassFile.FORBIDDEN) {
        why = "loads a constant of a kind the grammar does not use";
      }
    } else if (op == NEWARRAY) {
      why = arrayLength(at);
    } else if (op == NEW) {
      if (!i.owner().equals("java/lang/String") && !BOXES.contains(i.owner())) {
        why = "creates an object of a class other than String and the boxes";
      }
    } else if (op == ANEWARRAY) {
      why =
          "java/lang/Object".equals(i.owner())
              ? arrayLength(at)
              : "creates an array of a class other than Object";
    } else if (op == CHECKCAST) {
      return true;
    } else if (op == PUTFIELD) {
      if (host == null || !host.equals(i.owner())) {
        why = "stores into a field of a class whose nest this class did not join";
      }
    } else if (op == INVOKEVIRTUAL || op == INVOKESTATIC || op == INVOKESPECIAL) {
      why = call(at, i);
    } else {
      why = "an instruction outside the restore grammar";
    }
    if (why != null) {
      m.fail(at, why);
      return false;
    }
    return true;
  }

  private String call(int at, Insn i) {
    String o = i.owner();
    String n = i.name();
    String d = i.descriptor();
    int op = i.opcode();
    if (op == INVOKESTATIC
        && contract.allocates()
        && host == null
        && o.equals(contract.allocateOwner())
        && (n.equals(Grammar.ALLOCATE_METHOD)
            || contract.separatesCollections() && n.equals(Grammar.NEW_COLLECTION_METHOD))
        && d.equals(Grammar.ALLOCATE_DESCRIPTOR)) {
      return null;
    }
    if (op == INVOKEVIRTUAL
        && !contract.allocates()
        && o.equals("java/lang/reflect/Constructor")
        && n.equals("newInstance")
        && d.equals("([Ljava/lang/Object;)Ljava/lang/Object;")) {
      return null;
    }
    if (op == INVOKESTATIC
        && o.equals("java/lang/reflect/Array")
        && n.equals("newInstance")
        && d.equals("(Ljava/lang/Class;I)Ljava/lang/Object;")) {
      return arrayLength(at);
    }
    if (op == INVOKEVIRTUAL
        && o.equals(contract.setterOwner())
        && n.startsWith("set")
        && d.startsWith("(Ljava/lang/Object;")
        && d.endsWith(")V")
        && fieldSetter(n, d)) {
      return null;
    }
    if (op == INVOKESPECIAL
        && n.equals("<init>")
        && (o.equals("java/lang/String") && d.equals("(Ljava/lang/String;)V")
            || BOXES.contains(o) && d.length() == 4 && d.endsWith(")V"))) {
      return null;
    }
    if (op == INVOKESTATIC
        && BOXES.contains(o)
        && n.equals("valueOf")
        && d.length() > 4
        && d.charAt(2) == ')'
        && d.substring(3).equals("L" + o + ";")) {
      return null;
    }
    if (op == INVOKEVIRTUAL
        && o.length() == 2
        && o.charAt(0) == '['
        && "ZBCSIJFD".indexOf(o.charAt(1)) >= 0
        && n.equals("clone")
        && d.equals("()Ljava/lang/Object;")) {
      return null;
    }
    if (op == INVOKESTATIC
        && host == null
        && o.equals(contract.stepsOwner())
        && n.equals(Grammar.STEPS_METHOD)
        && d.equals(Grammar.STEPS_DESCRIPTOR)) {
      return null;
    }
    return "calls " + o + "." + n + d + ", which the restore grammar does not allow";
  }

  private static boolean fieldSetter(String n, String d) {
    String arg = d.substring("(Ljava/lang/Object;".length(), d.length() - 2);
    return switch (n) {
      case "set" -> arg.equals("Ljava/lang/Object;");
      case "setBoolean" -> arg.equals("Z");
      case "setByte" -> arg.equals("B");
      case "setChar" -> arg.equals("C");
      case "setShort" -> arg.equals("S");
      case "setInt" -> arg.equals("I");
      case "setLong" -> arg.equals("J");
      case "setFloat" -> arg.equals("F");
      case "setDouble" -> arg.equals("D");
      default -> false;
    };
  }

  /**
   * The length pushed just before an array creation must be a non-negative constant; the longest is
   * recorded for the limits and the filter.
   */
  private String arrayLength(int at) {
    if (at == 0) {
      return "creates an array of unknown length";
    }
    Insn p = insns.get(at - 1);
    long len;
    switch (p.opcode()) {
      case ICONST_0, ICONST_1, ICONST_2, ICONST_3, ICONST_4, ICONST_5 ->
          len = p.opcode() - ICONST_0;
      case BIPUSH, SIPUSH -> len = p.operand();
      case LDC -> len = p.constant() instanceof Integer v ? v : -1;
      default -> len = -1;
    }
    if (len < 0) {
      return "creates an array whose length is not a non-negative constant";
    }
    return null;
  }
}
