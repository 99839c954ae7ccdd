package org.codese.emit;

import static org.objectweb.asm.Opcodes.*;

import org.codese.jvm.Kind;
import org.codese.plan.Op;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Emits the counted loops of the restore grammar. Each loop reads its data from constants into
 * locals 3 and up, counts local {@link #INDEX} from 0 to the length of its index array, and has no
 * other branch. Local 2 (the selected target) is clobbered.
 */
final class Loops {
  private static final int TABLE = Emitter.TABLE;
  private static final int CONSTANTS = Emitter.CONSTANTS;
  private static final int TARGET = Emitter.TARGET;
  private static final int IDS = Grammar.LOCAL_IDS;
  private static final int INDEX = Grammar.LOCAL_INDEX;
  private static final int DATA = Grammar.LOCAL_FIRST_DATA;
  private static final String OBJECT_ARRAY = "[Ljava/lang/Object;";

  /** The class of setter constants the code calls (format 10: {@code FieldStore}). */
  private static final String FIELD = RuntimeContract.current().setterOwner();

  private Loops() {}

  /** {@code table[ids[i]] = allocate(allocator)}. */
  static void allocLoop(MethodVisitor mv, Op.AllocLoop a) {
    load(mv, a.ids(), "[I", IDS);
    load(mv, a.allocator(), null, DATA);
    Label[] at = begin(mv);
    tableSlot(mv);
    mv.visitVarInsn(ALOAD, DATA);
    Emitter.allocate(mv, a.collection());
    mv.visitInsn(AASTORE);
    end(mv, at);
  }

  /** {@code table[ids[i]] = new String(texts[i])}. */
  static void stringLoop(MethodVisitor mv, Op.StringLoop s) {
    load(mv, s.ids(), "[I", IDS);
    load(mv, s.texts(), "[Ljava/lang/String;", DATA);
    Label[] at = begin(mv);
    tableSlot(mv);
    mv.visitTypeInsn(NEW, "java/lang/String");
    mv.visitInsn(DUP);
    mv.visitVarInsn(ALOAD, DATA);
    mv.visitVarInsn(ILOAD, INDEX);
    mv.visitInsn(AALOAD);
    mv.visitMethodInsn(INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
    mv.visitInsn(AASTORE);
    end(mv, at);
  }

  /** {@code target = table[id]; target[i] = table[refs[i]]}. */
  static void elementLoop(MethodVisitor mv, Op.ElementLoop e) {
    mv.visitVarInsn(ALOAD, TABLE);
    Emitter.push(mv, e.id());
    mv.visitInsn(AALOAD);
    mv.visitTypeInsn(CHECKCAST, OBJECT_ARRAY);
    mv.visitVarInsn(ASTORE, TARGET);
    load(mv, e.refs(), "[I", IDS);
    Label[] at = begin(mv);
    mv.visitVarInsn(ALOAD, TARGET);
    mv.visitVarInsn(ILOAD, INDEX);
    tableAt(mv, IDS);
    mv.visitInsn(AASTORE);
    end(mv, at);
  }

  /** {@code table[ids[i]] = box(values[i])}, by {@code valueOf} or {@code new}. */
  static void boxLoop(MethodVisitor mv, Op.BoxLoop b) {
    String owner = b.type().boxOwner();
    String desc = String.valueOf(b.type().descriptor());
    load(mv, b.ids(), "[I", IDS);
    load(mv, b.values(), "[" + desc, DATA);
    Label[] at = begin(mv);
    tableSlot(mv);
    if (!b.cached()) {
      mv.visitTypeInsn(NEW, owner);
      mv.visitInsn(DUP);
    }
    mv.visitVarInsn(ALOAD, DATA);
    mv.visitVarInsn(ILOAD, INDEX);
    mv.visitInsn(Grammar.arrayLoadOpcode(b.type().descriptor()));
    if (b.cached()) {
      mv.visitMethodInsn(INVOKESTATIC, owner, "valueOf", "(" + desc + ")L" + owner + ";", false);
    } else {
      mv.visitMethodInsn(INVOKESPECIAL, owner, "<init>", "(" + desc + ")V", false);
    }
    mv.visitInsn(AASTORE);
    end(mv, at);
  }

  /** Per object {@code table[ids[i]]}, its columns' fields. */
  static void clusterLoop(MethodVisitor mv, Op.ClusterLoop c) {
    int n = c.columns().size();
    load(mv, c.ids(), "[I", IDS);
    for (int i = 0; i < n; i++) {
      Op.Column col = c.columns().get(i);
      load(
          mv,
          col.values(),
          col.type() == Kind.REFERENCE ? "[I" : "[" + col.type().descriptor(),
          DATA + i);
      if (col.reflective()) {
        load(mv, col.field(), FIELD, DATA + n + i);
      }
    }
    Label[] at = begin(mv);
    tableAt(mv, IDS);
    if (c.owner() != null) {
      mv.visitTypeInsn(CHECKCAST, c.owner());
    }
    mv.visitVarInsn(ASTORE, TARGET);
    for (int i = 0; i < n; i++) {
      column(mv, c.owner(), c.columns().get(i), DATA + i, DATA + n + i);
    }
    end(mv, at);
  }

  /** {@code target.field = values[i]}, by {@code putfield} or through the field constant. */
  private static void column(MethodVisitor mv, String owner, Op.Column col, int values, int field) {
    if (col.reflective()) {
      mv.visitVarInsn(ALOAD, field);
    }
    mv.visitVarInsn(ALOAD, TARGET);
    if (col.type() == Kind.REFERENCE) {
      tableAt(mv, values);
      if (col.cast() != null && !col.reflective()) {
        mv.visitTypeInsn(CHECKCAST, col.cast());
      }
    } else {
      mv.visitVarInsn(ALOAD, values);
      mv.visitVarInsn(ILOAD, INDEX);
      mv.visitInsn(Grammar.arrayLoadOpcode(col.type().descriptor()));
    }
    if (col.reflective()) {
      Emitter.fieldSet(mv, col.type());
    } else {
      mv.visitFieldInsn(PUTFIELD, owner, col.name(), col.descriptor());
    }
  }

  /** Pushes {@code table[ids[i]]}'s array and index: {@code table, ids[i]}. */
  private static void tableSlot(MethodVisitor mv) {
    mv.visitVarInsn(ALOAD, TABLE);
    mv.visitVarInsn(ALOAD, IDS);
    mv.visitVarInsn(ILOAD, INDEX);
    mv.visitInsn(IALOAD);
  }

  /**
   * Pushes {@code table[indices[i]]} where {@code indices} is the {@code int[]} in {@code local}.
   */
  private static void tableAt(MethodVisitor mv, int local) {
    mv.visitVarInsn(ALOAD, TABLE);
    mv.visitVarInsn(ALOAD, local);
    mv.visitVarInsn(ILOAD, INDEX);
    mv.visitInsn(IALOAD);
    mv.visitInsn(AALOAD);
  }

  private static void load(MethodVisitor mv, int constant, String cast, int local) {
    mv.visitVarInsn(ALOAD, CONSTANTS);
    Emitter.push(mv, constant);
    mv.visitInsn(AALOAD);
    if (cast != null) {
      mv.visitTypeInsn(CHECKCAST, cast);
    }
    mv.visitVarInsn(ASTORE, local);
  }

  /**
   * Begins {@code for (i = 0; i < ids.length; i++) body}: the body's code follows, then {@link
   * #end} with what this returns. (No {@code Runnable} body: a lambda's first use costs a cold
   * JVM's first capture its bootstrap.)
   *
   * @return the loop's test and top labels
   */
  private static Label[] begin(MethodVisitor mv) {
    Label test = new Label();
    Label top = new Label();
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, INDEX);
    mv.visitJumpInsn(GOTO, test);
    mv.visitLabel(top);
    return new Label[] {test, top};
  }

  /** Ends the loop {@link #begin} began: the increment and the test. */
  private static void end(MethodVisitor mv, Label[] at) {
    mv.visitIincInsn(INDEX, 1);
    mv.visitLabel(at[0]);
    mv.visitVarInsn(ILOAD, INDEX);
    mv.visitVarInsn(ALOAD, IDS);
    mv.visitInsn(ARRAYLENGTH);
    mv.visitJumpInsn(IF_ICMPLT, at[1]);
  }
}
