package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * A graph's arrays made by a create program ({@link Grammar#STEP_ARRAYS}) from data: restored as
 * the JDK restores them, with code that does not grow with their number, and hostile create
 * programs rejected before anything runs.
 */
class ArrayDataTest {
  /** Many small arrays of every kind, some zero, some shared, object arrays typed and not. */
  static List<Object> arrays(int n) {
    List<Object> root = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      root.add(new int[] {i, -i, i * 31});
      root.add(new long[i % 5]);
      root.add(new double[] {i / 3.0});
      root.add(new byte[] {(byte) i});
      root.add(new char[] {(char) ('a' + i % 26), 'z'});
      root.add(new short[] {(short) i});
      root.add(new float[] {i * 0.5f});
      root.add(new boolean[] {i % 2 == 0, true});
      root.add(new String[] {"s" + i, null});
      root.add(new Object[] {root.get(root.size() - 1), i});
    }
    Object[] self = new Object[2];
    self[0] = self;
    root.add(self);
    return root;
  }

  private static long codeBytes(Object root) throws IOException {
    long n = 0;
    for (byte[] c : SnapshotFile.parse(Codese.toBytes(root)).classFiles()) {
      n += c.length;
    }
    return n;
  }

  @Test
  void manySmallArraysRestoreAsTheJdkRestoresThem() {
    RoundTrip.of(arrays(200))
        .check(
            o -> {
              List<?> l = (List<?>) o;
              assertSame(l.get(8), ((Object[]) l.get(9))[0]);
              Object[] self = (Object[]) l.get(l.size() - 1);
              assertSame(self, self[0]);
            })
        .run();
  }

  @Test
  void theCodeGrowsWithShapesNotWithArrays() throws IOException {
    long small = codeBytes(arrays(100));
    long large = codeBytes(arrays(10_000));
    // 100,000 arrays against 1,000: the classes are the same but for constant numbers
    assertTrue(large <= small + 256, "code of 1,000 arrays " + small + ", of 100,000 " + large);
    List<int[]> postings = new ArrayList<>();
    for (int i = 0; i < 300_000; i++) {
      postings.add(new int[] {i, i + 1, i + 2});
    }
    assertTrue(codeBytes(postings) < 4_000, "300,000 int[] took " + codeBytes(postings));
    assertEquals(
        postings.get(123_456)[2],
        ((List<int[]>) Codese.fromBytes(Codese.toBytes(postings))).get(123_456)[2]);
  }

  @Test
  void theArraysCountAgainstTheLimitsAndTheFilter() throws IOException {
    // zero arrays carry no data: only what the create program makes counts them
    List<int[]> zeros = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      zeros.add(new int[60]);
    }
    byte[] bytes = Codese.toBytes(zeros);
    CodeseOptions tight =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxArrayLength(100_000));
    InvalidObjectException e =
        assertThrows(InvalidObjectException.class, () -> Codese.load(bytes, tight));
    assertTrue(e.getMessage().contains("total array elements"), e.getMessage());
    CodeseOptions enough =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxArrayLength(130_000));
    assertEquals(2_000, ((List<?>) Codese.fromBytes(bytes, enough)).size());
    // the filter hears of int[] at least as long as the longest array made
    List<int[]> longer = new ArrayList<>(zeros);
    longer.add(new int[100_000]);
    List<Long> lengths = new ArrayList<>();
    ObjectInputFilter recording =
        info -> {
          if (info.serialClass() == int[].class) {
            lengths.add(info.arrayLength());
          }
          return ObjectInputFilter.Status.UNDECIDED;
        };
    byte[] withLonger = Codese.toBytes(longer);
    Codese.fromBytes(withLonger, CodeseOptions.defaults().withObjectInputFilter(recording));
    assertTrue(lengths.stream().anyMatch(l -> l >= 100_000), lengths.toString());
    ObjectInputFilter maxArray = ObjectInputFilter.Config.createFilter("maxarray=99999");
    assertThrows(
        java.io.InvalidClassException.class,
        () ->
            Codese.fromBytes(withLonger, CodeseOptions.defaults().withObjectInputFilter(maxArray)));
  }

  /** Hostile create programs, written by the format's own writer, checksums valid. */
  @Nested
  class Hostile {
    private final List<Object> graph = arrays(10);

    private SnapshotEdit edit() throws IOException {
      return SnapshotEdit.of(Codese.toBytes(graph));
    }

    private int program(SnapshotEdit e) {
      return e.programIndex(Grammar.STEP_ARRAYS);
    }

    private int[] steps(SnapshotEdit e) {
      return e.program(program(e));
    }

    /** The index in the program of the first array of kind {@code kind}. */
    private int first(int[] p, char kind) {
      for (int i = 0; i < p.length; i += 4 + 3 * p[i + 3]) {
        if (p[i + 1] == kind) {
          return i;
        }
      }
      throw new AssertionError("no " + kind + " arrays");
    }

    private String edited(java.util.function.Consumer<int[]> change) throws IOException {
      SnapshotEdit e = edit();
      int[] p = steps(e);
      change.accept(p);
      e.setConstant(program(e), new Constant.PrimArray(p));
      return e.unsafeRejection();
    }

    @Test
    void theUneditedSnapshotRestores() throws IOException {
      List<?> back = (List<?>) Codese.fromBytes(edit().bytes());
      assertTrue(Arrays.equals((int[]) graph.get(0), (int[]) back.get(0)));
    }

    @Test
    void elementsAreCopiedOnlyFromInsideTheData() throws IOException {
      assertMentions(
          edited(
              p -> {
                int i = first(p, 'I');
                p[i + 4 + 2] = 1 << 20;
              }),
          "from offset 1048576");
      assertMentions(
          edited(
              p -> {
                int i = first(p, 'I');
                p[i + 4 + 1] = -1;
              }),
          "makes an array of length -1");
    }

    @Test
    void dataOfAnotherKindIsRejected() throws IOException {
      assertMentions(
          edited(
              p -> {
                int ints = first(p, 'I');
                int doubles = first(p, 'D');
                p[ints + 2] = p[doubles + 2];
              }),
          "which is not such an array");
    }

    @Test
    void aSlotIsFilledOnce() throws IOException {
      assertMentions(
          edited(
              p -> {
                int i = first(p, 'I');
                p[i + 4 + 3] = p[i + 4];
              }),
          "a second time");
    }

    @Test
    void anUnknownKindOrStepIsRejected() throws IOException {
      assertMentions(edited(p -> p[first(p, 'I') + 1] = 'Q'), "unknown element kind");
      assertMentions(edited(p -> p[0] = Grammar.STEP_FILL), "is unknown or cut short");
      assertMentions(edited(p -> p[3] = 1 << 24), "is cut short");
    }

    @Test
    void anArrayClassTheTableDoesNotListIsRejected() throws IOException {
      List<Object> intsOnly = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        intsOnly.add(new int[] {i});
      }
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(intsOnly));
      int k = program(e);
      int[] p = e.program(k);
      p[1] = 'F';
      p[2] = -1;
      e.setConstant(k, new Constant.PrimArray(p));
      assertMentions(
          e.unsafeRejection(), "makes arrays of float[], which its class table does not list");
    }

    @Test
    void aCreateProgramIsNotAFinishProgram() throws IOException {
      // two int[] constants only: the create program and the finish program
      List<Object> boxes = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        boxes.add(new Object[] {"x"});
      }
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(boxes));
      int create = program(e);
      int finish =
          e.constantIndex(
              c ->
                  c instanceof Constant.PrimArray p
                      && p.array() instanceof int[] a
                      && (a.length == 0 || a[0] != Grammar.STEP_ARRAYS));
      e.setConstant(finish, e.constant(create));
      assertMentions(e.unsafeRejection(), "finish step " + Grammar.STEP_ARRAYS);
    }
  }
}
