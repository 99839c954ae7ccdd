package org.codese.verify;

import static org.codese.verify.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;

/**
 * Records one generated method's instructions and checks them against the grammar: the exact shapes
 * of the constructor and of {@code accept}, and for chunks an instruction whitelist plus the one
 * loop shape {@code for (i = 0; i < ids.length; i++)} with {@code i} in local {@link #INDEX} and
 * {@code ids} in local {@link #IDS}, neither written in the body.
 */
final class MethodChecker {
  enum Kind {
    INIT,
    ACCEPT,
    CHUNK
  }

  private static final int IDS = Grammar.LOCAL_IDS;
  private static final int INDEX = Grammar.LOCAL_INDEX;

  /** Locals a chunk may use: table, constants, target, loop ids, loop index, loop columns. */
  static final int MAX_LOCALS = 256;

  private static final String OBJECT_ARRAY = "[Ljava/lang/Object;";
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

  private final ClassChecker owner;
  private final String name;
  private final Kind kind;
  private final String host;

  /** What of Codese the code may call: see {@code Lifter}. */
  private final RuntimeContract contract;

  /** {longest array, total array elements} the code creates, updated from lifted statements. */
  private final long[] arrays;

  private final List<Insn> insns = new ArrayList<>();
  private int chunkCalls;
  private boolean failed;
  private int[] statements = new int[0];
  private final List<String> names;
  private final java.util.Map<String, Integer> indices;

  MethodChecker(
      ClassChecker owner,
      String name,
      Kind kind,
      String host,
      RuntimeContract contract,
      long[] arrays,
      List<String> names,
      java.util.Map<String, Integer> indices) {
    this.contract = contract;
    this.names = names;
    this.indices = indices;
    this.owner = owner;
    this.name = name;
    this.kind = kind;
    this.host = host;
    this.arrays = arrays;
  }

  int chunkCalls() {
    return chunkCalls;
  }

  void fail(int at, String what) {
    failed = true;
    String where =
        at < 0
            ? ""
            : at >= insns.size()
                ? " at the end of its code"
                : " at instruction " + at + " (" + insns.get(at).show() + ")";
    owner.fail("method " + name + where + ": " + what);
  }

  /** Decodes {@code code} into {@link Insn}s, with labels at jump targets, and checks them. */
  void check(ClassFile cf, byte[] code) {
    java.util.Set<Integer> targets = new java.util.HashSet<>();
    for (int pc = 0; pc < code.length; ) {
      int op = code[pc] & 0xFF;
      int len = Opcodes.length(op);
      if (len == 0 || pc + len > code.length) {
        break;
      }
      if ((op >= Opcodes.IFEQ && op <= Opcodes.JSR)
          || op == Opcodes.IFNULL
          || op == Opcodes.IFNONNULL) {
        targets.add(pc + (short) (((code[pc + 1] & 0xFF) << 8) | (code[pc + 2] & 0xFF)));
      }
      pc += len;
    }
    for (int pc = 0; pc < code.length; ) {
      if (targets.contains(pc) && kind == Kind.CHUNK) {
        insns.add(new Insn(Insn.LABEL, 0, null, null, null, null, pc));
      }
      int op = code[pc] & 0xFF;
      int len = Opcodes.length(op);
      if (len == 0 || pc + len > code.length) {
        insns.add(Insn.simple(op, 0));
        break;
      }
      insns.add(decode(cf, code, pc, op));
      pc += len;
    }
    // an if-chain, not a switch over the enum: a switch would load a synthetic class per load
    if (kind == Kind.INIT) {
      checkInit();
    } else if (kind == Kind.ACCEPT) {
      checkAccept();
    } else {
      lift();
    }
  }

  /**
   * @return the chunk's {@link Stmt} codes; empty for other methods and for chunks that failed
   */
  int[] statements() {
    return statements;
  }

  /**
   * Lifts the chunk into statements, which checks it completely; only a chunk that fails is also
   * run through the instruction whitelist, whose message names the first forbidden instruction.
   */
  private void lift() {
    try {
      statements = Lifter.lift(insns, names, indices, contract);
    } catch (Lifter.NotAStatement e) {
      checkChunk();
      if (!failed) {
        fail(e.at, e.getMessage() + "; not a statement of the restore grammar");
      }
      return;
    }
    for (int pc = 0; pc < statements.length; pc += GrammarCheck.statementSize(statements, pc)) {
      if (statements[pc] == Stmt.STORE_ARRAY) {
        arrays[0] = Math.max(arrays[0], statements[pc + 4]);
        arrays[1] += statements[pc + 4];
      }
    }
  }

