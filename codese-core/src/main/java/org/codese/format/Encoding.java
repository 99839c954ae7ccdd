package org.codese.format;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.zip.CRC32C;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Placement;

/**
 * The writer half of {@link SnapshotFile}: a snapshot's file form in each format version, its class
 * entries and trailer as stream segments write them too, and the sizes of a file's sections. Apart
 * from {@link SnapshotFile} so that a cold load, which parses a file and never writes one, does not
 * load, parse and verify this code.
 */
final class Encoding {
  /** The bytes before a file's first section: the magic number and the version. */
  private static final int FIXED_HEAD = 6;

  /** The bytes of the checksum trailer. */
  private static final int TRAILER = 4;

  private static final String[] SECTIONS = {"header", "classes", "constants", "code", "items"};

  /**
   * The packed blocks of recent captures, by their class files, with the class table and the
   * placements they pack before the class files: as {@link #DEFLATED}, the block is made once per
   * shape, when the tables are equal too, and then neither encoded nor compressed again.
   */
  private static final Map<List<byte[]>, PackedBlock> PACKED =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * A packed block made before: what it was made from besides the class files, the length it
   * inflates to and its bytes.
   */
  private record PackedBlock(
      List<ClassEntry> classes, List<Placement> placements, int inflated, byte[] deflated) {}

  /**
   * The compressed class files of recent captures, by their list: {@code emit.CodeCache} hands
   * captures of the same shapes the same class files, whose lists are equal (a list of arrays is
   * equal to another holding the same arrays), so their zlib stream is made once. Held weakly, as
   * long as the cache holds the class files.
   */
  private static final Map<List<byte[]>, byte[]> DEFLATED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private Encoding() {}

  /**
   * @param b a well-formed file
   * @param version its format version
   * @return the payload size in bytes of each section of the file form, by name in file order:
   *     {@code header}, {@code classes}, {@code constants}, {@code code} and {@code items}; in the
   *     packed form (format version {@link SnapshotFile#PACKED_VERSION} on) {@code code} is the
   *     packed block, which holds the class table too, given as 0
   */
  static Map<String, Integer> sectionSizes(byte[] b, int version) {
    Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
    int[] at = {6};
    if (version >= SnapshotFile.PACKED_VERSION) {
      int header = varintAt(b, at);
      at[0] += header;
      sizes.put(SECTIONS[0], header);
      sizes.put(SECTIONS[1], 0);
      int code = varintAt(b, at);
      varintAt(b, at);
      at[0] += code;
      int constants = varintAt(b, at);
      at[0] += constants;
      sizes.put(SECTIONS[2], constants);
      sizes.put(SECTIONS[3], code);
      sizes.put(SECTIONS[4], varintAt(b, at));
    } else {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
      for (String name : SECTIONS) {
        int size = buf.getInt(at[0] + 1);
        sizes.put(name, size);
        at[0] += 9 + size;
      }
    }
    return Collections.unmodifiableMap(sizes);
  }

  /**
   * The section length at {@code at[0]} of a well-formed file, a zigzag variable-length integer of
   * a non-negative value; moves past it.
   */
  private static int varintAt(byte[] b, int[] at) {
    long z = 0;
    int shift = 0;
    int x;
    do {
      x = b[at[0]++];
      z |= (long) (x & 0x7F) << shift;
      shift += 7;
    } while ((x & 0x80) != 0);
    return (int) (z >>> 1);
  }

