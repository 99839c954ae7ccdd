package org.codese.format;

/**
 * The derivation of {@link Packed#DICTIONARY}: the same pieces, built one by one from the names,
 * lengths and instructions they spell, which the production class holds as one constant string (so
 * that a cold load resolves one literal instead of running this). {@code
 * PackedFormTest.theDictionaryIsWhatItsPiecesSpell} requires both to give the same bytes.
 */
final class CodeDictionarySpec {
  private CodeDictionarySpec() {}

  /**
   * @return the dictionary, built from its pieces one by one
   */
  static byte[] build() {
    StringBuilder d = new StringBuilder(2200);
    classTableNames(d);
    occasionalPool(d);
    occasionalCode(d);
    skeleton(d);
    // every char is below 256: each is one byte (no Charset, whose classes a cold load would pay)
    byte[] b = new byte[d.length()];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) d.charAt(i);
    }
    return b;
  }

  /**
   * JDK classes (in internal form, as the packed class table names them), fields and descriptors
   * that class tables hold most often, as a compact class table spells a string: its length as a
   * zigzag variable-length integer, then the characters.
   */
  private static void classTableNames(StringBuilder d) {
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
      d.append((char) (s.length() << 1)).append(s);
    }
  }

  /** Constant-pool entries that some generated classes have: reflection, boxes, arrays, steps. */
  private static void occasionalPool(StringBuilder d) {
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
  private static void occasionalCode(StringBuilder d) {
    hex(d, "2B0432C000144E2B03323A05033604A700112A2D15042E1905B800125384040115042DBEA1FFEEB1");
    // a StackMapTable entry of such a loop: append_frame with an int local, then same_frame
    hex(d, "0002FD001B070014010D");
  }

  /**
   * A whole generated class as the emitter writes it, hosted in the runtime package: the constant
   * pool every class starts and ends with, the constructor, a chunk method that allocates objects
   * ({@code table[i] = Entry.allocate(data[k])}) and stores fields of one ({@code aload; checkcast;
   * putfield}), and the entry method that calls it.
   */
  private static void skeleton(StringBuilder d) {
    hex(d, "CAFEBABE0000003D001A");
    utf8(d, "org/codese/runtime/CodeseRestore0"); // #1
    classRef(d, 1); // #2
    utf8(d, "java/lang/Object"); // #3
    classRef(d, 3); // #4
    utf8(d, "java/util/function/BiConsumer"); // #5
    classRef(d, 5); // #6
    utf8(d, "<init>"); // #7
    utf8(d, "()V"); // #8
    hex(d, "0C00070008"); // #9 NameAndType <init>:()V
    hex(d, "0A00040009"); // #10 Object.<init>
    utf8(d, "m0"); // #11
    utf8(d, "([Ljava/lang/Object;[Ljava/lang/Object;)V"); // #12
    utf8(d, "org/codese/runtime/Entry"); // #13
    classRef(d, 13); // #14
    utf8(d, "allocate"); // #15
    utf8(d, "(Ljava/lang/Object;)Ljava/lang/Object;"); // #16
    hex(d, "0C000F0010"); // #17
    hex(d, "0A000E0011"); // #18 Entry.allocate
    utf8(d, "accept"); // #19
    utf8(d, "(Ljava/lang/Object;Ljava/lang/Object;)V"); // #20
    utf8(d, "[Ljava/lang/Object;"); // #21
    classRef(d, 21); // #22
    hex(d, "0C000B000C"); // #23 NameAndType m0
    hex(d, "0A00020017"); // #24 CodeseRestore0.m0
    utf8(d, "Code"); // #25
    // public final super synthetic, this #2, super #4, one interface #6, no fields, 3 methods
    hex(d, "1031000200040001000600000003");
    // public <init>()V { aload_0; invokespecial Object.<init>; return }
    hex(d, "0001000700080001001900000011");
    hex(d, "00010001000000052AB7000AB1");
    hex(d, "00000000");
    // static m0([Object;[Object;)V: stores into fields of table[1], then allocations
    hex(d, "0008000B000C0001001900000050");
    hex(d, "0004000300000040");
    hex(d, "2A0432C0000E4D2C120FB50013");
    hex(d, "2C2A0532C0000EB50017");
    hex(d, "2C2A0632C0000EB5001A");
    hex(d, "2A0532C0000E4D");
    hex(d, "2A032B0332B8001253");
    for (int i = 1; i <= 5; i++) {
      // table[i] = Entry.allocate(data[1]): iconst_1 to iconst_5
      d.append('\u002A').append((char) (0x03 + i));
      hex(d, "2B0432B8001253");
    }
    for (int i = 6; i <= 8; i++) {
      hex(d, "2A10").append((char) i);
      hex(d, "2B0432B8001253");
    }
    hex(d, "B1");
    hex(d, "00000000");
    // public accept(Object, Object) { m0((Object[]) a, (Object[]) b) }
    hex(d, "000100130014000100190000001E");
    hex(d, "0002000500000012");
    hex(d, "2BC000164E2CC000163A04");
    hex(d, "2D1904B80018B1");
    hex(d, "000000000000");
  }

  /** A {@code CONSTANT_Utf8} entry: tag 1, u2 length, the (ASCII) bytes. */
  private static void utf8(StringBuilder d, String s) {
    d.append('\u0001').append((char) (s.length() >>> 8)).append((char) (s.length() & 0xFF));
    d.append(s);
  }

  /** A {@code CONSTANT_Class} entry naming the {@code CONSTANT_Utf8} at {@code index}. */
  private static void classRef(StringBuilder d, int index) {
    d.append('\u0007').append((char) (index >>> 8)).append((char) (index & 0xFF));
  }

  /** Appends the bytes that {@code hex} spells, two upper-case hexadecimal digits a byte. */
  private static StringBuilder hex(StringBuilder d, String hex) {
    for (int i = 0; i < hex.length(); i += 2) {
      d.append((char) (digit(hex.charAt(i)) << 4 | digit(hex.charAt(i + 1))));
    }
    return d;
  }

  private static int digit(char c) {
    return c <= '9' ? c - '0' : c - 'A' + 10;
  }
}