  private static Insn decode(ClassFile cf, byte[] code, int pc, int op) {
    int u1 = pc + 1 < code.length ? code[pc + 1] & 0xFF : 0;
    int u2 = pc + 2 < code.length ? (u1 << 8) | (code[pc + 2] & 0xFF) : 0;
    if (op >= ILOAD_0 && op <= ILOAD_0 + 3) {
      return Insn.simple(ILOAD, op - ILOAD_0);
    } else if (op >= ALOAD_0 && op <= ALOAD_0 + 3) {
      return Insn.simple(ALOAD, op - ALOAD_0);
    } else if (op >= ISTORE_0 && op <= ISTORE_0 + 3) {
      return Insn.simple(ISTORE, op - ISTORE_0);
    } else if (op >= ASTORE_0 && op <= ASTORE_0 + 3) {
      return Insn.simple(ASTORE, op - ASTORE_0);
    }
    switch (op) {
      case BIPUSH:
        return Insn.simple(op, (byte) u1);
      case SIPUSH:
        return Insn.simple(op, (short) u2);
      case LDC:
        return new Insn(LDC, 0, null, null, null, cf.loadable(u1), null);
      case LDC_W:
      case LDC2_W:
        return new Insn(LDC, 0, null, null, null, cf.loadable(u2), null);
      case ILOAD:
      case ALOAD:
      case ISTORE:
      case ASTORE:
      case NEWARRAY:
        return Insn.simple(op, u1);
      case IINC:
        return Insn.simple(op, u1 * 65536 + ((byte) (code[pc + 2]) & 0xFFFF));
      case GOTO:
      case IF_ICMPLT:
        return new Insn(op, 0, null, null, null, null, pc + (short) u2);
      case NEW:
      case ANEWARRAY:
      case CHECKCAST:
      case INSTANCEOF:
        return new Insn(op, 0, cf.className(u2), null, null, null, null);
      case GETSTATIC:
      case PUTSTATIC:
      case GETFIELD:
      case PUTFIELD:
      case INVOKEVIRTUAL:
      case INVOKESPECIAL:
      case INVOKESTATIC:
      case INVOKEINTERFACE:
        // the grammar calls only methods of classes (Methodref), never of interfaces
        String[] m =
            cf.member(
                u2,
                op <= PUTFIELD
                    ? ClassFile.FIELDREF
                    : op == INVOKEINTERFACE ? ClassFile.INTERFACE_METHODREF : ClassFile.METHODREF);
        return new Insn(op, 0, m[0], m[1], m[2], null, null);
      default:
        return Insn.simple(op, 0);
    }
  }

  private void checkInit() {
    if (insns.size() != 3
        || !is(0, ALOAD, 0)
        || !call(1, INVOKESPECIAL, "java/lang/Object", "<init>", "()V")
        || !is(2, RETURN, 0)) {
      fail(-1, "is not the plain constructor super(); return");
    }
  }

  private void checkAccept() {
    boolean ok =
        insns.size() >= 7
            && is(0, ALOAD, 1)
            && type(1, CHECKCAST, OBJECT_ARRAY)
            && is(2, ASTORE, 3)
            && is(3, ALOAD, 2)
            && type(4, CHECKCAST, OBJECT_ARRAY)
            && is(5, ASTORE, 4)
            && is(insns.size() - 1, RETURN, 0)
            && (insns.size() - 7) % 3 == 0;
    for (int i = 6; ok && i < insns.size() - 1; i += 3) {
      ok =
          is(i, ALOAD, 3)
              && is(i + 1, ALOAD, 4)
              && call(
                  i + 2,
                  INVOKESTATIC,
                  owner.className(),
                  Grammar.chunkName(chunkCalls),
                  Grammar.CHUNK_DESCRIPTOR);
      chunkCalls++;
    }
    if (!ok) {
      fail(-1, "is not the plain entry that calls m0, m1, ... in order");
    }
  }

  private boolean is(int at, int opcode, int operand) {
    Insn i = insns.get(at);
    return i.opcode() == opcode && i.operand() == operand;
  }

  private boolean type(int at, int opcode, String type) {
    Insn i = insns.get(at);
    return i.opcode() == opcode && type.equals(i.owner());
  }

  private boolean call(int at, int opcode, String callOwner, String callName, String desc) {
    Insn i = insns.get(at);
    return i.opcode() == opcode
        && callOwner.equals(i.owner())
        && callName.equals(i.name())
        && desc.equals(i.descriptor());
  }

  private void checkChunk() {
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
          fail(at, "is a branch or increment outside the grammar's counted loop");
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
        || !is(at - 2, ICONST_0, 0)
        || !is(at - 1, ISTORE, INDEX)
        || at + 1 >= insns.size()
        || insns.get(at + 1).opcode() != Insn.LABEL) {
      fail(at, "a jump that does not start the grammar's counted loop");
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
                && is(b + 2, ILOAD, INDEX)
                && is(b + 3, ALOAD, IDS)
                && is(b + 4, ARRAYLENGTH, 0)
                && insns.get(b + 5).opcode() == IF_ICMPLT
                && java.util.Objects.equals(insns.get(b + 5).label(), top);
        if (!tail) {
          fail(b, "does not close the grammar's counted loop (i++ then i < ids.length)");
          return -1;
        }
        return b + 5;
      }
      if ((i.opcode() == ISTORE && i.operand() == INDEX)
          || (i.opcode() == ASTORE && i.operand() == IDS)) {
        fail(b, "writes the loop's counter or bound inside the loop");
        return -1;
      }
      if (i.opcode() == GOTO || i.opcode() == IF_ICMPLT || i.opcode() == Insn.LABEL) {
        fail(b, "a branch inside a loop body");
        return -1;
      }
      if (!allowed(b, i)) {
        return -1;
      }
    }
    fail(at, "a loop that never closes");
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
      fail(at, why);
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
