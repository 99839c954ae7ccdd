package org.codese.verify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.*;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * What {@link Lifter} reads a chunk as, statement by statement: crafted chunks written with ASM and
 * encoded by the format's own writer (valid checksums), checked by {@link GrammarCheck} without
 * defining anything. Every statement form must lift to exactly its {@link Stmt} codes, with every
 * int push form read at its value, and the arrays the code makes must be counted exactly, since the
 * loader's limits and the program check trust both.
 */
class LiftedStatementsTest {
  static final String FIELD = RuntimeContract.current().setterOwner();
  static final String ENTRY = RuntimeContract.current().allocateOwner();
  static final String BOX = "org/codese/verify/Target";

  /** The result of the grammar check of a snapshot whose only class holds {@code body}. */
  static GrammarCheck.Result check(Consumer<Crafted.Chunk> body) throws IOException {
    return check(new Crafted().slots(8).code(0, body));
  }

  static GrammarCheck.Result check(Crafted c) throws IOException {
    return GrammarCheck.check(SnapshotFile.parse(c.bytes()));
  }

  /** Requires {@code body} inside the grammar; returns its class's names and chunk's codes. */
  static Lifted lifted(Consumer<Crafted.Chunk> body) throws IOException {
    GrammarCheck.Result r = check(body);
    assertEquals(List.of(), r.violations());
    return new Lifted(r, r.program().get(0).chunks().get(0), r.program().get(0).names());
  }

  /** A lifted chunk: its codes and the names they refer to. */
  record Lifted(GrammarCheck.Result result, int[] codes, List<String> names) {
    int name(String n) {
      int i = names.indexOf(n);
      assertTrue(i >= 0, () -> n + " not among " + names);
      return i;
    }
  }

  /**
   * Requires {@code body} refused, with one violation in method m0 that names each of {@code
   * phrases}; returns it.
   */
  static String refused(Consumer<Crafted.Chunk> body, String... phrases) throws IOException {
    return refused(check(body), phrases);
  }

  static String refused(GrammarCheck.Result r, String... phrases) {
    assertEquals(1, r.violations().size(), () -> "violations: " + r.violations());
    String v = r.violations().get(0);
    for (String p : phrases) {
      assertTrue(v.contains(p), () -> "expected \"" + p + "\" in: " + v);
    }
    return v;
  }

  /** {@code table[id] = ...}: the start of a store. */
  static void storeInto(MethodVisitor mv, int idOpcode, int idOperand) {
    mv.visitVarInsn(ALOAD, 0);
    if (idOpcode == BIPUSH || idOpcode == SIPUSH) {
      mv.visitIntInsn(idOpcode, idOperand);
    } else {
      mv.visitInsn(idOpcode);
    }
  }

  /** {@code (cast) constants[k]}. */
  static void constant(MethodVisitor mv, int k, String cast) {
    mv.visitVarInsn(ALOAD, 1);
    mv.visitLdcInsn(k);
    mv.visitInsn(AALOAD);
    if (cast != null) {
      mv.visitTypeInsn(CHECKCAST, cast);
    }
  }