  /**
   * The file form of {@code snap}, in the form of its format snap.version().
   *
   * @param snap a snapshot made by capture or parsed
   * @return its bytes
   */
  static byte[] encode(SnapshotFile snap) {
    if (snap.version() >= SnapshotFile.PACKED_VERSION) {
      return encodePacked(snap);
    }
    boolean compact = snap.version() >= SnapshotFile.COMPACT_VERSION;
    Out file = new Out().u4(SnapshotFile.MAGIC).u2(snap.version());
    section(
        file,
        0,
        new Out(compact).str(snap.jdk()).u4(snap.firstId()).u4(snap.tableSize()).u4(snap.depth()));
    Out cls = new Out(compact).u4(snap.classes().size());
    for (ClassEntry c : snap.classes()) {
      writeClass(cls, c);
    }
    section(file, 1, cls);
    Out con = new Out(compact).u4(snap.constants().size());
    for (Constant c : snap.constants()) {
      ConstantWriter.write(con, c);
    }
    section(file, 2, con);
    Out code = new Out(compact).u4(snap.classFiles().size());
    if (compact) {
      writeCompactCode(snap, code);
    } else {
      for (int i = 0; i < snap.classFiles().size(); i++) {
        Placement p = snap.placements().get(i);
        code.u1(p.phase().ordinal()).u4(p.host()).bytes(snap.classFiles().get(i));
      }
    }
    section(file, 3, code);
    Out it = new Out(compact);
    ConstantWriter.writeTape(it, snap.items());
    section(file, 4, it);
    return withTrailer(file.toByteArray());
  }

  /**
   * The compact code section after its count: per class file its phase, host and length, then all
   * class files, one after the other, as one zlib stream (they share most of their constant pools).
   */
  private static void writeCompactCode(SnapshotFile snap, Out code) {
    for (int i = 0; i < snap.classFiles().size(); i++) {
      Placement p = snap.placements().get(i);
      code.u1(p.phase().ordinal()).u4(p.host()).u4(snap.classFiles().get(i).length);
    }
    byte[] deflated = DEFLATED.get(snap.classFiles());
    if (deflated == null) {
      int total = 0;
      for (byte[] f : snap.classFiles()) {
        total += f.length;
      }
      byte[] all = new byte[total];
      int at = 0;
      for (byte[] f : snap.classFiles()) {
        System.arraycopy(f, 0, all, at, f.length);
        at += f.length;
      }
      deflated = Compression.deflate(all);
      DEFLATED.put(snap.classFiles(), deflated);
    }
    code.raw(deflated);
  }

  /**
   * The packed form: magic, snap.version(), then the header, the packed block (class table, code
   * table and class files), the snap.constants() and the snap.items(), each after its length as a
   * variable-length integer (the packed block's also after the length it inflates to), then the
   * trailer.
   */
  private static byte[] encodePacked(SnapshotFile snap) {
    // the header outside the block: its table size and snap.depth() change from capture to capture
    // of
    // one shape, whose block is made once
    Out head =
        new Out(true).str(snap.jdk()).u4(snap.firstId()).u4(snap.tableSize()).u4(snap.depth());
    PackedBlock block = packed(snap);
    Out it = new Out(true);
    ConstantWriter.writeTape(it, snap.items());
    Out con = constants(snap, true);
    int deflated = block.deflated().length;
    int before =
        FIXED_HEAD
            + Out.varintSize(head.size())
            + head.size()
            + Out.varintSize(deflated)
            + Out.varintSize(block.inflated())
            + deflated;
    // at most the file's length (each section length takes at least a byte): what a reader allows
    long length = before + 1L + con.size() + 1 + it.size() + TRAILER;
    if (con.rangeElements() > SnapshotFile.RANGE_RATIO * length) {
      // rare: ranges that a reader would refuse, as from a crafted file
      con.recycle();
      con = constants(snap, false);
    }
    int total =
        before
            + Out.varintSize(con.size())
            + con.size()
            + Out.varintSize(it.size())
            + it.size()
            + TRAILER;
    Out file = new Out(false, total).u4(SnapshotFile.MAGIC).u2(snap.version()).sized(head);
    file.varint(deflated).varint(block.inflated()).raw(block.deflated());
    file.sized(con).sized(it);
    con.recycle(); // copied into the file: its buffer serves the next snapshot's constants
    return file.withTrailer();
  }

  /**
   * The size of the last packed snapshot's constants section written in this JVM: the next one's
   * buffer grows to about as many bytes at once ({@link Out#expecting}). Racy by design: any value
   * is a valid size.
   */
  private static volatile int lastConstantBytes;

