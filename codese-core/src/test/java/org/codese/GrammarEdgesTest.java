package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.*;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.testkit.Crafted;
import org.codese.verify.GrammarCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The edges of the restore grammar (issue 15, measured with PIT): chunks crafted as an attacker
 * would, each one instruction away from a shape the grammar accepts, must be rejected with {@link
 * UnsafeSnapshotException} naming the instruction and the reason; and every shape the grammar
 * accepts, including the rare ones (a field constant at index 0, array makers, clones, text
 * constants), must still restore. The instruction whitelist, which runs only after the lifter
 * rejected a chunk, must name the first forbidden instruction and never blame an allowed one.
 */
class GrammarEdgesTest {
  /** A Serializable class with one int field. */
  static final class Box implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
  }

  /** A Serializable class with a field named by characters that UTF-8 encodes in 3 bytes. */
  static final class Wide implements Serializable {
    private static final long serialVersionUID = 1L;
    int 值中;
  }

  /** Holds a {@link Box}. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Box box;
  }

  private static final String BOX = "org/codese/GrammarEdgesTest$Box";
  private static final String FIELD = org.codese.program.RuntimeContract.current().setterOwner();
  private static final ClassEntry BOX_ENTRY =
      new ClassEntry(Box.class.getName(), List.of(new FieldEntry("value", "I", true)), 1L, true);
  private static final ClassEntry HOLDER_ENTRY =
      new ClassEntry(
          Holder.class.getName(), List.of(new FieldEntry("box", "L" + BOX + ";", true)), 1L, true);

  private static String rejection(byte[] snapshot) {
    return assertThrows(UnsafeSnapshotException.class, () -> Codese.load(snapshot)).getMessage();
  }

  // ---------------------------------------------------------------- loops and their data

  /** A loop whose data locals hold a constant it never reads (a cast never checked at load). */
  @ParameterizedTest(name = "{0} loop")
  @MethodSource("loopKinds")
  void aLoopThatLoadsDataItDoesNotUseIsRejected(String kind) {
    Crafted c = new Crafted().slots(2);
    int box = c.type(BOX_ENTRY);
    int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int values = c.constant(new Constant.PrimArray(new int[] {7, 8}));
    int texts = c.constant(new Constant.Texts(new String[] {"a", "b"}));
    switch (kind) {
      case "allocation" ->
          c.code(0, ch -> ch.loadData(values, "java/lang/Runnable", 6).allocLoop(ids, alloc));
      case "string" ->
          c.code(0, ch -> ch.loadData(values, "java/lang/Runnable", 6).stringLoop(ids, texts));
      case "box" ->
          c.code(
              0,
              ch ->
                  ch.loadData(values, "java/lang/Runnable", 6)
                      .boxLoop(
                          ids,
                          values,
                          "[I",
                          org.objectweb.asm.Opcodes.IALOAD,
                          "java/lang/Integer",
                          'I',
                          true));
      default -> {
        c.code(0, ch -> ch.alloc(0, alloc).alloc(1, alloc));
        c.code(
            1,
            box,
            ch ->
                ch.loadData(values, "java/lang/Runnable", 7).clusterInt(ids, values, BOX, "value"));
      }
    }
    assertMentions(rejection(c.bytes()), "a loop loads data it does not use");
  }

  static Stream<String> loopKinds() {
    return Stream.of("allocation", "string", "box", "cluster");
  }

  /** The body of a reflective cluster loop: {@code t = table[ids[i]]; field.setInt(t, v[i])}. */
  private static void reflectiveIntColumn(Crafted.Chunk ch) {
    MethodVisitor mv = ch.mv;
    ch.reflectiveTarget();
    mv.visitVarInsn(ALOAD, 6);
    mv.visitVarInsn(ILOAD, 4);
    mv.visitInsn(IALOAD);
    mv.visitMethodInsn(INVOKEVIRTUAL, FIELD, "setInt", "(Ljava/lang/Object;I)V", false);
  }

  /** Constant index 0 is a field constant like any other (not "no field"). */
  @Test
  void aClusterLoopThroughFieldConstantZeroRestores() throws IOException {
    for (int root = 0; root < 2; root++) {
      Crafted c = new Crafted().slots(2).root(root);
      int box = c.type(BOX_ENTRY);
      int value = c.constant(new Constant.Setter(box, "value", "I"));
      assertEquals(0, value);
      int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
      int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
      int values = c.constant(new Constant.PrimArray(new int[] {7, 8}));
      c.code(0, ch -> ch.alloc(0, alloc).alloc(1, alloc));
      c.code(
          1,
          ch ->
              ch.loadData(ids, "[I", 3)
                  .loadData(value, FIELD, 5)
                  .loadData(values, "[I", 6)
                  .loop(() -> reflectiveIntColumn(ch)));
      assertEquals(7 + root, ((Box) Codese.fromBytes(c.bytes())).value);
    }
  }

  /**
   * A reflective column sets through a {@code Field}, which checks nothing the load did not; a cast
   * there would name a class the program check never sees, and is not in the grammar.
   */
  @Test
  void aCastInAReflectiveColumnIsRejected() {
    Crafted c = new Crafted().slots(2);
    int box = c.type(BOX_ENTRY);
    int holder = c.type(HOLDER_ENTRY);
    int field = c.constant(new Constant.Setter(holder, "box", "L" + BOX + ";"));
    int allocHolder = c.constant(new Constant.Allocator(holder, Mode.SERIAL));
    int allocBox = c.constant(new Constant.Allocator(box, Mode.SERIAL));
    int ids = c.constant(new Constant.PrimArray(new int[] {0}));
    int refs = c.constant(new Constant.PrimArray(new int[] {1}));
    c.code(0, ch -> ch.alloc(0, allocHolder).alloc(1, allocBox));
    c.code(
        1,
        ch ->
            ch.loadData(ids, "[I", 3)
                .loadData(field, FIELD, 5)
                .loadData(refs, "[I", 6)
                .loop(
                    () -> {
                      MethodVisitor mv = ch.mv;
                      ch.reflectiveTarget();
                      mv.visitVarInsn(ALOAD, 0);
                      mv.visitVarInsn(ALOAD, 6);
                      mv.visitVarInsn(ILOAD, 4);
                      mv.visitInsn(IALOAD);
                      mv.visitInsn(AALOAD);
                      mv.visitTypeInsn(CHECKCAST, "java/lang/Runnable");
                      mv.visitMethodInsn(
                          INVOKEVIRTUAL,
                          FIELD,
                          "set",
                          "(Ljava/lang/Object;Ljava/lang/Object;)V",
                          false);
                    }));
    assertMentions(
        rejection(c.bytes()),
        "checkcast java/lang/Runnable",
        "expected invokevirtual",
        "not a statement of the restore grammar");
  }

  // ---------------------------------------------------------------- rare value shapes

  /** A snapshot whose create phase stores one value into slot 0, the root. */
  private static byte[] storing(Consumer<Crafted> setup, Consumer<MethodVisitor> value) {
    Crafted c = new Crafted();
    setup.accept(c);
    c.code(
        0,
        ch -> {
          ch.mv.visitVarInsn(ALOAD, 0);
          ch.push(0);
          value.accept(ch.mv);
          ch.mv.visitInsn(AASTORE);
        });
    return c.bytes();
  }

  @Test
  void aStringOfATextConstantRestores() throws IOException {
    byte[] b =
        storing(
            c -> c.constant(new Constant.Text("text constant")),
            mv -> {
              mv.visitTypeInsn(NEW, "java/lang/String");
              mv.visitInsn(DUP);
              mv.visitVarInsn(ALOAD, 1);
              mv.visitInsn(ICONST_0);
              mv.visitInsn(AALOAD);
              mv.visitTypeInsn(CHECKCAST, "java/lang/String");
              mv.visitMethodInsn(
                  INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
            });
    assertEquals("text constant", Codese.fromBytes(b));
  }

  @Test
  void anArrayOfAnArrayMakersClassRestores() throws IOException {
    byte[] b =
        storing(
            c -> c.constant(new Constant.ArrayMaker(c.type(String[].class.getName()))),
            mv -> {
              mv.visitVarInsn(ALOAD, 1);
              mv.visitInsn(ICONST_0);
              mv.visitInsn(AALOAD);
              mv.visitTypeInsn(CHECKCAST, "java/lang/Class");
              mv.visitInsn(ICONST_3);
              mv.visitMethodInsn(
                  INVOKESTATIC,
                  "java/lang/reflect/Array",
                  "newInstance",
                  "(Ljava/lang/Class;I)Ljava/lang/Object;",
                  false);
            });
    assertArrayEquals(new String[3], (String[]) Codese.fromBytes(b));
  }

  @Test
  void aCloneOfAPrimitiveArrayConstantRestoresAsANewArray() throws IOException {
    byte[] b =
        storing(
            c -> c.constant(new Constant.PrimArray(new int[] {1, 2, 3})),
            mv -> {
              mv.visitVarInsn(ALOAD, 1);
              mv.visitInsn(ICONST_0);
              mv.visitInsn(AALOAD);
              mv.visitTypeInsn(CHECKCAST, "[I");
              mv.visitMethodInsn(INVOKEVIRTUAL, "[I", "clone", "()Ljava/lang/Object;", false);
            });
    try (Snapshot s = Codese.load(b)) {
      int[] first = (int[]) s.restore();
      assertArrayEquals(new int[] {1, 2, 3}, first);
      first[0] = 9;
      assertArrayEquals(new int[] {1, 2, 3}, (int[]) s.restore());
      assertNotSame(first, s.restore());
    }
  }

  /** A field name decoded from 3-byte UTF-8 must name the real field. */
  @Test
  void aPutfieldIntoAFieldWithANonAsciiNameRestores() throws IOException {
    String wide = "org/codese/GrammarEdgesTest$Wide";
    Crafted c = new Crafted();
    int type =
        c.type(
            new ClassEntry(
                Wide.class.getName(),
                List.of(new FieldEntry("\u503c\u4e2d", "I", true)),
                1L,
                true));
    int alloc = c.constant(new Constant.Allocator(type, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    c.code(1, type, ch -> ch.select(0, wide).putInt(wide, "\u503c\u4e2d", 42));
    assertEquals(42, ((Wide) Codese.fromBytes(c.bytes())).值中);
  }

  // ---------------------------------------------------------------- one instruction off

  /**
   * Chunks that the whitelist admits instruction by instruction but that are not statements of the
   * grammar: the lifter's reason is reported, at the instruction that breaks the shape.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("offByOne")
  void aStatementOneInstructionOffIsRejectedWhereItBreaks(
      String name, Consumer<Crafted.Chunk> body, String instruction, String reason) {
    Crafted c = new Crafted().slots(2);
    int box = c.type(BOX_ENTRY);
    c.constant(new Constant.Allocator(box, Mode.SERIAL));
    c.constant(new Constant.Text("t"));
    c.constant(new Constant.PrimArray(new int[] {0, 1}));
    c.constant(new Constant.PrimArray(new long[] {7, 8}));
    c.constant(new Constant.Setter(box, "value", "I"));
    c.code(0, ch -> ch.alloc(0, 0).alloc(1, 0));
    c.code(1, box, body);
    assertMentions(
        rejection(c.bytes()),
        "(" + instruction + "): " + reason,
        "not a statement of the restore grammar",
        "method m0");
  }

  static Stream<Arguments> offByOne() {
    return Stream.of(
        off(
            "a text cast to Object",
            ch -> {
              ch.mv.visitVarInsn(ALOAD, 0);
              ch.push(0);
              ch.mv.visitTypeInsn(NEW, "java/lang/String");
              ch.mv.visitInsn(DUP);
              ch.mv.visitVarInsn(ALOAD, 1);
              ch.push(1);
              ch.mv.visitInsn(AALOAD);
              ch.mv.visitTypeInsn(CHECKCAST, "java/lang/Object");
              ch.mv.visitMethodInsn(
                  INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
              ch.mv.visitInsn(AASTORE);
            },
            "checkcast java/lang/Object",
            "casts a text constant to another class than String"),
        off(
            "an Integer made from a long",
            ch -> {
              ch.mv.visitVarInsn(ALOAD, 0);
              ch.push(0);
              ch.mv.visitTypeInsn(NEW, "java/lang/Integer");
              ch.mv.visitInsn(DUP);
              ch.mv.visitInsn(LCONST_1);
              ch.mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Integer", "<init>", "(J)V", false);
              ch.mv.visitInsn(AASTORE);
            },
            "lconst_1",
            "pushes a value of another kind than the box holds"),
        off(
            "loop data in the target local",
            ch -> ch.loadData(2, "[I", 2),
            "astore",
            "loads loop data into a local the grammar does not"),
        off(
            "setInt of a long",
            ch -> {
              ch.select(0, BOX);
              ch.mv.visitVarInsn(ALOAD, 1);
              ch.push(4);
              ch.mv.visitInsn(AALOAD);
              ch.mv.visitTypeInsn(CHECKCAST, FIELD);
              ch.mv.visitVarInsn(ALOAD, 2);
              ch.mv.visitInsn(LCONST_1);
              ch.mv.visitMethodInsn(
                  INVOKEVIRTUAL, FIELD, "setInt", "(Ljava/lang/Object;I)V", false);
            },
            "invokevirtual " + FIELD + ".setInt (Ljava/lang/Object;I)V",
            "is not the Field setter for the value"),
        off(
            "iastore of a long",
            ch -> {
              ch.select(0, "[Ljava/lang/Object;");
              ch.mv.visitVarInsn(ALOAD, 2);
              ch.push(0);
              ch.mv.visitInsn(LCONST_1);
              ch.mv.visitInsn(IASTORE);
            },
            "iastore",
            "is not the array store for the value pushed"),
        off(
            "a box loop constructing another box",
            ch ->
                ch.loadData(2, "[I", 3)
                    .loadData(2, "[I", 5)
                    .loop(
                        () -> {
                          ch.mv.visitVarInsn(ALOAD, 0);
                          ch.mv.visitVarInsn(ALOAD, 3);
                          ch.mv.visitVarInsn(ILOAD, 4);
                          ch.mv.visitInsn(IALOAD);
                          ch.mv.visitTypeInsn(NEW, "java/lang/Integer");
                          ch.mv.visitInsn(DUP);
                          ch.mv.visitVarInsn(ALOAD, 5);
                          ch.mv.visitVarInsn(ILOAD, 4);
                          ch.mv.visitInsn(IALOAD);
                          ch.mv.visitMethodInsn(
                              INVOKESPECIAL, "java/lang/Long", "<init>", "(I)V", false);
                          ch.mv.visitInsn(AASTORE);
                        }),
            "invokespecial java/lang/Long.<init> (I)V",
            "is not the constructor or valueOf of the box of the values loaded"),
        off(
            "a long column read with iaload",
            ch ->
                ch.loadData(2, "[I", 3)
                    .loadData(3, "[J", 5)
                    .loop(
                        () -> {
                          clusterHead(ch, BOX);
                          ch.mv.visitVarInsn(ALOAD, 2);
                          ch.mv.visitVarInsn(ALOAD, 5);
                          ch.mv.visitVarInsn(ILOAD, 4);
                          ch.mv.visitInsn(IALOAD);
                          ch.mv.visitFieldInsn(PUTFIELD, BOX, "value", "I");
                        }),
            "iaload",
            "reads a column with the wrong array load"),
        off(
            "a putfield column without a cast",
            ch ->
                ch.loadData(2, "[I", 3)
                    .loadData(2, "[I", 5)
                    .loop(
                        () -> {
                          clusterHead(ch, null);
                          ch.mv.visitVarInsn(ALOAD, 2);
                          ch.mv.visitVarInsn(ALOAD, 5);
                          ch.mv.visitVarInsn(ILOAD, 4);
                          ch.mv.visitInsn(IALOAD);
                          ch.mv.visitFieldInsn(PUTFIELD, BOX, "value", "I");
                        }),
            "putfield " + BOX + ".value I",
            "a column stores into a class the loop did not cast to"));
  }

  private static Arguments off(
      String name, Consumer<Crafted.Chunk> body, String instruction, String reason) {
    return Arguments.of(name, body, instruction, reason);
  }

  /** {@code t = (cast) table[ids[i]]}, the head of a cluster loop's body. */
  private static void clusterHead(Crafted.Chunk ch, String cast) {
    ch.mv.visitVarInsn(ALOAD, 0);
    ch.mv.visitVarInsn(ALOAD, 3);
    ch.mv.visitVarInsn(ILOAD, 4);
    ch.mv.visitInsn(IALOAD);
    ch.mv.visitInsn(AALOAD);
    if (cast != null) {
      ch.mv.visitTypeInsn(CHECKCAST, cast);
    }
    ch.mv.visitVarInsn(ASTORE, 2);
  }

  // ---------------------------------------------------------------- the instruction whitelist

  /**
   * Every instruction shape the grammar uses, then one statement that only the lifter rejects: the
   * whitelist must pass all of it, so the lifter's reason is the one reported.
   */
  @Test
  void theWhitelistAdmitsEveryShapeTheGrammarUses() {
    Crafted c = new Crafted().slots(8);
    int box = c.type(BOX_ENTRY);
    int strings = c.type(String[].class.getName());
    int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
    int maker = c.constant(new Constant.ArrayMaker(strings));
    int ints = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    int text = c.constant(new Constant.Text("t"));
    int value = c.constant(new Constant.Setter(box, "value", "I"));
    int steps = c.constant(new Constant.PrimArray(new int[0]));
    c.code(
        0,
        ch -> {
          ch.allocLoop(ints, alloc);
          ch.newObjectArray(2, 3);
          ch.storeCachedBox(3, "java/lang/Integer", 'I', 0);
          MethodVisitor mv = ch.mv;
          mv.visitVarInsn(ALOAD, 0);
          ch.push(4);
          mv.visitVarInsn(ALOAD, 1);
          ch.push(maker);
          mv.visitInsn(AALOAD);
          mv.visitTypeInsn(CHECKCAST, "java/lang/Class");
          ch.push(2);
          mv.visitMethodInsn(
              INVOKESTATIC,
              "java/lang/reflect/Array",
              "newInstance",
              "(Ljava/lang/Class;I)Ljava/lang/Object;",
              false);
          mv.visitInsn(AASTORE);
          mv.visitVarInsn(ALOAD, 0);
          ch.push(5);
          mv.visitVarInsn(ALOAD, 1);
          ch.push(ints);
          mv.visitInsn(AALOAD);
          mv.visitTypeInsn(CHECKCAST, "[Z");
          mv.visitMethodInsn(INVOKEVIRTUAL, "[Z", "clone", "()Ljava/lang/Object;", false);
          mv.visitInsn(AASTORE);
          mv.visitVarInsn(ALOAD, 0);
          ch.push(6);
          mv.visitTypeInsn(NEW, "java/lang/Short");
          mv.visitInsn(DUP);
          ch.push(5);
          mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Short", "<init>", "(S)V", false);
          mv.visitInsn(AASTORE);
          mv.visitVarInsn(ALOAD, 0);
          ch.push(7);
          mv.visitTypeInsn(NEW, "java/lang/String");
          mv.visitInsn(DUP);
          mv.visitVarInsn(ALOAD, 1);
          ch.push(text);
          mv.visitInsn(AALOAD);
          mv.visitTypeInsn(CHECKCAST, "java/lang/String");
          mv.visitMethodInsn(
              INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
          mv.visitInsn(AASTORE);
          ch.select(0, BOX).setInt(value, 3);
          ch.select(2, "[Ljava/lang/Object;").putElement(0, 1);
          ch.runSteps(steps);
          // the one statement outside the grammar: a text constant cast to Object
          mv.visitVarInsn(ALOAD, 0);
          ch.push(7);
          mv.visitTypeInsn(NEW, "java/lang/String");
          mv.visitInsn(DUP);
          mv.visitVarInsn(ALOAD, 1);
          ch.push(text);
          mv.visitInsn(AALOAD);
          mv.visitTypeInsn(CHECKCAST, "java/lang/Object");
          mv.visitMethodInsn(
              INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
          mv.visitInsn(AASTORE);
        });
    assertMentions(rejection(c.bytes()), "(checkcast java/lang/Object): casts a text constant");
  }

  /** Instructions and loops outside the grammar: the whitelist names the first of them. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("forbidden")
  void theWhitelistNamesTheFirstForbiddenInstruction(
      String name, Consumer<Crafted.Chunk> body, String message) {
    Crafted c = new Crafted().slots(2);
    int box = c.type(BOX_ENTRY);
    c.constant(new Constant.Allocator(box, Mode.SERIAL));
    int ids = c.constant(new Constant.PrimArray(new int[] {0, 1}));
    assertEquals(1, ids, "the bodies load constant 1 as loop ids");
    c.code(0, body);
    assertMentions(rejection(c.bytes()), message);
  }

  static Stream<Arguments> forbidden() {
    return Stream.of(
        Arguments.of(
            "a branch in a loop body",
            (Consumer<Crafted.Chunk>)
                ch ->
                    ch.loadData(1, "[I", 3)
                        .loop(
                            () -> {
                              Label l = new Label();
                              ch.mv.visitJumpInsn(GOTO, l);
                              ch.mv.visitLabel(l);
                            }),
            "(goto): a branch inside a loop body"),
        Arguments.of(
            "a call in a loop body",
            (Consumer<Crafted.Chunk>)
                ch ->
                    ch.loadData(1, "[I", 3)
                        .loop(
                            () -> {
                              ch.mv.visitInsn(ICONST_0);
                              ch.mv.visitMethodInsn(
                                  INVOKESTATIC, "java/lang/System", "exit", "(I)V", false);
                            }),
            "(invokestatic java/lang/System.exit (I)V): calls java/lang/System.exit(I)V"),
        Arguments.of(
            "the counter written in the body",
            (Consumer<Crafted.Chunk>)
                ch ->
                    ch.loadData(1, "[I", 3)
                        .loop(
                            () -> {
                              ch.mv.visitInsn(ICONST_0);
                              ch.mv.visitVarInsn(ISTORE, 4);
                            }),
            "(istore): writes the loop's counter or bound inside the loop"),
        Arguments.of(
            "the bound written in the body",
            (Consumer<Crafted.Chunk>)
                ch ->
                    ch.loadData(1, "[I", 3)
                        .loop(
                            () -> {
                              ch.mv.visitInsn(ACONST_NULL);
                              ch.mv.visitVarInsn(ASTORE, 3);
                            }),
            "(astore): writes the loop's counter or bound inside the loop"),
        Arguments.of(
            "a loop counting from one",
            (Consumer<Crafted.Chunk>) ch -> crookedLoop(ch.loadData(1, "[I", 3), ICONST_1, 1, 3),
            "(goto): a jump that does not start the grammar's counted loop"),
        Arguments.of(
            "a loop counting by two",
            (Consumer<Crafted.Chunk>) ch -> crookedLoop(ch.loadData(1, "[I", 3), ICONST_0, 2, 3),
            "(iinc): does not close the grammar's counted loop"),
        Arguments.of(
            "a loop bounded by its data local 5",
            (Consumer<Crafted.Chunk>)
                ch -> crookedLoop(ch.loadData(1, "[I", 3).loadData(1, "[I", 5), ICONST_0, 1, 5),
            "(iinc): does not close the grammar's counted loop"),
        Arguments.of(
            "a loop that never closes",
            (Consumer<Crafted.Chunk>)
                ch -> {
                  Label next = new Label();
                  ch.mv.visitInsn(ICONST_0);
                  ch.mv.visitVarInsn(ISTORE, 4);
                  ch.mv.visitJumpInsn(GOTO, next);
                  ch.mv.visitLabel(next);
                },
            "(goto): a loop that never closes"),
        Arguments.of(
            "an increment outside a loop",
            (Consumer<Crafted.Chunk>) ch -> ch.mv.visitIincInsn(4, 1),
            "(iinc): is a branch or increment outside the grammar's counted loop"),
        Arguments.of(
            "an array of String",
            (Consumer<Crafted.Chunk>)
                ch -> {
                  ch.mv.visitVarInsn(ALOAD, 0);
                  ch.push(0);
                  ch.push(2);
                  ch.mv.visitTypeInsn(ANEWARRAY, "java/lang/String");
                  ch.mv.visitInsn(AASTORE);
                },
            "(anewarray java/lang/String): creates an array of a class other than Object"),
        Arguments.of(
            "an array of a float length",
            (Consumer<Crafted.Chunk>)
                ch -> {
                  ch.mv.visitVarInsn(ALOAD, 0);
                  ch.push(0);
                  ch.mv.visitLdcInsn(3.0f);
                  ch.mv.visitIntInsn(NEWARRAY, T_INT);
                  ch.mv.visitInsn(AASTORE);
                },
            "(newarray): creates an array whose length is not a non-negative constant"),
        Arguments.of(
            "an array of unknown length",
            (Consumer<Crafted.Chunk>) ch -> ch.mv.visitIntInsn(NEWARRAY, T_INT),
            "(newarray): creates an array of unknown length"),
        Arguments.of(
            "a Field setter of the wrong descriptor",
            (Consumer<Crafted.Chunk>)
                ch -> {
                  ch.select(0, null);
                  ch.mv.visitInsn(ACONST_NULL);
                  ch.mv.visitVarInsn(ALOAD, 2);
                  ch.mv.visitInsn(LCONST_0);
                  ch.mv.visitMethodInsn(
                      INVOKEVIRTUAL, FIELD, "setInt", "(Ljava/lang/Object;J)V", false);
                },
            "calls " + FIELD + ".setInt(Ljava/lang/Object;J)V, which the restore"));
  }

  /**
   * An empty counted loop in the grammar's shape but for its first value (an {@code iconst}
   * opcode), its step and the local whose array bounds it.
   */
  private static void crookedLoop(Crafted.Chunk ch, int first, int step, int bound) {
    Label test = new Label();
    Label top = new Label();
    ch.mv.visitInsn(first);
    ch.mv.visitVarInsn(ISTORE, 4);
    ch.mv.visitJumpInsn(GOTO, test);
    ch.mv.visitLabel(top);
    ch.mv.visitIincInsn(4, step);
    ch.mv.visitLabel(test);
    ch.mv.visitVarInsn(ILOAD, 4);
    ch.mv.visitVarInsn(ALOAD, bound);
    ch.mv.visitInsn(ARRAYLENGTH);
    ch.mv.visitJumpInsn(IF_ICMPLT, top);
  }

  // ---------------------------------------------------------------- the class file

  /** Rewrites every generated class of a snapshot with {@code edit}. */
  private static byte[] editClasses(byte[] snapshot, UnaryOperator<ClassVisitor> edit)
      throws IOException {
    SnapshotFile f = SnapshotFile.parse(snapshot);
    List<byte[]> classes =
        f.classFiles().stream()
            .map(
                bytes -> {
                  ClassReader r = new ClassReader(bytes);
                  ClassWriter w = new ClassWriter(r, 0);
                  r.accept(edit.apply(w), 0);
                  return w.toByteArray();
                })
            .toList();
    return new SnapshotFile(
            f.jdk(),
            f.firstId(),
            f.tableSize(),
            f.depth(),
            f.classes(),
            f.constants(),
            classes,
            f.placements(),
            f.items())
        .bytes();
  }

  private static byte[] oneBox() {
    Crafted c = new Crafted();
    int box = c.type(BOX_ENTRY);
    int alloc = c.constant(new Constant.Allocator(box, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    return c.bytes();
  }

  @Test
  void aSourceFileAttributeIsAllowedAndOtherClassAttributesAreNot() throws IOException {
    byte[] withSource =
        editClasses(
            oneBox(),
            w ->
                new ClassVisitor(ASM9, w) {
                  @Override
                  public void visitSource(String source, String debug) {}

                  @Override
                  public void visitEnd() {
                    super.visitSource("Crafted.java", null);
                    super.visitEnd();
                  }
                });
    assertTrue(Codese.fromBytes(withSource) instanceof Box);
    byte[] withNestHost =
        editClasses(
            oneBox(),
            w ->
                new ClassVisitor(ASM9, w) {
                  @Override
                  public void visitEnd() {
                    super.visitNestHost("java/lang/Object");
                    super.visitEnd();
                  }
                });
    assertMentions(rejection(withNestHost), "generated class 0", "has class attribute NestHost");
  }

  /** A method handle in the constant pool, used by no instruction, is still refused. */
  @Test
  void anUnusedMethodHandleConstantIsRejected() throws IOException {
    byte[] b =
        editClasses(
            oneBox(),
            w ->
                new ClassVisitor(ASM9, w) {
                  @Override
                  public void visitEnd() {
                    ((ClassWriter) cv)
                        .newHandle(H_INVOKESTATIC, "java/lang/System", "exit", "(I)V", false);
                    super.visitEnd();
                  }
                });
    assertMentions(rejection(b), "has method handle, dynamic or module constants");
  }

  @Test
  void aGeneratedClassWithAFieldIsRejected() throws IOException {
    byte[] b =
        editClasses(
            oneBox(),
            w ->
                new ClassVisitor(ASM9, w) {
                  @Override
                  public void visitEnd() {
                    super.visitField(ACC_STATIC, "stash", "Ljava/lang/Object;", null, null)
                        .visitEnd();
                    super.visitEnd();
                  }
                });
    assertMentions(rejection(b), "declares field stash; generated classes have no fields");
  }

  /** A chunk that falls off its end instead of returning. */
  @Test
  void aChunkWithoutReturnIsRejected() throws IOException {
    byte[] b =
        editClasses(
            oneBox(),
            w ->
                new ClassVisitor(ASM9, w) {
                  @Override
                  public MethodVisitor visitMethod(
                      int access, String name, String desc, String sig, String[] ex) {
                    MethodVisitor mv = super.visitMethod(access, name, desc, sig, ex);
                    return !name.equals("m0")
                        ? mv
                        : new MethodVisitor(ASM9, mv) {
                          @Override
                          public void visitInsn(int opcode) {
                            if (opcode != RETURN) {
                              super.visitInsn(opcode);
                            }
                          }
                        };
                  }
                });
    assertMentions(rejection(b), "(aastore): ends without return");
  }

  /** A 3-byte UTF-8 sequence cut short by the end of its constant is malformed. */
  @Test
  void malformedUtf8InAConstantIsRejected() throws IOException {
    Crafted c = new Crafted();
    c.code(0, ch -> ch.newString(0, "xyzzy"));
    SnapshotFile f = SnapshotFile.parse(c.bytes());
    byte[] cls = f.classFiles().get(0).clone();
    int at = indexOf(cls, "xyzzy".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    cls[at + 3] = (byte) 0xE5;
    cls[at + 4] = (byte) 0x80;
    byte[] b =
        new SnapshotFile(
                f.jdk(),
                f.firstId(),
                f.tableSize(),
                f.depth(),
                f.classes(),
                f.constants(),
                List.of(cls),
                f.placements(),
                f.items())
            .bytes();
    assertMentions(rejection(b), "generated class 0", "malformed modified UTF-8 in constant");
  }

  private static int indexOf(byte[] in, byte[] what) {
    outer:
    for (int i = 0; i + what.length <= in.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (in[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }

  /** The grammar check as tools see it: a line per violation, none for a legitimate file. */
  @Test
  void violationsNameTheClassAndMethod() throws IOException {
    assertEquals(List.of(), GrammarCheck.violations(SnapshotFile.parse(oneBox())));
    Crafted c = new Crafted();
    c.code(0, ch -> ch.mv.visitIincInsn(4, 1));
    List<String> v = GrammarCheck.violations(SnapshotFile.parse(c.bytes()));
    assertEquals(1, v.size(), v::toString);
    assertMentions(
        v.get(0),
        "generated class 0 ("
            + RuntimeContract.current().hostPackage().replace('/', '.')
            + "."
            + Grammar.CLASS_PREFIX
            + "0)",
        "method m0 at instruction 0 (iinc)");
  }
}