  /** Every store form, each id pushed in another int form. */
  static void stores(Crafted.Chunk ch) {
    MethodVisitor mv = ch.mv;
    // table[-1] = constants[2], with the id pushed by iconst_m1
    storeInto(mv, ICONST_M1, 0);
    constant(mv, 2, null);
    mv.visitInsn(AASTORE);
    // table[5] = allocate(constants[0])
    storeInto(mv, ICONST_5, 0);
    constant(mv, 0, null);
    mv.visitMethodInsn(
        INVOKESTATIC, ENTRY, Grammar.ALLOCATE_METHOD, Grammar.ALLOCATE_DESCRIPTOR, false);
    mv.visitInsn(AASTORE);
    // table[100] = newCollection(constants[1])
    storeInto(mv, BIPUSH, 100);
    constant(mv, 1, null);
    mv.visitMethodInsn(
        INVOKESTATIC, ENTRY, Grammar.NEW_COLLECTION_METHOD, Grammar.ALLOCATE_DESCRIPTOR, false);
    mv.visitInsn(AASTORE);
    // table[1000] = Array.newInstance((Class) constants[3], 7)
    storeInto(mv, SIPUSH, 1000);
    constant(mv, 3, "java/lang/Class");
    mv.visitIntInsn(BIPUSH, 7);
    mv.visitMethodInsn(
        INVOKESTATIC,
        "java/lang/reflect/Array",
        "newInstance",
        "(Ljava/lang/Class;I)Ljava/lang/Object;",
        false);
    mv.visitInsn(AASTORE);
    // table[4] = new Object[0]
    storeInto(mv, ICONST_4, 0);
    mv.visitInsn(ICONST_0);
    mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
    mv.visitInsn(AASTORE);
    // table[3] = ((long[]) constants[4]).clone()
    storeInto(mv, ICONST_3, 0);
    constant(mv, 4, "[J");
    mv.visitMethodInsn(INVOKEVIRTUAL, "[J", "clone", "()Ljava/lang/Object;", false);
    mv.visitInsn(AASTORE);
    // table[2] = new String("x"); table[1] = new String((String) constants[6])
    ch.newString(2, "x");
    storeInto(mv, ICONST_1, 0);
    mv.visitTypeInsn(NEW, "java/lang/String");
    mv.visitInsn(DUP);
    constant(mv, 6, "java/lang/String");
    mv.visitMethodInsn(INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
    mv.visitInsn(AASTORE);
    // table[0] = new Long(1L); table[2] = Double.valueOf(1.0); table[3] = new Float(2f)
    storeInto(mv, ICONST_0, 0);
    mv.visitTypeInsn(NEW, "java/lang/Long");
    mv.visitInsn(DUP);
    mv.visitInsn(LCONST_1);
    mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Long", "<init>", "(J)V", false);
    mv.visitInsn(AASTORE);
    storeInto(mv, ICONST_2, 0);
    mv.visitInsn(DCONST_1);
    mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "valueOf", "(D)Ljava/lang/Double;", false);
    mv.visitInsn(AASTORE);
    storeInto(mv, ICONST_3, 0);
    mv.visitTypeInsn(NEW, "java/lang/Float");
    mv.visitInsn(DUP);
    mv.visitInsn(FCONST_2);
    mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Float", "<init>", "(F)V", false);
    mv.visitInsn(AASTORE);
    // table[4] = Character.valueOf(65535), the largest char
    ch.storeCachedBox(4, "java/lang/Character", 'C', 65535);
    ch.runSteps(7);
  }

  /** Every statement on a target. */
  static void targets(Crafted.Chunk ch) {
    MethodVisitor mv = ch.mv;
    ch.select(1, null).select(2, BOX);
    // field.setLong(target, 1L); field.set(target, table[3])
    constant(mv, 0, FIELD);
    mv.visitVarInsn(ALOAD, 2);
    mv.visitInsn(LCONST_1);
    mv.visitMethodInsn(INVOKEVIRTUAL, FIELD, "setLong", "(Ljava/lang/Object;J)V", false);
    ch.setRef(5, 3);
    // target[2] = table[4]; target[1] = 9 (int); target[0] = 1.0 (double)
    ch.putElement(2, 4);
    mv.visitVarInsn(ALOAD, 2);
    mv.visitInsn(ICONST_1);
    mv.visitIntInsn(BIPUSH, 9);
    mv.visitInsn(IASTORE);
    mv.visitVarInsn(ALOAD, 2);
    mv.visitInsn(ICONST_0);
    mv.visitInsn(DCONST_1);
    mv.visitInsn(DASTORE);
    // target.value = 4; target.next = (Box) table[6]; target.other = table[7]
    ch.putInt(BOX, "value", 4);
    mv.visitVarInsn(ALOAD, 2);
    ch.tableAt(6);
    mv.visitTypeInsn(CHECKCAST, BOX);
    mv.visitFieldInsn(PUTFIELD, BOX, "next", "L" + BOX + ";");
    mv.visitVarInsn(ALOAD, 2);
    ch.tableAt(7);
    mv.visitFieldInsn(PUTFIELD, BOX, "other", "Ljava/lang/Object;");
  }

