package org.codese.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassDescriptor;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Phase;
import org.codese.program.Placement;
import org.codese.program.Tape;

/**
 * The segments of an object stream in stream format 3: a snapshot without its container, in the
 * compact encoding of {@link Out} (zigzag variable-length integers, int arrays as differences),
 * whose class entries and generated classes may refer to those that earlier segments of the same
 * stream sent since the last reset instead of repeating them.
 *
 * <p>Layout: the number of objects the segment creates (its first id is the number of objects the
 * stream created before it, since the last reset), the depth (from stream format 5, shifted left by
 * one, its low bit set when class descriptors follow the items), a shape reference {@code s}, then
 * the parts below if {@code s} is 0; if {@code s > 0}, the segment has the class table, the
 * symbolic constants (at the same places) and the code of the segment that made shape {@code s -
 * 1}, and only its data constants (arrays and texts of values and ids, hooks) follow, in order. The
 * parts: the class table: a count, then per entry a reference {@code r}: 0 when a new entry follows
 * (as in a snapshot), else entry {@code r - 1} of the stream's class dictionary; the constants: a
 * count, then each as in a snapshot, or, for a constant that names something (class, enum constant,
 * allocator, setter, array maker, descriptor) and that an earlier segment sent with the same
 * encoding, tag 0 and its index in the stream's constant dictionary (the value decoded then, its
 * class index checked again); the code: a count, then per class its phase ({@code u1}), its host (a
 * class index or -1) and a reference {@code r}: 0 when a new class file follows (a count and the
 * bytes), else file {@code r - 1} of the stream's code dictionary. Then, in both forms, the
 * top-level items as a tape; from stream format 5, if the depth's low bit says so, the class
 * descriptors the writer wrote for the segment ({@link ClassDescriptor}: a count, then per
 * descriptor its form and its annotation as byte arrays); last, a 4-byte CRC-32C of all the bytes
 * before it. Every new entry joins its dictionary, in order, once the whole segment has been read;
 * then the segment's shape (its class, constant and code dictionary indices, with the places of its
 * data constants) joins the shape dictionary if no earlier segment had it. A reset empties every
 * dictionary at both ends.
 *
 * <p>What a stream's segments refer to is charged to its {@link ReuseBudget}, at both ends: the
 * reader checks and runs again what a segment refers to, so references may weigh at most a fixed
 * allowance plus a multiple of the bytes of the stream's segments; the writer sends a segment's
 * parts again rather than go over it, and the reader refuses a segment that does.
 *
 * <p>A segment read this way is a {@link SnapshotFile} like any other: nothing in it is trusted
 * because an earlier segment sent part of it, and the loader checks all of it. The dictionaries
 * only spare the bytes. The first byte of a segment is never {@code 'C'} (an odd byte: the count is
 * a non-negative zigzag integer), so a segment is never mistaken for a signature envelope.
 */
public final class StreamSegments {
  /** The tag of a reference to a symbolic constant an earlier segment sent; no constant has it. */
  static final int DICTIONARY_CONSTANT = 0;

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

  /**
   * Whether {@code c} names something rather than carrying data: such constants join the stream's
   * constant dictionary (data would make it grow with every segment).
   */
  static boolean symbolic(Constant c) {
    return !(c instanceof Constant.PrimArray
        || c instanceof Constant.Text
        || c instanceof Constant.Texts
        || c instanceof Constant.Hook);
  }

  /**
   * An int array as a hash key, compared by content: a segment's shape. Comparable, so that keys
   * whose hashes collide cost a logarithmic, not a linear, look-up: the stream chooses the indices,
   * and {@link Arrays#hashCode(int[])} collides at will (a shape costs a dozen bytes).
   */
  private static final class Ints implements Comparable<Ints> {
    final int[] v;
    final int hash;

    /**
     * Keys of the same hash but other content this one was compared with: the cost of collisions.
     */
    int collisions;

