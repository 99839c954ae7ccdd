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
 * The packed form of format version {@link SnapshotFile#PACKED_VERSION} and later: its preset
 * dictionary ({@link #DICTIONARY}), and its reader, which reads a snapshot after {@link
 * SnapshotFile#parse} checked its magic, version and trailer.
 *
 * <p>Layout after magic and version, every integer a zigzag variable-length integer: the header
 * (its length, then as in the compact form); the packed block (its length, the number of bytes it
 * inflates to, then raw DEFLATE data made with the preset dictionary {@link #DICTIONARY} of the
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
  /**
   * {@link #DICTIONARY} as chars below 256, one a byte: byte sequences that every generated class
   * file and most class tables repeat, so that even a snapshot of a few objects finds them at a
   * near distance instead of spelling them out. In this order: the names of JDK classes, fields and
   * descriptors that class tables hold most often, as a compact class table spells a string (its
   * length as a zigzag variable-length integer, then the characters; class names in internal form,
   * as the packed class table writes them); {@code CONSTANT_Utf8} entries that some generated
   * classes have (reflection, boxes, array descriptors, the runtime contract's {@code runSteps} and
   * {@code newCollection}, {@code StackMapTable}); the instructions and stack map of a loop over an
   * {@code int[]} of ids; last, since DEFLATE codes near distances in fewer bits, a whole generated
   * class as the emitter writes it, hosted in {@code org/codese/runtime}: {@code CAFEBABE}, version
   * 61, the constant pool every class starts and ends with ({@code java/lang/Object}, {@code
   * BiConsumer}, {@code Entry.allocate}, {@code m0}, {@code accept}, {@code Code}), the
   * constructor, a chunk that stores fields of one object and allocates others, and the entry
   * method. Bytes that are not names are octal escapes. The test class {@code CodeDictionarySpec}
   * builds the same bytes piece by piece from the names, lengths and instructions, and a test
   * requires both to agree.
   *
   * <p>Part of the format: the bytes of version {@link SnapshotFile#PACKED_VERSION} never change (a
   * test pins their Adler-32), so the literals are not taken from the emitter's constants, which
   * may evolve; a later format that wants another dictionary takes a new version. One constant
   * string in the reader's own class, converted once per JVM without a {@code Charset}: it costs a
   * cold load no class of its own, where building it from pieces at run time cost about a
   * millisecond.
   */
  private static final String TEXT =
      // class-table strings: length (zigzag) and characters
      "\032java/time/Ser"
          + "\042java/util/EnumMap"
          + "\016keyType"
          + "\042Ljava/lang/Class;"
          + " java/util/BitSet"
          + "\010bits"
          + "(java/util/ArrayDeque"
          + "(java/util/LinkedList"
          + "\042java/util/TreeSet"
          + ".java/util/LinkedHashSet"
          + "\042java/util/HashSet"
          + "Ljava/util/Collections$UnmodifiableList"
          + "\010list"
          + " Ljava/util/List;"
          + "Xjava/util/Collections$UnmodifiableCollection"
          + "\002\143"
          + ",Ljava/util/Collection;"
          + "\042java/util/CollSer"
          + "\006tag"
          + "\034java/util/UUID"
          + "(java/math/BigDecimal"
          + "\012scale"
          + "\014intVal"
          + ",Ljava/math/BigInteger;"
          + "(java/math/BigInteger"
          + "\020bitCount"
          + "\022bitLength"
          + "&firstNonzeroByteNum"
          + "\030lowestSetBit"
          + "\014signum"
          + "\022magnitude"
          + "\034java/lang/Enum"
          + " java/lang/Number"
          + "\042java/lang/Boolean"
          + "&java/lang/Character"
          + "\034java/lang/Byte"
          + "\036java/lang/Short"
          + "\036java/lang/Float"
          + " java/lang/Double"
          + "\034java/lang/Long"
          + "\042java/lang/Integer"
          + "\012value"
          + "\042java/util/TreeMap"
          + "\024comparator"
          + ",Ljava/util/Comparator;"
          + ".java/util/LinkedHashMap"
          + "\026accessOrder"
          + "\042java/util/HashMap"
          + "\024loadFactor"
          + "\022threshold"
          + "&java/util/ArrayList"
          + "\010size"
          + "\036Ljava/util/Set;"
          + "\036Ljava/util/Map;"
          + " Ljava/util/List;"
          + "&[Ljava/lang/Object;"
          + "$Ljava/lang/Object;"
          + "$Ljava/lang/String;"
          // constant-pool entries some classes have: tag 1, u2 length, characters
          + "\001\000\023java/lang/Character"
          + "\001\000\016java/lang/Byte"
          + "\001\000\021java/lang/Boolean"
          + "\001\000\026(Z)Ljava/lang/Boolean;"
          + "\001\000\017java/lang/Short"
          + "\001\000\017java/lang/Float"
          + "\001\000\020java/lang/Double"
          + "\001\000\016java/lang/Long"
          + "\001\000\023(J)Ljava/lang/Long;"
          + "\001\000\012setBoolean"
          + "\001\000\007setChar"
          + "\001\000\007setByte"
          + "\001\000\010setShort"
          + "\001\000\010setFloat"
          + "\001\000\011setDouble"
          + "\001\000\007setLong"
          + "\001\000\006setInt"
          + "\001\000'(Ljava/lang/Object;Ljava/lang/Object;)V"
          + "\001\000\003set"
          + "\001\000\027java/lang/reflect/Field"
          + "\001\000\025(Ljava/lang/String;)V"
          + "\001\000\020java/lang/String"
          + "\001\000\023[Ljava/lang/String;"
          + "\001\000\026(I)Ljava/lang/Integer;"
          + "\001\000\007valueOf"
          + "\001\000\021java/lang/Integer"
          + "\001\000\002[S"
          + "\001\000\002[B"
          + "\001\000\002[C"
          + "\001\000\002[F"
          + "\001\000\002[Z"
          + "\001\000\002[J"
          + "\001\000\002[D"
          + "\001\000\015newCollection"
          + "\001\000*([Ljava/lang/Object;[Ljava/lang/Object;I)V"
          + "\001\000\010runSteps"
          + "\001\000\015StackMapTable"
          + "\001\000\002[I"
          // an id loop: checkcast [I, astore_3, the loop allocating each element
          + "\053\004\062\300\000\024\116\053\003\062\072\005\003\066\004\247\000\021\052\055\025\004\056\031\005\270\000\022\123\204\004\001\025\004\055\276\241\377\356\261"
          // its StackMapTable: append_frame with an int local, then same_frame
          + "\000\002\375\000\033\007\000\024\001\015"
          // a whole class in the runtime package, as the emitter writes it
          + "\312\376\272\276\000\000\000\075\000\032"
          + "\001\000!org/codese/runtime/CodeseRestore0" // #1
          + "\007\000\001" // #2
          + "\001\000\020java/lang/Object" // #3
          + "\007\000\003" // #4
          + "\001\000\035java/util/function/BiConsumer" // #5
          + "\007\000\005" // #6
          + "\001\000\006<init>" // #7
          + "\001\000\003\050\051\126" // #8
          + "\014\000\007\000\010" // #9 NameAndType <init>:()V
          + "\012\000\004\000\011" // #10 Object.<init>
          + "\001\000\002\155\060" // #11
          + "\001\000)([Ljava/lang/Object;[Ljava/lang/Object;)V" // #12
          + "\001\000\030org/codese/runtime/Entry" // #13
          + "\007\000\015" // #14
          + "\001\000\010allocate" // #15
          + "\001\000&(Ljava/lang/Object;)Ljava/lang/Object;" // #16
          + "\014\000\017\000\020" // #17
          + "\012\000\016\000\021" // #18 Entry.allocate
          + "\001\000\006accept" // #19
          + "\001\000'(Ljava/lang/Object;Ljava/lang/Object;)V" // #20
          + "\001\000\023[Ljava/lang/Object;" // #21
          + "\007\000\025" // #22
          + "\014\000\013\000\014" // #23 NameAndType m0
          + "\012\000\002\000\027" // #24 CodeseRestore0.m0
          + "\001\000\004Code" // #25
          // public final super synthetic, this #2, super #4, one interface #6, no fields, 3 methods
          + "\020\061\000\002\000\004\000\001\000\006\000\000\000\003"
          // public <init>()V { aload_0; invokespecial Object.<init>; return }
          + "\000\001\000\007\000\010\000\001\000\031\000\000\000\021"
          + "\000\001\000\001\000\000\000\005\052\267\000\012\261"
          + "\000\000\000\000"
          // static m0([Object;[Object;)V: stores into fields of table[1], then allocations
          + "\000\010\000\013\000\014\000\001\000\031\000\000\000\120"
          + "\000\004\000\003\000\000\000\100"
          + "\052\004\062\300\000\016\115\054\022\017\265\000\023"
          + "\054\052\005\062\300\000\016\265\000\027"
          + "\054\052\006\062\300\000\016\265\000\032"
          + "\052\005\062\300\000\016\115"
          + "\052\003\053\003\062\270\000\022\123"
          // table[i] = Entry.allocate(data[1]), i = 1 to 5 (iconst_1 to iconst_5)
          + "\052\004\053\004\062\270\000\022\123"
          + "\052\005\053\004\062\270\000\022\123"
          + "\052\006\053\004\062\270\000\022\123"
          + "\052\007\053\004\062\270\000\022\123"
          + "\052\010\053\004\062\270\000\022\123"
          // the same for i = 6 to 8 (bipush i)
          + "\052\020\006\053\004\062\270\000\022\123"
          + "\052\020\007\053\004\062\270\000\022\123"
          + "\052\020\010\053\004\062\270\000\022\123"
          + "\261"
          + "\000\000\000\000"
          // public accept(Object, Object) { m0((Object[]) a, (Object[]) b) }
          + "\000\001\000\023\000\024\000\001\000\031\000\000\000\036"
          + "\000\002\000\005\000\000\000\022"
          + "\053\300\000\026\116\054\300\000\026\072\004"
          + "\055\031\004\270\000\030\261"
          + "\000\000\000\000\000\000";

  /**
   * The preset dictionary of the packed block; never handed out of this package, never written to.
   */
  static final byte[] DICTIONARY = latin1(TEXT);

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
        Inflating.inflate(bytes, at, data, declared, "code", 0, "the code section", DICTIONARY);
    In p = new In(block, 0, block.length, true);
    p.section("classes (inflated)");
    List<ClassEntry> classes = SnapshotFile.readClasses(p, version, true);
    List<Constant> constants = SnapshotFile.readConstants(k, version, classes.size(), header[1]);
    p.section("code (inflated)");
    List<Placement> placements = new ArrayList<>();
    List<byte[]> files = readCode(p, classes.size(), placements);
    Tape items = ConstantCodec.readTape(it, header[1]);
    return SnapshotFile.assemble(
        version, jdk, header, classes, constants, files, placements, items, head, k, it, p);
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

  /**
   * Every char of {@code s} as one byte. All are below 256, where the deprecated {@link
   * String#getBytes(int, int, byte[], int)} (the low eight bits of each char) is exact; a copy of
   * the string's own bytes, which needs no {@code Charset} (whose classes a cold load would pay)
   * and no loop run by the interpreter.
   */
  @SuppressWarnings("deprecation")
  private static byte[] latin1(String s) {
    byte[] b = new byte[s.length()];
    s.getBytes(0, b.length, b, 0);
    return b;
  }
}
