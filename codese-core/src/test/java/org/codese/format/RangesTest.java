package org.codese.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.codese.Codese;
import org.codese.CorruptSnapshotException;
import org.codese.program.Constant;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.OlderFormats;
import org.junit.jupiter.api.Test;

/**
 * Ranges, the {@code int} arrays of the packed form's constants written as length, first element
 * and step ({@link ConstantCodec#RANGE}): what the writer writes reads back, in {@code int}
 * arithmetic; only a reader of the packed form's constants reads one; a range may not make more
 * elements than {@link SnapshotFile#RANGE_RATIO} per byte of its file, and the writer never writes
 * one that would.
 */
class RangesTest {
  private static int[] progression(int n, int first, int step) {
    int[] a = new int[n];
    int v = first;
    for (int i = 0; i < n; i++) {
      a[i] = v;
      v += step;
    }
    return a;
  }

  private static byte[] written(Out out, int[] a) {
    ConstantWriter.write(out, new Constant.PrimArray(a));
    return out.toByteArray();
  }

  private static int[] read(byte[] b, long allowed) throws CorruptSnapshotException {
    In in = new In(b, 0, b.length, true);
    if (allowed >= 0) {
      in.allowRanges(allowed);
    }
    Constant c = ConstantCodec.read(in, SnapshotFile.PACKED_VERSION, 0, 0);
    assertEquals(0, in.remaining());
    return (int[]) ((Constant.PrimArray) c).array();
  }

  @Test
  void progressionsAreWrittenAsRangesAndReadBack() throws Exception {
    for (int[] a :
        List.of(
            progression(100_000, 1, 1),
            progression(8, 0, 0),
            progression(1_000, Integer.MAX_VALUE - 10, 3), // wraps past MAX_VALUE
            progression(300, Integer.MIN_VALUE, -7),
            progression(65, 5, 2))) {
      byte[] b = written(new Out(true).withRanges(), a);
      assertTrue(b.length <= 1 + 1 + 3 + 5 + 5 + 1, b.length + " bytes for " + a.length);
      assertArrayEquals(a, read(b, a.length));
    }
  }

  @Test
  void onlyProgressionsOfEightOrMoreAreRanges() {
    assertTrue(ConstantWriter.isRange(progression(8, 3, 4)));
    assertFalse(ConstantWriter.isRange(progression(7, 3, 4)));
    int[] a = progression(50, 3, 4);
    a[49]++;
    assertFalse(ConstantWriter.isRange(a));
    a = progression(50, 3, 4);
    a[2]++;
    assertFalse(ConstantWriter.isRange(a));
    Out out = new Out(true).withRanges();
    written(out, progression(7, 0, 1));
    assertEquals(0, out.rangeElements());
    assertEquals(progression(7, 0, 1).length + 3, out.size(), "varint differences, one byte each");
  }

