package org.codese.verify;

/**
 * One instruction of a generated method as the checker sees it: the opcode ({@link #LABEL} for a
 * label) and whichever operands the instruction has.
 */
record Insn(
    int opcode,
    int operand,
    String owner,
    String name,
    String descriptor,
    Object constant,
    Object label) {
  /** A pseudo-opcode marking a label's position. */
  static final int LABEL = -1;

  static Insn simple(int opcode, int operand) {
    return new Insn(opcode, operand, null, null, null, null, null);
  }

  String show() {
    String op = opcode == LABEL ? "label" : Opcodes.name(opcode);
    StringBuilder sb = new StringBuilder(op);
    if (owner != null) {
      sb.append(' ').append(owner);
    }
    if (name != null) {
      sb.append('.').append(name);
    }
    if (descriptor != null) {
      sb.append(' ').append(descriptor);
    }
    if (constant != null) {
      sb.append(' ')
          .append(
              constant instanceof String s && s.length() > 40
                  ? s.substring(0, 40) + "..."
                  : constant);
    }
    return sb.toString();
  }
}
