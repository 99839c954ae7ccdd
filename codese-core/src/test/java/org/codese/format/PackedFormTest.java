package org.codese.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Adler32;
import org.codese.Codese;
import org.codese.CodeseOptions;
import org.codese.CorruptSnapshotException;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.OlderFormats;
import org.junit.jupiter.api.Test;

/**
 * The packed form of format version 9 ({@link SnapshotFile#PACKED_VERSION}) and later: header,
 * class table, code table and class files as one raw DEFLATE stream with the preset dictionary
 * {@link Packed#DICTIONARY}. Hostile files are made with the format's own {@link Out} and {@link
 * Compression}, the trailer valid, so that only the reader's own checks stand between a lie and the
 * loader; each must be a {@link CorruptSnapshotException} naming where.
 */
class PackedFormTest {
  private final byte[] snapshot = snapshot();
  private final Parts parts = Parts.of(snapshot);

  private static byte[] snapshot() {
    try {
      return Codese.toBytes(RedBlackTree.random(50, 3));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The parts of a packed file: header, inflated block, constants and items payloads. */
  private record Parts(byte[] header, byte[] block, byte[] constants, byte[] items) {
    static Parts of(byte[] file) {
      try {
        In walk = new In(file, 6, file.length - 4, true);
        byte[] header = walk.raw(walk.count(1));
        int data = walk.count(1);
        int declared = walk.u4();
        int at = walk.pos();
        walk.skip(data);
        byte[] block =
            Inflating.inflate(file, at, data, declared, "code", 0, "test", Packed.DICTIONARY);
        byte[] constants = walk.raw(walk.count(1));
        byte[] items = walk.raw(walk.count(1));
        assertEquals(0, walk.remaining(), "the layout this test reads");
        return new Parts(header, block, constants, items);
      } catch (CorruptSnapshotException e) {
        throw new AssertionError(e);
      }
    }

    /** The file of these parts, the block compressed as the writer does, declaring {@code n}. */
    byte[] file(int declared, byte[] deflated, byte[] after) {
      Out f = new Out().u4(SnapshotFile.MAGIC).u2(SnapshotFile.VERSION);
      f.varint(header.length).raw(header).varint(deflated.length).varint(declared).raw(deflated);
      f.varint(constants.length).raw(constants).varint(items.length).raw(items).raw(after);
      return Encoding.withTrailer(f.toByteArray());
    }

    byte[] file() {
      return file(block.length, Compression.deflate(block, Packed.DICTIONARY), new byte[0]);
    }

    Parts withBlock(byte[] b) {
      return new Parts(header, b, constants, items);
    }
  }

  private static CorruptSnapshotException corrupt(byte[] file) {
    return assertThrows(CorruptSnapshotException.class, () -> SnapshotFile.parse(file));
  }

  @Test
  void newSnapshotsArePackedSmallerThanFormat8AndTheirClassFilesSurvive() throws Exception {
    SnapshotFile file = SnapshotFile.parse(snapshot);
    assertEquals(SnapshotFile.VERSION, file.version());
    assertTrue(file.version() >= SnapshotFile.PACKED_VERSION);
    byte[] old = OlderFormats.sectioned(snapshot);
    assertTrue(snapshot.length < old.length - 300, snapshot.length + " vs format 8 " + old.length);
    SnapshotFile eight = SnapshotFile.parse(old);
    assertEquals(eight.classFiles().size(), file.classFiles().size());
    for (int i = 0; i < file.classFiles().size(); i++) {
      assertArrayEquals(eight.classFiles().get(i), file.classFiles().get(i));
    }
    assertEquals(eight.classes(), file.classes());
    assertEquals(eight.placements(), file.placements());
    assertArrayEquals(parts.file(), snapshot, "the writer's own layout, re-made by the test");
    assertArrayEquals(
        JdkBytes.serialize(RedBlackTree.random(50, 3)),
        JdkBytes.serialize(Codese.fromBytes(snapshot)));
    assertEquals(0, file.sectionSizes().get("classes"));
    assertTrue(file.sectionSizes().get("code") > 0);
  }

  /**
   * The block is made once per list of class files, and made again for other tables: two files with
   * the same class files (the cache's key) and other class tables each keep their own.
   */
  @Test
  void aCachedBlockServesOnlyTheTablesItWasMadeFor() throws Exception {
    SnapshotFile f = SnapshotFile.parse(snapshot);
    List<org.codese.program.ClassEntry> renamed = new ArrayList<>();
    for (org.codese.program.ClassEntry c : f.classes()) {
      renamed.add(
          new org.codese.program.ClassEntry(c.name() + "X", c.fields(), c.suid(), c.hasSuid()));
    }
    List<byte[]> files = List.copyOf(f.classFiles());
    byte[] first = with(f, f.classes(), files).bytes();
    byte[] second = with(f, renamed, files).bytes();
    assertEquals(f.classes(), SnapshotFile.parse(first).classes());
    assertEquals(renamed, SnapshotFile.parse(second).classes());
    assertEquals(f.classes(), SnapshotFile.parse(with(f, f.classes(), files).bytes()).classes());
  }

  private static SnapshotFile with(
      SnapshotFile f, List<org.codese.program.ClassEntry> classes, List<byte[]> files) {
    return new SnapshotFile(
        f.jdk(),
        f.firstId(),
        f.tableSize(),
        f.depth(),
        classes,
        f.constants(),
        files,
        f.placements(),
        f.items());
  }

  /** The sizes the tools show are those of the sections as the file holds them. */
  @Test
  void sectionSizesAreThoseOfTheFile() throws Exception {
    byte[] big = Codese.toBytes(RedBlackTree.random(3_000, 4));
    Parts p = Parts.of(big);
    java.util.Map<String, Integer> sizes = SnapshotFile.parse(big).sectionSizes();
    assertEquals(p.header().length, sizes.get("header"));
    assertEquals(0, sizes.get("classes"));
    assertEquals(p.constants().length, sizes.get("constants"));
    assertEquals(p.items().length, sizes.get("items"));
    int code = big.length - 6 - 4 - p.header().length - p.constants().length - p.items().length;
    assertTrue(sizes.get("code") > code - 16 && sizes.get("code") < code, sizes + " " + code);
  }

  /** The constant the reader uses is what the pieces of {@link CodeDictionarySpec} spell. */
  @Test
  void theDictionaryIsWhatItsPiecesSpell() {
    assertArrayEquals(CodeDictionarySpec.build(), Packed.DICTIONARY);
  }

  /** The dictionary is part of the format: its bytes never change within a version. */
  @Test
  void theDictionaryIsPinned() {
    Adler32 a = new Adler32();
    a.update(Packed.DICTIONARY);
    assertEquals(2172, Packed.DICTIONARY.length);
    assertEquals(0x3a059772L, a.getValue(), Long.toHexString(a.getValue()));
  }

  @Test
  void aDeclaredLengthNoDeflateDataCanMakeIsRejectedBeforeInflating() {
    byte[] deflated = Compression.deflate(parts.block(), Packed.DICTIONARY);
    int lie = (int) (Compression.MAX_RATIO * deflated.length + Compression.MAX_RATIO + 1);
    CorruptSnapshotException e = corrupt(parts.file(lie, deflated, new byte[0]));
    assertTrue(e.getMessage().contains("declares " + lie + " bytes"), e.getMessage());
    assertTrue(e.getMessage().contains("section code"), e.getMessage());
    e = corrupt(parts.file(-1, deflated, new byte[0]));
    assertTrue(e.getMessage().contains("declares -1 bytes"), e.getMessage());
    e = corrupt(parts.file(Integer.MAX_VALUE, deflated, new byte[0]));
    assertTrue(e.getMessage().contains("declares " + Integer.MAX_VALUE), e.getMessage());
  }

  @Test
  void aBlockThatInflatesToMoreOrFewerBytesThanDeclaredIsRejected() {
    byte[] deflated = Compression.deflate(parts.block(), Packed.DICTIONARY);
    int n = parts.block().length;
    assertTrue(corrupt(parts.file(n - 1, deflated, new byte[0])).getMessage().contains("more"));
    assertTrue(
        corrupt(parts.file(n + 1, deflated, new byte[0])).getMessage().contains("false length"));
  }

  @Test
  void aZlibStreamIsRejectedAndDataWithoutTheDictionaryReads() throws Exception {
    byte[] zlib = Compression.deflate(parts.block());
    corrupt(parts.file(parts.block().length, zlib, new byte[0]));
    java.util.zip.Deflater d = new java.util.zip.Deflater(6, true);
    d.setInput(parts.block());
    d.finish();
    byte[] buf = new byte[parts.block().length + 64];
    byte[] plain = Arrays.copyOf(buf, d.deflate(buf));
    d.end();
    // DEFLATE data made without the dictionary never refers to it: it reads the same
    byte[] same = parts.file(parts.block().length, plain, new byte[0]);
    SnapshotFile f = SnapshotFile.parse(same);
    assertEquals(SnapshotFile.parse(snapshot).classes(), f.classes());
  }

  @Test
  void bytesAfterTheLastSectionOrInsideTheBlockAreRejected() {
    byte[] deflated = Compression.deflate(parts.block(), Packed.DICTIONARY);
    CorruptSnapshotException e = corrupt(parts.file(parts.block().length, deflated, new byte[2]));
    assertTrue(
        e.getMessage().contains("2 unexpected bytes after the last section"), e.getMessage());
    byte[] longer = Arrays.copyOf(parts.block(), parts.block().length + 3);
    e = corrupt(parts.withBlock(longer).file());
    assertTrue(e.getMessage().contains("3 unexpected bytes at the end"), e.getMessage());
    assertTrue(e.getMessage().contains("(inflated)"), e.getMessage());
  }

  @Test
  void aClassNameOutOfInternalFormIsRejected() throws Exception {
    SnapshotFile f = SnapshotFile.parse(snapshot);
    Out table = new Out(true).u4(f.classes().size());
    for (org.codese.program.ClassEntry c : f.classes()) {
      Encoding.writeClass(table, c, false); // dotted, as format 8 writes it
    }
    byte[] rest = restAfterClassTable(f);
    byte[] block = new Out().raw(table.toByteArray()).raw(rest).toByteArray();
    CorruptSnapshotException e = corrupt(parts.withBlock(block).file());
    assertTrue(e.getMessage().contains("not in internal form"), e.getMessage());
    assertTrue(e.getMessage().contains("classes (inflated)"), e.getMessage());
  }

  @Test
  void aHostOutsideTheClassTableIsRejected() throws Exception {
    SnapshotFile f = SnapshotFile.parse(snapshot);
    byte[] block = parts.block().clone();
    int codeTable = block.length - restAfterClassTable(f).length;
    // the code table: count, then per file phase (u1), host (zigzag), length
    int host = codeTable + 1 + 1;
    block[host] = (byte) (2 * f.classes().size()); // zigzag of nClasses: one past the end
    CorruptSnapshotException e = corrupt(parts.withBlock(block).file());
    assertTrue(e.getMessage().contains("host class index"), e.getMessage());
  }

  /** The code table and class files of {@code f}, as the block holds them after the classes. */
  private static byte[] restAfterClassTable(SnapshotFile f) {
    Out code = new Out(true).u4(f.classFiles().size());
    for (int i = 0; i < f.classFiles().size(); i++) {
      code.u1(f.placements().get(i).phase().ordinal()).u4(f.placements().get(i).host());
      code.u4(f.classFiles().get(i).length);
    }
    for (byte[] c : f.classFiles()) {
      code.raw(c);
    }
    return code.toByteArray();
  }

  /**
   * Bytes of the inflated block changed one at a time, the block compressed again and the trailer
   * valid: the parser and the loader's checks (grammar, class files) answer with an {@link
   * IOException} or a restore, never anything else, and never more objects than the file allows.
   */
  @Test
  void changedBytesInsideTheBlockAreCaughtByTheChecksBehindIt() {
    List<String> violations = new ArrayList<>();
    byte[] block = parts.block();
    int stride = Math.max(1, block.length / 300);
    for (int at = 0; at < block.length; at += stride) {
      byte[] b = block.clone();
      b[at] ^= 0x5a;
      byte[] file = parts.withBlock(b).file();
      try {
        Codese.load(file, CodeseOptions.defaults().withAllowedClasses("org.codese.samples.**"))
            .restore();
      } catch (IOException e) {
        // refused: what a damaged snapshot must get
      } catch (RuntimeException | LinkageError e) {
        violations.add("byte " + at + ": " + e);
      }
    }
    assertEquals(List.of(), violations);
  }
}
