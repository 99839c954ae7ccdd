package org.codese.format;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Placement;
import org.codese.program.RuntimeContract;
import org.codese.program.Tape;

/**
 * A snapshot in its file form, and its parsed content.
 *
 * <p>Layout (big-endian): magic {@code "CDSE"}, format version (u2), then, up to format 8, the
 * sections header, classes, constants, code and items, each as tag (u1), length (u4), CRC-32C of
 * the payload (u4) and payload; from format {@link #PACKED_VERSION} on, the header, the packed
 * block (class table, code table and class files as one DEFLATE stream with a preset dictionary),
 * the constants and the items, each after its length ({@link Packed}); last, a CRC-32C over
 * everything before it. {@link #parse} checks the magic, the version, every checksum and every
 * length and index before returning, so a damaged file is reported as a {@link
 * CorruptSnapshotException} naming the section and byte offset.
 */
public final class SnapshotFile {
  /** The magic number, {@code "CDSE"} in ASCII. */
  public static final int MAGIC = 0x43445345;

  /**
   * The magic number of a Codese object stream, {@code "CDSS"} in ASCII ({@code
   * load.StreamReader.STREAM_MAGIC}): recognised here to say what such data is.
   */
  public static final int STREAM_MAGIC = 0x43445353;

  /** The first two bytes of JDK serialization data, {@code ObjectStreamConstants.STREAM_MAGIC}. */
  public static final int JDK_MAGIC = 0xACED;

  /**
   * The format version this library writes. Versions 2 and 3 changed only the code: version 2's
   * allocations call {@code Grammar.ALLOCATE_METHOD} where version 1 code calls {@code
   * Constructor.newInstance}; version 3's code names only the package {@code org.codese.runtime} of
   * Codese where earlier versions named the loader's ({@code RuntimeContract}).
   */
  public static final int VERSION = RuntimeContract.NEWEST_VERSION;

  /** The oldest format version this library reads. */
  public static final int OLDEST_VERSION = 1;

  /**
   * Every object a snapshot creates costs at least this many bytes of it (an {@code int} id in a
   * loop's data, or more as straight-line code), which bounds the table size a file may claim.
   */
  static final int MIN_BYTES_PER_OBJECT = 4;

  /**
   * The first format version in the compact form: every section's integers as variable-length
   * integers and its strings as {@link Out} writes them in compact mode (the form of stream
   * segments), {@code int} and {@code long} arrays as zigzag differences, and the class files of
   * the code section as one zlib stream. Snapshots shrink to about half (issue 9).
   */
  public static final int COMPACT_VERSION = Grammar.COLLECTION_VERSION;

  /**
   * In the compact form, every object a snapshot creates costs at least one byte of it, counting
   * the class files as inflated: an id in a loop's data is a variable-length integer, straight-line
   * code more.
   */
  static final int MIN_COMPACT_BYTES_PER_OBJECT = 1;

  /**
   * The first format version in the packed form ({@link Grammar#PACKED_VERSION}): the compact
   * encoding of {@link #COMPACT_VERSION}, but the class table, the code table and the class files
   * travel together as one raw DEFLATE stream with the preset dictionary {@link Packed#DICTIONARY}
   * (the class files repeat the names of the class table), the sections carry a variable-length
   * integer length instead of tag, length and checksum (the trailer's checksum covers every byte),
   * and {@code int} arrays that are arithmetic progressions are ranges ({@code
   * ConstantCodec.RANGE}).
   */
  public static final int PACKED_VERSION = Grammar.PACKED_VERSION;

  /**
   * In the packed form, the ranges of a snapshot ({@code int} arrays written as first element and
   * step) make at most this many elements per byte of the file: a bounded amplification, as
   * DEFLATE's 1032 to 1 for the class files, where every other array element costs at least a byte.
   */
  static final int RANGE_RATIO = 16;

  /** The most bytes the class files of a compact snapshot may inflate to: a JVM array's limit. */
  static final int MAX_CODE = Integer.MAX_VALUE - 8;

  private final int version;
  private final String jdk;
  private final int firstId;
  private final int tableSize;
  private final int depth;
  private final List<ClassEntry> classes;
  private final List<Constant> constants;
  private final List<byte[]> classFiles;
  private final List<Placement> placements;
  private final Tape items;
  private byte[] bytes;

