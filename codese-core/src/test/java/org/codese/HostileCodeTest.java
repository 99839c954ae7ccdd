package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.codese.samples.RedBlackTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Issue 5's hostile snapshots: valid checksums and well-formed class files whose generated code
 * does what the restore grammar forbids. Each must be rejected with {@link UnsafeSnapshotException}
 * naming the class, the method and the instruction, before any class is defined.
 */
class HostileCodeTest {
  private static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";

  /** Code injected at the start of every chunk {@code m0}; the table is local 0. */
  static Stream<Arguments> injections() {
    return Stream.of(
        code(
            "Runtime.exec",
            "java/lang/Runtime.getRuntime",
            mv -> {
              mv.visitMethodInsn(
                  Opcodes.INVOKESTATIC,
                  "java/lang/Runtime",
                  "getRuntime",
                  "()Ljava/lang/Runtime;",
                  false);
              mv.visitLdcInsn("true");
              mv.visitMethodInsn(
                  Opcodes.INVOKEVIRTUAL,
                  "java/lang/Runtime",
                  "exec",
                  "(Ljava/lang/String;)Ljava/lang/Process;",
                  false);
              mv.visitInsn(Opcodes.POP);
            }),
        code(
            "System.exit",
            "java/lang/System.exit",
            mv -> {
              mv.visitInsn(Opcodes.ICONST_0);
              mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "exit", "(I)V", false);
            }),
        code(
            "reflection",
            "java/lang/Class.forName",
            mv -> {
              mv.visitLdcInsn("java.lang.System");
              mv.visitMethodInsn(
                  Opcodes.INVOKESTATIC,
                  "java/lang/Class",
                  "forName",
                  "(Ljava/lang/String;)Ljava/lang/Class;",
                  false);
              mv.visitInsn(Opcodes.POP);
            }),
        code(
            "MethodHandles",
            "java/lang/invoke/MethodHandles.lookup",
            mv -> {
              mv.visitMethodInsn(
                  Opcodes.INVOKESTATIC,
                  "java/lang/invoke/MethodHandles",
                  "lookup",
                  "()L" + LOOKUP + ";",
                  false);
              mv.visitInsn(Opcodes.POP);
            }),
        code(
            "static write",
            "putstatic",
            mv -> {
              mv.visitInsn(Opcodes.ACONST_NULL);
              mv.visitFieldInsn(
                  Opcodes.PUTSTATIC, "java/lang/System", "out", "Ljava/io/PrintStream;");
            }),
        code(
            "user field read",
            "getfield",
            mv -> {
              mv.visitVarInsn(Opcodes.ALOAD, 0);
              mv.visitInsn(Opcodes.ICONST_0);
              mv.visitInsn(Opcodes.AALOAD);
              mv.visitTypeInsn(Opcodes.CHECKCAST, "org/codese/samples/RedBlackTree");
              mv.visitFieldInsn(Opcodes.GETFIELD, "org/codese/samples/RedBlackTree", "size", "I");
              mv.visitInsn(Opcodes.POP);
            }),
        code(
            "endless loop",
            "goto",
            mv -> {
              Label l = new Label();
              mv.visitLabel(l);
              mv.visitJumpInsn(Opcodes.GOTO, l);
            }),
        code(
            "recursion",
            "m0",
            mv -> {
              mv.visitVarInsn(Opcodes.ALOAD, 0);
              mv.visitVarInsn(Opcodes.ALOAD, 1);
              mv.visitMethodInsn(
                  Opcodes.INVOKESTATIC,
                  "SELF",
                  "m0",
                  "([Ljava/lang/Object;[Ljava/lang/Object;)V",
                  false);
            }),
        code(
            "exception handler",
            "exception handler",
            mv -> {
              Label start = new Label();
              Label end = new Label();
              Label handler = new Label();
              mv.visitTryCatchBlock(start, end, handler, "java/lang/Throwable");
              mv.visitLabel(start);
              mv.visitInsn(Opcodes.ICONST_0);
              mv.visitInsn(Opcodes.POP);
              mv.visitLabel(end);
              mv.visitLabel(handler);
            }),
        code(
            "invokedynamic",
            "invokedynamic",
            mv -> {
              Handle bsm =
                  new Handle(
                      Opcodes.H_INVOKESTATIC,
                      "java/lang/invoke/StringConcatFactory",
                      "makeConcatWithConstants",
                      "(L"
                          + LOOKUP
                          + ";Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;"
                          + "[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;",
                      false);
              mv.visitInvokeDynamicInsn("concat", "()Ljava/lang/String;", bsm, "x");
              mv.visitInsn(Opcodes.POP);
            }));
  }

  private static Arguments code(String name, String expected, Consumer<MethodVisitor> inject) {
    return Arguments.of(name, expected, inject);
  }

  private static byte[] snapshot() throws Exception {
    return Codese.toBytes(
        List.of(RedBlackTree.random(50, 3), new java.util.ArrayList<>(List.of(1))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("injections")
  void hostileInstructionsAreRejectedBeforeDefinition(
      String name, String expected, Consumer<MethodVisitor> inject) throws Exception {
    byte[] crafted = CraftedCodeTest.rewriteCode(snapshot(), cls -> injectIntoM0(cls, inject));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(crafted), name);
    assertTrue(e.getMessage().contains("method m0"), e.getMessage());
    assertTrue(
        e.getMessage().contains(expected), "message lacks '" + expected + "': " + e.getMessage());
    assertTrue(e.getMessage().contains(org.codese.program.Grammar.CLASS_PREFIX), e.getMessage());
  }

  private static byte[] injectIntoM0(byte[] cls, Consumer<MethodVisitor> inject) {
    ClassReader r = new ClassReader(cls);
    ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
    String self = r.getClassName();
    r.accept(
        new ClassVisitor(Opcodes.ASM9, w) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String desc, String sig, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, desc, sig, exceptions);
            if (!name.equals("m0")) {
              return mv;
            }
            return new MethodVisitor(Opcodes.ASM9, mv) {
              @Override
              public void visitCode() {
                super.visitCode();
                inject.accept(
                    new MethodVisitor(Opcodes.ASM9, mv) {
                      @Override
                      public void visitMethodInsn(
                          int op, String owner, String n, String d, boolean i) {
                        super.visitMethodInsn(op, owner.equals("SELF") ? self : owner, n, d, i);
                      }
                    });
              }
            };
          }
        },
        0);
    return w.toByteArray();
  }

  @Test
  void classInitializerIsRejected() throws Exception {
    byte[] crafted =
        CraftedCodeTest.rewriteCode(
            snapshot(), cls -> addMethod(cls, "<clinit>", "()V", Opcodes.ACC_STATIC, null));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(crafted));
    assertTrue(e.getMessage().contains("<clinit>"), e.getMessage());
  }

  @Test
  void forgedEntryClassIsRejected() throws Exception {
    byte[] crafted =
        CraftedCodeTest.rewriteCode(
            snapshot(),
            cls -> addMethod(cls, "run", "()V", Opcodes.ACC_PUBLIC, "java/lang/Runnable"));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(crafted));
    assertTrue(
        e.getMessage()
            .contains(
                "must implement exactly java.util.function.BiConsumer, not"
                    + " [java.util.function.BiConsumer, java.lang.Runnable]"),
        e.getMessage());
    assertTrue(e.getMessage().contains("declares method void run()"), e.getMessage());
    assertEquals(false, e.violations().isEmpty());
  }

  /** Adds an empty method, and optionally an interface, to a generated class. */
  private static byte[] addMethod(
      byte[] cls, String name, String desc, int access, String extraInterface) {
    ClassReader r = new ClassReader(cls);
    ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
    r.accept(
        new ClassVisitor(Opcodes.ASM9, w) {
          @Override
          public void visit(int version, int acc, String n, String sig, String sup, String[] itf) {
            String[] interfaces = itf;
            if (extraInterface != null) {
              interfaces = java.util.Arrays.copyOf(itf, itf.length + 1);
              interfaces[itf.length] = extraInterface;
            }
            super.visit(version, acc, n, sig, sup, interfaces);
          }

          @Override
          public void visitEnd() {
            MethodVisitor mv = super.visitMethod(access, name, desc, null, null);
            mv.visitCode();
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
            super.visitEnd();
          }
        },
        0);
    return w.toByteArray();
  }
}