  /** The snap.constants() section of the packed form, with or without ranges. */
  private static Out constants(SnapshotFile snap, boolean ranges) {
    int last = lastConstantBytes;
    // an eighth more than the last snapshot's: a graph captured again has often grown a little
    Out con =
        Out.reusing(true).expecting((int) Math.min(Integer.MAX_VALUE - 16, last + (last >>> 3)));
    if (ranges) {
      con.withRanges();
    }
    con.u4(snap.constants().size());
    for (Constant c : snap.constants()) {
      ConstantWriter.write(con, c);
    }
    lastConstantBytes = con.size();
    return con;
  }

  /**
   * The packed block of this snapshot's class table, code table and class files: one made before
   * from equal tables and the same class files, or made now.
   */
  private static PackedBlock packed(SnapshotFile snap) {
    PackedBlock known = PACKED.get(snap.classFiles());
    if (known != null
        && known.classes().equals(snap.classes())
        && known.placements().equals(snap.placements())) {
      return known;
    }
    Out tables = new Out(true).u4(snap.classes().size());
    for (ClassEntry c : snap.classes()) {
      writeClass(tables, c, true);
    }
    tables.u4(snap.classFiles().size());
    int total = 0;
    for (int i = 0; i < snap.classFiles().size(); i++) {
      Placement p = snap.placements().get(i);
      tables.u1(p.phase().ordinal()).u4(p.host()).u4(snap.classFiles().get(i).length);
      total += snap.classFiles().get(i).length;
    }
    byte[] all = tables.toByteArray();
    int at = all.length;
    all = Arrays.copyOf(all, at + total);
    for (byte[] f : snap.classFiles()) {
      System.arraycopy(f, 0, all, at, f.length);
      at += f.length;
    }
    PackedBlock made =
        new PackedBlock(
            List.copyOf(snap.classes()),
            List.copyOf(snap.placements()),
            all.length,
            Compression.deflate(all, Packed.DICTIONARY));
    PACKED.put(snap.classFiles(), made);
    return made;
  }

  /**
   * Appends the CRC-32C of {@code body} as the 4-byte big-endian trailer that snapshots and stream
   * segments end with.
   *
   * @param body everything before the trailer
   * @return the body followed by its checksum
   */
  static byte[] withTrailer(byte[] body) {
    return new Out(false, body.length + TRAILER).raw(body).withTrailer();
  }

  /**
   * Writes a class-table entry: name, flag (1 if it has a suid; {@value SnapshotFile#PROXY_FLAG}
   * for a proxy class), suid, fields, and for a proxy class its interfaces (u2 count, names).
   */
  static void writeClass(Out out, ClassEntry c) {
    writeClass(out, c, false);
  }

  /**
   * Writes a class-table entry as {@link #writeClass(Out, ClassEntry)} does, the class name in
   * internal form ({@code java/util/ArrayList}) if {@code internal}: as the packed form (format
   * version {@link SnapshotFile#PACKED_VERSION}) writes it, so that the name matches the class
   * files it is compressed with.
   */
  static void writeClass(Out out, ClassEntry c, boolean internal) {
    int flag = c.isProxy() ? SnapshotFile.PROXY_FLAG : c.hasSuid() ? 1 : 0;
    out.str(internal ? c.name().replace('.', '/') : c.name()).u1(flag).u8(c.suid());
    out.u4(c.fields().size());
    for (ClassEntry.FieldEntry f : c.fields()) {
      out.str(f.name()).str(f.descriptor()).u1(f.real() ? 1 : 0);
    }
    if (c.isProxy()) {
      out.u2(c.interfaces().size());
      for (String i : c.interfaces()) {
        out.str(i);
      }
    }
  }

  private static void section(Out file, int tag, Out payload) {
    byte[] p = payload.toByteArray();
    CRC32C crc = new CRC32C();
    crc.update(p);
    file.u1(tag).u4(p.length).u4((int) crc.getValue()).raw(p);
  }
}
