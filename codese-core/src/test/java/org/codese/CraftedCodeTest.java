package org.codese;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.samples.RedBlackTree;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * docs/DESIGN.md: "the loader can verify a snapshot against this grammar before defining a class,
 * so a crafted file cannot run arbitrary code". These snapshots have valid checksums and
 * well-formed, verifiable class files, but their generated code calls outside the restore grammar.
 * Loading or restoring them must fail with an IOException before the foreign call runs.
 *
 * <p>Relies on the snapshot layout documented in {@code org.codese.format.SnapshotFile}: magic,
 * version, five sections (tag u1, length u4, CRC-32C u4, payload), a CRC-32C trailer; the code
 * section (tag 3) holds the generated class files, each prefixed by its u4 length.
 */
class CraftedCodeTest {
  private static final String PROPERTY = "codese.crafted.ran";

  @AfterEach
  void clear() {
    System.clearProperty(PROPERTY);
  }

  /**
   * Rewrites every generated class file with {@code edit} and encodes the snapshot again with the
   * format's own writer, in its own format version, so that every checksum is valid.
   */
  static byte[] rewriteCode(byte[] snapshot, java.util.function.UnaryOperator<byte[]> edit)
      throws IOException {
    SnapshotFile f = SnapshotFile.parse(snapshot);
    List<byte[]> files = new ArrayList<>();
    for (byte[] c : f.classFiles()) {
      files.add(edit.apply(c));
    }
    return org.codese.testkit.SnapshotEdit.withCode(f, f.version(), files).bytes();
  }

  /** Prepends {@code System.setProperty(PROPERTY, "method name")} to every method. */
  private static byte[] callSetPropertyEverywhere(byte[] cls) {
    ClassReader r = new ClassReader(cls);
    ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
    r.accept(
        new ClassVisitor(Opcodes.ASM9, w) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String desc, String sig, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, desc, sig, exceptions);
            return new MethodVisitor(Opcodes.ASM9, mv) {
              @Override
              public void visitCode() {
                super.visitCode();
                super.visitLdcInsn(PROPERTY);
                super.visitLdcInsn(name);
                super.visitMethodInsn(
                    Opcodes.INVOKESTATIC,
                    "java/lang/System",
                    "setProperty",
                    "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
                    false);
                super.visitInsn(Opcodes.POP);
              }
            };
          }
        },
        0);
    return w.toByteArray();
  }

  @Test
  void untouchedRewriteStillRestores() throws Exception {
    byte[] snapshot = Codese.toBytes(RedBlackTree.random(20, 1));
    byte[] same = rewriteCode(snapshot, b -> b);
    org.junit.jupiter.api.Assertions.assertArrayEquals(snapshot, same, "rewrite is faithful");
  }

  @Test
  void foreignCallInGeneratedCodeIsRejected() throws Exception {
    byte[] snapshot = Codese.toBytes(RedBlackTree.random(20, 1));
    byte[] crafted = rewriteCode(snapshot, CraftedCodeTest::callSetPropertyEverywhere);
    assertThrows(
        IOException.class,
        () -> {
          try (Snapshot s = Codese.load(crafted)) {
            s.restore();
          }
        },
        "a snapshot whose code calls System.setProperty was loaded and run");
    assertNull(System.getProperty(PROPERTY), "crafted code ran: " + System.getProperty(PROPERTY));
  }

  @Test
  void staticInitializerInGeneratedCodeIsRejected() throws Exception {
    byte[] snapshot = Codese.toBytes(List.of("a", new ArrayList<>(List.of(1))));
    byte[] crafted =
        rewriteCode(
            snapshot,
            cls -> {
              ClassReader r = new ClassReader(cls);
              ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
              r.accept(
                  new ClassVisitor(Opcodes.ASM9, w) {
                    private boolean hasClinit;

                    @Override
                    public MethodVisitor visitMethod(
                        int access, String name, String desc, String sig, String[] exceptions) {
                      hasClinit |= name.equals("<clinit>");
                      return super.visitMethod(access, name, desc, sig, exceptions);
                    }

                    @Override
                    public void visitEnd() {
                      if (!hasClinit) {
                        MethodVisitor mv =
                            super.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
                        mv.visitCode();
                        mv.visitLdcInsn(PROPERTY);
                        mv.visitLdcInsn("<clinit>");
                        mv.visitMethodInsn(
                            Opcodes.INVOKESTATIC,
                            "java/lang/System",
                            "setProperty",
                            "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
                            false);
                        mv.visitInsn(Opcodes.POP);
                        mv.visitInsn(Opcodes.RETURN);
                        mv.visitMaxs(0, 0);
                        mv.visitEnd();
                      }
                      super.visitEnd();
                    }
                  },
                  0);
              return w.toByteArray();
            });
    assertThrows(
        IOException.class,
        () -> {
          try (Snapshot s = Codese.load(crafted)) {
            s.restore();
          }
        },
        "a snapshot whose code has a static initializer was loaded and run");
    assertNull(System.getProperty(PROPERTY), "crafted code ran: " + System.getProperty(PROPERTY));
  }
}
