package org.codese.verify;

import static org.codese.verify.LiftedStatementsTest.check;
import static org.codese.verify.LiftedStatementsTest.lifted;
import static org.codese.verify.LiftedStatementsTest.refused;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.codese.Codese;
import org.codese.CodeseLimits;
import org.codese.CodeseOptions;
import org.codese.UnsafeSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.testkit.Crafted;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The method shapes of {@link MethodChecker}: the constructor and {@code accept} must be exactly
 * the plain ones (they run when the class is instantiated and called, outside any chunk), a chunk's
 * bytecode is decoded faithfully (short load and store forms, wide constants, a code that ends
 * early or mid-instruction), and the whitelist's message names the first forbidden instruction.
 * Crafted snapshots with valid checksums, checked by {@link GrammarCheck} and, where the point is
 * that nothing runs, loaded by {@link Codese#load}.
 */
class MethodShapesTest {

  /** A one-chunk snapshot with {@code edit} applied to its class file through a class visitor. */
  private static GrammarCheck.Result edited(
      Consumer<Crafted.Chunk> body, UnaryOperator<ClassVisitor> edit) throws IOException {
    byte[] bytes = new Crafted().slots(8).code(0, body).bytes();
    SnapshotFile f = SnapshotFile.parse(bytes);
    List<byte[]> files = new ArrayList<>();
    for (byte[] cls : f.classFiles()) {
      ClassReader r = new ClassReader(cls);
      ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
      r.accept(edit.apply(w), 0);
      files.add(w.toByteArray());
    }
    return GrammarCheck.check(
        SnapshotFile.parse(SnapshotEdit.withCode(f, f.version(), files).bytes()));
  }

  /** Replaces the code of method {@code name} with {@code code}. */
  private static UnaryOperator<ClassVisitor> replace(String name, Consumer<MethodVisitor> code) {
    return w ->
        new ClassVisitor(ASM9, w) {
          @Override
          public MethodVisitor visitMethod(
              int access, String n, String desc, String sig, String[] ex) {
            MethodVisitor mv = super.visitMethod(access, n, desc, sig, ex);
            if (!n.equals(name)) {
              return mv;
            }
            code.accept(mv);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
            return null;
          }
        };
  }

  /** The plain constructor with {@code change} applied at the point it names. */
  private static void init(MethodVisitor mv, int change) {
    mv.visitCode();
    mv.visitVarInsn(ALOAD, 0);
    mv.visitMethodInsn(
        INVOKESPECIAL,
        change == 1 ? "java/lang/Thread" : "java/lang/Object",
        "<init>",
        "()V",
        false);
    if (change == 2) {
      mv.visitInsn(ICONST_0);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/System", "exit", "(I)V", false);
    }
    mv.visitInsn(change == 3 ? NOP : RETURN);
    if (change == 3) {
      mv.visitInsn(RETURN);
    }
  }

  /**
   * A constructor with a call added, another superclass constructor or one instruction more: the
   * constructor runs when the class is instantiated, before any chunk, so it must be the plain one.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void onlyThePlainConstructorIsAllowed(int change) throws IOException {
    refused(
        edited(c -> c.storeConstant(0, 0), replace("<init>", mv -> init(mv, change))),
        "method <init>: is not the plain constructor super(); return");
  }

  /** {@code accept} with {@code change}: 1 casts to String[], 2 calls m0 of another class. */
  private static void accept(MethodVisitor mv, String self, int change) {
    mv.visitCode();
    mv.visitVarInsn(ALOAD, 1);
    mv.visitTypeInsn(CHECKCAST, change == 1 ? "[Ljava/lang/String;" : "[Ljava/lang/Object;");
    mv.visitVarInsn(ASTORE, 3);
    mv.visitVarInsn(ALOAD, 2);
    mv.visitTypeInsn(CHECKCAST, "[Ljava/lang/Object;");
    mv.visitVarInsn(ASTORE, 4);
    mv.visitVarInsn(ALOAD, 3);
    mv.visitVarInsn(ALOAD, 4);
    mv.visitMethodInsn(
        INVOKESTATIC,
        change == 2 ? "org/codese/runtime/Other" : self,
        change == 3 ? "m1" : "m0",
        Grammar.CHUNK_DESCRIPTOR,
        false);
    if (change == 4) {
      mv.visitInsn(NOP);
    }
    mv.visitInsn(RETURN);
  }

  /**
   * {@code accept} runs every chunk; it must be the plain entry: its casts, the calls of this
   * class's chunks in order, nothing else.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4})
  void onlyThePlainEntryIsAllowed(int change) throws IOException {
    String self = RuntimeContract.current().hostPackage() + "/" + Grammar.CLASS_PREFIX + 0;
    GrammarCheck.Result r =
        edited(c -> c.storeConstant(0, 0), replace("accept", mv -> accept(mv, self, change)));
    // a broken entry counts no chunk (1, 4) or the one it calls (2, 3), so may also miscount them
    assertEquals(
        "generated class 0 ("
            + self.replace('/', '.')
            + "): method accept: is not the plain entry"
            + " that calls m0, m1, ... in order",
        r.violations().get(0));
    assertEquals(
        change == 1 || change == 4 ? 2 : 1, r.violations().size(), r.violations()::toString);
  }

  /** The same edits, loaded: refused before any class is defined or its constructor runs. */
  @Test
  void aConstructorThatCallsOutIsRefusedWhenLoaded() throws IOException {
    byte[] bytes = new Crafted().slots(1).code(0, c -> {}).bytes();
    byte[] crafted =
        SnapshotEdit.of(bytes)
            .editCode(
                cls -> {
                  ClassReader r = new ClassReader(cls);
                  ClassWriter w = new ClassWriter(r, ClassWriter.COMPUTE_MAXS);
                  r.accept(replace("<init>", mv -> init(mv, 2)).apply(w), 0);
                  return w.toByteArray();
                })
            .bytes();
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(crafted));
    assertEquals(
        true,
        e.getMessage().contains("is not the plain constructor super(); return"),
        e.getMessage());
  }

  /** A chunk that ends mid-statement is reported at its end, not as an unreadable class. */
  @Test
  void aChunkThatEndsMidStatementIsReportedAtItsEnd() throws IOException {
    UnaryOperator<ClassVisitor> noReturn = MethodShapesTest::noReturn;
    refused(
        edited(c -> c.mv.visitVarInsn(ALOAD, 0), noReturn),
        "method m0 at the end of its code: expected an int constant");
    refused(
        edited(
            c -> {
              c.mv.visitVarInsn(ALOAD, 0);
              c.push(0);
              c.mv.visitVarInsn(ALOAD, 1);
              c.push(0);
              c.mv.visitInsn(AALOAD);
            },
            noReturn),
        "method m0 at instruction 4 (aaload): expected checkcast");
    refused(
        edited(
            c -> {
              c.mv.visitVarInsn(ALOAD, 0);
              c.push(0);
              c.mv.visitInsn(AALOAD);
            },
            noReturn),
        "method m0 at instruction 2 (aaload): expected astore 2");
    refused(edited(c -> c.allocLoop(1, 2), noReturn), "(if_icmplt): ends without return");
  }

  /**
   * The short forms {@code iload_n}, {@code istore_n}, {@code astore_n} decode as the local they
   * name: the whitelist admits the loads and stores of locals above 1, and the lifter reports them.
   */
  @Test
  void shortLoadAndStoreFormsDecodeAsTheirLocal() throws IOException {
    refused(
        c -> {
          c.mv.visitInsn(ICONST_0);
          c.mv.visitVarInsn(ISTORE, 3);
        },
        "method m0 at instruction 1 (istore): expected istore 4");
    refused(
        c -> c.mv.visitVarInsn(ILOAD, 0),
        "method m0 at instruction 0 (iload): does not start a statement");
    refused(
        c -> c.mv.visitVarInsn(ILOAD, 3),
        "method m0 at instruction 0 (iload): does not start a statement");
    refused(
        c -> {
          c.mv.visitInsn(ICONST_0);
          c.mv.visitVarInsn(ISTORE, 0);
        },
        "method m0 at instruction 1 (istore): expected istore 4");
    refused(
        c -> {
          c.mv.visitInsn(ACONST_NULL);
          c.mv.visitVarInsn(ASTORE, 0);
        },
        "method m0 at instruction 1 (astore): uses a local the grammar does not");
  }

  /** A backward jump puts a label before the instructions it reaches: the index counts it. */
  @ParameterizedTest
  @ValueSource(ints = {IFEQ, IFNULL, IFNONNULL})
  void aBranchTargetIsALabelInTheInstructionIndex(int branch) throws IOException {
    refused(
        c -> {
          Label top = new Label();
          c.mv.visitLabel(top);
          c.mv.visitInsn(branch == IFEQ ? ICONST_0 : ACONST_NULL);
          c.mv.visitJumpInsn(branch, top);
        },
        "method m0 at instruction 2 (if",
        "an instruction outside the restore grammar");
  }

  /**
   * Constants of every primitive kind by {@code ldc}/{@code ldc2_w}, each boxed as its own kind.
   */
  @Test
  void wideConstantsOfEveryKindAreRead() throws IOException {
    String[] boxes = {"java/lang/Long", "java/lang/Float", "java/lang/Double"};
    Object[] values = {5_000_000_000L, 2.5f, 2.5d};
    char[] kinds = {'J', 'F', 'D'};
    LiftedStatementsTest.Lifted l =
        lifted(
            c -> {
              for (int i = 0; i < 3; i++) {
                c.mv.visitVarInsn(ALOAD, 0);
                c.push(i);
                c.mv.visitLdcInsn(values[i]);
                c.mv.visitMethodInsn(
                    INVOKESTATIC,
                    boxes[i],
                    "valueOf",
                    "(" + kinds[i] + ")L" + boxes[i] + ";",
                    false);
                c.mv.visitInsn(AASTORE);
              }
            });
    assertArrayEquals(
        new int[] {
          Stmt.STORE_BOX, 0, 'J', 1,
          Stmt.STORE_BOX, 1, 'F', 1,
          Stmt.STORE_BOX, 2, 'D', 1
        },
        l.codes());
    refused(
        c -> {
          c.mv.visitVarInsn(ALOAD, 0);
          c.push(0);
          c.mv.visitLdcInsn(2.5d);
          c.mv.visitMethodInsn(
              INVOKESTATIC, "java/lang/Float", "valueOf", "(F)Ljava/lang/Float;", false);
          c.mv.visitInsn(AASTORE);
        },
        "is not a box's valueOf");
    refused(
        c -> {
          c.mv.visitVarInsn(ALOAD, 0);
          c.push(0);
          c.mv.visitTypeInsn(NEW, "java/lang/Long");
          c.mv.visitInsn(DUP);
          c.mv.visitLdcInsn("5");
          c.mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Long", "<init>", "(J)V", false);
          c.mv.visitInsn(AASTORE);
        },
        "method m0 at instruction 4 (ldc 5): expected a primitive constant");
  }

  /** A box loop that makes one box and initialises it as another. */
  @Test
  void aBoxLoopMustInitialiseTheBoxItMade() throws IOException {
    refused(
        c ->
            c.loadData(1, "[I", 3)
                .loadData(2, "[I", 5)
                .loop(
                    () -> {
                      c.mv.visitVarInsn(ALOAD, 0);
                      c.mv.visitVarInsn(ALOAD, 3);
                      c.mv.visitVarInsn(ILOAD, 4);
                      c.mv.visitInsn(IALOAD);
                      c.mv.visitTypeInsn(NEW, "java/lang/Long");
                      c.mv.visitInsn(DUP);
                      c.mv.visitVarInsn(ALOAD, 5);
                      c.mv.visitVarInsn(ILOAD, 4);
                      c.mv.visitInsn(IALOAD);
                      c.mv.visitMethodInsn(
                          INVOKESPECIAL, "java/lang/Integer", "<init>", "(I)V", false);
                      c.mv.visitInsn(AASTORE);
                    }),
        "(invokespecial java/lang/Integer.<init> (I)V): is not the constructor or valueOf of the box");
  }

  /** An element loop reads only its ids: any other loop data is refused. */
  @Test
  void anElementLoopLoadsNoOtherData() throws IOException {
    refused(
        c -> {
          c.select(0, null);
          c.loadData(1, "[I", 3)
              .loadData(1, "[I", 5)
              .loop(
                  () -> {
                    c.mv.visitVarInsn(ALOAD, 2);
                    c.mv.visitVarInsn(ILOAD, 4);
                    c.mv.visitVarInsn(ALOAD, 0);
                    c.mv.visitVarInsn(ALOAD, 3);
                    c.mv.visitVarInsn(ILOAD, 4);
                    c.mv.visitInsn(IALOAD);
                    c.mv.visitInsn(AALOAD);
                    c.mv.visitInsn(AASTORE);
                  });
        },
        "an element loop loads data it does not use");
  }

  /** Format 1 allocates through {@code Constructor.newInstance(null)}, in statements and loops. */
  @Test
  void formatOneAllocatesThroughItsConstructors() throws IOException {
    Crafted c = new Crafted().version(1).slots(4);
    c.code(0, ch -> ch.alloc(1, 0).allocLoop(2, 0));
    GrammarCheck.Result r = check(c);
    assertEquals(List.of(), r.violations());
    assertArrayEquals(
        new int[] {Stmt.STORE_ALLOC, 1, 0, Stmt.ALLOC_LOOP, 2, 0},
        r.program().get(0).chunks().get(0));
    refused(
        GrammarCheck.check(
            SnapshotFile.parse(
                new Crafted()
                    .slots(4)
                    .code(
                        0,
                        ch -> {
                          ch.mv.visitVarInsn(ALOAD, 0);
                          ch.push(1);
                          ch.mv.visitVarInsn(ALOAD, 1);
                          ch.push(0);
                          ch.mv.visitInsn(AALOAD);
                          ch.mv.visitTypeInsn(CHECKCAST, "java/lang/reflect/Constructor");
                          ch.allocate(1);
                          ch.mv.visitInsn(AASTORE);
                        })
                    .bytes())),
        "method m0 at instruction 7 (invokevirtual java/lang/reflect/Constructor.newInstance",
        "which the restore grammar does not allow");
  }

  /**
   * The hole this test closes: {@code Array.newInstance(maker, -15)} after two arrays of 10 passed
   * the grammar check, and its -15 took 15 from the total of array elements the limit is checked
   * against. Loaded with a limit of 10 elements, the snapshot must be refused before it runs.
   */
  @Test
  void aNegativeArrayLengthCannotLowerTheElementCount() throws IOException {
    Crafted c = new Crafted().slots(3);
    int strings = c.type(String[].class.getName());
    int maker = c.constant(new Constant.ArrayMaker(strings));
    c.code(
        0,
        ch -> {
          for (int i = 0; i < 3; i++) {
            ch.mv.visitVarInsn(ALOAD, 0);
            ch.push(i);
            ch.mv.visitVarInsn(ALOAD, 1);
            ch.push(maker);
            ch.mv.visitInsn(AALOAD);
            ch.mv.visitTypeInsn(CHECKCAST, "java/lang/Class");
            ch.push(i < 2 ? 10 : -15);
            ch.mv.visitMethodInsn(
                INVOKESTATIC,
                "java/lang/reflect/Array",
                "newInstance",
                "(Ljava/lang/Class;I)Ljava/lang/Object;",
                false);
            ch.mv.visitInsn(AASTORE);
          }
        });
    byte[] crafted = c.bytes();
    CodeseOptions limited =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxArrayLength(10));
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(crafted, limited));
    assertEquals(
        true,
        e.getMessage().contains("creates an array whose length is not a non-negative constant"),
        e.getMessage());
  }

  /**
   * A text constant cast to Object for {@code new String}: outside the grammar for the lifter only.
   */
  private static void textCastToObject(Crafted.Chunk ch) {
    MethodVisitor mv = ch.mv;
    mv.visitVarInsn(ALOAD, 0);
    ch.push(7);
    mv.visitTypeInsn(NEW, "java/lang/String");
    mv.visitInsn(DUP);
    mv.visitVarInsn(ALOAD, 1);
    ch.push(6);
    mv.visitInsn(AALOAD);
    mv.visitTypeInsn(CHECKCAST, "java/lang/Object");
    mv.visitMethodInsn(INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
    mv.visitInsn(AASTORE);
  }

  private static final String LIFTER_ONLY =
      "(checkcast java/lang/Object): casts a text constant to another class than String; not a"
          + " statement of the restore grammar";

  /**
   * Every statement form, then one that only the lifter refuses: the whitelist, which runs only to
   * name a refused chunk's first forbidden instruction, must pass every form the grammar has, or
   * its message would blame a statement of the grammar.
   */
  @Test
  void theWhitelistPassesEveryStatementForm() throws IOException {
    Crafted c = new Crafted().slots(8);
    int target = c.type("org.codese.verify.Target");
    c.code(
        0,
        ch -> {
          LiftedStatementsTest.stores(ch);
          LiftedStatementsTest.loops(ch);
          textCastToObject(ch);
        });
    c.code(
        1,
        target,
        ch -> {
          LiftedStatementsTest.targets(ch);
          LiftedStatementsTest.cluster(ch);
          textCastToObject(ch);
        });
    GrammarCheck.Result r = check(c);
    assertEquals(2, r.violations().size(), r.violations()::toString);
    for (String v : r.violations()) {
      assertTrue(v.contains(LIFTER_ONLY), v);
    }
    Crafted one = new Crafted().version(1).slots(4);
    one.code(0, ch -> ch.alloc(1, 0).allocLoop(2, 0).alloc(3, 0).runSteps(5));
    assertEquals(List.of(), check(one).violations());
    Crafted oneBad = new Crafted().version(1).slots(8);
    oneBad.code(
        0,
        ch -> {
          ch.alloc(1, 0).allocLoop(2, 0);
          textCastToObject(ch);
        });
    refused(check(oneBad), LIFTER_ONLY);
  }

  /** The whitelist reports the first forbidden instruction and stops there. */
  @Test
  void theWhitelistReportsOnlyTheFirstForbiddenInstruction() throws IOException {
    refused(
        c -> {
          for (int i = 0; i < 2; i++) {
            c.mv.visitInsn(ICONST_0);
            c.mv.visitMethodInsn(INVOKESTATIC, "java/lang/System", "exit", "(I)V", false);
          }
        },
        "method m0 at instruction 1 (invokestatic java/lang/System.exit (I)V): calls"
            + " java/lang/System.exit(I)V, which the restore grammar does not allow");
  }

  /**
   * A collection maker's call is the runtime contract's from format 8 on, an unknown call before.
   */
  @Test
  void newCollectionIsACallOnlyFromFormatEight() throws IOException {
    Consumer<Crafted.Chunk> body =
        ch -> {
          ch.mv.visitVarInsn(ALOAD, 0);
          ch.push(1);
          ch.mv.visitVarInsn(ALOAD, 1);
          ch.push(0);
          ch.mv.visitInsn(AALOAD);
          ch.mv.visitMethodInsn(
              INVOKESTATIC,
              "org/codese/runtime/Entry",
              Grammar.NEW_COLLECTION_METHOD,
              Grammar.ALLOCATE_DESCRIPTOR,
              false);
          ch.mv.visitInsn(AASTORE);
          textCastToObject(ch);
        };
    refused(check(new Crafted().slots(8).code(0, body)), LIFTER_ONLY);
    refused(
        check(new Crafted().version(Grammar.COLLECTION_VERSION - 1).slots(8).code(0, body)),
        "method m0 at instruction 5 (invokestatic org/codese/runtime/Entry.newCollection",
        "which the restore grammar does not allow");
  }

  /** A loop that counts local 3 down: the whitelist names its increment. */
  @Test
  void aLoopThatCountsAnotherLocalDownIsRefusedAtItsIncrement() throws IOException {
    refused(
        c ->
            c.loadData(1, "[I", 3)
                .loadData(2, null, 5)
                .loop(
                    () -> {
                      c.mv.visitVarInsn(ALOAD, 0);
                      c.mv.visitVarInsn(ALOAD, 3);
                      c.mv.visitVarInsn(ILOAD, 4);
                      c.mv.visitInsn(IALOAD);
                      c.mv.visitVarInsn(ALOAD, 5);
                      c.allocate(Grammar.COLLECTION_VERSION);
                      c.mv.visitInsn(AASTORE);
                      c.mv.visitIincInsn(3, -1);
                    }),
        "method m0 at instruction 20 (iinc): does not close the grammar's counted loop");
  }

  /** A {@code goto} that is the chunk's last instruction starts no loop. */
  @Test
  void aGotoAtTheEndOfTheCodeStartsNoLoop() throws IOException {
    refused(
        edited(
            c -> {
              Label top = new Label();
              c.mv.visitLabel(top);
              c.mv.visitInsn(ICONST_0);
              c.mv.visitVarInsn(ISTORE, 4);
              c.mv.visitJumpInsn(GOTO, top);
            },
            MethodShapesTest::noReturn),
        "method m0 at instruction 3 (goto): a jump that does not start the grammar's counted loop");
  }

  /** A class with no chunk has the entry that calls none, and is inside the grammar. */
  @Test
  void aClassWithoutChunksHasTheEntryThatCallsNone() throws IOException {
    GrammarCheck.Result r =
        edited(
            c -> {},
            w ->
                new ClassVisitor(ASM9, replace("accept", mv -> entryWithoutCalls(mv)).apply(w)) {
                  @Override
                  public MethodVisitor visitMethod(
                      int access, String n, String desc, String sig, String[] ex) {
                    return n.equals("m0") ? null : super.visitMethod(access, n, desc, sig, ex);
                  }
                });
    assertEquals(List.of(), r.violations());
    assertEquals(List.of(), r.program().get(0).chunks());
  }

  private static void entryWithoutCalls(MethodVisitor mv) {
    mv.visitCode();
    mv.visitVarInsn(ALOAD, 1);
    mv.visitTypeInsn(CHECKCAST, "[Ljava/lang/Object;");
    mv.visitVarInsn(ASTORE, 3);
    mv.visitVarInsn(ALOAD, 2);
    mv.visitTypeInsn(CHECKCAST, "[Ljava/lang/Object;");
    mv.visitVarInsn(ASTORE, 4);
    mv.visitInsn(RETURN);
  }

  /**
   * A chunk whose last instruction is cut short (a {@code goto} or {@code ldc_w} of one byte at the
   * end of its code): decoded as the bare opcode, refused by name, not read past the code.
   */
  @ParameterizedTest
  @ValueSource(ints = {GOTO, 19})
  void anInstructionCutShortAtTheEndIsRefusedByName(int opcode) throws IOException {
    byte[] bytes =
        new Crafted()
            .slots(2)
            .code(
                0,
                c -> {
                  c.mv.visitIntInsn(SIPUSH, 0x1234);
                  c.mv.visitIntInsn(SIPUSH, 0x5678);
                })
            .bytes();
    SnapshotFile f = SnapshotFile.parse(bytes);
    byte[] cls = f.classFiles().get(0).clone();
    byte[] tail = {0x11, 0x12, 0x34, 0x11, 0x56, 0x78, (byte) RETURN};
    int at = indexOf(cls, tail);
    cls[at + tail.length - 1] = (byte) opcode;
    GrammarCheck.Result r =
        GrammarCheck.check(
            SnapshotFile.parse(SnapshotEdit.withCode(f, f.version(), List.of(cls)).bytes()));
    refused(
        r,
        opcode == GOTO
            ? "method m0 at instruction 2 (goto): a jump that does not start the grammar's"
                + " counted loop"
            : "method m0 at instruction 2 (ldc_w): an instruction outside the restore grammar");
  }

  private static int indexOf(byte[] in, byte[] what) {
    for (int i = 0; i + what.length <= in.length; i++) {
      if (java.util.Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }

  /** Drops the {@code return} of chunk m0 (and the dead code ASM writes in its place). */
  private static ClassVisitor noReturn(ClassVisitor w) {
    return new ClassVisitor(ASM9, w) {
      @Override
      public MethodVisitor visitMethod(int access, String n, String desc, String sig, String[] ex) {
        MethodVisitor mv = super.visitMethod(access, n, desc, sig, ex);
        return !n.equals("m0")
            ? mv
            : new MethodVisitor(ASM9, mv) {
              @Override
              public void visitInsn(int opcode) {
                // ASM wrote the return after an endless goto as nop ... athrow
                if (opcode != RETURN && opcode != NOP && opcode != ATHROW) {
                  super.visitInsn(opcode);
                }
              }
            };
      }
    };
  }

  /**
   * A clone of another primitive array type than the constant was cast to: each call is one the
   * whitelist admits, so the lifter names the call it expected.
   */
  @Test
  void aCloneMustBeOfTheArrayTypeCastTo() throws IOException {
    refused(
        c -> {
          c.mv.visitVarInsn(ALOAD, 0);
          c.push(0);
          c.mv.visitVarInsn(ALOAD, 1);
          c.push(0);
          c.mv.visitInsn(AALOAD);
          c.mv.visitTypeInsn(CHECKCAST, "[I");
          c.mv.visitMethodInsn(INVOKEVIRTUAL, "[J", "clone", "()Ljava/lang/Object;", false);
          c.mv.visitInsn(AASTORE);
        },
        "method m0 at instruction 6 (invokevirtual [J.clone ()Ljava/lang/Object;): expected a call"
            + " of ");
  }

  /**
   * {@code table, constants, 2} passed to another static call than the finish program's: each
   * instruction is one the whitelist admits, so the lifter names the call.
   */
  @Test
  void theFinishProgramIsRunByItsOwnCallOnly() throws IOException {
    refused(
        c -> {
          c.mv.visitVarInsn(ALOAD, 0);
          c.mv.visitVarInsn(ALOAD, 1);
          c.mv.visitInsn(ICONST_2);
          c.mv.visitMethodInsn(
              INVOKESTATIC,
              "java/lang/reflect/Array",
              "newInstance",
              "(Ljava/lang/Class;I)Ljava/lang/Object;",
              false);
        },
        "method m0 at instruction 3 (invokestatic java/lang/reflect/Array.newInstance"
            + " (Ljava/lang/Class;I)Ljava/lang/Object;): is not the finish-program call");
  }
}
