package org.codese.verify;

import static org.codese.verify.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;

/**
 * Records one generated method's instructions and checks them against the grammar: the exact shapes
 * of the constructor and of {@code accept}, and for chunks the statements of the restore grammar
 * ({@link Lifter}); a chunk that does not lift is run through the instruction whitelist ({@link
 * Whitelist}) as well, whose message names the first forbidden instruction.
 */
final class MethodChecker {
  enum Kind {
    INIT,
    ACCEPT,
    CHUNK
  }

  /** Locals a chunk may use: table, constants, target, loop ids, loop index, loop columns. */
  static final int MAX_LOCALS = 256;

  private static final String OBJECT_ARRAY = "[Ljava/lang/Object;";

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
      new Whitelist(this, insns, host, contract).checkChunk();
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

  boolean is(int at, int opcode, int operand) {
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
}
