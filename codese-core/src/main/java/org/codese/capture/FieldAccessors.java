package org.codese.capture;

import java.lang.invoke.MethodHandles;
import java.util.List;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Field readers made once per class, after a threshold (the Jumbo paper's specialisation): a slot
 * whose class capture has read {@link #THRESHOLD} objects of gets a generated {@link FieldAccess},
 * a hidden class in the nest of the slot's class that reads each field with {@code getfield}. Until
 * then, and for classes generated code may not join (another module or class loader than Codese's,
 * or a hidden class), capture reads fields by reflection ({@code FieldReader}). The values read are
 * the same either way.
 *
 * <p>Thread-safe: the per-class state is a {@code ClassValue}; its count of objects read is racy,
 * which only moves the moment of generating, and a reader is published through a volatile field.
 */
final class FieldAccessors {
  /** Objects of a class read by reflection before its reader is generated. */
  static final int THRESHOLD = 1000;

  private static final String SUPER = "org/codese/capture/FieldAccess";
  private static final String READ_DESCRIPTOR = "(Ljava/lang/Object;[J[Ljava/lang/Object;)V";

  /** The local variable slots of {@link FieldAccess#read}'s parameters and the cast object. */
  private static final int OBJ = 1;

  private static final int PRIMS = 2;
  private static final int REFS = 3;
  private static final int TARGET = 4;

  private FieldAccessors() {}

  /** One class's state. */
  private static final class State {
    /** whether generated code may join the class's nest at all */
    final boolean nestable;

    int reads;

    /** the reader, and the slot fields it reads: it answers only for that very list */
    volatile FieldAccess access;

    volatile List<SerialField> fields;

    /** set when generating failed (a class too large for one method): reflection for good */
    volatile boolean failed;

    State(Class<?> c) {
      this.nestable = Types.nestable(c);
    }
  }

  private static final ClassValue<State> STATES =
      new ClassValue<>() {
        @Override
        protected State computeValue(Class<?> type) {
          return new State(type);
        }
      };

  /**
   * The generated reader of a direct slot, once capture has read enough of its class's objects.
   *
   * @param slot a direct slot (every field real and accessible)
   * @return its reader, or {@code null} to read by reflection this time
   */
  static FieldAccess of(Slot slot) {
    State s = STATES.get(slot.type());
    if (!s.nestable || s.failed) {
      return null;
    }
    FieldAccess a = s.access;
    if (a != null) {
      return s.fields == slot.fields() ? a : null;
    }
    if (++s.reads < THRESHOLD) {
      return null;
    }
    synchronized (s) {
      if (s.access == null && !s.failed) {
        FieldAccess made = make(slot);
        s.fields = slot.fields();
        s.failed = made == null;
        s.access = made;
      }
      return s.fields == slot.fields() ? s.access : null;
    }
  }

  /**
   * Generates and defines the reader of {@code slot}.
   *
   * @return the reader, or {@code null} if it cannot be made (reflection then reads the class)
   */
  static FieldAccess make(Slot slot) {
    Class<?> c = slot.type();
    byte[] bytes = classFile(slot, Types.internalName(c) + "$CodeseFields");
    try {
      MethodHandles.Lookup in = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
      Class<?> reader =
          in.defineHiddenClass(bytes, true, MethodHandles.Lookup.ClassOption.NESTMATE)
              .lookupClass();
      return (FieldAccess) reader.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return null; // a method too large for the JVM, a class its loader cannot link: not needed
    }
  }

  /** The class file of a {@link FieldAccess} that reads {@code slot}'s fields. */
  static byte[] classFile(Slot slot, String name) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V11,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        name,
        null,
        SUPER,
        null);
    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, SUPER, "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "read", READ_DESCRIPTOR, null, null);
    mv.visitCode();
    String owner = Types.internalName(slot.type());
    mv.visitVarInsn(Opcodes.ALOAD, OBJ);
    mv.visitTypeInsn(Opcodes.CHECKCAST, owner);
    mv.visitVarInsn(Opcodes.ASTORE, TARGET);
    List<SerialField> fields = slot.fields();
    int nPrims = slot.primitiveCount();
    for (int i = 0; i < fields.size(); i++) {
      SerialField f = fields.get(i);
      boolean prim = i < nPrims;
      mv.visitVarInsn(Opcodes.ALOAD, prim ? PRIMS : REFS);
      push(mv, prim ? i : i - nPrims);
      mv.visitVarInsn(Opcodes.ALOAD, TARGET);
      mv.visitFieldInsn(Opcodes.GETFIELD, owner, f.name(), f.descriptor());
      if (prim) {
        toBits(mv, f.descriptor().charAt(0));
        mv.visitInsn(Opcodes.LASTORE);
      } else {
        mv.visitInsn(Opcodes.AASTORE);
      }
    }
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** Turns the primitive value on the stack into its raw bits as a {@code long}. */
  private static void toBits(MethodVisitor mv, char code) {
    switch (code) {
      case 'J' -> {}
      case 'D' ->
          mv.visitMethodInsn(
              Opcodes.INVOKESTATIC, "java/lang/Double", "doubleToRawLongBits", "(D)J", false);
      case 'F' -> {
        mv.visitMethodInsn(
            Opcodes.INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false);
        mv.visitInsn(Opcodes.I2L);
      }
      default -> mv.visitInsn(Opcodes.I2L); // int, short, char, byte, boolean as the JVM holds them
    }
  }

  private static void push(MethodVisitor mv, int v) {
    if (v <= 5) {
      mv.visitInsn(Opcodes.ICONST_0 + v);
    } else if (v <= Byte.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.BIPUSH, v);
    } else if (v <= Short.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.SIPUSH, v);
    } else {
      mv.visitLdcInsn(v);
    }
  }
}
