package org.codese.format;

import java.util.ArrayList;
import java.util.List;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Phase;
import org.codese.program.Placement;
import org.codese.program.Tape;

/**
 * Reads a snapshot in the packed form of format version {@link SnapshotFile#PACKED_VERSION} and
 * later, after {@link SnapshotFile#parse} checked its magic, version and trailer.
 *
 * <p>Layout after magic and version, every integer a zigzag variable-length integer: the header
 * (its length, then as in the compact form); the packed block (its length, the number of bytes it
 * inflates to, then raw DEFLATE data made with the preset dictionary {@link CodeDictionary} of the
 * class table, with class names in internal form, the code table (a count, then per class file its
 * phase, host and length) and the class files one after the other); the constants and the items
 * (each its length, then as in the compact form, the constants with ranges); last the trailer. The
 * inflated length is checked against what DEFLATE can make of the block's bytes before anything is
 * inflated, and the block must inflate to exactly that many bytes, all of them used: the dictionary
 * only spares bytes, the class files read are exactly the bytes that the grammar and trust checks
 * then see. Offsets that messages give for the class and code tables count from the start of the
 * inflated block.
 *
 * <p>Part of the restore path: no lambdas, no {@code String.format}, no regular expressions.
 */
final class Packed {
  private Packed() {}

  /**
   * @param bytes the whole snapshot
   * @param version its format version, {@link SnapshotFile#PACKED_VERSION} or later
   * @return the parsed snapshot
   * @throws CorruptSnapshotException if anything is damaged, truncated or out of range
   */
  static SnapshotFile decode(byte[] bytes, int version) throws CorruptSnapshotException {
    In walk = new In(bytes, 6, bytes.length - 4, true);
    walk.section("header");
    In head = walk.part(walk.count(1), "header");
    walk.section("code");
    int data = walk.count(1);
    int declared = walk.u4();
    if (declared < 0
        || declared > Compression.MAX_RATIO * data + Compression.MAX_RATIO
        || declared > SnapshotFile.MAX_CODE) {
      throw walk.corrupt(
          "the packed block declares "
              + declared
              + " bytes, which "
              + data
              + " bytes of DEFLATE data cannot inflate to (at most "
              + Compression.MAX_RATIO
              + " bytes of one)");
    }
    int at = walk.pos();
    walk.skip(data);
    walk.section("constants");
    In k = walk.part(walk.count(1), "constants");
    k.allowRanges((long) SnapshotFile.RANGE_RATIO * bytes.length);
    walk.section("items");
    In it = walk.part(walk.count(1), "items");
    if (walk.remaining() != 0) {
      throw walk.corrupt(walk.remaining() + " unexpected bytes after the last section");
    }
    String jdk = head.str();
    int[] header = SnapshotFile.readHeader(head, true, bytes.length, declared);
    byte[] block =
        Compression.inflate(
            bytes, at, data, declared, "code", 0, "the code section", CodeDictionary.BYTES);
    In p = new In(block, 0, block.length, true);
    p.section("classes (inflated)");
    List<ClassEntry> classes = SnapshotFile.readClasses(p, version, true);
    List<Constant> constants = SnapshotFile.readConstants(k, version, classes.size(), header[1]);
    p.section("code (inflated)");
    List<Placement> placements = new ArrayList<>();
    List<byte[]> files = readCode(p, classes.size(), placements);
    Tape items = ConstantCodec.readTape(it, header[1]);
    In[] parts = {head, k, it, p};
    for (In s : parts) {
      if (s.remaining() != 0) {
        throw s.corrupt(s.remaining() + " unexpected bytes at the end of the section");
      }
    }
    return new SnapshotFile(
        version,
        jdk,
        header[0],
        header[1],
        header[2],
        classes,
        constants,
        List.copyOf(files),
        List.copyOf(placements),
        items);
  }

  /**
   * The code table and the class files after it: per class file its phase (never before the one
   * before it), host (a class index or -1) and length, then the files.
   */
  private static List<byte[]> readCode(In p, int nClasses, List<Placement> placements)
      throws CorruptSnapshotException {
    int nFiles = p.count(3);
    int[] lengths = new int[nFiles];
    int lastPhase = 0;
    for (int i = 0; i < nFiles; i++) {
      lastPhase = SnapshotFile.phase(p, i, lastPhase);
      int host = p.index(Placement.CODESE, nClasses, "host class index");
      placements.add(new Placement(Phase.of(lastPhase), host));
      lengths[i] = p.count(1);
    }
    List<byte[]> files = new ArrayList<>(nFiles);
    for (int n : lengths) {
      files.add(p.raw(n));
    }
    return files;
  }
}
