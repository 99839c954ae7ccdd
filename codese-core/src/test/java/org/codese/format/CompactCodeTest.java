package org.codese.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;
import org.codese.Codese;
import org.codese.CorruptSnapshotException;
import org.codese.program.Placement;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;

/**
 * The compact form of format version 8 ({@link SnapshotFile#COMPACT_VERSION}): the code section's
 * class files as one zlib stream. Hostile code sections are written with the format's own {@link
 * Out}, every checksum valid; each must be a {@link CorruptSnapshotException} naming the code
 * section, found before more than the declared bytes are inflated.
 */
class CompactCodeTest {
  private static final int CODE = 3;

  private final byte[] snapshot = snapshot();
  private final SnapshotFile file = parse(snapshot);

  /** A snapshot in format 8, which newer versions still read: a new one, written as format 8. */
  private static byte[] snapshot() {
    try {
      return org.codese.testkit.OlderFormats.sectioned(Codese.toBytes(RedBlackTree.random(50, 3)));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static SnapshotFile parse(byte[] b) {
    try {
      return SnapshotFile.parse(b);
    } catch (CorruptSnapshotException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void format8SnapshotsAreCompactAndTheirClassFilesSurvive() throws Exception {
    assertEquals(SnapshotFile.COMPACT_VERSION, file.version());
    assertTrue(file.classFiles().size() > 1, "the test needs several class files");
    int total = file.classFiles().stream().mapToInt(c -> c.length).sum();
    int section = payload(snapshot, CODE).length;
    assertTrue(section < total, "code section " + section + " bytes, class files " + total);
    for (byte[] c : file.classFiles()) {
      assertEquals(0xCAFEBABE, ByteBuffer.wrap(c).getInt(), "a whole class file");
    }
    SnapshotFile again = SnapshotFile.parse(file.bytes());
    for (int i = 0; i < file.classFiles().size(); i++) {
      assertArrayEquals(file.classFiles().get(i), again.classFiles().get(i));
    }
    RedBlackTree tree = RedBlackTree.random(50, 3);
    assertArrayEquals(JdkBytes.serialize(tree), JdkBytes.serialize(Codese.fromBytes(snapshot)));
  }

  @Test
  void aLengthNoDeflateDataCanMakeIsRejectedBeforeInflating() {
    Out code = header(new int[] {Integer.MAX_VALUE - 8});
    code.raw(new byte[10]);
    assertCorrupt(code, "the class files declare " + (Integer.MAX_VALUE - 8) + " bytes");
  }

  @Test
  void lengthsThatOverflowTogetherAreRejected() {
    Out code = header(new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE});
    code.raw(deflate(new byte[100]));
    assertCorrupt(code, "the class files declare");
  }

  @Test
  void dataThatInflatesToFewerBytesThanDeclaredIsRejected() {
    byte[] all = all();
    int[] lengths = lengths();
    lengths[lengths.length - 1] += 7;
    Out code = header(lengths);
    code.raw(deflate(all));
    assertCorrupt(code, "but the code section declares " + (all.length + 7));
  }

  @Test
  void dataThatInflatesToMoreBytesThanDeclaredIsRejected() {
    int[] lengths = lengths();
    lengths[0] -= 1;
    Out code = header(lengths);
    code.raw(deflate(all()));
    assertCorrupt(code, "inflates to more than the");
  }

  @Test
  void bytesThatAreNotZlibDataAreRejected() {
    byte[] all = all();
    Out code = header(lengths());
    byte[] junk = new byte[all.length / 4 + 8];
    Arrays.fill(junk, (byte) 0xFF);
    code.raw(junk);
    assertCorrupt(code, "not valid zlib/DEFLATE data");
  }

  @Test
  void truncatedDataIsRejected() {
    byte[] z = deflate(all());
    Out code = header(lengths());
    code.raw(Arrays.copyOf(z, z.length / 2));
    assertCorrupt(code, "truncated");
  }

  @Test
  void bytesAfterTheEndOfTheDataAreRejected() {
    byte[] z = deflate(all());
    Out code = header(lengths());
    code.raw(z).raw(new byte[] {1, 2, 3});
    assertCorrupt(code, "3 unexpected bytes after the end of the compressed data");
  }

  @Test
  void aPresetDictionaryIsRejected() {
    byte[] all = all();
    Deflater d = new Deflater();
    d.setDictionary(new byte[] {'C', 'o', 'd', 'e', 's', 'e'});
    d.setInput(all);
    d.finish();
    byte[] z = new byte[all.length + 64];
    int n = d.deflate(z);
    d.end();
    Out code = header(lengths());
    code.raw(Arrays.copyOf(z, n));
    assertCorrupt(code, "preset dictionary");
  }

  @Test
  void aHostOutsideTheClassTableIsRejected() {
    Out code = new Out(true).u4(file.classFiles().size());
    for (int i = 0; i < file.classFiles().size(); i++) {
      Placement p = file.placements().get(i);
      code.u1(p.phase().ordinal()).u4(file.classes().size() + 5).u4(lengths()[i]);
    }
    code.raw(deflate(all()));
    assertCorrupt(code, "host class index " + (file.classes().size() + 5) + " is out of range");
  }

  @Test
  void aNegativeLengthIsRejected() {
    int[] lengths = lengths();
    lengths[0] = -4;
    Out code = header(lengths);
    code.raw(deflate(all()));
    assertCorrupt(code, "has a negative length -4");
  }

  @Test
  void aPhaseBeforeThePreviousOneIsRejected() {
    Out code = new Out(true).u4(2);
    code.u1(2).u4(Placement.CODESE).u4(1);
    code.u1(0).u4(Placement.CODESE).u4(1);
    code.raw(deflate(new byte[2]));
    assertCorrupt(code, "class 1 has phase 0 after phase 2");
  }

  @Test
  void moreObjectsThanTheFileAndItsCodeCanCreateAreRejected() throws Exception {
    byte[] header = payload(snapshot, 0);
    In h = new In(header, 0, header.length, true);
    String jdk = h.str();
    int firstId = h.u4();
    h.u4();
    int depth = h.u4();
    int tooMany = snapshot.length * 64;
    Out forged = new Out(true).str(jdk).u4(firstId).u4(firstId + tooMany).u4(depth);
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () -> SnapshotFile.parse(replace(snapshot, 0, forged.toByteArray())));
    assertTrue(e.getMessage().contains("claims " + tooMany + " objects"), e.getMessage());
    assertTrue(e.getMessage().contains("bytes of inflated class files"), e.getMessage());
  }

  @Test
  void anOlderFormatMayClaimAQuarterOfItsBytesInObjects() throws Exception {
    byte[] probe = withTable(SnapshotFile.COMPACT_VERSION - 1, 0, 1).bytes();
    // fixed-width integers before the compact form: the length does not depend on the claim
    int length = probe.length;
    int most = length / SnapshotFile.MIN_BYTES_PER_OBJECT;
    SnapshotFile.parse(withTable(SnapshotFile.COMPACT_VERSION - 1, 0, most).bytes());
    byte[] over = withTable(SnapshotFile.COMPACT_VERSION - 1, 0, most + 1).bytes();
    assertEquals(length, over.length);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotFile.parse(over));
    assertTrue(e.getMessage().contains("claims " + (most + 1) + " objects"), e.getMessage());
  }

  @Test
  void onlyTheSlotsFromTheFirstIdOnAreCounted() throws Exception {
    int firstId = snapshot.length * 100;
    SnapshotFile segment = withTable(SnapshotFile.COMPACT_VERSION, firstId, firstId + 10);
    assertEquals(firstId, SnapshotFile.parse(segment.bytes()).firstId());
    int claimed = snapshot.length * 100;
    byte[] over = withTable(SnapshotFile.COMPACT_VERSION, 1_000, 1_000 + claimed).bytes();
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotFile.parse(over));
    assertTrue(e.getMessage().contains("claims " + claimed + " objects"), e.getMessage());
  }

