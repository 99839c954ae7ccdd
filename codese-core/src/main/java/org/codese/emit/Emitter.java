package org.codese.emit;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.codese.jvm.Kind;
import org.codese.plan.Op;
import org.codese.plan.Plan;
import org.codese.plan.Section;
import org.codese.program.Grammar;
import org.codese.program.Placement;
import org.codese.program.RuntimeContract;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;

/**
 * Writes a {@link Plan} as class files following {@link Grammar}. Knows nothing about live objects.
 *
 * <p>Each {@link Section} becomes one or more classes in its host's package; ops are packed into
 * chunk methods of at most {@link Grammar#MAX_CHUNK_BYTES} bytes, and chunks into classes of at
 * most {@link Grammar#MAX_OPS_PER_CLASS} ops.
 */
public final class Emitter {
  private static final String OBJECT_ARRAY = "[Ljava/lang/Object;";

  /** The class of setter constants the code calls (format 10: {@code FieldStore}). */
  private static final String FIELD = RuntimeContract.current().setterOwner();

  /** An upper bound on the bytecode of any single op, used for chunk splitting. */
  private static final int MAX_OP_BYTES = 20;

  /** An upper bound on a loop's bytecode without its columns. */
  private static final int LOOP_BYTES = 80;

  /** An upper bound on the bytecode one column adds to a cluster loop. */
  private static final int COLUMN_BYTES = 48;

  static final int TABLE = Grammar.LOCAL_TABLE;
  static final int CONSTANTS = Grammar.LOCAL_CONSTANTS;
  static final int TARGET = Grammar.LOCAL_TARGET;