    Ints(int[] v) {
      this.v = v;
      this.hash = Arrays.hashCode(v);
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Ints b) || b.hash != hash) {
        return false;
      }
      if (Arrays.equals(b.v, v)) {
        return true;
      }
      collisions++;
      return false;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public int compareTo(Ints o) {
      return Arrays.compare(v, o.v);
    }
  }

  /**
   * A segment's shape: class count and class dictionary indices, constant count and per constant
   * its constant dictionary index or -1 for data, code count and per class file its phase, host and
   * code dictionary index.
   */
  private static int[] shape(
      int[] classIdx, int[] constIdx, List<Placement> placements, int[] codeIdx) {
    int[] key = new int[3 + classIdx.length + constIdx.length + 3 * codeIdx.length];
    int k = 0;
    key[k++] = classIdx.length;
    for (int c : classIdx) {
      key[k++] = c;
    }
    key[k++] = constIdx.length;
    for (int c : constIdx) {
      key[k++] = c;
    }
    key[k++] = codeIdx.length;
    for (int i = 0; i < codeIdx.length; i++) {
      key[k++] = placements.get(i).phase().ordinal();
      key[k++] = placements.get(i).host();
      key[k++] = codeIdx[i];
    }
    return key;
  }

  /** The writing end of one stream: encodes segments against what it sent before. */
  public static final class Encoder {
    /** Per class entry sent, the index of its latest copy in the reader's dictionary. */
    private final Map<ClassEntry, Integer> classes = new HashMap<>();

    /** Per class entry sent, its {@linkplain ReuseBudget weight}: its encoded bytes. */
    private final Map<ClassEntry, Integer> classWeights = new HashMap<>();

    private final Map<Bytes, Integer> code = new HashMap<>();
    private final Map<Bytes, Integer> constants = new HashMap<>();
    private final Map<Ints, Integer> shapes = new HashMap<>();

    /**
     * Class files met lately, by identity: like segments get the same arrays from the code cache,
     * and hashing a class file's bytes again for each of them would cost more than the rest of the
     * look-up. At most {@link #MAX_SEEN} entries.
     */
    private final Map<byte[], Bytes> seen = new IdentityHashMap<>();

    private static final int MAX_SEEN = 1_024;

    /** Per shape index, its weight. */
    private final List<Long> shapeWeights = new ArrayList<>();

    /** The sizes of the reader's dictionaries (a part sent again gets a second entry). */
    private int classCount;

    private int codeCount;
    private int constantCount;
    private final ReuseBudget budget = new ReuseBudget();
    private long resent;

    /**
     * @return the reuse account of the stream so far (for tests)
     */
    public ReuseBudget budget() {
      return budget;
    }

    /**
     * @return how many segments the budget made send their parts again (for tests)
     */
    public long resentSegments() {
      return resent;
    }

    /**
     * Encodes {@code file} without class descriptors: as {@link #encode(SnapshotFile, List)}.
     *
     * @param file the segment as captured
     * @return its stream form
     */
    public byte[] encode(SnapshotFile file) {
      return encode(file, List.of());
    }

    /**
     * Encodes {@code file}, a segment whose first id continues the stream, and adds its new class
     * entries, symbolic constants, class files and shape to the dictionaries. Refers to what
     * earlier segments sent only within the stream's {@linkplain ReuseBudget reuse budget}, as the
     * reader checks it; past it, sends every part again.
     *
     * @param file the segment as captured
     * @param descriptors the class descriptors the writer wrote for it, in order
     * @return its stream form (stream format 5)
     */
    public byte[] encode(SnapshotFile file, List<ClassDescriptor> descriptors) {
      Bytes[] symbols = new Bytes[file.constants().size()];
      for (int i = 0; i < symbols.length; i++) {
        Constant c = file.constants().get(i);
        if (symbolic(c)) {
          Out one = new Out(true);
          ConstantWriter.write(one, c);
          symbols[i] = new Bytes(one.toByteArray());
        }
      }
      int[] key = shapeKnown(file, symbols);
      Integer shape = key == null ? null : shapes.get(new Ints(key));
      Encoded e = null;
      if (shape != null) {
        e = shaped(file, shape, descriptors);
      }
      if (e == null || !budget.allows(e.weight, e.bytes.length)) {
        e = parts(file, symbols, false, descriptors);
      }
      if (!budget.allows(e.weight, e.bytes.length)) {
        e = parts(file, symbols, true, descriptors);
        resent++;
      }
      budget.charge(e.weight, e.bytes.length);
      if (e.parts != null) {
        commit(e.parts, file);
      }
      return e.bytes;
    }

    /** A segment of shape {@code shape}: its data constants and items. */
    private Encoded shaped(SnapshotFile file, int shape, List<ClassDescriptor> descriptors) {
      Out out = header(file, descriptors);
      out.u4(shape + 1);
      for (Constant c : file.constants()) {
        if (!symbolic(c)) {
          ConstantWriter.write(out, c);
        }
      }
      return new Encoded(finish(out, file, descriptors), shapeWeights.get(shape), null);
    }

    private static Out header(SnapshotFile file, List<ClassDescriptor> descriptors) {
      return new Out(true)
          .u4(file.tableSize() - file.firstId())
          .u4(file.depth() << 1 | (descriptors.isEmpty() ? 0 : 1));
    }

    /** Appends the items, the class descriptors and the checksum. */
    private static byte[] finish(Out out, SnapshotFile file, List<ClassDescriptor> descriptors) {
      ConstantWriter.writeTape(out, file.items());
      if (!descriptors.isEmpty()) {
        out.u4(descriptors.size());
        for (ClassDescriptor d : descriptors) {
          // stream format 10 on: a kind byte first, 1 for a proxy class and its interfaces
          out.u1(d.isProxy() ? 1 : 0);
          if (d.isProxy()) {
            out.u2(d.interfaces().size());
            for (String i : d.interfaces()) {
              out.str(i);
            }
            out.bytes(d.annotation());
          } else {
            out.bytes(d.form()).bytes(d.annotation());
          }
        }
      }
      return Encoding.withTrailer(out.toByteArray());
    }

    /** A class file as a dictionary key, hashed once per array. */
    private Bytes bytesOf(byte[] classFile) {
      Bytes b = seen.get(classFile);
      if (b == null) {
        if (seen.size() >= MAX_SEEN) {
          seen.clear();
        }
        b = new Bytes(classFile);
        seen.put(classFile, b);
      }
      return b;
    }

    /** The segment's shape in terms of the dictionaries, or null if one of them lacks a part. */
    private int[] shapeKnown(SnapshotFile file, Bytes[] symbols) {
      int[] classIdx = new int[file.classes().size()];
      for (int i = 0; i < classIdx.length; i++) {
        Integer known = classes.get(file.classes().get(i));
        if (known == null) {
          return null;
        }
        classIdx[i] = known;
      }
      int[] constIdx = new int[symbols.length];
      for (int i = 0; i < constIdx.length; i++) {
        Integer known = symbols[i] == null ? Integer.valueOf(-1) : constants.get(symbols[i]);
        if (known == null) {
          return null;
        }
        constIdx[i] = known;
      }
      int[] codeIdx = new int[file.classFiles().size()];
      for (int i = 0; i < codeIdx.length; i++) {
        Integer known = code.get(bytesOf(file.classFiles().get(i)));
        if (known == null) {
          return null;
        }
        codeIdx[i] = known;
      }
      return shape(classIdx, constIdx, file.placements(), codeIdx);
    }

    /**
     * The segment with its class table, constants and code; with {@code inline}, every part is
     * sent, else a part sent before (by an earlier segment, or earlier in this one) is referred to.
     * Changes no dictionary: {@link #commit} does, for the form chosen.
     */
    private Encoded parts(
        SnapshotFile file, Bytes[] symbols, boolean inline, List<ClassDescriptor> descriptors) {
      Parts p = new Parts(file.classes().size(), symbols.length, file.classFiles().size());
      Out out = header(file, descriptors).u4(0);
      out.u4(file.classes().size());
      for (int i = 0; i < p.classIdx.length; i++) {
        p.weight += classEntry(out, file.classes().get(i), p, i, inline);
      }
      out.u4(file.constants().size());
      for (int i = 0; i < symbols.length; i++) {
        p.weight += constant(out, file.constants().get(i), symbols[i], p, i, inline);
      }
      out.u4(file.classFiles().size());
      for (int i = 0; i < p.codeIdx.length; i++) {
        Placement placement = file.placements().get(i);
        out.u1(placement.phase().ordinal()).u4(placement.host());
        p.weight += classFile(out, bytesOf(file.classFiles().get(i)), p, i, inline);
      }
      return new Encoded(finish(out, file, descriptors), p.weight, p);
    }

    /** Writes one class entry or a reference to it; returns the weight of a reference, else 0. */
    private int classEntry(Out out, ClassEntry c, Parts p, int i, boolean inline) {
      int fresh = p.newClasses.indexOf(c);
      Integer known =
          inline ? null : fresh >= 0 ? Integer.valueOf(classCount + fresh) : classes.get(c);
      if (known != null) {
        out.u4(known + 1);
        p.classIdx[i] = known;
        return fresh >= 0 ? p.newClassWeights.get(fresh) : classWeights.get(c);
      }
      Out one = new Out(true);
      Encoding.writeClass(one, c);
      out.u4(0).raw(one.toByteArray());
      p.classIdx[i] = classCount + p.newClasses.size();
      p.newClasses.add(c);
      p.newClassWeights.add(one.size());
      return 0;
    }

    /** Writes one constant or a reference to it; returns the weight of a reference, else 0. */
    private int constant(Out out, Constant c, Bytes b, Parts p, int i, boolean inline) {
      if (b == null) {
        ConstantWriter.write(out, c);
        p.constIdx[i] = -1;
        return 0;
      }
      int fresh = p.newConstants.indexOf(b);
      Integer known =
          inline ? null : fresh >= 0 ? Integer.valueOf(constantCount + fresh) : constants.get(b);
      if (known != null) {
        out.u1(DICTIONARY_CONSTANT).u4(known);
        p.constIdx[i] = known;
        return ReuseBudget.SYMBOL_WEIGHT;
      }
      out.raw(b.bytes);
      p.constIdx[i] = constantCount + p.newConstants.size();
      p.newConstants.add(b);
      return 0;
    }

    /** Writes one class file or a reference to it; returns the weight of a reference, else 0. */
    private int classFile(Out out, Bytes b, Parts p, int i, boolean inline) {
      int fresh = p.newCode.indexOf(b);
      Integer known = inline ? null : fresh >= 0 ? Integer.valueOf(codeCount + fresh) : code.get(b);
      if (known != null) {
        out.u4(known + 1);
        p.codeIdx[i] = known;
        return b.bytes.length;
      }
      out.u4(0).bytes(b.bytes);
      p.codeIdx[i] = codeCount + p.newCode.size();
      p.newCode.add(b);
      return 0;
    }

    /**
     * Adds the new entries of a segment sent in parts to the dictionaries, at the indices the
     * reader gives them, then its shape, keyed as the reader keys it, if it is new.
     */
    private void commit(Parts p, SnapshotFile file) {
      for (int i = 0; i < p.newClasses.size(); i++) {
        classes.put(p.newClasses.get(i), classCount++);
        classWeights.put(p.newClasses.get(i), p.newClassWeights.get(i));
      }
      for (Bytes b : p.newCode) {
        code.put(b, codeCount++);
      }
      for (Bytes b : p.newConstants) {
        constants.put(b, constantCount++);
      }
      Ints k = new Ints(shape(p.classIdx, p.constIdx, file.placements(), p.codeIdx));
      if (!shapes.containsKey(k)) {
        shapes.put(k, shapes.size());
        shapeWeights.add(shapeWeight(p, file));
      }
    }

    /** The weight of a whole shape: what a segment referring to it reuses. */
    private long shapeWeight(Parts p, SnapshotFile file) {
      long w = 0;
      for (ClassEntry c : file.classes()) {
        w += classWeights.get(c);
      }
      for (int idx : p.constIdx) {
        w += idx < 0 ? 0 : ReuseBudget.SYMBOL_WEIGHT;
      }
      for (byte[] b : file.classFiles()) {
        w += b.length;
      }
      return w;
    }

    /**
     * Forgets every entry sent, as the reader does at a reset; the reuse budget is the stream's and
     * stays.
     */
    public void reset() {
      classes.clear();
      classWeights.clear();
      code.clear();
      seen.clear();
      constants.clear();
      shapes.clear();
      shapeWeights.clear();
      classCount = 0;
      codeCount = 0;
      constantCount = 0;
    }
  }

  /** A segment encoded one way: its bytes, its weight and, if sent in parts, what is new. */
  private static final class Encoded {
    final byte[] bytes;
    final long weight;
    final Parts parts;

    Encoded(byte[] bytes, long weight, Parts parts) {
      this.bytes = bytes;
      this.weight = weight;
      this.parts = parts;
    }
  }

  /** What encoding a segment in parts adds: new entries and the indices the reader gives all. */
  private static final class Parts {
    final int[] classIdx;
    final int[] constIdx;
    final int[] codeIdx;
    final List<ClassEntry> newClasses = new ArrayList<>();
    final List<Integer> newClassWeights = new ArrayList<>();
    final List<Bytes> newConstants = new ArrayList<>();
    final List<Bytes> newCode = new ArrayList<>();
    long weight;

    Parts(int classes, int constants, int files) {
      classIdx = new int[classes];
      constIdx = new int[constants];
      codeIdx = new int[files];
    }
  }

  /** What a segment sent in parts weighs: its references, and the whole shape it makes. */
  private static final class Weights {
    /** The weight of the references: what the segment is charged. */
    long reused;

    /** The weight of every part: what a later segment of its shape is charged. */
    long shape;

    void add(long weight, boolean reference) {
      shape += weight;
      if (reference) {
        reused += weight;
      }
    }
  }

  /**
   * A shape a segment made: what later segments of the same shape share with it, as decoded then
   * (its class table, its symbolic constants, each valid for this class count, and code).
   */
  private static final class Shape {
    final List<ClassEntry> classes;

    /** Per constant, the decoded symbolic constant, or {@code null} where data stands. */
    final Constant[] symbols;

    final List<byte[]> files;
    final List<Placement> placements;

    /** What a segment of this shape reuses: the weight of all its parts. */
    final long weight;

    Shape(
        List<ClassEntry> classes,
        Constant[] symbols,
        List<byte[]> files,
        List<Placement> placements,
        long weight) {
      this.classes = classes;
      this.symbols = symbols;
      this.files = files;
      this.placements = placements;
      this.weight = weight;
    }
  }

  /** The reading end of one stream: the entries earlier segments sent since the last reset. */
  public static final class Decoder {
    /** The snapshot format version the code of this stream's segments follows. */
    private final int version;

    /** Whether segments may carry class descriptors: stream format 5 and later. */
    private final boolean describes;

    /** The class descriptors of the segment decoded last. */
    private List<ClassDescriptor> descriptors = List.of();

    private final List<ClassEntry> classes = new ArrayList<>();

    /** Per class entry, its encoded bytes: the weight of a reference to it. */
    private final List<Integer> classWeights = new ArrayList<>();

    private final List<byte[]> code = new ArrayList<>();

    /**
     * Symbolic constants sent, decoded once: a reference costs a byte or two, so it must not cost a
     * decode (an enum constant's or field's name may be as long as a segment); each segment checks
     * the class index again against its own class table.
     */
    private final List<Constant> constants = new ArrayList<>();

    private final List<Shape> shapes = new ArrayList<>();
    private final Map<Ints, Integer> shapeIndex = new HashMap<>();

    /**
     * How many times a shape was compared with another of the same hash and other content: the work
     * colliding hashes cost.
     */
    private long collisions;

    private final ReuseBudget budget = new ReuseBudget();

    /** The number of segments read, since the stream began. */
    private long segmentsRead;

    /**
     * Use {@code StreamReader.decoder}, which derives both parameters from the stream's version.
     *
     * @param version the snapshot format version ({@link SnapshotFile#OLDEST_VERSION} to {@link
     *     SnapshotFile#VERSION}) the code of the stream's segments follows
     * @param describes whether the stream's segments may carry class descriptors (stream format 5
     *     and later); earlier ones hold the depth as it is
     */
    public Decoder(int version, boolean describes) {
      this.version = version;
      this.describes = describes;
    }

    /**
     * @return the class descriptors the segment {@link #decode} read last carries, in the order the
     *     writer wrote them; empty if it carries none
     */
    public List<ClassDescriptor> descriptors() {
      return descriptors;
    }

    /**
     * Reads and checks one segment, as {@link SnapshotFile#parse} checks a snapshot, and charges
     * what it refers to against the stream's {@link ReuseBudget}.
     *
     * @param bytes the segment's bytes (without signature envelope)
     * @param firstId the number of objects the stream created before it, since the last reset
     * @return the segment as a snapshot
     * @throws CorruptSnapshotException if anything is damaged, truncated or out of range, including
     *     a reference to a dictionary entry or shape that was never sent, or if its references go
     *     over the stream's reuse budget (checked as soon as the shape reference of a segment of a
     *     known shape is read, before its data)
     */
    public SnapshotFile decode(byte[] bytes, int firstId) throws CorruptSnapshotException {
      segmentsRead++;
      descriptors = List.of();
      In in = checked(bytes);
      int count = in.count(1);
      int depth = in.u4();
      if (depth < 0) {
        throw in.corrupt("negative depth " + depth);
      }
      boolean described = describes && (depth & 1) != 0;
      if (describes) {
        depth >>>= 1;
      }
      if ((long) firstId + count > Integer.MAX_VALUE - 8) {
        throw in.corrupt("claims " + count + " objects after " + firstId + ": too many");
      }
      int tableSize = firstId + count;
      int s = in.index(0, shapes.size() + 1, "shape reference");
      SnapshotFile file;
      if (s == 0) {
        file = parts(in, bytes.length, firstId, tableSize, depth, described);
      } else {
        Shape shape = shapes.get(s - 1);
        charge(in, shape.weight, bytes.length, "shape " + (s - 1));
        file = shaped(in, shape, firstId, tableSize, depth, described);
      }
      if (in.remaining() != 0) {
        throw in.corrupt(in.remaining() + " unexpected bytes at the end of the segment");
      }
      return file;
    }

    /**
     * Charges a segment's references to the stream's reuse budget.
     *
     * @param what what the segment refers to, for the message
     * @throws CorruptSnapshotException if the budget does not allow them
     */
    private void charge(In in, long weight, int length, String what)
        throws CorruptSnapshotException {
      if (!budget.allows(weight, length)) {
        throw in.corrupt(
            "segment "
                + segmentsRead
                + " of the stream ("
                + length
                + " bytes)"
                + " refers to "
                + what
                + ", "
                + weight
                + " bytes of class entries, class files and"
                + " symbolic constants that earlier segments sent, which the reader would check and"
                + " run again; with the "
                + budget.reused()
                + " bytes earlier segments reused, that"
                + " is over the stream's reuse budget of "
                + budget.limit(length)
                + " ("
                + ReuseBudget.ALLOWANCE
                + " + "
                + ReuseBudget.FACTOR
                + " x "
                + budget.received()
                + " + "
                + length
                + " bytes of segments). CodeseOutputStream never writes such a"
                + " segment (it sends the parts again instead), so the stream was crafted or"
                + " damaged: do not read it further");
      }
      budget.charge(weight, length);
    }

    /**
     * @return the reuse account of the stream so far (for tests)
     */
    public ReuseBudget budget() {
      return budget;
    }

    /** A segment of a known shape: only its data constants and items follow. */
    private SnapshotFile shaped(
        In in, Shape shape, int firstId, int tableSize, int depth, boolean described)
        throws CorruptSnapshotException {
      in.section("constants");
      int nClasses = shape.classes.size();
      List<Constant> constants = new ArrayList<>(shape.symbols.length);
      for (Constant symbol : shape.symbols) {
        if (symbol != null) {
          constants.add(symbol);
          continue;
        }
        Constant c = ConstantCodec.read(in, version, nClasses, tableSize);
        if (symbolic(c)) {
          throw in.corrupt("a symbolic constant where the segment's shape has data");
        }
        constants.add(c);
      }
      in.section("items");
      Tape items = ConstantCodec.readTape(in, tableSize);
      readDescriptors(in, described);
      return new SnapshotFile(
          version,
          "",
          firstId,
          tableSize,
          depth,
          shape.classes,
          List.copyOf(constants),
          shape.files,
          shape.placements,
          items);
    }

    /** A segment that sends its parts: class table, constants, code. */
    private SnapshotFile parts(
        In in, int length, int firstId, int tableSize, int depth, boolean described)
        throws CorruptSnapshotException {
      in.section("classes");
      int nClasses = in.count(1);
      List<ClassEntry> table = new ArrayList<>(nClasses);
      int[] classIdx = new int[nClasses];
      List<ClassEntry> newClasses = new ArrayList<>();
      List<Integer> newWeights = new ArrayList<>();
      Weights weights = new Weights();
      for (int i = 0; i < nClasses; i++) {
        table.add(classEntry(in, newClasses, newWeights, classIdx, i, weights));
      }
      in.section("constants");
      int nConst = in.count(1);
      List<Constant> constants = new ArrayList<>(nConst);
      int[] constIdx = new int[nConst];
      List<Constant> newConstants = new ArrayList<>();
      for (int i = 0; i < nConst; i++) {
        boolean reference = in.peek() == DICTIONARY_CONSTANT;
        constants.add(constant(in, nClasses, tableSize, newConstants, constIdx, i));
        weights.add(constIdx[i] < 0 ? 0 : ReuseBudget.SYMBOL_WEIGHT, reference);
      }
      in.section("code");
      int nFiles = in.count(3);
      List<byte[]> files = new ArrayList<>(nFiles);
      List<Placement> placements = new ArrayList<>(nFiles);
      int[] codeIdx = new int[nFiles];
      List<byte[]> newCode = new ArrayList<>();
      int lastPhase = 0;
      for (int i = 0; i < nFiles; i++) {
        int phase = in.u1();
        if (phase >= Grammar.PHASES || phase < lastPhase) {
          throw in.corrupt("class " + i + " has phase " + phase + " after phase " + lastPhase);
        }
        lastPhase = phase;
        placements.add(
            new Placement(
                Phase.of(phase), in.index(Placement.CODESE, nClasses, "host class index")));
        files.add(classFile(in, newCode, codeIdx, i, weights));
      }
      charge(in, weights.reused, length, "entries sent before");
      in.section("items");
      Tape items = ConstantCodec.readTape(in, tableSize);
      readDescriptors(in, described);
      classes.addAll(newClasses);
      classWeights.addAll(newWeights);
      code.addAll(newCode);
      this.constants.addAll(newConstants);
      SnapshotFile file =
          new SnapshotFile(
              version,
              "",
              firstId,
              tableSize,
              depth,
              List.copyOf(table),
              List.copyOf(constants),
              List.copyOf(files),
              List.copyOf(placements),
              items);
      Ints key = new Ints(shape(classIdx, constIdx, placements, codeIdx));
      if (!shapeIndex.containsKey(key)) {
        Constant[] symbols = new Constant[nConst];
        for (int i = 0; i < nConst; i++) {
          symbols[i] = constIdx[i] < 0 ? null : constants.get(i);
        }
        shapeIndex.put(key, shapes.size());
        shapes.add(
            new Shape(
                file.classes(), symbols, file.classFiles(), file.placements(), weights.shape));
      }
      collisions += key.collisions;
      return file;
    }

    /** Reads the class descriptors that follow the items, if the segment has them. */
    private void readDescriptors(In in, boolean described) throws CorruptSnapshotException {
      if (!described) {
        return;
      }
      in.section("class descriptors");
      int n = in.count(2);
      if (n == 0) {
        throw in.corrupt("the segment says class descriptors follow, but there are none");
      }
      List<ClassDescriptor> d = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        d.add(descriptor(in));
      }
      descriptors = List.copyOf(d);
    }

    /** One class descriptor; from snapshot format 7 (stream format 10) on with a kind byte. */
    private ClassDescriptor descriptor(In in) throws CorruptSnapshotException {
      int kind = version >= Grammar.PROXY_VERSION ? in.u1() : 0;
      if (kind == 0) {
        return new ClassDescriptor(in.bytes(), in.bytes());
      }
      if (kind != 1) {
        throw in.corrupt("class descriptor of unknown kind " + kind);
      }
      int n = in.u2();
      List<String> names = new ArrayList<>(Math.min(n, in.remaining()));
      for (int i = 0; i < n; i++) {
        names.add(in.str());
      }
      return ClassDescriptor.proxy(names, in.bytes());
    }

    /**
     * Entry {@code i} of a segment's class table: read, or the one a reference names. Notes its
     * dictionary index in {@code classIdx[i]} and its weight in {@code weights}.
     */
    private ClassEntry classEntry(
        In in,
        List<ClassEntry> newClasses,
        List<Integer> newWeights,
        int[] classIdx,
        int i,
        Weights weights)
        throws CorruptSnapshotException {
      int r = in.index(0, classes.size() + newClasses.size() + 1, "class reference");
      if (r == 0) {
        int at = in.pos();
        ClassEntry c = SnapshotFile.readClass(in, version);
        classIdx[i] = classes.size() + newClasses.size();
        newClasses.add(c);
        newWeights.add(in.pos() - at);
        weights.add(in.pos() - at, false);
        return c;
      }
      classIdx[i] = r - 1;
      boolean old = r <= classes.size();
      weights.add(old ? classWeights.get(r - 1) : newWeights.get(r - 1 - classes.size()), true);
      return old ? classes.get(r - 1) : newClasses.get(r - 1 - classes.size());
    }

    /**
     * Class file {@code i} of a segment: read, or the one a reference names. Notes its dictionary
     * index in {@code codeIdx[i]} and its weight, its length, in {@code weights}.
     */
    private byte[] classFile(In in, List<byte[]> newCode, int[] codeIdx, int i, Weights weights)
        throws CorruptSnapshotException {
      int r = in.index(0, code.size() + newCode.size() + 1, "class file reference");
      byte[] b;
      if (r == 0) {
        b = in.bytes();
        codeIdx[i] = code.size() + newCode.size();
        newCode.add(b);
      } else {
        codeIdx[i] = r - 1;
        b = r <= code.size() ? code.get(r - 1) : newCode.get(r - 1 - code.size());
      }
      weights.add(b.length, r != 0);
      return b;
    }

    /**
     * One constant: inline, or a reference to a symbolic constant sent before, the same value as if
     * it stood here, once its class index is checked against this segment's class count. Notes in
     * {@code constIdx[i]} the constant's dictionary index, or -1 for data.
     */
    private Constant constant(
        In in, int nClasses, int tableSize, List<Constant> newConstants, int[] constIdx, int i)
        throws CorruptSnapshotException {
      if (in.peek() == DICTIONARY_CONSTANT) {
        in.u1();
        int r = in.index(0, constants.size() + newConstants.size(), "constant reference");
        Constant c =
            r < constants.size() ? constants.get(r) : newConstants.get(r - constants.size());
        int type = classIndex(c);
        if (type >= nClasses) {
          throw in.corrupt(
              "constant reference "
                  + r
                  + " names class index "
                  + type
                  + ", out of range [0, "
                  + nClasses
                  + ") for this segment's class table");
        }
        constIdx[i] = r;
        return c;
      }
      Constant c = ConstantCodec.read(in, version, nClasses, tableSize);
      if (symbolic(c)) {
        constIdx[i] = constants.size() + newConstants.size();
        newConstants.add(c);
      } else {
        constIdx[i] = -1;
      }
      return c;
    }

    /** The class index a {@linkplain #symbolic symbolic} constant names. */
    private static int classIndex(Constant c) {
      // global references last: a stream without them never loads their classes
      return c instanceof Constant.TypeRef t
          ? t.type()
          : c instanceof Constant.StreamClassRef t
              ? t.type()
              : c instanceof Constant.EnumRef e
                  ? e.type()
                  : c instanceof Constant.Allocator a
                      ? a.type()
                      : c instanceof Constant.Sized z
                          ? z.type()
                          : c instanceof Constant.ArrayMaker a
                              ? a.type()
                              : c instanceof Constant.Setter s
                                  ? s.type()
                                  : c instanceof Constant.StaticRef r ? r.type() : -1;
    }

    private static In checked(byte[] bytes) throws CorruptSnapshotException {
      if (bytes.length < 5) {
        throw new CorruptSnapshotException(
            "segment", 0, "only " + bytes.length + " bytes: too short to be a stream segment");
      }
      SnapshotFile.checkTrailer(bytes, "segment");
      In in = new In(bytes, 0, bytes.length - 4, true);
      in.section("header");
      return in;
    }

    /**
     * @return how many class entries, class files, constants and shapes the dictionaries hold
     */
    public int entries() {
      return classes.size() + code.size() + constants.size() + shapes.size();
    }

    /**
     * @return how many times shapes were compared with others of the same hash and other content
     *     (for tests: about n log n for n colliding shapes, as long as the keys are ordered; n^2 /
     *     2 if they were not)
     */
    long collisions() {
      return collisions;
    }

    /** Forgets every entry, at a reset. */
    public void reset() {
      classes.clear();
      classWeights.clear();
      code.clear();
      constants.clear();
      shapes.clear();
      shapeIndex.clear();
    }
  }
}
