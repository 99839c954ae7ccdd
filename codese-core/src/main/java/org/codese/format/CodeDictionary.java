package org.codese.format;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The preset DEFLATE dictionary of the packed block of format version {@link
 * SnapshotFile#PACKED_VERSION} snapshots (class table, code table and class files in one zlib
 * stream): byte sequences that every generated class file and most class tables repeat, so that
 * even a snapshot of a few objects finds them at a near distance instead of spelling them out.
 *
 * <p>Built here, in code, from literals: the names and descriptors of the runtime contract ({@code
 * org/codese/runtime/Entry}, {@code BiConsumer.accept}, chunk methods), {@code java/lang/Object},
 * attribute names, the constant-pool entries and instructions the emitter writes into every class,
 * and the names of the JDK classes class tables hold most often. It is part of the format: the
 * bytes of version {@link SnapshotFile#PACKED_VERSION} never change (a test pins their Adler-32),
 * so these literals are not taken from the constants of the emitter, which may evolve; a later
 * format that wants another dictionary takes a new version. DEFLATE reaches nearer distances with
 * fewer bits, so the sequences met most often come last.
 *
 * <p>Part of the restore path: no lambdas, no {@code String.format}, no regular expressions.
 */
final class CodeDictionary {
  /** The dictionary; never handed out of this package, never written to. */
  static final byte[] BYTES = build();

  private CodeDictionary() {}

  private static byte[] build() {
    ByteArrayOutputStream d = new ByteArrayOutputStream(4096);
    classTableNames(d);
    occasionalPool(d);
    occasionalCode(d);
    skeleton(d);
    return d.toByteArray();
  }

  /**
   * JDK classes (in internal form, as the packed class table names them), fields and descriptors
   * that class tables hold most often, as a compact class table spells a string: its length as a
   * zigzag variable-length integer, then the characters.
   */
  private static void classTableNames(ByteArrayOutputStream d) {
    String[] names = {
      "java/time/Ser",
      "java/util/EnumMap",
      "keyType",
      "Ljava/lang/Class;",
      "java/util/BitSet",
      "bits",
      "java/util/ArrayDeque",
      "java/util/LinkedList",
      "java/util/TreeSet",
      "java/util/LinkedHashSet",
      "java/util/HashSet",
      "java/util/Collections$UnmodifiableList",
      "list",
      "Ljava/util/List;",
      "java/util/Collections$UnmodifiableCollection",
      "c",
      "Ljava/util/Collection;",
      "java/util/CollSer",
      "tag",
      "java/util/UUID",
      "java/math/BigDecimal",
      "scale",
      "intVal",
      "Ljava/math/BigInteger;",
      "java/math/BigInteger",
      "bitCount",
      "bitLength",
      "firstNonzeroByteNum",
      "lowestSetBit",
      "signum",
      "magnitude",
      "java/lang/Enum",
      "java/lang/Number",
      "java/lang/Boolean",
      "java/lang/Character",
      "java/lang/Byte",
      "java/lang/Short",
      "java/lang/Float",
      "java/lang/Double",
      "java/lang/Long",
      "java/lang/Integer",
      "value",
      "java/util/TreeMap",
      "comparator",
      "Ljava/util/Comparator;",
      "java/util/LinkedHashMap",
      "accessOrder",
      "java/util/HashMap",
      "loadFactor",
      "threshold",
      "java/util/ArrayList",
      "size",
      "Ljava/util/Set;",
      "Ljava/util/Map;",
      "Ljava/util/List;",
      "[Ljava/lang/Object;",
      "Ljava/lang/Object;",
      "Ljava/lang/String;"
    };
    for (String s : names) {
      int z = s.length() << 1;
      d.write(z);
      ascii(d, s);
    }
  }

  /** Constant-pool entries that some generated classes have: reflection, boxes, arrays, steps. */
  private static void occasionalPool(ByteArrayOutputStream d) {
    String[] utf8 = {
      "java/lang/Character",
      "java/lang/Byte",
      "java/lang/Boolean",
      "(Z)Ljava/lang/Boolean;",
      "java/lang/Short",
      "java/lang/Float",
      "java/lang/Double",
      "java/lang/Long",
      "(J)Ljava/lang/Long;",
      "setBoolean",
      "setChar",
      "setByte",
      "setShort",
      "setFloat",
      "setDouble",
      "setLong",
      "setInt",
      "(Ljava/lang/Object;Ljava/lang/Object;)V",
      "set",
      "java/lang/reflect/Field",
      "(Ljava/lang/String;)V",
      "java/lang/String",
      "[Ljava/lang/String;",
      "(I)Ljava/lang/Integer;",
      "valueOf",
      "java/lang/Integer",
      "[S",
      "[B",
      "[C",
      "[F",
      "[Z",
      "[J",
      "[D",
      "newCollection",
      "([Ljava/lang/Object;[Ljava/lang/Object;I)V",
      "runSteps",
      "StackMapTable",
      "[I"
    };
    for (String s : utf8) {
      utf8(d, s);
    }
  }

  /**
   * Instructions of the loops the emitter writes over an {@code int[]} of ids: load the array
   * (checkcast {@code [I}, astore_3), count up to its length, allocate or store each element.
   */
  private static void occasionalCode(ByteArrayOutputStream d) {
    bytes(
        d, 0x2B, 0x04, 0x32, 0xC0, 0x00, 0x14, 0x4E, 0x2B, 0x03, 0x32, 0x3A, 0x05, 0x03, 0x36, 0x04,
        0xA7, 0x00, 0x11, 0x2A, 0x2D, 0x15, 0x04, 0x2E, 0x19, 0x05, 0xB8, 0x00, 0x12, 0x53, 0x84,
        0x04, 0x01, 0x15, 0x04, 0x2D, 0xBE, 0xA1, 0xFF, 0xEE, 0xB1);
    // a StackMapTable entry of such a loop: append_frame with an int local, then same_frame
    bytes(d, 0x00, 0x02, 0xFD, 0x00, 0x1B, 0x07, 0x00, 0x14, 0x01, 0x0D);
  }

  /**
   * A whole generated class as the emitter writes it, hosted in the runtime package: the constant
   * pool every class starts and ends with, the constructor, a chunk method that allocates objects
   * ({@code table[i] = Entry.allocate(data[k])}) and stores fields of one ({@code aload; checkcast;
   * putfield}), and the entry method that calls it.
   */
  private static void skeleton(ByteArrayOutputStream d) {
    bytes(d, 0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x3D, 0x00, 0x1A);
    utf8(d, "org/codese/runtime/CodeseRestore0"); // #1
    classRef(d, 1); // #2
    utf8(d, "java/lang/Object"); // #3
    classRef(d, 3); // #4
    utf8(d, "java/util/function/BiConsumer"); // #5
    classRef(d, 5); // #6
    utf8(d, "<init>"); // #7
    utf8(d, "()V"); // #8
    bytes(d, 0x0C, 0x00, 0x07, 0x00, 0x08); // #9 NameAndType <init>:()V
    bytes(d, 0x0A, 0x00, 0x04, 0x00, 0x09); // #10 Object.<init>
    utf8(d, "m0"); // #11
    utf8(d, "([Ljava/lang/Object;[Ljava/lang/Object;)V"); // #12
    utf8(d, "org/codese/runtime/Entry"); // #13
    classRef(d, 13); // #14
    utf8(d, "allocate"); // #15
    utf8(d, "(Ljava/lang/Object;)Ljava/lang/Object;"); // #16
    bytes(d, 0x0C, 0x00, 0x0F, 0x00, 0x10); // #17
    bytes(d, 0x0A, 0x00, 0x0E, 0x00, 0x11); // #18 Entry.allocate
    utf8(d, "accept"); // #19
    utf8(d, "(Ljava/lang/Object;Ljava/lang/Object;)V"); // #20
    utf8(d, "[Ljava/lang/Object;"); // #21
    classRef(d, 21); // #22
    bytes(d, 0x0C, 0x00, 0x0B, 0x00, 0x0C); // #23 NameAndType m0
    bytes(d, 0x0A, 0x00, 0x02, 0x00, 0x17); // #24 CodeseRestore0.m0
    utf8(d, "Code"); // #25
    // public final super synthetic, this #2, super #4, one interface #6, no fields, 3 methods
    bytes(d, 0x10, 0x31, 0x00, 0x02, 0x00, 0x04, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00, 0x03);
    // public <init>()V { aload_0; invokespecial Object.<init>; return }
    bytes(d, 0x00, 0x01, 0x00, 0x07, 0x00, 0x08, 0x00, 0x01, 0x00, 0x19, 0x00, 0x00, 0x00, 0x11);
    bytes(d, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x2A, 0xB7, 0x00, 0x0A, 0xB1);
    bytes(d, 0x00, 0x00, 0x00, 0x00);
    // static m0([Object;[Object;)V: stores into fields of table[1], then allocations
    bytes(d, 0x00, 0x08, 0x00, 0x0B, 0x00, 0x0C, 0x00, 0x01, 0x00, 0x19, 0x00, 0x00, 0x00, 0x50);
    bytes(d, 0x00, 0x04, 0x00, 0x03, 0x00, 0x00, 0x00, 0x40);
    bytes(d, 0x2A, 0x04, 0x32, 0xC0, 0x00, 0x0E, 0x4D, 0x2C, 0x12, 0x0F, 0xB5, 0x00, 0x13);
    bytes(d, 0x2C, 0x2A, 0x05, 0x32, 0xC0, 0x00, 0x0E, 0xB5, 0x00, 0x17);
    bytes(d, 0x2C, 0x2A, 0x06, 0x32, 0xC0, 0x00, 0x0E, 0xB5, 0x00, 0x1A);
    bytes(d, 0x2A, 0x05, 0x32, 0xC0, 0x00, 0x0E, 0x4D);
    bytes(d, 0x2A, 0x03, 0x2B, 0x03, 0x32, 0xB8, 0x00, 0x12, 0x53);
    for (int i = 1; i <= 5; i++) {
      // table[i] = Entry.allocate(data[1]): iconst_1 to iconst_5
      bytes(d, 0x2A, 0x03 + i, 0x2B, 0x04, 0x32, 0xB8, 0x00, 0x12, 0x53);
    }
    for (int i = 6; i <= 8; i++) {
      bytes(d, 0x2A, 0x10, i, 0x2B, 0x04, 0x32, 0xB8, 0x00, 0x12, 0x53);
    }
    bytes(d, 0xB1);
    bytes(d, 0x00, 0x00, 0x00, 0x00);
    // public accept(Object, Object) { m0((Object[]) a, (Object[]) b) }
    bytes(d, 0x00, 0x01, 0x00, 0x13, 0x00, 0x14, 0x00, 0x01, 0x00, 0x19, 0x00, 0x00, 0x00, 0x1E);
    bytes(d, 0x00, 0x02, 0x00, 0x05, 0x00, 0x00, 0x00, 0x12);
    bytes(d, 0x2B, 0xC0, 0x00, 0x16, 0x4E, 0x2C, 0xC0, 0x00, 0x16, 0x3A, 0x04);
    bytes(d, 0x2D, 0x19, 0x04, 0xB8, 0x00, 0x18, 0xB1);
    bytes(d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00);
  }

  /** A {@code CONSTANT_Utf8} entry: tag 1, u2 length, the (ASCII) bytes. */
  private static void utf8(ByteArrayOutputStream d, String s) {
    d.write(1);
    d.write(s.length() >>> 8);
    d.write(s.length());
    ascii(d, s);
  }

  /** A {@code CONSTANT_Class} entry naming the {@code CONSTANT_Utf8} at {@code index}. */
  private static void classRef(ByteArrayOutputStream d, int index) {
    bytes(d, 0x07, index >>> 8, index & 0xFF);
  }

  private static void ascii(ByteArrayOutputStream d, String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    d.write(b, 0, b.length);
  }

  private static void bytes(ByteArrayOutputStream d, int... values) {
    for (int v : values) {
      d.write(v);
    }
  }
}
