package org.codese.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Tape;

/**
 * The segments of an object stream in stream format 3: a snapshot without its container, in the
 * compact encoding of {@link Out} (zigzag variable-length integers, int arrays as differences),
 * whose class entries and generated classes may refer to those that earlier segments of the same
 * stream sent since the last reset instead of repeating them.
 *
 * <p>Layout: the number of objects the segment creates (its first id is the number of objects the
 * stream created before it, since the last reset), the depth; the class table: a count, then per
 * entry a reference {@code r}: 0 when a new entry follows (as in a snapshot), else entry {@code
 * r - 1} of the stream's class dictionary; the constants: a count, then each as in a snapshot; the
 * code: a count, then per class its phase ({@code u1}), its host (a class index or -1) and a
 * reference {@code r}: 0 when a new class file follows (a count and the bytes), else file {@code
 * r - 1} of the stream's code dictionary; the top-level items as a tape; last, a 4-byte CRC-32C of
 * all the bytes before it. Every new entry joins its dictionary, in order, once the whole segment
 * has been read; a reset empties both dictionaries at both ends.
 *
 * <p>A segment read this way is a {@link SnapshotFile} like any other: nothing in it is trusted
 * because an earlier segment sent part of it, and the loader checks all of it. The dictionaries
 * only spare the bytes. The first byte of a segment is never {@code 'C'} (an odd byte: the count
 * is a non-negative zigzag integer), so a segment is never mistaken for a signature envelope.
 */
public final class StreamSegments {
  private StreamSegments() {}

  /** A class file as a hash key, compared by content. */
  private static final class Bytes {
    final byte[] bytes;
    final int hash;