  /** Every loop but the cluster loop. */
  static void loops(Crafted.Chunk ch) {
    ch.allocLoop(1, 2);
    collectionLoop(ch, 1, 3);
    ch.stringLoop(4, 5);
    ch.boxLoop(4, 6, "[S", SALOAD, "java/lang/Short", 'S', false);
    ch.boxLoop(4, 7, "[Z", BALOAD, "java/lang/Boolean", 'Z', true);
    ch.select(0, null);
    ch.elementLoop(8);
  }

  /** A cluster loop with a putfield column of each kind of data and a reflective column. */
  static void cluster(Crafted.Chunk ch) {
    ch.loadData(1, "[I", 3)
        .loadData(2, "[J", 5)
        .loadData(3, "[I", 6)
        .loadData(4, FIELD, 7)
        .loadData(5, "[F", 8);
    ch.loop(
        () -> {
          MethodVisitor mv = ch.mv;
          mv.visitVarInsn(ALOAD, 0);
          mv.visitVarInsn(ALOAD, 3);
          mv.visitVarInsn(ILOAD, 4);
          mv.visitInsn(IALOAD);
          mv.visitInsn(AALOAD);
          mv.visitTypeInsn(CHECKCAST, BOX);
          mv.visitVarInsn(ASTORE, 2);
          // t.count = longs[i]
          mv.visitVarInsn(ALOAD, 2);
          mv.visitVarInsn(ALOAD, 5);
          mv.visitVarInsn(ILOAD, 4);
          mv.visitInsn(LALOAD);
          mv.visitFieldInsn(PUTFIELD, BOX, "count", "J");
          // t.next = (Box) table[refs[i]]
          mv.visitVarInsn(ALOAD, 2);
          mv.visitVarInsn(ALOAD, 0);
          mv.visitVarInsn(ALOAD, 6);
          mv.visitVarInsn(ILOAD, 4);
          mv.visitInsn(IALOAD);
          mv.visitInsn(AALOAD);
          mv.visitTypeInsn(CHECKCAST, BOX);
          mv.visitFieldInsn(PUTFIELD, BOX, "next", "L" + BOX + ";");
          // field.setFloat(t, floats[i])
          mv.visitVarInsn(ALOAD, 7);
          mv.visitVarInsn(ALOAD, 2);
          mv.visitVarInsn(ALOAD, 8);
          mv.visitVarInsn(ILOAD, 4);
          mv.visitInsn(FALOAD);
          mv.visitMethodInsn(INVOKEVIRTUAL, FIELD, "setFloat", "(Ljava/lang/Object;F)V", false);
        });
  }

  @Test
  void everyStoreFormLiftsToItsCodes() throws IOException {
    Lifted l = lifted(LiftedStatementsTest::stores);
    assertArrayEquals(
        new int[] {
          Stmt.STORE_CONSTANT,
          -1,
          2,
          Stmt.STORE_ALLOC,
          5,
          0,
          Stmt.STORE_COLLECTION,
          100,
          1,
          Stmt.STORE_ARRAY,
          1000,
          'L',
          3,
          7,
          Stmt.STORE_ARRAY,
          4,
          'L',
          -1,
          0,
          Stmt.STORE_CLONE,
          3,
          4,
          l.name("[J"),
          Stmt.STORE_STRING,
          2,
          -1,
          Stmt.STORE_STRING,
          1,
          6,
          Stmt.STORE_BOX,
          0,
          'J',
          0,
          Stmt.STORE_BOX,
          2,
          'D',
          1,
          Stmt.STORE_BOX,
          3,
          'F',
          0,
          Stmt.STORE_BOX,
          4,
          'C',
          1,
          Stmt.RUN_STEPS,
          7
        },
        l.codes());
    assertEquals(7, l.result().longestArray());
    assertEquals(7, l.result().arrayElements());
  }