  @Test
  void onlyAReaderOfThePackedFormsConstantsReadsARange() throws Exception {
    byte[] b = written(new Out(true).withRanges(), progression(20, 0, 1));
    CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, () -> read(b, -1));
    assertTrue(e.getMessage().contains("only format version 9"), e.getMessage());
    byte[] plain = written(new Out(true), progression(20, 0, 1));
    assertArrayEquals(progression(20, 0, 1), read(plain, -1), "without ranges, as format 8");
  }

  @Test
  void aRangeBeyondWhatIsAllowedIsRejected() throws Exception {
    byte[] b = written(new Out(true).withRanges(), progression(1_000, 0, 1));
    assertArrayEquals(progression(1_000, 0, 1), read(b, 1_000));
    CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, () -> read(b, 999));
    assertTrue(e.getMessage().contains("range of 1000 elements, beyond the 999"), e.getMessage());
    Out two = new Out(true).withRanges();
    ConstantWriter.write(two, new Constant.PrimArray(progression(600, 0, 1)));
    byte[] both = written(two, progression(600, 0, 1));
    In in = new In(both, 0, both.length, true);
    in.allowRanges(1_000);
    ConstantCodec.read(in, SnapshotFile.PACKED_VERSION, 0, 0);
    e =
        assertThrows(
            CorruptSnapshotException.class,
            () -> ConstantCodec.read(in, SnapshotFile.PACKED_VERSION, 0, 0));
    assertTrue(e.getMessage().contains("beyond the 400"), "the bound is for all ranges together");
  }

  @Test
  void anEmptyRangeReadsEvenWhereNoMoreElementsAreAllowed() throws Exception {
    byte[] b =
        new Out(true).u1(7).u1(ConstantCodec.RANGE).varint(0).varint(5).varint(1).toByteArray();
    assertArrayEquals(new int[0], read(b, 0));
    CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, () -> read(b, -1));
    assertTrue(e.getMessage().contains("only format version 9"), e.getMessage());
  }

  @Test
  void aNegativeRangeLengthIsRejected() {
    Out out = new Out(true).u1(7).u1(ConstantCodec.RANGE).varint(-5).varint(0).varint(1);
    byte[] b = out.toByteArray();
    CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, () -> read(b, 1_000));
    assertTrue(e.getMessage().contains("range of -5 elements"), e.getMessage());
  }

  /**
   * A file whose ranges would make more than {@link SnapshotFile#RANGE_RATIO} elements per byte is
   * written without them, and reads back; a crafted one with such a range is refused.
   */
  @Test
  void theWriterKeepsRangesWithinTheBoundAReaderChecks() throws Exception {
    SnapshotFile small = SnapshotFile.parse(Codese.toBytes(new java.util.ArrayList<>()));
    int[] zeros = new int[100_000];
    List<Constant> constants = new java.util.ArrayList<>(small.constants());
    constants.add(new Constant.PrimArray(zeros));
    SnapshotFile f =
        new SnapshotFile(
            small.jdk(),
            small.firstId(),
            small.tableSize(),
            small.depth(),
            small.classes(),
            constants,
            small.classFiles(),
            small.placements(),
            small.items());
    byte[] b = f.bytes();
    assertTrue(b.length > 100_000, "written as an array: " + b.length + " bytes");
    SnapshotFile again = SnapshotFile.parse(b);
    assertArrayEquals(
        zeros,
        (int[]) ((Constant.PrimArray) again.constants().get(again.constants().size() - 1)).array());

    constants.set(constants.size() - 1, new Constant.PrimArray(new int[1_000]));
    byte[] within =
        new SnapshotFile(
                small.jdk(),
                small.firstId(),
                small.tableSize(),
                small.depth(),
                small.classes(),
                constants,
                small.classFiles(),
                small.placements(),
                small.items())
            .bytes();
    assertTrue(within.length < 1_000, "a range: " + within.length + " bytes");
    assertEquals(1_000, ((int[]) ((Constant.PrimArray) parseLast(within)).array()).length);
    // the same range, longer than 16 elements per byte of its file, spliced in by hand
    byte[] over = replaceRangeLength(within, 1_000, 16 * within.length + 100);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotFile.parse(over));
    assertTrue(e.getMessage().contains("beyond the"), e.getMessage());
    assertTrue(e.getMessage().contains("section constants"), e.getMessage());
  }

  private static Constant parseLast(byte[] b) throws CorruptSnapshotException {
    List<Constant> c = SnapshotFile.parse(b).constants();
    return c.get(c.size() - 1);
  }

  /** {@code file} with the varint length {@code from} of its range changed to {@code to}. */
  private static byte[] replaceRangeLength(byte[] file, int from, int to) {
    byte[] old = new Out().u1(ConstantCodec.RANGE).varint(from).toByteArray();
    byte[] now = new Out().u1(ConstantCodec.RANGE).varint(to).toByteArray();
    int at = indexOf(file, old);
    assertTrue(at > 0, "the range's bytes");
    In walk = new In(file, 6, file.length - 4, true);
    Out out = new Out().raw(java.util.Arrays.copyOf(file, 6));
    try {
      int header = walk.count(1);
      out.varint(header).raw(walk.raw(header));
      int code = walk.count(1);
      int declared = walk.u4();
      out.varint(code).varint(declared).raw(walk.raw(code));
      int n = walk.count(1);
      byte[] constants = walk.raw(n);
      int in = indexOf(constants, old);
      byte[] changed =
          new Out()
              .raw(java.util.Arrays.copyOf(constants, in))
              .raw(now)
              .raw(java.util.Arrays.copyOfRange(constants, in + old.length, constants.length))
              .toByteArray();
      out.varint(changed.length).raw(changed);
      out.raw(walk.raw(walk.remaining()));
    } catch (CorruptSnapshotException e) {
      throw new AssertionError(e);
    }
    return Encoding.withTrailer(out.toByteArray());
  }

  private static int indexOf(byte[] b, byte[] part) {
    for (int i = 0; i + part.length <= b.length; i++) {
      if (java.util.Arrays.equals(b, i, i + part.length, part, 0, part.length)) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void aTreeOfRangesRestoresAsTheJdkWouldAndShrinks() throws Exception {
    byte[] b = Codese.toBytes(RedBlackTree.random(20_000, 9));
    SnapshotFile f = SnapshotFile.parse(b);
    SnapshotFile eight = SnapshotFile.parse(OlderFormats.sectioned(b));
    assertTrue(
        f.sectionSizes().get("constants") < eight.sectionSizes().get("constants") - 20_000,
        f.sectionSizes() + " vs format 8 " + eight.sectionSizes());
    assertArrayEquals(
        JdkBytes.serialize(RedBlackTree.random(20_000, 9)),
        JdkBytes.serialize(Codese.fromBytes(b)));
  }
}