  /**
   * @param version the format version, {@link #OLDEST_VERSION} to {@link #VERSION}: which form of
   *     the restore grammar the code follows
   * @param jdk the version of the JDK that captured the snapshot
   * @param firstId the first table index the snapshot fills
   * @param tableSize the table size it needs
   * @param depth the graph's depth as recorded at capture
   * @param classes the class table
   * @param constants the constant table
   * @param classFiles the generated classes
   * @param placements per class, {@code {phase, host}} as in {@code Emitted}
   * @param items the top-level items
   */
  public SnapshotFile(
      int version,
      String jdk,
      int firstId,
      int tableSize,
      int depth,
      List<ClassEntry> classes,
      List<Constant> constants,
      List<byte[]> classFiles,
      List<Placement> placements,
      Tape items) {
    this.version = version;
    this.jdk = jdk;
    this.firstId = firstId;
    this.tableSize = tableSize;
    this.depth = depth;
    this.classes = classes;
    this.constants = constants;
    this.classFiles = classFiles;
    this.placements = placements;
    this.items = items;
  }

  /**
   * A snapshot of the current format {@link #VERSION}; the parameters as {@link #SnapshotFile(int,
   * String, int, int, int, List, List, List, List, Tape)} takes them.
   */
  public SnapshotFile(
      String jdk,
      int firstId,
      int tableSize,
      int depth,
      List<ClassEntry> classes,
      List<Constant> constants,
      List<byte[]> classFiles,
      List<Placement> placements,
      Tape items) {
    this(
        VERSION, jdk, firstId, tableSize, depth, classes, constants, classFiles, placements, items);
  }

  /**
   * @return the format version: which form of the restore grammar the code follows
   */
  public int version() {
    return version;
  }

  /**
   * @return the version of the JDK that captured the snapshot
   */
  public String jdk() {
    return jdk;
  }

  /**
   * @return the first table index this snapshot fills
   */
  public int firstId() {
    return firstId;
  }

  /**
   * @return the size of the restore table
   */
  public int tableSize() {
    return tableSize;
  }

  /**
   * @return the graph's depth as recorded at capture (not verifiable: a bound for filters)
   */
  public int depth() {
    return depth;
  }

  /**
   * @return the class table
   */
  public List<ClassEntry> classes() {
    return classes;
  }

  /**
   * @return the constant table
   */
  public List<Constant> constants() {
    return constants;
  }

  /**
   * @return the generated class files, in execution order
   */
  public List<byte[]> classFiles() {
    return classFiles;
  }

  /**
   * @return per generated class, {@code {phase, host}}: phase 0 create, 1 set, 2 finish; host the
   *     class-table index of the class whose nest it joins, or -1
   */
  public List<Placement> placements() {
    return placements;
  }

  /**
   * @return the top-level items
   */
  public Tape items() {
    return items;
  }

  /**
   * @return the payload size in bytes of each section of the file form, by name in file order:
   *     {@code header}, {@code classes}, {@code constants}, {@code code} and {@code items}; in the
   *     packed form (format version {@link #PACKED_VERSION} on) {@code code} is the packed block,
   *     which holds the class table too, given as 0
   */
  public Map<String, Integer> sectionSizes() {
    return Encoding.sectionSizes(bytes(), version);
  }

  /**
   * @return the file form; computed once
   */
  public synchronized byte[] bytes() {
    if (bytes == null) {
      bytes = Encoding.encode(this);
    }
    return bytes;
  }

  /**
   * Checks the trailer {@link Encoding#withTrailer} appended. The caller has checked that {@code
   * bytes} holds at least the trailer.
   *
   * @param bytes a whole snapshot or segment
   * @param what what it is, for the message ("file", "segment")
   * @throws CorruptSnapshotException if the checksum does not match
   */
  static void checkTrailer(byte[] bytes, String what) throws CorruptSnapshotException {
    In trailer = new In(bytes, bytes.length - 4, bytes.length);
    trailer.section("trailer");
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    if (trailer.fixed4() != (int) crc.getValue()) {
      throw new CorruptSnapshotException(
          "trailer",
          bytes.length - 4,
          "checksum mismatch: the " + what + " was changed or truncated");
    }
  }

  /** The flag byte of a class entry of a dynamic proxy class, from format version 7 on. */
  static final int PROXY_FLAG = 2;

  /**
   * Reads a class-table entry as {@link Encoding#writeClass} writes it.
   *
   * @throws CorruptSnapshotException if it is truncated, names a field twice (a class has one
   *     serializable field of each name, and the loader checks every field an entry lists: an entry
   *     that a stream segment refers to for a byte must not cost more than its real fields)
   */
  static ClassEntry readClass(In c, int version) throws CorruptSnapshotException {
    return readClass(c, version, false);
  }