  /** More statements than the lifter's first buffer holds (64 ints): none is lost as it grows. */
  @Test
  void aLongChunkKeepsEveryStatement() throws IOException {
    int n = 100;
    Lifted l =
        lifted(
            ch -> {
              for (int i = 0; i < n; i++) {
                ch.storeConstant(i, n - i);
              }
            });
    int[] expected = new int[3 * n];
    for (int i = 0; i < n; i++) {
      expected[3 * i] = Stmt.STORE_CONSTANT;
      expected[3 * i + 1] = i;
      expected[3 * i + 2] = n - i;
    }
    assertArrayEquals(expected, l.codes());
  }

  /**
   * The {@code newarray} type codes 4 to 11, each to its primitive kind (3: ClassShapeRulesTest).
   */
  @Test
  void everyPrimitiveArrayTypeLiftsToItsKindAndIsCounted() throws IOException {
    int[] types = {T_BOOLEAN, T_CHAR, T_FLOAT, T_DOUBLE, T_BYTE, T_SHORT, T_INT, T_LONG};
    char[] kinds = {'Z', 'C', 'F', 'D', 'B', 'S', 'I', 'J'};
    Lifted l =
        lifted(
            ch -> {
              for (int i = 0; i < types.length; i++) {
                ch.mv.visitVarInsn(ALOAD, 0);
                ch.push(i);
                ch.push(10 * i + 1);
                ch.mv.visitIntInsn(NEWARRAY, types[i]);
                ch.mv.visitInsn(AASTORE);
              }
            });
    int[] expected = new int[5 * types.length];
    long total = 0;
    for (int i = 0; i < types.length; i++) {
      int[] one = {Stmt.STORE_ARRAY, i, kinds[i], -1, 10 * i + 1};
      System.arraycopy(one, 0, expected, 5 * i, 5);
      total += 10 * i + 1;
    }
    assertArrayEquals(expected, l.codes());
    assertEquals(71, l.result().longestArray());
    assertEquals(total, l.result().arrayElements());
  }

  /**
   * An array length is a constant of 0 or more, in every form of array the grammar makes; a
   * negative one would not only fail when run, it would lower the total of array elements the
   * limits are checked against, so that the arrays made before it were never counted.
   */
  @ParameterizedTest
  @ValueSource(strings = {"newarray", "anewarray", "Array.newInstance"})
  void anArrayLengthIsAConstantOfZeroOrMore(String form) throws IOException {
    Lifted zero = lifted(ch -> makeArray(ch, form, 0));
    assertEquals(0, zero.codes()[4], form);
    int make = form.equals("Array.newInstance") ? 7 : 3;
    refused(
        ch -> makeArray(ch, form, -1),
        "method m0 at instruction " + make + " (" + (make == 7 ? "invokestatic" : form),
        "creates an array whose length is not a non-negative constant");
  }

  /** A hostile count: two arrays of 10, then one of -15, which would make their total 5. */
  @Test
  void aNegativeLengthCannotHideTheArraysMadeBeforeIt() throws IOException {
    refused(
        ch -> {
          makeArray(ch, "Array.newInstance", 10);
          makeArray(ch, "Array.newInstance", 10);
          makeArray(ch, "Array.newInstance", -15);
        },
        "method m0 at instruction 25 (invokestatic java/lang/reflect/Array.newInstance",
        "creates an array whose length is not a non-negative constant");
  }

