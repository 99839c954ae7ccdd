package org.codese.fuzz;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The context class loader under which the structure fuzzer restores: it delegates everything to
 * the application loader, except the canary classes of {@link StructureSeeds#CANARY_PACKAGE}, which
 * exist nowhere else. It defines them itself (made with ASM, so the application loader can never
 * load or initialise a copy) and records every request for one, so that a class loaded although no
 * class entry names it is seen (I2). A static initialiser runs once per class, so after one ran the
 * fuzzer replaces this loader by a fresh one.
 */
final class CanaryLoader extends ClassLoader {
  static {
    registerAsParallelCapable();
  }

  private final Set<String> requested = ConcurrentHashMap.newKeySet();

  CanaryLoader(ClassLoader parent) {
    super("codese-fuzz-canaries", parent);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!name.startsWith(StructureSeeds.CANARY_PACKAGE)) {
      return super.loadClass(name, resolve);
    }
    requested.add(name);
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        byte[] b = canaryClass(name);
        if (b == null) {
          throw new ClassNotFoundException(name);
        }
        c = defineClass(name, b, 0, b.length);
      }
      return c;
    }
  }

  /**
   * @return the canary classes requested since the last call, and forgets them
   */
  Set<String> drainRequested() {
    if (requested.isEmpty()) {
      return Set.of();
    }
    Set<String> out = Set.copyOf(requested);
    requested.removeAll(out);
    return out;
  }

  /**
   * {@code InitCanary} (Serializable, suid 42) and {@code InitCanaryPlain} (not Serializable, suid
   * 43): fields {@code int a; Object b}, a public no-arg constructor, and a static initialiser that
   * calls {@link CanaryFlags#initRan}.
   */
  private static byte[] canaryClass(String name) {
    boolean serializable = name.equals(StructureSeeds.INIT_CANARY);
    if (!serializable && !name.equals(StructureSeeds.INIT_CANARY_PLAIN)) {
      return null;
    }
    String internal = name.replace('.', '/');
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER,
        internal,
        null,
        "java/lang/Object",
        serializable ? new String[] {"java/io/Serializable"} : null);
    cw.visitField(
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL,
            "serialVersionUID",
            "J",
            null,
            serializable ? 42L : 43L)
        .visitEnd();
    cw.visitField(0, "a", "I", null, null).visitEnd();
    cw.visitField(0, "b", "Ljava/lang/Object;", null, null).visitEnd();
    org.codese.testkit.ClassFiles.defaultConstructor(cw);
    MethodVisitor clinit = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
    clinit.visitCode();
    clinit.visitLdcInsn(name);
    clinit.visitMethodInsn(
        Opcodes.INVOKESTATIC,
        "org/codese/fuzz/CanaryFlags",
        "initRan",
        "(Ljava/lang/String;)V",
        false);
    clinit.visitInsn(Opcodes.RETURN);
    clinit.visitMaxs(0, 0);
    clinit.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }
}