  /**
   * Reads a class-table entry as {@link Encoding#writeClass(Out, ClassEntry, boolean)} writes it.
   *
   * @param internal whether the name is in internal form, as the packed form writes it
   * @throws CorruptSnapshotException as {@link #readClass(In, int)}, and if {@code internal} and
   *     the name has a dot
   */
  static ClassEntry readClass(In c, int version, boolean internal) throws CorruptSnapshotException {
    String name = c.str();
    if (internal) {
      if (name.indexOf('.') >= 0) {
        throw c.corrupt(
            "class entry "
                + name
                + " is not in internal form (with / for .), which format version "
                + version
                + " writes; the snapshot is damaged or crafted");
      }
      name = name.replace('/', '.');
    }
    int flag = c.u1();
    if (flag == PROXY_FLAG) {
      if (version < Grammar.PROXY_VERSION) {
        throw c.corrupt(
            "class entry "
                + name
                + " is a dynamic proxy class, which format version "
                + version
                + " cannot hold (they came with version "
                + Grammar.PROXY_VERSION
                + "); the snapshot is damaged or crafted");
      }
      return readProxy(c, name);
    }
    boolean hasSuid = flag != 0;
    long suid = c.u8();
    int nf = c.count(9);
    List<ClassEntry.FieldEntry> fields = new ArrayList<>(nf);
    Set<String> names = new HashSet<>();
    for (int f = 0; f < nf; f++) {
      ClassEntry.FieldEntry e = new ClassEntry.FieldEntry(c.str(), c.str(), c.u1() != 0);
      if (!names.add(e.name())) {
        throw c.corrupt(
            "class entry "
                + name
                + " lists field "
                + e.name()
                + " twice; the"
                + " snapshot is damaged or crafted");
      }
      fields.add(e);
    }
    return new ClassEntry(name, List.copyOf(fields), suid, hasSuid);
  }