  /** {@code table[0] = } a new array of {@code length} in the given form. */
  static void makeArray(Crafted.Chunk ch, String form, int length) {
    MethodVisitor mv = ch.mv;
    mv.visitVarInsn(ALOAD, 0);
    mv.visitInsn(ICONST_0);
    switch (form) {
      case "newarray" -> {
        ch.push(length);
        mv.visitIntInsn(NEWARRAY, T_INT);
      }
      case "anewarray" -> {
        ch.push(length);
        mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
      }
      default -> {
        mv.visitVarInsn(ALOAD, 1);
        mv.visitInsn(ICONST_0);
        mv.visitInsn(AALOAD);
        mv.visitTypeInsn(CHECKCAST, "java/lang/Class");
        ch.push(length);
        mv.visitMethodInsn(
            INVOKESTATIC,
            "java/lang/reflect/Array",
            "newInstance",
            "(Ljava/lang/Class;I)Ljava/lang/Object;",
            false);
      }
    }
    mv.visitInsn(AASTORE);
  }

  @Test
  void everyTargetStatementLiftsToItsCodes() throws IOException {
    Lifted l = lifted(LiftedStatementsTest::targets);
    int box = l.name(BOX);
    assertArrayEquals(
        new int[] {
          Stmt.SELECT,
          1,
          -1,
          Stmt.SELECT,
          2,
          box,
          Stmt.SET_FIELD,
          0,
          'J',
          -1,
          Stmt.SET_FIELD,
          5,
          'L',
          3,
          Stmt.PUT_ELEMENT,
          2,
          'L',
          4,
          Stmt.PUT_ELEMENT,
          1,
          'I',
          -1,
          Stmt.PUT_ELEMENT,
          0,
          'D',
          -1,
          Stmt.PUT_FIELD,
          box,
          l.name("value"),
          l.name("I"),
          -1,
          'I',
          -1,
          Stmt.PUT_FIELD,
          box,
          l.name("next"),
          l.name("L" + BOX + ";"),
          box,
          'L',
          6,
          Stmt.PUT_FIELD,
          box,
          l.name("other"),
          l.name("Ljava/lang/Object;"),
          -1,
          'L',
          7
        },
        l.codes());
  }

  /** Each array store lifts to the kind it stores, and needs a value of that kind. */
  @ParameterizedTest
  @ValueSource(strings = {"B I", "C I", "S I", "I I", "J J", "F F", "D D"})
  void everyArrayStoreLiftsToItsKind(String kinds) throws IOException {
    char kind = kinds.charAt(0);
    char pushed = kinds.charAt(2);
    int[] stores = {BASTORE, CASTORE, SASTORE, IASTORE, LASTORE, FASTORE, DASTORE};
    int opcode = stores["BCSIJFD".indexOf(kind)];
    Lifted l =
        lifted(
            ch -> {
              ch.select(0, null);
              ch.mv.visitVarInsn(ALOAD, 2);
              ch.mv.visitInsn(ICONST_1);
              push(ch.mv, pushed);
              ch.mv.visitInsn(opcode);
            });
    assertArrayEquals(
        new int[] {Stmt.SELECT, 0, -1, Stmt.PUT_ELEMENT, 1, kind, -1}, l.codes(), kinds);
    char wrong = pushed == 'I' ? 'J' : 'I';
    refused(
        ch -> {
          ch.select(0, null);
          ch.mv.visitVarInsn(ALOAD, 2);
          ch.mv.visitInsn(ICONST_1);
          push(ch.mv, wrong);
          ch.mv.visitInsn(opcode);
        },
        "at instruction 7 (",
        "is not the array store for the value pushed");
  }

  /** Pushes a constant 1 of stack kind {@code kind} with its {@code xconst_1}. */
  static void push(MethodVisitor mv, char kind) {
    mv.visitInsn(
        switch (kind) {
          case 'J' -> LCONST_1;
          case 'F' -> FCONST_1;
          case 'D' -> DCONST_1;
          default -> ICONST_1;
        });
  }

