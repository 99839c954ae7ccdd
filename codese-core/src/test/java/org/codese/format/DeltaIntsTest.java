package org.codese.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.codese.CorruptSnapshotException;
import org.codese.program.Constant;
import org.junit.jupiter.api.Test;

/**
 * {@link In#deltaInts}, the reader of the {@code int} arrays of the compact form: what {@link
 * ConstantCodec} writes reads back, and every malformed element is a {@link
 * CorruptSnapshotException} that names the element.
 */
class DeltaIntsTest {
  @Test
  void whatTheWriterWritesReadsBack() throws Exception {
    Random r = new Random(5);
    int[] a = new int[2_000];
    for (int i = 0; i < a.length; i++) {
      a[i] =
          switch (i % 5) {
            case 0 -> Integer.MIN_VALUE;
            case 1 -> Integer.MAX_VALUE;
            case 2 -> i;
            case 3 -> -i;
            default -> r.nextInt();
          };
    }
    Out out = new Out(true);
    ConstantWriter.write(out, new Constant.PrimArray(a));
    byte[] b = out.toByteArray();
    In in = new In(b, 0, b.length, true);
    Constant c = ConstantCodec.read(in, SnapshotFile.COMPACT_VERSION, 0, 0);
    assertArrayEquals(a, (int[]) ((Constant.PrimArray) c).array());
    assertEquals(0, in.remaining());
  }

  @Test
  void smallDifferencesTakeOneByteEach() throws Exception {
    int[] ids = new int[1_000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = 5_000 + 3 * i;
    }
    Out out = new Out(true);
    ConstantWriter.write(out, new Constant.PrimArray(ids));
    assertTrue(out.size() < ids.length + 16, out.size() + " bytes");
  }

  @Test
  void arraysPastTheBudgetAreRawAndReadBack() throws Exception {
    int[] first = new int[Out.COMPACT_INTS];
    int[] second = new int[1_000];
    for (int i = 0; i < first.length; i++) {
      first[i] = i;
    }
    for (int i = 0; i < second.length; i++) {
      second[i] = -i;
    }
    Out out = new Out(true);
    ConstantWriter.write(out, new Constant.PrimArray(first));
    int compact = out.size();
    ConstantWriter.write(out, new Constant.PrimArray(second));
    assertTrue(compact < first.length + 16, "compact: " + compact + " bytes");
    assertTrue(out.size() - compact >= second.length * 4, "raw: " + (out.size() - compact));
    byte[] b = out.toByteArray();
    In in = new In(b, 0, b.length, true);
    assertArrayEquals(
        first, (int[]) ((Constant.PrimArray) ConstantCodec.read(in, 8, 0, 0)).array());
    assertArrayEquals(
        second, (int[]) ((Constant.PrimArray) ConstantCodec.read(in, 8, 0, 0)).array());
    assertEquals(0, in.remaining());
  }

  @Test
  void aRawArrayLongerThanItsBytesIsCorrupt() {
    Out out = new Out(true).u1(ConstantCodec.PRIM_ARRAY).u1(ConstantCodec.RAW_INTS).u4(1_000_000);
    out.raw(new byte[40]);
    byte[] b = out.toByteArray();
    In in = new In(b, 0, b.length, true);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> ConstantCodec.read(in, 8, 0, 0));
    assertTrue(e.getMessage().contains("count 1000000 is impossible"), e.getMessage());
  }

  @Test
  void anElementLongerThanSixBytesIsCorrupt() {
    byte[] b = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1};
    assertMentions(b, 1, "int array element 0 is cut short or longer than 6 bytes");
  }

  @Test
  void anElementCutShortIsCorrupt() {
    byte[] b = {2, (byte) 0x81};
    assertMentions(b, 2, "int array element 1 is cut short");
  }

  @Test
  void fewerElementsThanCountedAreCorrupt() {
    byte[] b = {2, 4};
    assertMentions(b, 3, "int array element 2 runs past the end");
  }

  @Test
  void aSumOutsideThirtyTwoBitsIsCorrupt() {
    Out out = new Out(true).varint(Integer.MAX_VALUE).varint(1);
    assertMentions(out.toByteArray(), 2, "int array element 1 (2147483648) does not fit 32 bits");
  }

  @Test
  void aLongerDifferenceOutsideThirtyTwoBitsIsCorrupt() {
    Out out = new Out(true).varint(Integer.MIN_VALUE).varint(-1000);
    assertMentions(out.toByteArray(), 2, "int array element 1 (-2147484648) does not fit 32 bits");
  }

  private static void assertMentions(byte[] b, int len, String expected) {
    In in = new In(b, 0, b.length, true);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> in.deltaInts(len));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
