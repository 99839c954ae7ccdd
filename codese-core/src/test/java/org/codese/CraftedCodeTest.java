package org.codese;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.Checksums;
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

  /** Rewrites every generated class file with {@code edit} and re-checksums the snapshot. */
  static byte[] rewriteCode(byte[] snapshot, java.util.function.UnaryOperator<byte[]> edit)
      throws IOException {
    ByteBuffer in = ByteBuffer.wrap(snapshot);
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(file);
    out.write(snapshot, 0, 6);
    int pos = 6;
    while (pos < snapshot.length - 4) {
      int tag = snapshot[pos];
      int len = in.getInt(pos + 1);
      byte[] payload = new byte[len];
      System.arraycopy(snapshot, pos + 9, payload, 0, len);
      if (tag == 3) {
        payload = rewriteCodeSection(payload, edit);
      }
      out.writeByte(tag);
      out.writeInt(payload.length);
      out.writeInt(0);
      out.write(payload);
      pos += 9 + len;
    }
    out.writeInt(0);
    out.flush();
    return Checksums.fixInPlace(file.toByteArray());
  }

  /**
   * Finds the class files in the code section as u4-length-prefixed runs that start with 0xCAFEBABE
   * (so the test does not depend on the rest of the section's layout) and replaces each with its
   * edited form.
   */
  private static byte[] rewriteCodeSection(
      byte[] payload, java.util.function.UnaryOperator<byte[]> edit) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(payload);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    int found = 0;
    int p = 0;
    while (p < payload.length) {
      if (p + 8 <= payload.length && in.getInt(p + 4) == 0xCAFEBABE) {
        int len = in.getInt(p);
        if (len >= 8 && p + 4L + len <= payload.length) {
          byte[] cls = new byte[len];
          System.arraycopy(payload, p + 4, cls, 0, len);
          byte[] changed = edit.apply(cls);
          out.writeInt(changed.length);
          out.write(changed);
          p += 4 + len;
          found++;
          continue;
        }
      }
      out.write(payload[p]);
      p++;
    }
    org.junit.jupiter.api.Assertions.assertTrue(
        found > 0, "no class file found in the code section");
    out.flush();
    return bytes.toByteArray();
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