  @Test
  void everyLoopLiftsToItsCodes() throws IOException {
    Lifted l = lifted(LiftedStatementsTest::loops);
    assertArrayEquals(
        new int[] {
          Stmt.ALLOC_LOOP,
          1,
          2,
          Stmt.COLLECTION_LOOP,
          1,
          3,
          Stmt.STRING_LOOP,
          4,
          5,
          Stmt.BOX_LOOP,
          4,
          6,
          'S',
          0,
          Stmt.BOX_LOOP,
          4,
          7,
          'Z',
          1,
          Stmt.SELECT,
          0,
          -1,
          Stmt.ELEMENT_LOOP,
          8
        },
        l.codes());
  }

  /** The grammar's collection loop: {@code table[ids[i]] = newCollection(maker)}. */
  static void collectionLoop(Crafted.Chunk ch, int ids, int maker) {
    ch.loadData(ids, "[I", 3).loadData(maker, null, 5);
    ch.loop(
        () -> {
          MethodVisitor mv = ch.mv;
          mv.visitVarInsn(ALOAD, 0);
          mv.visitVarInsn(ALOAD, 3);
          mv.visitVarInsn(ILOAD, 4);
          mv.visitInsn(IALOAD);
          mv.visitVarInsn(ALOAD, 5);
          mv.visitMethodInsn(
              INVOKESTATIC,
              ENTRY,
              Grammar.NEW_COLLECTION_METHOD,
              Grammar.ALLOCATE_DESCRIPTOR,
              false);
          mv.visitInsn(AASTORE);
        });
  }

  /**
   * A cluster loop with a putfield column of each kind of data and a reflective column: the
   * columns' codes in order, and the data locals counted (two for a reference column).
   */
  @Test
  void aClusterLoopLiftsEveryColumn() throws IOException {
    Lifted l = lifted(LiftedStatementsTest::cluster);
    int box = l.name(BOX);
    assertArrayEquals(
        new int[] {
          Stmt.CLUSTER_LOOP,
          box,
          1,
          3,
          'J',
          2,
          -1,
          l.name("count"),
          l.name("J"),
          -1,
          'L',
          3,
          -1,
          l.name("next"),
          l.name("L" + BOX + ";"),
          box,
          'F',
          5,
          4,
          -1,
          -1,
          -1
        },
        l.codes());
  }

  /** Loop data in locals 3, 5 and up; never in 0 to 2 or the counter 4, never twice. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 4})
  void loopDataGoesOnlyIntoTheDataLocals(int local) throws IOException {
    refused(
        ch -> ch.loadData(1, "[I", local),
        "method m0 at instruction 4 (astore): ",
        local < 2
            ? "uses a local the grammar does not"
            : "loads loop data into a local the grammar does not");
  }

  @Test
  void loopDataIsLoadedIntoALocalOnce() throws IOException {
    refused(
        ch -> ch.loadData(1, "[I", 3).loadData(1, "[I", 5).loadData(2, "[I", 5),
        "at instruction 14 (astore): loads loop data into a local the grammar does not");
    refused(
        ch -> ch.loadData(1, "[I", 3).loadData(1, "[I", 255),
        "at instruction 10 (return): loads loop data but no loop follows");
  }

  /** A label the lifter cannot place: a jump backwards from outside a loop. */
  @Test
  void aJumpOutsideTheCountedLoopIsRefused() throws IOException {
    refused(
        ch -> {
          Label l = new Label();
          ch.mv.visitLabel(l);
          ch.mv.visitInsn(ICONST_0);
          ch.mv.visitInsn(ICONST_0);
          ch.mv.visitJumpInsn(IF_ICMPLT, l);
        },
        "method m0 at instruction 3 (if_icmplt): is a branch or increment outside the grammar's"
            + " counted loop");
  }
}