  /**
   * The rest of a proxy class's entry: no suid, no fields, none of its interfaces twice (as {@code
   * Proxy.getProxyClass} requires), at most 65,535 of them by the u2 count (the JDK's limit).
   */
  private static ClassEntry readProxy(In c, String name) throws CorruptSnapshotException {
    if (c.u8() != 0 || c.u4() != 0) {
      throw c.corrupt(
          "proxy class entry "
              + name
              + " has a serialVersionUID or fields; a proxy class has neither. The snapshot is"
              + " damaged or crafted");
    }
    int n = c.u2();
    List<String> interfaces = new ArrayList<>(Math.min(n, c.remaining()));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      String in = c.str();
      if (!seen.add(in)) {
        throw c.corrupt(
            "proxy class entry " + name + " lists interface " + in + " twice; damaged or crafted");
      }
      interfaces.add(in);
    }
    return ClassEntry.proxy(name, interfaces);
  }

  /**
   * Recognises data that is not a snapshot but another format this library reads elsewhere: a
   * Codese object stream or JDK serialization data.
   *
   * @param bytes data given as a snapshot
   * @return the exception that says what the data is and what reads it, or {@code null} if it is
   *     neither of those
   */
  public static CorruptSnapshotException otherKind(byte[] bytes) {
    if (bytes.length >= 4
        && ((bytes[0] & 0xFF) << 24
                | (bytes[1] & 0xFF) << 16
                | (bytes[2] & 0xFF) << 8
                | (bytes[3] & 0xFF))
            == STREAM_MAGIC) {
      return new CorruptSnapshotException(
          "header",
          0,
          "not a Codese snapshot but a Codese object stream (magic CDSS: written by"
              + " CodeseOutputStream or codese convert; file extension .cdss)",
          "read it with CodeseInputStream. Codese.load, read and fromBytes read snapshots"
              + " (.cdse), which Codese.write and toBytes write");
    }
    if (bytes.length >= 2 && ((bytes[0] & 0xFF) << 8 | (bytes[1] & 0xFF)) == JDK_MAGIC) {
      return new CorruptSnapshotException(
          "header",
          0,
          "not a Codese snapshot but JDK serialization data (magic 0xACED: written by"
              + " ObjectOutputStream; file extension .ser)",
          "read it with CodeseInputStream, which reads JDK data, or with ObjectInputStream;"
              + " codese convert turns it into a Codese object stream (.cdss), which"
              + " CodeseInputStream reads too");
    }
    return null;
  }

  /**
   * Parses and checks a snapshot.
   *
   * @param bytes the file form
   * @return the parsed snapshot
   * @throws CorruptSnapshotException if anything is damaged, truncated or out of range
   */
  public static SnapshotFile parse(byte[] bytes) throws CorruptSnapshotException {
    CorruptSnapshotException other = otherKind(bytes);
    if (other != null) {
      throw other;
    }
    In head = new In(bytes, 0, bytes.length);
    if (bytes.length < 10) {
      throw head.corrupt("only " + bytes.length + " bytes: too short to be a snapshot");
    }
    if (head.u4() != MAGIC) {
      throw new CorruptSnapshotException("header", 0, "not a Codese snapshot (bad magic number)");
    }
    int version = head.u2();
    if (version < OLDEST_VERSION || version > VERSION) {
      throw new CorruptSnapshotException(
          "header",
          4,
          "format version "
              + version
              + " is not supported; this library reads versions "
              + OLDEST_VERSION
              + " to "
              + VERSION);
    }
    checkTrailer(bytes, "file");
    if (version >= PACKED_VERSION) {
      SnapshotFile file = Packed.decode(bytes, version);
      file.bytes = bytes;
      return file;
    }
    SnapshotFile file = Sectioned.decode(bytes, version);
    file.bytes = bytes;
    return file;
  }

  /** A class file's phase, which must not come before the phase of the one before it. */
  static int phase(In code, int i, int lastPhase) throws CorruptSnapshotException {
    int phase = code.u1();
    if (phase >= Grammar.PHASES || phase < lastPhase) {
      throw code.corrupt("class " + i + " has phase " + phase + " after phase " + lastPhase);
    }
    return phase;
  }

  /**
   * The decoded file, once every part it was read from is used up.
   *
   * @param header first id, table size and depth ({@link #readHeader})
   * @param parts the readers of the file's parts, each of which must be at its end
   * @throws CorruptSnapshotException naming the first part with bytes left over
   */
  static SnapshotFile assemble(
      int version,
      String jdk,
      int[] header,
      List<ClassEntry> classes,
      List<Constant> constants,
      List<byte[]> files,
      List<Placement> placements,
      Tape items,
      In... parts)
      throws CorruptSnapshotException {
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
   * Reads the class table: a count, then the entries, their names in internal form if {@code
   * internal}.
   */
  static List<ClassEntry> readClasses(In c, int version, boolean internal)
      throws CorruptSnapshotException {
    int nClasses = c.count(4);
    List<ClassEntry> classes = new ArrayList<>(nClasses);
    for (int i = 0; i < nClasses; i++) {
      classes.add(readClass(c, version, internal));
    }
    return List.copyOf(classes);
  }

  /** Reads the constant table: a count, then the constants. */
  static List<Constant> readConstants(In k, int version, int nClasses, int tableSize)
      throws CorruptSnapshotException {
    int nConst = k.count(1);
    List<Constant> constants = new ArrayList<>(nConst);
    for (int i = 0; i < nConst; i++) {
      constants.add(ConstantCodec.read(k, version, nClasses, tableSize));
    }
    return List.copyOf(constants);
  }

  /**
   * Reads and checks the numbers of a header section after its JDK string: the table range the
   * snapshot fills and the graph's depth. An array, not a class: the restore path loads no class a
   * header would cost.
   *
   * @param compact whether the snapshot is in the compact form
   * @param fileLength how many bytes the snapshot has
   * @param inflated how many bytes its compressed parts inflated to (0 if it has none)
   * @return {@code {firstId, tableSize, depth}}
   * @throws CorruptSnapshotException if the depth is negative, the table range reversed, or it
   *     claims more objects than a snapshot of its bytes can create
   */
  static int[] readHeader(In h, boolean compact, long fileLength, long inflated)
      throws CorruptSnapshotException {
    int firstId = h.u4();
    int tableSize = h.u4();
    int depth = h.u4();
    if (depth < 0) {
      throw h.corrupt("negative depth " + depth);
    }
    if (firstId < 0 || tableSize < firstId) {
      throw h.corrupt("bad table range [" + firstId + ", " + tableSize + ")");
    }
    long maxObjects =
        compact
            ? (fileLength + inflated) / MIN_COMPACT_BYTES_PER_OBJECT
            : fileLength / MIN_BYTES_PER_OBJECT;
    if (tableSize - firstId > maxObjects) {
      throw h.corrupt(
          "claims "
              + (tableSize - firstId)
              + " objects, but a snapshot of "
              + fileLength
              + " bytes"
              + (compact ? " and " + inflated + " bytes of inflated class files" : "")
              + " can create at most "
              + maxObjects);
    }
    return new int[] {firstId, tableSize, depth};
  }
}
