package org.codese.verify;

/** JVM opcode numbers the checker refers to, their mnemonics and instruction lengths. */
final class Opcodes {
  static final int NOP = 0;
  static final int ACONST_NULL = 1;
  static final int ICONST_M1 = 2;
  static final int ICONST_0 = 3;
  static final int ICONST_1 = 4;
  static final int ICONST_2 = 5;
  static final int ICONST_3 = 6;
  static final int ICONST_4 = 7;
  static final int ICONST_5 = 8;
  static final int LCONST_0 = 9;
  static final int LCONST_1 = 10;
  static final int FCONST_0 = 11;
  static final int FCONST_1 = 12;
  static final int FCONST_2 = 13;
  static final int DCONST_0 = 14;
  static final int DCONST_1 = 15;
  static final int BIPUSH = 16;
  static final int SIPUSH = 17;
  static final int LDC = 18;
  static final int LDC_W = 19;
  static final int LDC2_W = 20;
  static final int ILOAD = 21;
  static final int ALOAD = 25;
  static final int ILOAD_0 = 26;
  static final int ALOAD_0 = 42;
  static final int IALOAD = 46;
  static final int LALOAD = 47;
  static final int FALOAD = 48;
  static final int DALOAD = 49;
  static final int AALOAD = 50;
  static final int BALOAD = 51;
  static final int CALOAD = 52;
  static final int SALOAD = 53;
  static final int ISTORE = 54;
  static final int ASTORE = 58;
  static final int ISTORE_0 = 59;
  static final int ASTORE_0 = 75;
  static final int IASTORE = 79;
  static final int LASTORE = 80;
  static final int FASTORE = 81;
  static final int DASTORE = 82;
  static final int AASTORE = 83;
  static final int BASTORE = 84;
  static final int CASTORE = 85;
  static final int SASTORE = 86;
  static final int DUP = 89;
  static final int IINC = 132;

  /** The first of the 16 two-byte-offset branches {@code IFEQ..JSR} (153..168). */
  static final int IFEQ = 153;

  static final int IF_ICMPLT = 161;
  static final int GOTO = 167;
  static final int JSR = 168;
  static final int TABLESWITCH = 170;
  static final int LOOKUPSWITCH = 171;
  static final int RETURN = 177;
  static final int GETSTATIC = 178;
  static final int PUTSTATIC = 179;
  static final int GETFIELD = 180;
  static final int PUTFIELD = 181;
  static final int INVOKEVIRTUAL = 182;
  static final int INVOKESPECIAL = 183;
  static final int INVOKESTATIC = 184;
  static final int INVOKEINTERFACE = 185;
  static final int INVOKEDYNAMIC = 186;
  static final int NEW = 187;
  static final int NEWARRAY = 188;
  static final int ANEWARRAY = 189;
  static final int ARRAYLENGTH = 190;
  static final int CHECKCAST = 192;
  static final int INSTANCEOF = 193;
  static final int WIDE = 196;
  static final int MULTIANEWARRAY = 197;
  static final int IFNULL = 198;
  static final int IFNONNULL = 199;

  private static final String[] NAMES =
      ("nop aconst_null iconst_m1 iconst_0 iconst_1 iconst_2"
              + " iconst_3 iconst_4 iconst_5 lconst_0 lconst_1 fconst_0 fconst_1 fconst_2 dconst_0"
              + " dconst_1 bipush sipush ldc ldc_w ldc2_w iload lload fload dload aload iload_0 iload_1"
              + " iload_2 iload_3 lload_0 lload_1 lload_2 lload_3 fload_0 fload_1 fload_2 fload_3"
              + " dload_0 dload_1 dload_2 dload_3 aload_0 aload_1 aload_2 aload_3 iaload laload faload"
              + " daload aaload baload caload saload istore lstore fstore dstore astore istore_0"
              + " istore_1 istore_2 istore_3 lstore_0 lstore_1 lstore_2 lstore_3 fstore_0 fstore_1"
              + " fstore_2 fstore_3 dstore_0 dstore_1 dstore_2 dstore_3 astore_0 astore_1 astore_2"
              + " astore_3 iastore lastore fastore dastore aastore bastore castore sastore pop pop2 dup"
              + " dup_x1 dup_x2 dup2 dup2_x1 dup2_x2 swap iadd ladd fadd dadd isub lsub fsub dsub imul"
              + " lmul fmul dmul idiv ldiv fdiv ddiv irem lrem frem drem ineg lneg fneg dneg ishl lshl"
              + " ishr lshr iushr lushr iand land ior lor ixor lxor iinc i2l i2f i2d l2i l2f l2d f2i f2l"
              + " f2d d2i d2l d2f i2b i2c i2s lcmp fcmpl fcmpg dcmpl dcmpg ifeq ifne iflt ifge ifgt ifle"
              + " if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple if_acmpeq if_acmpne goto"
              + " jsr ret tableswitch lookupswitch ireturn lreturn freturn dreturn areturn return"
              + " getstatic putstatic getfield putfield invokevirtual invokespecial invokestatic"
              + " invokeinterface invokedynamic new newarray anewarray arraylength athrow checkcast"
              + " instanceof monitorenter monitorexit wide multianewarray ifnull ifnonnull goto_w jsr_w")
          .split(" ");

  /**
   * Length of each instruction in bytes, by opcode; 0 for the variable-length switches and {@code
   * wide}, which the grammar never uses, and for undefined opcodes.
   */
  private static final byte[] LENGTHS = new byte[256];

  static {
    java.util.Arrays.fill(LENGTHS, 0, NAMES.length, (byte) 1);
    for (int op :
        new int[] {BIPUSH, LDC, 21, 22, 23, 24, ALOAD, 54, 55, 56, 57, ASTORE, NEWARRAY, 169}) {
      LENGTHS[op] = 2;
    }
    for (int op = IFEQ; op <= JSR; op++) {
      LENGTHS[op] = 3;
    }
    for (int op :
        new int[] {
          SIPUSH,
          LDC_W,
          LDC2_W,
          IINC,
          GETSTATIC,
          PUTSTATIC,
          GETFIELD,
          PUTFIELD,
          INVOKEVIRTUAL,
          INVOKESPECIAL,
          INVOKESTATIC,
          NEW,
          ANEWARRAY,
          CHECKCAST,
          INSTANCEOF,
          IFNULL,
          IFNONNULL
        }) {
      LENGTHS[op] = 3;
    }
    LENGTHS[MULTIANEWARRAY] = 4;
    LENGTHS[INVOKEINTERFACE] = 5;
    LENGTHS[INVOKEDYNAMIC] = 5;
    LENGTHS[200] = 5;
    LENGTHS[201] = 5;
    LENGTHS[TABLESWITCH] = 0;
    LENGTHS[LOOKUPSWITCH] = 0;
    LENGTHS[WIDE] = 0;
  }

  private Opcodes() {}

  static String name(int opcode) {
    return opcode >= 0 && opcode < NAMES.length ? NAMES[opcode] : "opcode " + opcode;
  }

  /**
   * @return the instruction's length, or 0 if it has no fixed length or is undefined
   */
  static int length(int opcode) {
    return LENGTHS[opcode & 0xFF];
  }
}
