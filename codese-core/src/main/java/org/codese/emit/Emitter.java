package org.codese.emit;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.codese.plan.Op;
import org.codese.plan.Plan;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;

/**
 * Writes a {@link Plan} as class files following {@link Grammar}. Knows nothing about live objects.
 *
 * <p>Ops are packed into chunk methods of at most {@link Grammar#MAX_CHUNK_BYTES} bytes, and chunks
 * into classes of at most {@link Grammar#MAX_OPS_PER_CLASS} ops.
 */
public final class Emitter {
  private static final String OBJECT_ARRAY = "[Ljava/lang/Object;";
  private static final String MH = "java/lang/invoke/MethodHandle";
  private static final Handle CLASS_DATA_AT =
      new Handle(
          H_INVOKESTATIC,
          "java/lang/invoke/MethodHandles",
          "classDataAt",
          "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;I)"
              + "Ljava/lang/Object;",
          false);
  /** An upper bound on the bytecode of any single op, used for chunk splitting. */
  private static final int MAX_OP_BYTES = 16;

  private final Plan plan;
  private final List<byte[]> classFiles = new ArrayList<>();
  private final List<int[]> chunks = new ArrayList<>();
  private ClassWriter cw;
  private int[] counts;
  private int opsInClass;
  private MethodVisitor mv;
  private int methodBytes;
  private int phase;
  private Op.Select selected;

  private Emitter(Plan plan) {
    this.plan = plan;
  }

  /**
   * @param plan the restore program
   * @return its class files
   */
  public static Emitted emit(Plan plan) {
    return new Emitter(plan).run();
  }

  private Emitted run() {
    startClass();
    List<List<Op>> phases = List.of(plan.create(), plan.set(), plan.finish());
    for (phase = 0; phase < 3; phase++) {
      selected = null;
      for (Op op : phases.get(phase)) {
        if (opsInClass >= Grammar.MAX_OPS_PER_CLASS) {
          endClass();
          startClass();
        }
        if (mv == null || methodBytes + MAX_OP_BYTES > Grammar.MAX_CHUNK_BYTES) {
          startChunk();
        }
        emit(op);
        opsInClass++;
      }
      endChunk();
    }
    endClass();
    return new Emitted(List.copyOf(classFiles), List.copyOf(chunks));
  }

  private String className() {
    return Grammar.PACKAGE + "/" + Grammar.CLASS_PREFIX + classFiles.size();
  }

  private void startClass() {
    cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(V17, ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC, className(), null, "java/lang/Object",
        null);
    counts = new int[3];
    opsInClass = 0;
  }

  private void endClass() {
    endChunk();
    String name = className();
    for (int p = 0; p < 3; p++) {
      MethodVisitor entry = cw.visitMethod(ACC_STATIC, String.valueOf(Grammar.PHASES.charAt(p)),
          Grammar.CHUNK_DESCRIPTOR, null, null);
      entry.visitCode();
      for (int c = 0; c < counts[p]; c++) {
        entry.visitVarInsn(ALOAD, 0);
        entry.visitMethodInsn(INVOKESTATIC, name, chunkName(p, c), Grammar.CHUNK_DESCRIPTOR,
            false);
      }
      entry.visitInsn(RETURN);
      entry.visitMaxs(0, 0);
      entry.visitEnd();
    }
    cw.visitEnd();
    classFiles.add(cw.toByteArray());
    chunks.add(counts);
  }

  private static String chunkName(int phase, int index) {
    return Grammar.PHASES.charAt(phase) + Integer.toString(index);
  }

  private void startChunk() {
    endChunk();
    mv = cw.visitMethod(ACC_STATIC, chunkName(phase, counts[phase]++), Grammar.CHUNK_DESCRIPTOR,
        null, null);
    mv.visitCode();
    methodBytes = 1;
    if (selected != null) {
      select(selected);
    }
  }

