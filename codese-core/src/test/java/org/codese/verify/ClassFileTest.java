package org.codese.verify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Unit tests of the grammar check's own class-file reader against class files ASM writes: what it
 * reads, and that anything malformed is an {@code IllegalArgumentException}, never another
 * exception.
 */
class ClassFileTest {
  private static final String NAME = "p/Sample";

  /** Constant-pool indices of the sample's constants, as ASM assigned them. */
  private int intConst;

  private int longConst;
  private int doubleConst;
  private int floatConst;
  private int stringConst;
  private int fieldRef;
  private int methodRef;
  private int interfaceMethodRef;

  private byte[] sample(boolean withHandle) {
    ClassWriter cw = new ClassWriter(0);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL,
        NAME,
        null,
        "java/lang/Object",
        new String[] {"java/lang/Runnable"});
    cw.visitField(Opcodes.ACC_PRIVATE, "a", "I", null, null).visitEnd();
    cw.visitField(0, "b", "Ljava/lang/String;", null, null).visitEnd();
    intConst = cw.newConst(123_456);
    longConst = cw.newConst(-7L);
    doubleConst = cw.newConst(2.5d);
    floatConst = cw.newConst(1.5f);
    stringConst = cw.newConst("héllo €");
    fieldRef = cw.newField(NAME, "a", "I");
    methodRef = cw.newMethod("java/lang/Object", "hashCode", "()I", false);
    interfaceMethodRef = cw.newMethod("java/lang/Runnable", "run", "()V", true);
    if (withHandle) {
      cw.newConst(new Handle(Opcodes.H_INVOKESTATIC, NAME, "m", "()V", false));
    }
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "run", "()V", null, null);
    mv.visitCode();
    Label start = new Label();
    Label end = new Label();
    Label handler = new Label();
    mv.visitTryCatchBlock(start, end, handler, null);
    mv.visitLabel(start);
    mv.visitInsn(Opcodes.NOP);
    mv.visitLabel(end);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitLabel(handler);
    mv.visitInsn(Opcodes.ATHROW);
    mv.visitMaxs(3, 2);
    mv.visitEnd();
    MethodVisitor abs =
        cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_ABSTRACT, "none", "()V", null, null);
    abs.visitEnd();
    cw.visitSource("Sample.java", null);
    cw.visitEnd();
    return cw.toByteArray();
  }

  @Test
  void readsNamesMembersAndCode() {
    ClassFile cf = ClassFile.parse(sample(false));
    assertEquals(NAME, cf.name);
    assertEquals("java/lang/Object", cf.superName);
    assertEquals(List.of("java/lang/Runnable"), cf.interfaces);
    assertEquals(List.of("a", "b"), cf.fields);
    assertEquals(List.of("SourceFile"), cf.attributes);
    assertEquals(2, cf.methods.size());
    ClassFile.Method run = cf.methods.get(0);
    assertEquals("run", run.name());
    assertEquals("()V", run.descriptor());
    assertEquals(Opcodes.ACC_PUBLIC, run.access());
    assertArrayEquals(
        new byte[] {(byte) Opcodes.NOP, (byte) Opcodes.RETURN, (byte) Opcodes.ATHROW}, run.code());
    assertEquals(1, run.handlers());
    assertEquals(3, run.maxStack());
    assertEquals(2, run.maxLocals());
    assertEquals(null, cf.methods.get(1).code());
  }

  @Test
  void readsLoadableConstantsAndMemberReferences() {
    ClassFile cf = ClassFile.parse(sample(false));
    assertEquals(123_456, cf.loadable(intConst));
    assertEquals(-7L, cf.loadable(longConst));
    assertEquals(2.5d, cf.loadable(doubleConst));
    assertEquals(1.5f, cf.loadable(floatConst));
    assertEquals("héllo €", cf.loadable(stringConst));
    assertSame(ClassFile.FORBIDDEN, cf.loadable(fieldRef));
    assertArrayEquals(new String[] {NAME, "a", "I"}, cf.member(fieldRef, 9));
    assertArrayEquals(
        new String[] {"java/lang/Object", "hashCode", "()I"}, cf.member(methodRef, 10));
    assertArrayEquals(
        new String[] {"java/lang/Runnable", "run", "()V"}, cf.member(interfaceMethodRef, 11));
    assertThrows(IllegalArgumentException.class, () -> cf.member(methodRef, 11));
    assertThrows(IllegalArgumentException.class, () -> cf.member(fieldRef, 10));
    assertThrows(IllegalArgumentException.class, () -> cf.loadable(0));
    assertThrows(IllegalArgumentException.class, () -> cf.loadable(10_000));
    assertFalse(cf.hasForbiddenConstants());
    assertTrue(ClassFile.parse(sample(true)).hasForbiddenConstants());
  }

  /** Every cut of a valid class file, and every byte flipped in turn, fails only as malformed. */
  @Test
  void damagedClassFilesAreIllegalArguments() {
    byte[] good = sample(true);
    for (int len = 0; len < good.length; len++) {
      byte[] cut = Arrays.copyOf(good, len);
      assertThrows(IllegalArgumentException.class, () -> ClassFile.parse(cut), "cut at " + len);
    }
    byte[] longer = Arrays.copyOf(good, good.length + 1);
    assertThrows(IllegalArgumentException.class, () -> ClassFile.parse(longer));
    for (int i = 0; i < good.length; i++) {
      byte[] flipped = good.clone();
      flipped[i] ^= (byte) 0xA5;
      try {
        ClassFile cf = ClassFile.parse(flipped);
        for (int k = 1; k < 40; k++) {
          try {
            cf.loadable(k);
          } catch (IllegalArgumentException e) {
            // malformed or out of range: as documented
          }
        }
      } catch (IllegalArgumentException e) {
        // malformed: as documented
      }
    }
  }

  @Test
  void aBadMagicNumberIsRefused() {
    byte[] bad = sample(false);
    bad[0] = 0;
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ClassFile.parse(bad));
    assertEquals("bad magic number", e.getMessage());
  }
}