  /** The test's snapshot in format {@code version} with the table {@code [firstId, tableSize)}. */
  private SnapshotFile withTable(int version, int firstId, int tableSize) {
    return new SnapshotFile(
        version,
        file.jdk(),
        firstId,
        tableSize,
        file.depth(),
        file.classes(),
        file.constants(),
        file.classFiles(),
        file.placements(),
        new org.codese.program.Tape(new byte[0], new int[0]));
  }

  private void assertCorrupt(Out code, String expected) {
    byte[] hostile = replace(snapshot, CODE, code.toByteArray());
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotFile.parse(hostile));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertTrue(e.getMessage().contains("code"), e.getMessage());
  }

  /** The code section's count and per-file phase, host and length, as the writer makes them. */
  private Out header(int[] lengths) {
    Out code = new Out(true).u4(lengths.length);
    for (int i = 0; i < lengths.length; i++) {
      Placement p = file.placements().get(Math.min(i, file.placements().size() - 1));
      code.u1(p.phase().ordinal()).u4(p.host()).u4(lengths[i]);
    }
    return code;
  }

  private int[] lengths() {
    return file.classFiles().stream().mapToInt(c -> c.length).toArray();
  }

  private byte[] all() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] c : file.classFiles()) {
      b.writeBytes(c);
    }
    return b.toByteArray();
  }

  private static byte[] deflate(byte[] b) {
    return Compression.deflate(b);
  }

  /** The payload of section {@code tag}. */
  private static byte[] payload(byte[] b, int tag) {
    int at = 6;
    while (b[at] != tag) {
      at += 9 + ByteBuffer.wrap(b).getInt(at + 1);
    }
    int len = ByteBuffer.wrap(b).getInt(at + 1);
    return Arrays.copyOfRange(b, at + 9, at + 9 + len);
  }

  /** {@code b} with section {@code tag}'s payload replaced, every checksum valid. */
  private static byte[] replace(byte[] b, int tag, byte[] payload) {
    try {
      ByteArrayOutputStream file = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(file);
      out.write(b, 0, 6);
      int at = 6;
      for (int t : List.of(0, 1, 2, 3, 4)) {
        int len = ByteBuffer.wrap(b).getInt(at + 1);
        byte[] p = t == tag ? payload : Arrays.copyOfRange(b, at + 9, at + 9 + len);
        CRC32C crc = new CRC32C();
        crc.update(p);
        out.writeByte(t);
        out.writeInt(p.length);
        out.writeInt((int) crc.getValue());
        out.write(p);
        at += 9 + len;
      }
      out.flush();
      return Encoding.withTrailer(file.toByteArray());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
