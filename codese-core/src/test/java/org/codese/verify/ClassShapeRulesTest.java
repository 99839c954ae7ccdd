package org.codese.verify;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.codese.Codese;
import org.codese.UnsafeSnapshotException;
import org.codese.program.Grammar;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The class-level rules of the grammar check ({@link ClassChecker}) and the value rules of the
 * statement lifter ({@link Lifter}), each broken by a crafted snapshot: a real snapshot whose
 * generated class files are rewritten with ASM and written back by the format's own writer, so
 * every checksum is valid. Each must be refused with an {@link UnsafeSnapshotException} that names
 * the rule, before any class is defined; and the limits on a method's frame are checked at their
 * exact bounds, accepted at the bound and refused one above.
 */
class ClassShapeRulesTest {

  private static byte[] snapshot() throws Exception {
    return Codese.toBytes(List.of(RedBlackTree.random(50, 3), new ArrayList<>(List.of(1))));
  }

  /** {@code snapshot} with every generated class file passed through {@code edit}. */
  private static byte[] rewrite(byte[] snapshot, UnaryOperator<byte[]> edit) {
    return SnapshotEdit.of(snapshot).editCode(edit).bytes();
  }

  /** Rewrites a class file through {@code visitor}, which wraps the writer it is given. */
  private static byte[] transform(
      byte[] cls,
      int writerFlags,
      java.util.function.Function<ClassVisitor, ClassVisitor> visitor) {
    ClassReader r = new ClassReader(cls);
    ClassWriter w = new ClassWriter(r, writerFlags);
    r.accept(visitor.apply(w), 0);
    return w.toByteArray();
  }

