package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * {@link Evolution#adapt} instruction by instruction: every instruction that is not part of a store
 * into a removed field passes through unchanged and in its place, a cast it holds back while it
 * finds out whether the next instruction drops the value is written before that next instruction
 * (whatever its kind), and exactly the stores into removed fields become pops of the right width.
 * The code is made with ASM, adapted, and read back; no class is defined (the JVM's verifier checks
 * adapted code when the loader defines it, {@code RemovedFieldCodeTest}).
 */
class EvolutionDropTest {
  private static final String OWNER = "evo/Owner";
  private static final String FIELD = org.codese.program.RuntimeContract.current().setterOwner();
  private static final Set<String> REMOVED_PUTFIELDS = Set.of(OWNER + ".gone");

  /** Constants 0 and 5 are setters of removed fields, 1 to 4 are not. */
  private static final Object[] CONSTANTS = {
    Evolution.REMOVED, "one", "two", "three", "four", Evolution.REMOVED
  };

  /** Opcode names by value, from {@link Opcodes}' constants. */
  private static final java.util.Map<Integer, String> OPCODE_NAMES = opcodeNames();

  private static java.util.Map<Integer, String> opcodeNames() {
    java.util.Map<Integer, String> names = new java.util.HashMap<>();
    boolean opcodes = false;
    for (java.lang.reflect.Field f : Opcodes.class.getFields()) {
      opcodes |= f.getName().equals("NOP"); // the opcodes follow the other int constants
      if (opcodes && f.getType() == int.class) {
        try {
          names.putIfAbsent(f.getInt(null), f.getName().toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return names;
  }

  /** The instructions of {@code code} as one method of a class, before and after adaptation. */
  private static List<String> adapted(Consumer<MethodVisitor> code) {
    return listing(Evolution.adapt(classWith(code), REMOVED_PUTFIELDS, CONSTANTS));
  }

  private static List<String> original(Consumer<MethodVisitor> code) {
    return listing(classWith(code));
  }

  private static byte[] classWith(Consumer<MethodVisitor> code) {
    ClassWriter w = new ClassWriter(0);
    w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "evo/Code", null, "java/lang/Object", null);
    MethodVisitor mv =
        w.visitMethod(Opcodes.ACC_STATIC, "run", "([Ljava/lang/Object;Levo/Owner;)V", null, null);
    mv.visitCode();
    code.accept(mv);
    mv.visitMaxs(8, 4);
    mv.visitEnd();
    w.visitEnd();
    return w.toByteArray();
  }

  private static List<String> listing(byte[] classFile) {
    ClassNode node = new ClassNode();
    new ClassReader(classFile).accept(node, 0);
    MethodNode m = node.methods.get(0);
    List<String> out = new ArrayList<>();
    List<LabelNode> labels = new ArrayList<>();
    for (AbstractInsnNode i : m.instructions) {
      out.add(render(i, labels));
    }
    out.add("maxs " + m.maxStack + " " + m.maxLocals);
    return out;
  }

  private static String render(AbstractInsnNode i, List<LabelNode> labels) {
    String op = i.getOpcode() < 0 ? "" : OPCODE_NAMES.get(i.getOpcode());
    if (i instanceof LabelNode l) {
      if (!labels.contains(l)) {
        labels.add(l);
      }
      return "L" + labels.indexOf(l);
    }
    if (i instanceof JumpInsnNode j) {
      if (!labels.contains(j.label)) {
        labels.add(j.label);
      }
      return op + " L" + labels.indexOf(j.label);
    }
    if (i instanceof FrameNode f) {
      return "frame " + f.type;
    }
    if (i instanceof TypeInsnNode t) {
      return op + " " + t.desc;
    }
    if (i instanceof FieldInsnNode f) {
      return op + " " + f.owner + "." + f.name + " " + f.desc;
    }
    if (i instanceof MethodInsnNode m) {
      return op + " " + m.owner + "." + m.name + m.desc;
    }
    if (i instanceof IntInsnNode n) {
      return op + " " + n.operand;
    }
    if (i instanceof LdcInsnNode n) {
      return op + " " + n.cst;
    }
    if (i instanceof VarInsnNode v) {
      return op + " " + v.var;
    }
    if (i instanceof IincInsnNode n) {
      return op + " " + n.var + " " + n.incr;
    }
    return op.isEmpty() ? i.getClass().getSimpleName() : op;
  }

  /** A value on the stack, cast as the code casts a value before a store. */
  private static void castValue(MethodVisitor mv) {
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/String");
  }

  /** Code that stores into no removed field must come out as it went in. */
  private static void unchanged(Consumer<MethodVisitor> code) {
    List<String> before = original(code);
    assertEquals(before, adapted(code));
  }

  @Test
  void aHeldCastIsWrittenBeforeEachKindOfInstruction() {
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitInsn(Opcodes.POP);
          mv.visitInsn(Opcodes.RETURN);
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitIntInsn(Opcodes.BIPUSH, 9);
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitLdcInsn("text");
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitVarInsn(Opcodes.ASTORE, 2);
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/CharSequence");
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitFieldInsn(Opcodes.GETSTATIC, OWNER, "k", "I");
        });
    unchanged(
        mv -> {
          mv.visitVarInsn(Opcodes.ALOAD, 1);
          castValue(mv);
          mv.visitFieldInsn(Opcodes.PUTFIELD, OWNER, "kept", "Ljava/lang/String;");
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "use", "(Ljava/lang/String;)V", false);
        });
    unchanged(
        mv -> {
          castValue(mv);
          mv.visitIincInsn(2, 1);
        });
    unchanged(mv -> castValue(mv)); // the last instruction: written before the method ends
  }

  @Test
  void aHeldCastIsWrittenBeforeAJumpALabelAndAFrame() {
    unchanged(
        mv -> {
          Label end = new Label();
          castValue(mv);
          mv.visitJumpInsn(Opcodes.IFNULL, end);
          mv.visitLabel(end);
          mv.visitInsn(Opcodes.RETURN);
        });
    unchanged(
        mv -> {
          Label target = new Label();
          mv.visitJumpInsn(Opcodes.GOTO, target);
          castValue(mv);
          mv.visitLabel(target);
          mv.visitInsn(Opcodes.RETURN);
        });
    unchanged(
        mv -> {
          Label target = new Label();
          mv.visitJumpInsn(Opcodes.GOTO, target);
          castValue(mv);
          mv.visitLabel(target);
          mv.visitFrame(Opcodes.F_SAME, 0, null, 0, null);
          mv.visitInsn(Opcodes.RETURN);
        });
    // a frame straight after a cast, with no label between, cannot reach the adapter: ClassReader
    // visits a label at every frame's offset first
  }

  /** Loads constant {@code index} as a {@code Field}, as a setter's statement does. */
  private static void fieldConstant(MethodVisitor mv, Consumer<MethodVisitor> index) {
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    index.accept(mv);
    mv.visitInsn(Opcodes.AALOAD);
    mv.visitTypeInsn(Opcodes.CHECKCAST, FIELD);
  }

  private static void setInt(MethodVisitor mv) {
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitIntInsn(Opcodes.BIPUSH, 7);
    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, FIELD, "setInt", "(Ljava/lang/Object;I)V", false);
  }

  @Test
  void aSetterOfARemovedFieldBecomesPopsOfValueTargetAndField() {
    List<String> out =
        adapted(
            mv -> {
              fieldConstant(mv, k -> k.visitInsn(Opcodes.ICONST_0));
              setInt(mv);
              mv.visitInsn(Opcodes.RETURN);
            });
    assertEquals(
        List.of(
            "aload 0",
            "iconst_0",
            "aaload",
            "checkcast " + FIELD,
            "aload 1",
            "bipush 7",
            "pop",
            "pop",
            "pop",
            "return",
            "maxs 8 4"),
        out);
  }

  @Test
  void aWideSetterPopsTwoSlotsOfValue() {
    List<String> out =
        adapted(
            mv -> {
              fieldConstant(mv, k -> k.visitInsn(Opcodes.ICONST_5));
              mv.visitVarInsn(Opcodes.ALOAD, 1);
              mv.visitLdcInsn(7L);
              mv.visitMethodInsn(
                  Opcodes.INVOKEVIRTUAL, FIELD, "setLong", "(Ljava/lang/Object;J)V", false);
            });
    assertEquals(
        List.of(
            "aload 0",
            "iconst_5",
            "aaload",
            "checkcast " + FIELD,
            "aload 1",
            "ldc 7",
            "pop2",
            "pop",
            "pop",
            "maxs 8 4"),
        out);
  }

  @Test
  void aSetterKeptInALocalIsDroppedWhereItIsCalled() {
    List<String> out =
        adapted(
            mv -> {
              fieldConstant(mv, k -> k.visitLdcInsn(5));
              mv.visitVarInsn(Opcodes.ASTORE, 3);
              mv.visitVarInsn(Opcodes.ALOAD, 3);
              setInt(mv);
            });
    assertEquals(
        List.of(
            "aload 0",
            "ldc 5",
            "aaload",
            "checkcast " + FIELD,
            "astore 3",
            "aload 3",
            "aload 1",
            "bipush 7",
            "pop",
            "pop",
            "pop",
            "maxs 8 4"),
        out);
  }

  @Test
  void settersOfKeptFieldsAndOfNoConstantPassThrough() {
    // constant 1 is kept; 6 is past the constants, -1 (a field never loaded) before them
    unchanged(
        mv -> {
          fieldConstant(mv, k -> k.visitInsn(Opcodes.ICONST_1));
          setInt(mv);
        });
    unchanged(
        mv -> {
          fieldConstant(mv, k -> k.visitIntInsn(Opcodes.BIPUSH, 6));
          setInt(mv);
        });
    unchanged(
        mv -> {
          fieldConstant(mv, k -> k.visitVarInsn(Opcodes.ILOAD, 2));
          setInt(mv);
        });
    unchanged(
        mv -> {
          mv.visitVarInsn(Opcodes.ALOAD, 2);
          mv.visitTypeInsn(Opcodes.CHECKCAST, FIELD);
          setInt(mv);
        });
    unchanged(
        mv -> {
          fieldConstant(mv, k -> k.visitInsn(Opcodes.ICONST_0));
          mv.visitVarInsn(Opcodes.ALOAD, 1);
          mv.visitIntInsn(Opcodes.BIPUSH, 7);
          mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, FIELD, "get", "(Ljava/lang/Object;)V", false);
        });
  }

  @Test
  void aPutfieldIntoARemovedFieldBecomesPopsWithoutItsCast() {
    List<String> out =
        adapted(
            mv -> {
              mv.visitVarInsn(Opcodes.ALOAD, 1);
              castValue(mv);
              mv.visitFieldInsn(Opcodes.PUTFIELD, OWNER, "gone", "Ljava/lang/String;");
              mv.visitVarInsn(Opcodes.ALOAD, 1);
              mv.visitLdcInsn(2.5d);
              mv.visitFieldInsn(Opcodes.PUTFIELD, OWNER, "gone", "D");
            });
    assertEquals(
        List.of(
            "aload 1", "aload 0", "pop", "pop", "aload 1", "ldc 2.5", "pop2", "pop", "maxs 8 4"),
        out);
  }

  @Test
  void aDroppedPutfieldForgetsTheIntItsValueWas() {
    // the value pushed for the dropped store is not the index of the next aaload
    List<String> out =
        adapted(
            mv -> {
              mv.visitVarInsn(Opcodes.ALOAD, 1);
              mv.visitInsn(Opcodes.ICONST_0);
              mv.visitFieldInsn(Opcodes.PUTFIELD, OWNER, "gone", "I");
              mv.visitInsn(Opcodes.AALOAD);
              mv.visitTypeInsn(Opcodes.CHECKCAST, FIELD);
              setInt(mv);
            });
    assertEquals(
        List.of(
            "aload 1",
            "iconst_0",
            "pop",
            "pop",
            "aaload",
            "checkcast " + FIELD,
            "aload 1",
            "bipush 7",
            "invokevirtual " + FIELD + ".setInt(Ljava/lang/Object;I)V",
            "maxs 8 4"),
        out);
  }
}
