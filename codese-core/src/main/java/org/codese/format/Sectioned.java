package org.codese.format;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Phase;
import org.codese.program.Placement;
import org.codese.program.Tape;

/**
 * The file form of format versions before {@link SnapshotFile#PACKED_VERSION}: the sections header,
 * classes, constants, code and items, each as tag (u1), length (u4), CRC-32C of the payload (u4)
 * and payload, the code section from {@link SnapshotFile#COMPACT_VERSION} on in the compact form.
 * Apart from {@link SnapshotFile} so that loading a snapshot of the current form does not load,
 * parse and verify the reader of the older ones.
 */
final class Sectioned {
  private static final String[] SECTIONS = {"header", "classes", "constants", "code", "items"};

  private Sectioned() {}

  /**
   * Parses the sections of a file whose magic, version and trailer {@link SnapshotFile#parse} has
   * checked.
   *
   * @param bytes the whole file
   * @param version its format version, before {@link SnapshotFile#PACKED_VERSION}
   * @return the parsed snapshot
   * @throws CorruptSnapshotException if anything is damaged, truncated or out of range
   */
  static SnapshotFile decode(byte[] bytes, int version) throws CorruptSnapshotException {
    In[] sec = new In[SECTIONS.length];
    boolean compact = version >= SnapshotFile.COMPACT_VERSION;
    In walk = new In(bytes, 6, bytes.length - 4);
    for (int i = 0; i < SECTIONS.length; i++) {
      walk.section(SECTIONS[i]);
      int tag = walk.u1();
      if (tag != i) {
        throw walk.corrupt("expected section " + SECTIONS[i] + " but found tag " + tag);
      }
      int len = walk.count(1);
      int sum = walk.u4();
      int start = walk.pos();
      walk.raw(len);
      CRC32C c = new CRC32C();
      c.update(bytes, start, len);
      if ((int) c.getValue() != sum) {
        throw new CorruptSnapshotException(SECTIONS[i], start, "section checksum mismatch");
      }
      sec[i] = new In(bytes, start, start + len, compact);
      sec[i].section(SECTIONS[i]);
    }
    if (walk.remaining() != 0) {
      throw walk.corrupt(walk.remaining() + " unexpected bytes after the last section");
    }
    return decode(version, sec);
  }

  /**
   * Reads the compact code section: the class files' phases, hosts and lengths, then their bytes as
   * one zlib stream, inflated only after the lengths are checked against what DEFLATE can make of
   * the bytes present. Hosts are checked against the class table by the caller.
   *
   * @return the number of bytes the class files inflated to
   */
  private static long readCompactCode(In code, List<byte[]> files, List<Placement> placements)
      throws CorruptSnapshotException {
    int nFiles = code.count(3);
    int[] lengths = new int[nFiles];
    long total = 0;
    int lastPhase = 0;
    for (int i = 0; i < nFiles; i++) {
      lastPhase = SnapshotFile.phase(code, i, lastPhase);
      int host = code.u4();
      if (host < Placement.CODESE) {
        throw code.corrupt("host class index " + host + " is negative");
      }
      placements.add(new Placement(Phase.of(lastPhase), host));
      lengths[i] = code.u4();
      if (lengths[i] < 0) {
        throw code.corrupt("class file " + i + " has a negative length " + lengths[i]);
      }
      total += lengths[i];
    }
    int data = code.remaining();
    if (total > Compression.MAX_RATIO * data + Compression.MAX_RATIO
        || total > SnapshotFile.MAX_CODE) {
      throw code.corrupt(
          "the class files declare "
              + total
              + " bytes, which "
              + data
              + " bytes of DEFLATE data cannot inflate to (at most "
              + Compression.MAX_RATIO
              + " bytes of one, and "
              + SnapshotFile.MAX_CODE
              + " in all)");
    }
    int at = code.pos();
    byte[] all =
        Inflating.inflate(
            code.raw(data), 0, data, (int) total, "code", at, "the code section", null);
    int from = 0;
    for (int n : lengths) {
      files.add(java.util.Arrays.copyOfRange(all, from, from + n));
      from += n;
    }
    return total;
  }

  private static SnapshotFile decode(int version, In[] sec) throws CorruptSnapshotException {
    boolean compact = version >= SnapshotFile.COMPACT_VERSION;
    List<byte[]> files = null;
    List<Placement> placements = null;
    long inflated = 0;
    if (compact) {
      // the code first: what it inflates to bounds the objects the header may claim
      files = new ArrayList<>();
      placements = new ArrayList<>();
      inflated = readCompactCode(sec[3], files, placements);
    }
    String jdk = sec[0].str();
    int[] header = SnapshotFile.readHeader(sec[0], compact, sec[0].fileLength(), inflated);
    List<ClassEntry> classes = SnapshotFile.readClasses(sec[1], version, false);
    int nClasses = classes.size();
    List<Constant> constants = SnapshotFile.readConstants(sec[2], version, nClasses, header[1]);
    if (!compact) {
      In code = sec[3];
      int nFiles = code.count(9);
      files = new ArrayList<>(nFiles);
      placements = new ArrayList<>(nFiles);
      int lastPhase = 0;
      for (int i = 0; i < nFiles; i++) {
        lastPhase = SnapshotFile.phase(code, i, lastPhase);
        placements.add(
            new Placement(
                Phase.of(lastPhase), code.index(Placement.CODESE, nClasses, "host class index")));
        files.add(code.bytes());
      }
    } else {
      checkHosts(sec[3], placements, nClasses);
    }
    Tape items = ConstantCodec.readTape(sec[4], header[1]);
    return SnapshotFile.assemble(
        version, jdk, header, classes, constants, files, placements, items, sec);
  }

  /** Checks the hosts of compact code, read before the class table, against its size. */
  private static void checkHosts(In code, List<Placement> placements, int nClasses)
      throws CorruptSnapshotException {
    for (Placement p : placements) {
      if (p.host() >= nClasses) {
        throw code.corrupt(
            "host class index " + p.host() + " is out of range [-1, " + nClasses + ")");
      }
    }
  }
}
