package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.codese.program.Grammar;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * {@link Evolution#adapt} with stores dropped per object ({@link ObjectDrops}), instruction by
 * instruction: a store into a field of a class is popped only while the selected object is one
 * recorded for that class (its cast becoming {@code null}), and a loop whose rows were filtered
 * reads the filtered copies of its constants, the loop's other loads and every other loop
 * untouched. The code is made with ASM, adapted and read back; nothing is defined.
 */
class ObjectDropsAdaptTest {
  private static final String OWNER = "java/util/ArrayList";
  private static final int TABLE = Grammar.LOCAL_TABLE;
  private static final int CONSTANTS = Grammar.LOCAL_CONSTANTS;
  private static final int TARGET = Grammar.LOCAL_TARGET;
  private static final int IDS = Grammar.LOCAL_IDS;
  private static final int DATA = Grammar.LOCAL_FIRST_DATA;

  /** Opcode names by value, from {@link Opcodes}' constants (the opcodes follow the others). */
  private static final java.util.Map<Integer, String> OPCODE_NAMES = opcodeNames();

  private static java.util.Map<Integer, String> opcodeNames() {
    java.util.Map<Integer, String> names = new java.util.HashMap<>();
    boolean opcodes = false;
    for (java.lang.reflect.Field f : Opcodes.class.getFields()) {
      opcodes |= f.getName().equals("NOP");
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

  private static List<String> listing(byte[] classFile) {
    ClassNode node = new ClassNode();
    new ClassReader(classFile).accept(node, 0);
    MethodNode m = node.methods.get(0);
    List<String> out = new ArrayList<>();
    for (AbstractInsnNode i : m.instructions) {
      if (i.getOpcode() < 0) {
        continue; // labels and frames
      }
      String op = OPCODE_NAMES.get(i.getOpcode());
      if (i instanceof TypeInsnNode t) {
        op += " " + t.desc;
      } else if (i instanceof FieldInsnNode f) {
        op += " " + f.owner + "." + f.name;
      } else if (i instanceof IntInsnNode n) {
        op += " " + n.operand;
      } else if (i instanceof LdcInsnNode n) {
        op += " " + n.cst;
      } else if (i instanceof VarInsnNode v) {
        op += " " + v.var;
      }
      out.add(op);
    }
    return out;
  }

  private static byte[] chunk(Consumer<MethodVisitor> code) {
    ClassWriter w = new ClassWriter(0);
    w.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "evo/Code", null, "java/lang/Object", null);
    MethodVisitor mv =
        w.visitMethod(
            Opcodes.ACC_STATIC, Grammar.chunkName(0), Grammar.CHUNK_DESCRIPTOR, null, null);
    mv.visitCode();
    code.accept(mv);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(8, 8);
    mv.visitEnd();
    w.visitEnd();
    return w.toByteArray();
  }

  /** {@code target = (ArrayList) table[id]; target.size = v}. */
  private static void selectAndPut(MethodVisitor mv, int id, int v) {
    mv.visitVarInsn(Opcodes.ALOAD, TABLE);
    mv.visitIntInsn(Opcodes.BIPUSH, id);
    mv.visitInsn(Opcodes.AALOAD);
    mv.visitTypeInsn(Opcodes.CHECKCAST, OWNER);
    mv.visitVarInsn(Opcodes.ASTORE, TARGET);
    mv.visitVarInsn(Opcodes.ALOAD, TARGET);
    mv.visitIntInsn(Opcodes.BIPUSH, v);
    mv.visitFieldInsn(Opcodes.PUTFIELD, OWNER, "size", "I");
  }

  /** A loop header reading constant {@code ids} into the ids local and {@code values} after it. */
  private static void loopHeader(MethodVisitor mv, int ids, int values) {
    mv.visitVarInsn(Opcodes.ALOAD, CONSTANTS);
    mv.visitIntInsn(Opcodes.BIPUSH, ids);
    mv.visitInsn(Opcodes.AALOAD);
    mv.visitTypeInsn(Opcodes.CHECKCAST, "[I");
    mv.visitVarInsn(Opcodes.ASTORE, IDS);
    mv.visitVarInsn(Opcodes.ALOAD, CONSTANTS);
    mv.visitIntInsn(Opcodes.BIPUSH, values);
    mv.visitInsn(Opcodes.AALOAD);
    mv.visitTypeInsn(Opcodes.CHECKCAST, "[I");
    mv.visitVarInsn(Opcodes.ASTORE, DATA);
    mv.visitLabel(new Label()); // the loop's body begins
  }

  @Test
  void aPutfieldIsDroppedOnTheRecordedObjectOnly() {
    byte[] code =
        chunk(
            mv -> {
              selectAndPut(mv, 10, 7);
              selectAndPut(mv, 11, 8);
            });
    ObjectDrops drops = new ObjectDrops(0);
    drops.dropStores(java.util.ArrayList.class, 10);
    List<String> got = listing(Evolution.adapt(code, Set.of(), new Object[0], drops, 0));
    List<String> kept = listing(chunk(mv -> selectAndPut(mv, 11, 8)));
    List<String> want = new ArrayList<>();
    want.addAll(
        List.of(
            "aload 0",
            "bipush 10",
            "aaload",
            "pop",
            "aconst_null",
            "astore 2",
            "aload 2",
            "bipush 7",
            "pop",
            "pop"));
    want.addAll(kept);
    assertEquals(want, got);
  }

  @Test
  void aFilteredLoopReadsTheCopiesOfItsConstantsAndOtherLoopsTheirOwn() {
    byte[] code =
        chunk(
            mv -> {
              loopHeader(mv, 20, 21); // loop 0: kept as it is
              loopHeader(mv, 20, 22); // loop 1: rows filtered
            });
    Object[] resolved = new Object[23];
    resolved[20] = new int[] {1, 2, 3};
    resolved[21] = new int[] {4, 5, 6};
    resolved[22] = new int[] {7, 8, 9};
    ObjectDrops drops = new ObjectDrops(resolved.length);
    BitSet keep = new BitSet();
    keep.set(0);
    keep.set(2);
    drops.filterLoop(
        java.util.ArrayList.class,
        0,
        0,
        1,
        (int[]) resolved[20],
        20,
        new int[] {22},
        resolved,
        keep);
    List<String> got = listing(Evolution.adapt(code, Set.of(), resolved, drops, 0));
    List<String> header0 =
        List.of(
            "aload 1",
            "bipush 20",
            "aaload",
            "checkcast [I",
            "astore 3",
            "aload 1",
            "bipush 21",
            "aaload",
            "checkcast [I",
            "astore 5");
    List<String> want = new ArrayList<>(header0);
    want.addAll(
        List.of(
            "aload 1",
            "bipush 20",
            "aaload",
            "checkcast [I",
            "pop",
            "aload 1",
            "ldc 23",
            "aaload",
            "checkcast [I",
            "astore 3",
            "aload 1",
            "bipush 22",
            "aaload",
            "checkcast [I",
            "pop",
            "aload 1",
            "ldc 24",
            "aaload",
            "checkcast [I",
            "astore 5",
            "return"));
    assertEquals(want, got.subList(0, want.size()));
    assertEquals(want.size(), got.size());
    Object[] all = drops.apply(resolved.clone(), Grammar.STORE_VERSION);
    assertArrayEquals(new int[] {1, 3}, (int[]) all[23]);
    assertArrayEquals(new int[] {7, 9}, (int[]) all[24]);
    assertEquals(Set.of("java.util.ArrayList"), drops.classes());
  }

  /** A loop in a method that is no chunk, or of another class file, reads its own constants. */
  @Test
  void onlyTheRecordedClassFileAndChunkAreFiltered() {
    byte[] code = chunk(mv -> loopHeader(mv, 20, 22));
    Object[] resolved = new Object[23];
    resolved[20] = new int[] {1, 2};
    resolved[22] = new int[] {7, 8};
    ObjectDrops drops = new ObjectDrops(resolved.length);
    BitSet keep = new BitSet();
    keep.set(1);
    drops.filterLoop(
        java.util.ArrayList.class,
        3,
        0,
        0,
        (int[]) resolved[20],
        20,
        new int[] {22},
        resolved,
        keep);
    assertEquals(listing(code), listing(Evolution.adapt(code, Set.of(), resolved, drops, 0)));
  }
}
