package org.codese.format;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.codese.CorruptSnapshotException;
import org.junit.jupiter.api.Test;

/**
 * In the compact form of stream format 3 most counts may be one byte an item (variable-length
 * integers), but the elements of a raw primitive array have their full size: a length checked at
 * one byte an element could claim 2^29 + 1 doubles in a 512 MB segment (under the default 1 GiB
 * limit), whose byte count overflows an int to 8, and the decoder allocated 4 GB.
 */
class CompactLengthsTest {
  /** The tag of a primitive array constant ({@code ConstantCodec.PRIM_ARRAY}). */
  private static final int PRIM_ARRAY = 7;

  @Test
  void aRawArrayLengthIsCheckedAtItsElementsFullSize() {
    int len = (1 << 29) + 1;
    byte[] head = new Out(true).u1(PRIM_ARRAY).u1('D').u4(len).toByteArray();
    byte[] buf = new byte[len + 16];
    System.arraycopy(head, 0, buf, 0, head.length);
    In in = new In(buf, 0, buf.length, true);
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () -> ConstantCodec.read(in, SnapshotFile.VERSION, 0, 0));
    assertTrue(e.getMessage().contains("count " + len + " is impossible with"), e.getMessage());
  }

  @Test
  void compactIntArraysStillTakeOneByteAnElement() throws Exception {
    int[] ids = new int[100];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = 1000 + i;
    }
    Out out = new Out(true);
    ConstantWriter.write(out, new org.codese.program.Constant.PrimArray(ids));
    byte[] b = out.toByteArray();
    assertTrue(b.length < 110, b.length + " bytes");
    In in = new In(b, 0, b.length, true);
    org.codese.program.Constant.PrimArray p =
        (org.codese.program.Constant.PrimArray) ConstantCodec.read(in, SnapshotFile.VERSION, 0, 0);
    assertTrue(java.util.Arrays.equals(ids, (int[]) p.array()));
  }
}
