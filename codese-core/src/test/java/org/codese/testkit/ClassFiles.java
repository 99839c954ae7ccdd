package org.codese.testkit;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Class files made with ASM for tests: classes no source declares, in loaders of their own. */
public final class ClassFiles {
  private ClassFiles() {}

  /** Adds {@code public <init>()V} that calls {@code Object()}: a class's plain constructor. */
  public static void defaultConstructor(ClassWriter cw) {
    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(1, 1);
    init.visitEnd();
  }

  /**
   * A loader that defines {@code name} from {@code bytes} itself and leaves every other class to
   * {@code parent}: so the class is found only through it.
   */
  public static ClassLoader definingOnly(ClassLoader parent, String name, byte[] bytes) {
    return new ClassLoader(parent) {
      @Override
      protected Class<?> findClass(String n) throws ClassNotFoundException {
        if (n.equals(name)) {
          return defineClass(n, bytes, 0, bytes.length);
        }
        throw new ClassNotFoundException(n);
      }
    };
  }
}