  private static void assertRefused(byte[] crafted, String... phrases) {
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(crafted));
    for (String p : phrases) {
      assertTrue(e.getMessage().contains(p), "message lacks '" + p + "': " + e.getMessage());
    }
  }

  /** A class visitor that changes the class header with {@code header}. */
  private static UnaryOperator<byte[]> header(HeaderEdit header) {
    return cls ->
        transform(
            cls,
            0,
            w ->
                new ClassVisitor(Opcodes.ASM9, w) {
                  @Override
                  public void visit(
                      int version, int acc, String name, String sig, String sup, String[] itf) {
                    header.visit(super::visit, version, acc, name, sig, sup, itf);
                  }
                });
  }

  /** An edit of {@code ClassVisitor.visit}'s arguments. */
  private interface HeaderEdit {
    void visit(Header next, int version, int acc, String name, String sig, String sup, String[] i);
  }

  /** {@code ClassVisitor.visit} of the next visitor. */
  private interface Header {
    void visit(int version, int acc, String name, String sig, String sup, String[] i);
  }

  @Test
  void aClassNamedOutsideTheGeneratedNamesIsRefused() throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            header(
                (next, v, acc, name, sig, sup, itf) ->
                    next.visit(
                        v, acc, name.replace(Grammar.CLASS_PREFIX, "Other"), sig, sup, itf)));
    assertRefused(crafted, "its name is not ", Grammar.CLASS_PREFIX + "N");
  }

  @Test
  void aClassWithAnotherSuperclassIsRefused() throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            header(
                (next, v, acc, name, sig, sup, itf) ->
                    next.visit(v, acc, name, sig, "java/lang/Thread", itf)));
    assertRefused(crafted, "extends java.lang.Thread, not java.lang.Object");
  }

  /** Every access flag that makes a class something other than a plain concrete class. */
  @ParameterizedTest
  @ValueSource(
      ints = {
        Opcodes.ACC_ABSTRACT,
        Opcodes.ACC_INTERFACE,
        Opcodes.ACC_ENUM,
        Opcodes.ACC_ANNOTATION,
        Opcodes.ACC_MODULE
      })
  void aClassThatIsNotPlainIsRefused(int flag) throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            header(
                (next, v, acc, name, sig, sup, itf) ->
                    next.visit(v, acc | flag, name, sig, sup, itf)));
    assertRefused(crafted, "is not a plain class");
  }

  /** Drops the methods named {@code dropped} and adds one built by {@code added}, if given. */
  private static UnaryOperator<byte[]> methods(String dropped, Consumer<ClassVisitor> added) {
    return cls ->
        transform(
            cls,
            ClassWriter.COMPUTE_MAXS,
            w ->
                new ClassVisitor(Opcodes.ASM9, w) {
                  private int chunks;

                  @Override
                  public MethodVisitor visitMethod(
                      int access, String name, String desc, String sig, String[] exceptions) {
                    if (name.equals(Grammar.chunkName(chunks))) {
                      chunks++;
                    }
                    return name.equals(dropped)
                        ? null
                        : super.visitMethod(access, name, desc, sig, exceptions);
                  }

                  @Override
                  public void visitEnd() {
                    if (added != null) {
                      added.accept(new NextChunk(cv, chunks));
                    }
                    super.visitEnd();
                  }
                });
  }

  /** Passes on to {@code next}, knowing the name the next chunk method would have. */
  private static final class NextChunk extends ClassVisitor {
    final String name;

    NextChunk(ClassVisitor next, int chunks) {
      super(Opcodes.ASM9, next);
      this.name = Grammar.chunkName(chunks);
    }
  }

  @Test
  void aChunkWithoutCodeIsRefused() throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            methods(
                null,
                cv ->
                    cv.visitMethod(
                            Opcodes.ACC_STATIC | Opcodes.ACC_NATIVE,
                            ((NextChunk) cv).name,
                            Grammar.CHUNK_DESCRIPTOR,
                            null,
                            null)
                        .visitEnd()));
    assertRefused(crafted, " has no code");
  }

  @Test
  void aChunkTheEntryDoesNotCallIsRefused() throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            methods(
                null,
                cv -> {
                  MethodVisitor mv =
                      cv.visitMethod(
                          Opcodes.ACC_STATIC,
                          ((NextChunk) cv).name,
                          Grammar.CHUNK_DESCRIPTOR,
                          null,
                          null);
                  mv.visitCode();
                  mv.visitInsn(Opcodes.RETURN);
                  mv.visitMaxs(0, 0);
                  mv.visitEnd();
                }));
    assertRefused(crafted, "accept calls ", " chunks but the class has ");
  }

  @Test
  void aClassWithoutItsConstructorIsRefused() throws Exception {
    assertRefused(rewrite(snapshot(), methods("<init>", null)), "has no no-arg constructor");
  }

  @Test
  void aClassWithoutItsEntryIsRefused() throws Exception {
    assertRefused(rewrite(snapshot(), methods(Grammar.ENTRY_METHOD, null)), "has no accept method");
  }

  /** Sets the {@code max_stack} and {@code max_locals} of every chunk. */
  private static UnaryOperator<byte[]> frames(int maxStack, int maxLocals) {
    return cls ->
        transform(
            cls,
            0,
            w ->
                new ClassVisitor(Opcodes.ASM9, w) {
                  @Override
                  public MethodVisitor visitMethod(
                      int access, String name, String desc, String sig, String[] exceptions) {
                    MethodVisitor mv = super.visitMethod(access, name, desc, sig, exceptions);
                    if (!desc.equals(Grammar.CHUNK_DESCRIPTOR)) {
                      return mv;
                    }
                    return new MethodVisitor(Opcodes.ASM9, mv) {
                      @Override
                      public void visitMaxs(int stack, int locals) {
                        super.visitMaxs(
                            maxStack < 0 ? stack : maxStack, maxLocals < 0 ? locals : maxLocals);
                      }
                    };
                  }
                });
  }

  @Test
  void aChunkMayAskForTheLargestFrameAndNoMore() throws Exception {
    byte[] original = snapshot();
    Object restored =
        Codese.load(rewrite(original, frames(ClassChecker.MAX_STACK, MethodChecker.MAX_LOCALS)))
            .restore();
    assertTrue(restored instanceof List<?> l && l.size() == 2, String.valueOf(restored));
    assertRefused(
        rewrite(original, frames(ClassChecker.MAX_STACK + 1, -1)),
        "asks for " + (ClassChecker.MAX_STACK + 1) + " stack slots");
    assertRefused(
        rewrite(original, frames(-1, MethodChecker.MAX_LOCALS + 1)),
        " stack slots and " + (MethodChecker.MAX_LOCALS + 1) + " locals");
  }

  /** Puts {@code statement} at the start of every chunk {@code m0}. */
  private static UnaryOperator<byte[]> atStartOfM0(Consumer<MethodVisitor> statement) {
    return cls ->
        transform(
            cls,
            ClassWriter.COMPUTE_MAXS,
            w ->
                new ClassVisitor(Opcodes.ASM9, w) {
                  @Override
                  public MethodVisitor visitMethod(
                      int access, String name, String desc, String sig, String[] exceptions) {
                    MethodVisitor mv = super.visitMethod(access, name, desc, sig, exceptions);
                    if (!name.equals(Grammar.chunkName(0))) {
                      return mv;
                    }
                    return new MethodVisitor(Opcodes.ASM9, mv) {
                      @Override
                      public void visitCode() {
                        super.visitCode();
                        statement.accept(mv);
                      }
                    };
                  }
                });
  }

  /** {@code table[1] = <value>}, the value pushed by {@code value}. */
  private static Consumer<MethodVisitor> store(Consumer<MethodVisitor> value) {
    return mv -> {
      mv.visitVarInsn(Opcodes.ALOAD, Grammar.LOCAL_TABLE);
      mv.visitInsn(Opcodes.ICONST_1);
      value.accept(mv);
      mv.visitInsn(Opcodes.AASTORE);
    };
  }

  @Test
  void anArrayOfNegativeLengthIsRefused() throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            atStartOfM0(
                store(
                    mv -> {
                      mv.visitInsn(Opcodes.ICONST_M1);
                      mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
                    })));
    assertRefused(crafted, "method m0", "length is not a non-negative constant");
  }

  /**
   * A box's {@code valueOf} given an int outside its type's range: the JVM passes the int on
   * unchanged, and the boxes' caches index arrays with it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"Z 2", "B 200", "B -129", "C -1", "C 65536", "S 40000", "S -32769"})
  void aBoxedConstantOutsideItsTypeIsRefused(String kindAndValue) throws Exception {
    char kind = kindAndValue.charAt(0);
    int value = Integer.parseInt(kindAndValue.substring(2));
    String box =
        switch (kind) {
          case 'Z' -> "java/lang/Boolean";
          case 'B' -> "java/lang/Byte";
          case 'C' -> "java/lang/Character";
          default -> "java/lang/Short";
        };
    byte[] crafted =
        rewrite(
            snapshot(),
            atStartOfM0(
                store(
                    mv -> {
                      mv.visitLdcInsn(value);
                      mv.visitMethodInsn(
                          Opcodes.INVOKESTATIC,
                          box,
                          "valueOf",
                          "(" + kind + ")L" + box + ";",
                          false);
                    })));
    assertRefused(
        crafted, "passes " + value + " to " + box + ".valueOf", "outside its type's range");
  }

  @Test
  void anArrayOfAnUnknownPrimitiveTypeIsRefused() throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            atStartOfM0(
                store(
                    mv -> {
                      mv.visitInsn(Opcodes.ICONST_1);
                      mv.visitIntInsn(Opcodes.NEWARRAY, 3);
                    })));
    assertRefused(crafted, "method m0", "an unknown primitive array type 3");
  }

  /** The grammar's loops count their index up by one: a loop that skips elements is refused. */
  @Test
  void aLoopThatCountsByTwoIsRefused() throws Exception {
    byte[] crafted =
        rewrite(
            snapshot(),
            cls ->
                transform(
                    cls,
                    ClassWriter.COMPUTE_MAXS,
                    w ->
                        new ClassVisitor(Opcodes.ASM9, w) {
                          @Override
                          public MethodVisitor visitMethod(
                              int access, String name, String desc, String sig, String[] ex) {
                            return new MethodVisitor(
                                Opcodes.ASM9, super.visitMethod(access, name, desc, sig, ex)) {
                              @Override
                              public void visitIincInsn(int local, int by) {
                                super.visitIincInsn(local, by + 1);
                              }
                            };
                          }
                        }));
    assertRefused(crafted, "does not close the grammar's counted loop (i++ then i < ids.length)");
  }
}