  private void endChunk() {
    if (mv != null) {
      mv.visitInsn(RETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
      mv = null;
    }
  }

  private void emit(Op op) {
    methodBytes += MAX_OP_BYTES;
    if (op instanceof Op.Alloc a) {
      storeStart(a.id());
      condy(a.allocator(), "L" + MH + ";");
      mv.visitMethodInsn(INVOKEVIRTUAL, MH, "invokeExact", "()Ljava/lang/Object;", false);
      mv.visitInsn(AASTORE);
    } else if (op instanceof Op.NewArray a) {
      newArray(a);
    } else if (op instanceof Op.CloneArray c) {
      storeStart(c.id());
      condy(c.constant(), c.descriptor());
      mv.visitMethodInsn(INVOKEVIRTUAL, c.descriptor(), "clone", "()Ljava/lang/Object;", false);
      mv.visitInsn(AASTORE);
    } else if (op instanceof Op.NewString s) {
      storeStart(s.id());
      mv.visitTypeInsn(NEW, "java/lang/String");
      mv.visitInsn(DUP);
      if (s.text() >= 0) {
        condy(s.text(), "Ljava/lang/String;");
      } else {
        mv.visitLdcInsn(s.value());
      }
      mv.visitMethodInsn(INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V",
          false);
      mv.visitInsn(AASTORE);
    } else if (op instanceof Op.NewBox b) {
      storeStart(b.id());
      box(b);
      mv.visitInsn(AASTORE);
    } else if (op instanceof Op.LoadConstant c) {
      storeStart(c.id());
      condy(c.constant(), "Ljava/lang/Object;");
      mv.visitInsn(AASTORE);
    } else if (op instanceof Op.Select s) {
      selected = s;
      select(s);
    } else if (op instanceof Op.PutField p) {
      condy(p.setter(), "L" + MH + ";");
      mv.visitVarInsn(ALOAD, 1);
      value(p.type(), p.bits(), p.ref());
      String t = p.type() == 'L' ? "Ljava/lang/Object;" : String.valueOf(p.type());
      mv.visitMethodInsn(INVOKEVIRTUAL, MH, "invokeExact", "(Ljava/lang/Object;" + t + ")V",
          false);
    } else if (op instanceof Op.PutElement p) {
      mv.visitVarInsn(ALOAD, 1);
      push(p.index());
      value(p.type(), p.bits(), p.ref());
      mv.visitInsn(arrayStore(p.type()));
    } else if (op instanceof Op.CallHook h) {
      mv.visitVarInsn(ALOAD, 0);
      condy(h.hook(), "Ljava/lang/Object;");
      mv.visitMethodInsn(INVOKESTATIC, Grammar.HOOKS_OWNER, Grammar.HOOK_METHOD,
          Grammar.HOOK_DESCRIPTOR, false);
    } else {
      throw new IllegalArgumentException("unknown op " + op);
    }
  }

  private void newArray(Op.NewArray a) {
    storeStart(a.id());
    if (a.elem() != 'L') {
      push(a.length());
      mv.visitIntInsn(NEWARRAY, arrayTypeCode(a.elem()));
    } else if (a.maker() < 0) {
      push(a.length());
      mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
    } else {
      condy(a.maker(), "L" + MH + ";");
      push(a.length());
      mv.visitMethodInsn(INVOKEVIRTUAL, MH, "invokeExact", "(I)Ljava/lang/Object;", false);
    }
    mv.visitInsn(AASTORE);
  }

  private void select(Op.Select s) {
    mv.visitVarInsn(ALOAD, 0);
    push(s.id());
    mv.visitInsn(AALOAD);
    if (s.arrayDescriptor() != null) {
      mv.visitTypeInsn(CHECKCAST, s.arrayDescriptor());
    }
    mv.visitVarInsn(ASTORE, 1);
  }

  private void storeStart(int id) {
    mv.visitVarInsn(ALOAD, 0);
    push(id);
  }

  private void condy(int index, String descriptor) {
    mv.visitLdcInsn(new ConstantDynamic("_", descriptor, CLASS_DATA_AT, index));
  }

  private void value(char type, long bits, int ref) {
    switch (type) {
      case 'L' -> {
        mv.visitVarInsn(ALOAD, 0);
        push(ref);
        mv.visitInsn(AALOAD);
      }
      case 'J' -> pushLong(bits);
      case 'F' -> pushFloat(Float.intBitsToFloat((int) bits));
      case 'D' -> pushDouble(Double.longBitsToDouble(bits));
      default -> push((int) bits);
    }
  }

  private void box(Op.NewBox b) {
    String owner = switch (b.type()) {
      case 'I' -> "java/lang/Integer";
      case 'J' -> "java/lang/Long";
      case 'Z' -> "java/lang/Boolean";
      case 'B' -> "java/lang/Byte";
      case 'C' -> "java/lang/Character";
      case 'S' -> "java/lang/Short";
      case 'F' -> "java/lang/Float";
      default -> "java/lang/Double";
    };
    if (b.cached()) {
      value(b.type(), b.bits(), -1);
      mv.visitMethodInsn(INVOKESTATIC, owner, "valueOf", "(" + b.type() + ")L" + owner + ";",
          false);
    } else {
      mv.visitTypeInsn(NEW, owner);
      mv.visitInsn(DUP);
      value(b.type(), b.bits(), -1);
      mv.visitMethodInsn(INVOKESPECIAL, owner, "<init>", "(" + b.type() + ")V", false);
    }
  }

  private void push(int v) {
    if (v >= -1 && v <= 5) {
      mv.visitInsn(ICONST_0 + v);
    } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      mv.visitIntInsn(BIPUSH, v);
    } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      mv.visitIntInsn(SIPUSH, v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  private void pushLong(long v) {
    if (v == 0 || v == 1) {
      mv.visitInsn(LCONST_0 + (int) v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  private void pushFloat(float v) {
    if (Float.floatToRawIntBits(v) == 0 || v == 1f || v == 2f) {
      mv.visitInsn(FCONST_0 + (int) v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  private void pushDouble(double v) {
    if (Double.doubleToRawLongBits(v) == 0 || v == 1d) {
      mv.visitInsn(DCONST_0 + (int) v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  private static int arrayTypeCode(char elem) {
    return switch (elem) {
      case 'Z' -> T_BOOLEAN;
      case 'B' -> T_BYTE;
      case 'C' -> T_CHAR;
      case 'S' -> T_SHORT;
      case 'I' -> T_INT;
      case 'J' -> T_LONG;
      case 'F' -> T_FLOAT;
      default -> T_DOUBLE;
    };
  }

  private static int arrayStore(char type) {
    return switch (type) {
      case 'Z', 'B' -> BASTORE;
      case 'C' -> CASTORE;
      case 'S' -> SASTORE;
      case 'I' -> IASTORE;
      case 'J' -> LASTORE;
      case 'F' -> FASTORE;
      case 'D' -> DASTORE;
      default -> AASTORE;
    };
  }
}
