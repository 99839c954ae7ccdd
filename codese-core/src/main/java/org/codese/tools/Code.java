package org.codese.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A generated class file's methods as lists of instructions, read with ASM's core API: labels are
 * instructions of opcode -1, so indices count as in ASM's tree API.
 */
final class Code {
  /**
   * One instruction.
   *
   * @param opcode the opcode, -1 for a label
   * @param operand the int operand, local variable or increment's local
   * @param increment an {@code iinc}'s increment
   * @param owner a type, field or method owner
   * @param name a field or method name
   * @param descriptor a field or method descriptor
   * @param constant an {@code ldc}'s constant
   * @param target a jump's target, as an instruction index
   */
  record Ins(
      int opcode,
      int operand,
      int increment,
      String owner,
      String name,
      String descriptor,
      Object constant,
      int target) {}

  /**
   * A method.
   *
   * @param name its name
   * @param descriptor its descriptor
   * @param code its instructions, labels included
   * @param maxLocals its local variable count
   */
  record Method(String name, String descriptor, List<Ins> code, int maxLocals) {}

  final String name;
  final List<Method> methods = new ArrayList<>();

  private Code(String name) {
    this.name = name;
  }

  /**
   * @param classFile a class file
   * @return its name and methods
   * @throws RuntimeException if the class file is malformed
   */
  static Code read(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    Code code = new Code(reader.getClassName());
    reader.accept(
        new ClassVisitor(Opcodes.ASM9) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String desc, String signature, String[] exceptions) {
            return new Collector(code, name, desc);
          }
        },
        ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG);
    return code;
  }

  /** Collects a method's instructions, then resolves its jumps. */
  private static final class Collector extends MethodVisitor {
    private final Code code;
    private final String name;
    private final String desc;
    private final List<Ins> list = new ArrayList<>();
    private final Map<Label, Integer> labels = new HashMap<>();
    private final List<Label> jumps = new ArrayList<>();
    private int maxLocals;

    Collector(Code code, String name, String desc) {
      super(Opcodes.ASM9);
      this.code = code;
      this.name = name;
      this.desc = desc;
    }

    private void add(int op, int operand, String owner, String name, String desc, Object cst) {
      list.add(new Ins(op, operand, 0, owner, name, desc, cst, -1));
      jumps.add(null);
    }

    @Override
    public void visitLabel(Label label) {
      labels.put(label, list.size());
      add(-1, 0, null, null, null, null);
    }

    @Override
    public void visitInsn(int opcode) {
      add(opcode, 0, null, null, null, null);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      add(opcode, operand, null, null, null, null);
    }

    @Override
    public void visitVarInsn(int opcode, int var) {
      add(opcode, var, null, null, null, null);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      add(opcode, 0, type, null, null, null);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String desc) {
      add(opcode, 0, owner, name, desc, null);
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String desc, boolean isInterface) {
      add(opcode, 0, owner, name, desc, null);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      add(opcode, 0, null, null, null, null);
      jumps.set(jumps.size() - 1, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
      add(Opcodes.LDC, 0, null, null, null, value);
    }

    @Override
    public void visitIincInsn(int var, int increment) {
      list.add(new Ins(Opcodes.IINC, var, increment, null, null, null, null, -1));
      jumps.add(null);
    }

    @Override
    public void visitInvokeDynamicInsn(
        String name, String desc, org.objectweb.asm.Handle bsm, Object... args) {
      add(Opcodes.INVOKEDYNAMIC, 0, null, name, desc, null);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
      add(Opcodes.TABLESWITCH, 0, null, null, null, null);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
      add(Opcodes.LOOKUPSWITCH, 0, null, null, null, null);
    }

    @Override
    public void visitMultiANewArrayInsn(String desc, int dims) {
      add(Opcodes.MULTIANEWARRAY, 0, desc, null, null, null);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      this.maxLocals = maxLocals;
    }

    @Override
    public void visitEnd() {
      List<Ins> resolved = new ArrayList<>(list.size());
      for (int i = 0; i < list.size(); i++) {
        Ins in = list.get(i);
        Label l = jumps.get(i);
        resolved.add(
            l == null
                ? in
                : new Ins(
                    in.opcode(),
                    in.operand(),
                    in.increment(),
                    null,
                    null,
                    null,
                    null,
                    labels.getOrDefault(l, -1)));
      }
      code.methods.add(new Method(name, desc, List.copyOf(resolved), maxLocals));
    }
  }
}
