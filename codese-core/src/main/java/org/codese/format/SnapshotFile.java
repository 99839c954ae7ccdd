package org.codese.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.zip.CRC32C;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Phase;
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

  /** The bytes before a file's first section: the magic number and the version. */
  private static final int FIXED_HEAD = 6;

  /** The bytes of the checksum trailer. */
  private static final int TRAILER = 4;

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

  /** The most bytes the class files of a compact snapshot may inflate to: a JVM array's limit. */
  static final int MAX_CODE = Integer.MAX_VALUE - 8;

  private static final String[] SECTIONS = {"header", "classes", "constants", "code", "items"};

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
    byte[] b = bytes();
    Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
    int[] at = {6};
    if (version >= PACKED_VERSION) {
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
   * @return the file form; computed once
   */
  public synchronized byte[] bytes() {
    if (bytes == null) {
      bytes = encode();
    }
    return bytes;
  }

  private byte[] encode() {
    if (version >= PACKED_VERSION) {
      return encodePacked();
    }
    boolean compact = version >= COMPACT_VERSION;
    Out file = new Out().u4(MAGIC).u2(version);
    section(file, 0, new Out(compact).str(jdk).u4(firstId).u4(tableSize).u4(depth));
    Out cls = new Out(compact).u4(classes.size());
    for (ClassEntry c : classes) {
      writeClass(cls, c);
    }
    section(file, 1, cls);
    Out con = new Out(compact).u4(constants.size());
    for (Constant c : constants) {
      ConstantCodec.write(con, c);
    }
    section(file, 2, con);
    Out code = new Out(compact).u4(classFiles.size());
    if (compact) {
      writeCompactCode(code);
    } else {
      for (int i = 0; i < classFiles.size(); i++) {
        Placement p = placements.get(i);
        code.u1(p.phase().ordinal()).u4(p.host()).bytes(classFiles.get(i));
      }
    }
    section(file, 3, code);
    Out it = new Out(compact);
    ConstantCodec.writeTape(it, items);
    section(file, 4, it);
    return withTrailer(file.toByteArray());
  }

  /**
   * The compact code section after its count: per class file its phase, host and length, then all
   * class files, one after the other, as one zlib stream (they share most of their constant pools).
   */
  private void writeCompactCode(Out code) {
    for (int i = 0; i < classFiles.size(); i++) {
      Placement p = placements.get(i);
      code.u1(p.phase().ordinal()).u4(p.host()).u4(classFiles.get(i).length);
    }
    byte[] deflated = DEFLATED.get(classFiles);
    if (deflated == null) {
      int total = 0;
      for (byte[] f : classFiles) {
        total += f.length;
      }
      byte[] all = new byte[total];
      int at = 0;
      for (byte[] f : classFiles) {
        System.arraycopy(f, 0, all, at, f.length);
        at += f.length;
      }
      deflated = Compression.deflate(all);
      DEFLATED.put(classFiles, deflated);
    }
    code.raw(deflated);
  }

  /**
   * The packed form: magic, version, then the header, the packed block (class table, code table and
   * class files), the constants and the items, each after its length as a variable-length integer
   * (the packed block's also after the length it inflates to), then the trailer.
   */
  private byte[] encodePacked() {
    // the header outside the block: its table size and depth change from capture to capture of
    // one shape, whose block is made once
    Out head = new Out(true).str(jdk).u4(firstId).u4(tableSize).u4(depth);
    PackedBlock block = packed();
    Out it = new Out(true);
    ConstantCodec.writeTape(it, items);
    Out con = constants(true);
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
    if (con.rangeElements() > RANGE_RATIO * length) {
      con = constants(false); // rare: ranges that a reader would refuse, as from a crafted file
    }
    int total =
        before
            + Out.varintSize(con.size())
            + con.size()
            + Out.varintSize(it.size())
            + it.size()
            + TRAILER;
    Out file = new Out(false, total).u4(MAGIC).u2(version).sized(head);
    file.varint(deflated).varint(block.inflated()).raw(block.deflated());
    return file.sized(con).sized(it).withTrailer();
  }

  /** The constants section of the packed form, with or without ranges. */
  private Out constants(boolean ranges) {
    Out con = new Out(true);
    if (ranges) {
      con.withRanges();
    }
    con.u4(constants.size());
    for (Constant c : constants) {
      ConstantCodec.write(con, c);
    }
    return con;
  }

  /**
   * The packed block of this snapshot's class table, code table and class files: one made before
   * from equal tables and the same class files, or made now.
   */
  private PackedBlock packed() {
    PackedBlock known = PACKED.get(classFiles);
    if (known != null && known.classes().equals(classes) && known.placements().equals(placements)) {
      return known;
    }
    Out tables = new Out(true).u4(classes.size());
    for (ClassEntry c : classes) {
      writeClass(tables, c, true);
    }
    tables.u4(classFiles.size());
    int total = 0;
    for (int i = 0; i < classFiles.size(); i++) {
      Placement p = placements.get(i);
      tables.u1(p.phase().ordinal()).u4(p.host()).u4(classFiles.get(i).length);
      total += classFiles.get(i).length;
    }
    byte[] all = tables.toByteArray();
    int at = all.length;
    all = Arrays.copyOf(all, at + total);
    for (byte[] f : classFiles) {
      System.arraycopy(f, 0, all, at, f.length);
      at += f.length;
    }
    PackedBlock made =
        new PackedBlock(
            List.copyOf(classes),
            List.copyOf(placements),
            all.length,
            Compression.deflate(all, Packed.DICTIONARY));
    PACKED.put(classFiles, made);
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
   * Checks the trailer {@link #withTrailer} appended. The caller has checked that {@code bytes}
   * holds at least the trailer.
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
  private static final int PROXY_FLAG = 2;

  /**
   * Writes a class-table entry: name, flag (1 if it has a suid; {@value #PROXY_FLAG} for a proxy
   * class), suid, fields, and for a proxy class its interfaces (u2 count, names).
   */
  static void writeClass(Out out, ClassEntry c) {
    writeClass(out, c, false);
  }

  /**
   * Writes a class-table entry as {@link #writeClass(Out, ClassEntry)} does, the class name in
   * internal form ({@code java/util/ArrayList}) if {@code internal}: as the packed form (format
   * version {@link #PACKED_VERSION}) writes it, so that the name matches the class files it is
   * compressed with.
   */
  static void writeClass(Out out, ClassEntry c, boolean internal) {
    int flag = c.isProxy() ? PROXY_FLAG : c.hasSuid() ? 1 : 0;
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

  /**
   * Reads a class-table entry as {@link #writeClass} writes it.
   *
   * @throws CorruptSnapshotException if it is truncated, names a field twice (a class has one
   *     serializable field of each name, and the loader checks every field an entry lists: an entry
   *     that a stream segment refers to for a byte must not cost more than its real fields)
   */
  static ClassEntry readClass(In c, int version) throws CorruptSnapshotException {
    return readClass(c, version, false);
  }

  /**
   * Reads a class-table entry as {@link #writeClass(Out, ClassEntry, boolean)} writes it.
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

  private static void section(Out file, int tag, Out payload) {
    byte[] p = payload.toByteArray();
    CRC32C crc = new CRC32C();
    crc.update(p);
    file.u1(tag).u4(p.length).u4((int) crc.getValue()).raw(p);
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
    In[] sec = new In[SECTIONS.length];
    boolean compact = version >= COMPACT_VERSION;
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
    SnapshotFile file = decode(version, sec);
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
      lastPhase = phase(code, i, lastPhase);
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
    if (total > Compression.MAX_RATIO * data + Compression.MAX_RATIO || total > MAX_CODE) {
      throw code.corrupt(
          "the class files declare "
              + total
              + " bytes, which "
              + data
              + " bytes of DEFLATE data cannot inflate to (at most "
              + Compression.MAX_RATIO
              + " bytes of one, and "
              + MAX_CODE
              + " in all)");
    }
    int at = code.pos();
    byte[] all =
        Compression.inflate(
            code.raw(data), 0, data, (int) total, "code", at, "the code section", null);
    int from = 0;
    for (int n : lengths) {
      files.add(java.util.Arrays.copyOfRange(all, from, from + n));
      from += n;
    }
    return total;
  }

  private static SnapshotFile decode(int version, In[] sec) throws CorruptSnapshotException {
    boolean compact = version >= COMPACT_VERSION;
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
    int[] header = readHeader(sec[0], compact, sec[0].fileLength(), inflated);
    List<ClassEntry> classes = readClasses(sec[1], version, false);
    int nClasses = classes.size();
    List<Constant> constants = readConstants(sec[2], version, nClasses, header[1]);
    if (!compact) {
      In code = sec[3];
      int nFiles = code.count(9);
      files = new ArrayList<>(nFiles);
      placements = new ArrayList<>(nFiles);
      int lastPhase = 0;
      for (int i = 0; i < nFiles; i++) {
        lastPhase = phase(code, i, lastPhase);
        placements.add(
            new Placement(
                Phase.of(lastPhase), code.index(Placement.CODESE, nClasses, "host class index")));
        files.add(code.bytes());
      }
    } else {
      checkHosts(sec[3], placements, nClasses);
    }
    Tape items = ConstantCodec.readTape(sec[4], header[1]);
    return assemble(version, jdk, header, classes, constants, files, placements, items, sec);
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

  /** Checks the hosts of compact code, read before the class table, against its size. */
  static void checkHosts(In code, List<Placement> placements, int nClasses)
      throws CorruptSnapshotException {
    for (Placement p : placements) {
      if (p.host() >= nClasses) {
        throw code.corrupt(
            "host class index " + p.host() + " is out of range [-1, " + nClasses + ")");
      }
    }
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