    Bytes(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes b && b.hash == hash && Arrays.equals(b.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** The writing end of one stream: encodes segments against what it sent before. */
  public static final class Encoder {
    private final Map<ClassEntry, Integer> classes = new HashMap<>();
    private final Map<Bytes, Integer> code = new HashMap<>();

    /**
     * Encodes {@code file}, a segment whose first id continues the stream, and adds its new class
     * entries and class files to the dictionaries.
     *
     * @param file the segment as captured
     * @return its stream form
     */
    public byte[] encode(SnapshotFile file) {
      Out out = new Out(true);
      out.u4(file.tableSize() - file.firstId()).u4(file.depth());
      List<ClassEntry> newClasses = new ArrayList<>();
      out.u4(file.classes().size());
      for (ClassEntry c : file.classes()) {
        Integer known = classes.get(c);
        if (known == null && newClasses.contains(c)) {
          known = classes.size() + newClasses.indexOf(c);
        }
        if (known == null) {
          out.u4(0);
          SnapshotFile.writeClass(out, c);
          newClasses.add(c);
        } else {
          out.u4(known + 1);
        }
      }
      out.u4(file.constants().size());
      for (Constant c : file.constants()) {
        ConstantCodec.write(out, c);
      }
      List<Bytes> newCode = new ArrayList<>();
      out.u4(file.classFiles().size());
      for (int i = 0; i < file.classFiles().size(); i++) {
        int[] p = file.placements().get(i);
        out.u1(p[0]).u4(p[1]);
        Bytes b = new Bytes(file.classFiles().get(i));
        Integer known = code.get(b);
        if (known == null && newCode.contains(b)) {
          known = code.size() + newCode.indexOf(b);
        }
        if (known == null) {
          out.u4(0).bytes(b.bytes);
          newCode.add(b);
        } else {
          out.u4(known + 1);
        }
      }
      ConstantCodec.writeTape(out, file.items());
      for (ClassEntry c : newClasses) {
        classes.put(c, classes.size());
      }
      for (Bytes b : newCode) {
        code.put(b, code.size());
      }
      byte[] body = out.toByteArray();
      CRC32C crc = new CRC32C();
      crc.update(body);
      return new Out().raw(body).fixed4((int) crc.getValue()).toByteArray();
    }

    /** Forgets every entry sent, as the reader does at a reset. */
    public void reset() {
      classes.clear();
      code.clear();
    }
  }

  /** The reading end of one stream: the entries earlier segments sent since the last reset. */
  public static final class Decoder {
    private final List<ClassEntry> classes = new ArrayList<>();
    private final List<byte[]> code = new ArrayList<>();

    /**
     * Reads and checks one segment, as {@link SnapshotFile#parse} checks a snapshot.
     *
     * @param bytes the segment's bytes (without signature envelope)
     * @param firstId the number of objects the stream created before it, since the last reset
     * @return the segment as a snapshot
     * @throws CorruptSnapshotException if anything is damaged, truncated or out of range,
     *     including a reference to a dictionary entry that was never sent
     */
    public SnapshotFile decode(byte[] bytes, int firstId) throws CorruptSnapshotException {
      In in = checked(bytes);
      int count = in.count(1);
      int depth = in.u4();
      if (depth < 0) {
        throw in.corrupt("negative depth " + depth);
      }
      if ((long) firstId + count > Integer.MAX_VALUE - 8) {
        throw in.corrupt("claims " + count + " objects after " + firstId + ": too many");
      }
      int tableSize = firstId + count;
      in.section("classes");
      int nClasses = in.count(1);
      List<ClassEntry> table = new ArrayList<>(nClasses);
      List<ClassEntry> newClasses = new ArrayList<>();
      for (int i = 0; i < nClasses; i++) {
        int r = in.index(0, classes.size() + newClasses.size() + 1, "class reference");
        if (r == 0) {
          ClassEntry c = SnapshotFile.readClass(in);
          newClasses.add(c);
          table.add(c);
        } else {
          table.add(r <= classes.size() ? classes.get(r - 1)
              : newClasses.get(r - 1 - classes.size()));
        }
      }
      in.section("constants");
      int nConst = in.count(1);
      List<Constant> constants = new ArrayList<>(nConst);
      for (int i = 0; i < nConst; i++) {
        constants.add(ConstantCodec.read(in, nClasses, tableSize));
      }
      in.section("code");
      int nFiles = in.count(3);
      List<byte[]> files = new ArrayList<>(nFiles);
      List<int[]> placements = new ArrayList<>(nFiles);
      List<byte[]> newCode = new ArrayList<>();
      int lastPhase = 0;
      for (int i = 0; i < nFiles; i++) {
        int phase = in.u1();
        if (phase >= Grammar.PHASES || phase < lastPhase) {
          throw in.corrupt("class " + i + " has phase " + phase + " after phase " + lastPhase);
        }
        lastPhase = phase;
        placements.add(new int[] {phase, in.index(-1, nClasses, "host class index")});
        int r = in.index(0, code.size() + newCode.size() + 1, "class file reference");
        if (r == 0) {
          byte[] b = in.bytes();
          newCode.add(b);
          files.add(b);
        } else {
          files.add(r <= code.size() ? code.get(r - 1) : newCode.get(r - 1 - code.size()));
        }
      }
      in.section("items");
      Tape items = ConstantCodec.readTape(in, tableSize);
      if (in.remaining() != 0) {
        throw in.corrupt(in.remaining() + " unexpected bytes at the end of the segment");
      }
      classes.addAll(newClasses);
      code.addAll(newCode);
      return new SnapshotFile("", firstId, tableSize, depth, List.copyOf(table),
          List.copyOf(constants), List.copyOf(files), List.copyOf(placements), items);
    }

    private static In checked(byte[] bytes) throws CorruptSnapshotException {
      if (bytes.length < 5) {
        throw new CorruptSnapshotException("segment", 0, "only " + bytes.length
            + " bytes: too short to be a stream segment");
      }
      In trailer = new In(bytes, bytes.length - 4, bytes.length);
      trailer.section("trailer");
      CRC32C crc = new CRC32C();
      crc.update(bytes, 0, bytes.length - 4);
      if (trailer.fixed4() != (int) crc.getValue()) {
        throw new CorruptSnapshotException("trailer", bytes.length - 4,
            "checksum mismatch: the segment was changed or truncated");
      }
      In in = new In(bytes, 0, bytes.length - 4, true);
      in.section("header");
      return in;
    }

    /** @return how many class entries and class files the dictionaries hold (for tests) */
    public int entries() {
      return classes.size() + code.size();
    }

    /** Forgets every entry, at a reset. */
    public void reset() {
      classes.clear();
      code.clear();
    }
  }
}