  private final Plan plan;
  private final List<byte[]> classFiles = new ArrayList<>();
  private final List<Placement> placements = new ArrayList<>();
  private ClassWriter cw;
  private String className;
  private int chunks;
  private int opsInClass;
  private MethodVisitor mv;
  private int methodBytes;
  private Op.Select selected;
  private final OpWriter writer = new OpWriter();

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
    for (Section section : plan.sections()) {
      if (section.ops().isEmpty()) {
        continue;
      }
      startClass(section);
      selected = null;
      for (Op op : section.ops()) {
        if (opsInClass >= Grammar.MAX_OPS_PER_CLASS) {
          endClass();
          startClass(section);
        }
        if (mv == null || methodBytes + size(op) > Grammar.MAX_CHUNK_BYTES) {
          startChunk();
        }
        emit(op);
        opsInClass++;
      }
      endClass();
    }
    return new Emitted(List.copyOf(classFiles), List.copyOf(placements));
  }

  private void startClass(Section section) {
    String pkg =
        section.host() < 0
            ? RuntimeContract.current().hostPackage()
            : Grammar.packageOf(plan.classes().get(section.host()).name());
    className = (pkg.isEmpty() ? "" : pkg + "/") + Grammar.CLASS_PREFIX + classFiles.size();
    cw =
        new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
          @Override
          protected String getCommonSuperClass(String type1, String type2) {
            return "java/lang/Object";
          }
        };
    cw.visit(
        V17,
        ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC,
        className,
        null,
        "java/lang/Object",
        new String[] {Grammar.ENTRY_INTERFACE});
    MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    placements.add(section.placement());
    chunks = 0;
    opsInClass = 0;
  }

  private void endClass() {
    endChunk();
    MethodVisitor entry =
        cw.visitMethod(ACC_PUBLIC, Grammar.ENTRY_METHOD, Grammar.ENTRY_DESCRIPTOR, null, null);
    entry.visitCode();
    entry.visitVarInsn(ALOAD, 1);
    entry.visitTypeInsn(CHECKCAST, OBJECT_ARRAY);
    entry.visitVarInsn(ASTORE, 3);
    entry.visitVarInsn(ALOAD, 2);
    entry.visitTypeInsn(CHECKCAST, OBJECT_ARRAY);
    entry.visitVarInsn(ASTORE, 4);
    for (int c = 0; c < chunks; c++) {
      entry.visitVarInsn(ALOAD, 3);
      entry.visitVarInsn(ALOAD, 4);
      entry.visitMethodInsn(
          INVOKESTATIC, className, Grammar.chunkName(c), Grammar.CHUNK_DESCRIPTOR, false);
    }
    entry.visitInsn(RETURN);
    entry.visitMaxs(0, 0);
    entry.visitEnd();
    cw.visitEnd();
    classFiles.add(cw.toByteArray());
  }

  private void startChunk() {
    endChunk();
    mv =
        cw.visitMethod(
            ACC_STATIC, Grammar.chunkName(chunks++), Grammar.CHUNK_DESCRIPTOR, null, null);
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

  /** An upper bound on the bytecode {@link #emit} writes for {@code op}. */
  private static int size(Op op) {
    return op.accept(OpBytes.INSTANCE);
  }

  private void emit(Op op) {
    methodBytes += size(op);
    op.accept(writer);
  }

  /** Upper bounds on the bytecode of each op, for chunk splitting. */
  private static final class OpBytes implements Op.Visitor<Integer> {
    static final OpBytes INSTANCE = new OpBytes();

    @Override
    public Integer visitAlloc(Op.Alloc op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitNewArray(Op.NewArray op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitCloneArray(Op.CloneArray op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitNewString(Op.NewString op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitNewBox(Op.NewBox op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitLoadConstant(Op.LoadConstant op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitSelect(Op.Select op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitPutField(Op.PutField op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitPutDirect(Op.PutDirect op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitPutElement(Op.PutElement op) {
      return MAX_OP_BYTES;
    }

    @Override
    public Integer visitAllocLoop(Op.AllocLoop op) {
      return LOOP_BYTES;
    }

    @Override
    public Integer visitStringLoop(Op.StringLoop op) {
      return LOOP_BYTES;
    }

    @Override
    public Integer visitBoxLoop(Op.BoxLoop op) {
      return LOOP_BYTES;
    }

    @Override
    public Integer visitClusterLoop(Op.ClusterLoop op) {
      return LOOP_BYTES + COLUMN_BYTES * op.columns().size();
    }

    @Override
    public Integer visitElementLoop(Op.ElementLoop op) {
      return LOOP_BYTES;
    }

    @Override
    public Integer visitRunSteps(Op.RunSteps op) {
      return MAX_OP_BYTES;
    }
  }

  /**
   * Writes each op into the current chunk. A loop clobbers the selected target (local {@link
   * #TARGET}), so a chunk started after it selects nothing again.
   */
  private final class OpWriter implements Op.Visitor<Void> {
    @Override
    public Void visitAlloc(Op.Alloc a) {
      storeStart(a.id());
      constant(a.allocator(), null);
      allocate(mv, a.collection());
      mv.visitInsn(AASTORE);
      return null;
    }

    @Override
    public Void visitNewArray(Op.NewArray a) {
      newArray(a);
      return null;
    }

    @Override
    public Void visitCloneArray(Op.CloneArray c) {
      storeStart(c.id());
      constant(c.constant(), c.descriptor());
      mv.visitMethodInsn(INVOKEVIRTUAL, c.descriptor(), "clone", "()Ljava/lang/Object;", false);
      mv.visitInsn(AASTORE);
      return null;
    }

    @Override
    public Void visitNewString(Op.NewString s) {
      storeStart(s.id());
      mv.visitTypeInsn(NEW, "java/lang/String");
      mv.visitInsn(DUP);
      if (s.text() >= 0) {
        constant(s.text(), "java/lang/String");
      } else {
        mv.visitLdcInsn(s.value());
      }
      mv.visitMethodInsn(
          INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
      mv.visitInsn(AASTORE);
      return null;
    }

    @Override
    public Void visitNewBox(Op.NewBox b) {
      storeStart(b.id());
      box(b);
      mv.visitInsn(AASTORE);
      return null;
    }

    @Override
    public Void visitLoadConstant(Op.LoadConstant c) {
      storeStart(c.id());
      constant(c.constant(), null);
      mv.visitInsn(AASTORE);
      return null;
    }

    @Override
    public Void visitSelect(Op.Select s) {
      selected = s;
      select(s);
      return null;
    }

    @Override
    public Void visitPutField(Op.PutField p) {
      constant(p.field(), FIELD);
      mv.visitVarInsn(ALOAD, TARGET);
      value(p.type(), p.bits(), p.ref());
      fieldSet(mv, p.type());
      return null;
    }

    @Override
    public Void visitPutDirect(Op.PutDirect p) {
      mv.visitVarInsn(ALOAD, TARGET);
      value(p.type(), p.bits(), p.ref());
      if (p.type() == Kind.REFERENCE && p.cast() != null) {
        mv.visitTypeInsn(CHECKCAST, p.cast());
      }
      mv.visitFieldInsn(PUTFIELD, p.owner(), p.name(), p.descriptor());
      return null;
    }

    @Override
    public Void visitPutElement(Op.PutElement p) {
      mv.visitVarInsn(ALOAD, TARGET);
      push(p.index());
      value(p.type(), p.bits(), p.ref());
      mv.visitInsn(arrayStore(p.type()));
      return null;
    }

    @Override
    public Void visitAllocLoop(Op.AllocLoop op) {
      Loops.allocLoop(mv, op);
      selected = null;
      return null;
    }

    @Override
    public Void visitStringLoop(Op.StringLoop op) {
      Loops.stringLoop(mv, op);
      selected = null;
      return null;
    }

    @Override
    public Void visitBoxLoop(Op.BoxLoop op) {
      Loops.boxLoop(mv, op);
      selected = null;
      return null;
    }

    @Override
    public Void visitClusterLoop(Op.ClusterLoop op) {
      Loops.clusterLoop(mv, op);
      selected = null;
      return null;
    }

    @Override
    public Void visitElementLoop(Op.ElementLoop op) {
      Loops.elementLoop(mv, op);
      selected = null;
      return null;
    }

    @Override
    public Void visitRunSteps(Op.RunSteps r) {
      mv.visitVarInsn(ALOAD, TABLE);
      mv.visitVarInsn(ALOAD, CONSTANTS);
      push(r.program());
      mv.visitMethodInsn(
          INVOKESTATIC,
          RuntimeContract.current().stepsOwner(),
          Grammar.STEPS_METHOD,
          Grammar.STEPS_DESCRIPTOR,
          false);
      return null;
    }
  }

  /**
   * Calls the {@code java.lang.reflect.Field} setter of kind {@code type} on the field, target and
   * value on the stack.
   */
  static void fieldSet(MethodVisitor mv, Kind type) {
    if (type == Kind.REFERENCE) {
      mv.visitMethodInsn(
          INVOKEVIRTUAL, FIELD, "set", "(Ljava/lang/Object;Ljava/lang/Object;)V", false);
    } else {
      mv.visitMethodInsn(
          INVOKEVIRTUAL,
          FIELD,
          "set" + type.setterSuffix(),
          "(Ljava/lang/Object;" + type.descriptor() + ")V",
          false);
    }
  }

  /** Pushes constant {@code index}, cast to {@code cast} unless that is {@code null}. */
  private void constant(int index, String cast) {
    mv.visitVarInsn(ALOAD, CONSTANTS);
    push(index);
    mv.visitInsn(AALOAD);
    if (cast != null) {
      mv.visitTypeInsn(CHECKCAST, cast);
    }
  }

  private void newArray(Op.NewArray a) {
    storeStart(a.id());
    if (a.elem() != Kind.REFERENCE) {
      push(a.length());
      mv.visitIntInsn(NEWARRAY, arrayTypeCode(a.elem()));
    } else if (a.maker() < 0) {
      push(a.length());
      mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
    } else {
      constant(a.maker(), "java/lang/Class");
      push(a.length());
      mv.visitMethodInsn(
          INVOKESTATIC,
          "java/lang/reflect/Array",
          "newInstance",
          "(Ljava/lang/Class;I)Ljava/lang/Object;",
          false);
    }
    mv.visitInsn(AASTORE);
  }

  private void select(Op.Select s) {
    mv.visitVarInsn(ALOAD, TABLE);
    push(s.id());
    mv.visitInsn(AALOAD);
    if (s.cast() != null) {
      mv.visitTypeInsn(CHECKCAST, s.cast());
    }
    mv.visitVarInsn(ASTORE, TARGET);
  }

  private void storeStart(int id) {
    mv.visitVarInsn(ALOAD, TABLE);
    push(id);
  }

  private void value(Kind type, long bits, int ref) {
    switch (type) {
      case REFERENCE -> {
        mv.visitVarInsn(ALOAD, TABLE);
        push(ref);
        mv.visitInsn(AALOAD);
      }
      case LONG -> pushLong(bits);
      case FLOAT -> pushFloat(Float.intBitsToFloat((int) bits));
      case DOUBLE -> pushDouble(Double.longBitsToDouble(bits));
      case BOOLEAN, BYTE, CHAR, SHORT, INT -> push((int) bits);
    }
  }

  private void box(Op.NewBox b) {
    String owner = b.type().boxOwner();
    if (b.cached()) {
      value(b.type(), b.bits(), -1);
      mv.visitMethodInsn(
          INVOKESTATIC, owner, "valueOf", "(" + b.type().descriptor() + ")L" + owner + ";", false);
    } else {
      mv.visitTypeInsn(NEW, owner);
      mv.visitInsn(DUP);
      value(b.type(), b.bits(), -1);
      mv.visitMethodInsn(INVOKESPECIAL, owner, "<init>", "(" + b.type().descriptor() + ")V", false);
    }
  }

  private void push(int v) {
    push(mv, v);
  }

  /** Pushes an int constant with the shortest instruction. */
  static void push(MethodVisitor mv, int v) {
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

  private static int arrayTypeCode(Kind elem) {
    return switch (elem) {
      case BOOLEAN -> T_BOOLEAN;
      case BYTE -> T_BYTE;
      case CHAR -> T_CHAR;
      case SHORT -> T_SHORT;
      case INT -> T_INT;
      case LONG -> T_LONG;
      case FLOAT -> T_FLOAT;
      case DOUBLE -> T_DOUBLE;
      case REFERENCE -> throw new IllegalArgumentException("newarray makes primitive arrays only");
    };
  }

  private static int arrayStore(Kind type) {
    return switch (type) {
      case BOOLEAN, BYTE -> BASTORE;
      case CHAR -> CASTORE;
      case SHORT -> SASTORE;
      case INT -> IASTORE;
      case LONG -> LASTORE;
      case FLOAT -> FASTORE;
      case DOUBLE -> DASTORE;
      case REFERENCE -> AASTORE;
    };
  }

  /**
   * Writes the call that creates an object from the allocator constant on the stack: the current
   * runtime contract's {@code newCollection} for a {@code Constant.Sized} ({@code collection}),
   * else its {@code allocate}. One entry per kind, so that no type test shared by every allocation
   * is inlined into the generated loops (Section 6 of the design notes).
   */
  static void allocate(MethodVisitor mv, boolean collection) {
    mv.visitMethodInsn(
        INVOKESTATIC,
        RuntimeContract.current().allocateOwner(),
        collection ? Grammar.NEW_COLLECTION_METHOD : Grammar.ALLOCATE_METHOD,
        Grammar.ALLOCATE_DESCRIPTOR,
        false);
  }
}
