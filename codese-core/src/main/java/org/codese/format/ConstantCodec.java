package org.codese.format;

import java.nio.ByteBuffer;
import org.codese.CorruptSnapshotException;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Tape;

/**
 * Decodes constant-table entries, checking every index on the way in; {@link ConstantWriter}
 * encodes them.
 */
final class ConstantCodec {
  static final int TYPE_REF = 1;
  static final int ENUM_REF = 2;
  static final int ALLOCATOR = 3;
  static final int ARRAY_MAKER = 4;
  static final int SETTER = 5;
  static final int TEXT = 6;
  static final int PRIM_ARRAY = 7;
  static final int HOOK = 8;
  static final int TEXTS = 9;
  static final int STREAM_CLASS_REF = 10;
  static final int SIZED = 11;
  static final int STATIC_REF = 12;
  static final int NAMED_REF = 13;

  private ConstantCodec() {}

  /**
   * The type code of an {@code int} array written raw (four big-endian bytes an element) in the
   * compact form, where {@code 'I'} is one of differences as variable-length integers: every array
   * past the first {@code Out.COMPACT_INTS} elements of a snapshot or segment.
   */
  static final char RAW_INTS = 'i';

  /**
   * The type code of an {@code int} array written as a range: its length, first element and step
   * (each a zigzag variable-length integer); element {@code i} is {@code first + i * step} in
   * {@code int} arithmetic. Only in the constants of the packed form (format version {@link
   * SnapshotFile#PACKED_VERSION} on): ids of objects created in order and columns of consecutive
   * ids, which otherwise cost a byte an element within {@code Out.COMPACT_INTS} and four past it.
   */
  static final char RANGE = 'r';

  /** The shortest {@code int} array written as a range: shorter ones cost as little as varints. */
  static final int MIN_RANGE = 8;

  /** The elements {@link #fillRange} fills per call of its loop method. */
  static final int RANGE_CHUNK = 64;

  /**
   * Reads one constant of a file of format {@code version}: the global references of format {@link
   * Grammar#GLOBAL_VERSION} are rejected in files of earlier versions.
   */
  static Constant read(In in, int version, int classes, int tableSize)
      throws CorruptSnapshotException {
    int tag = in.u1();
    if ((tag == STATIC_REF || tag == NAMED_REF) && version < Grammar.GLOBAL_VERSION) {
      throw in.corrupt(
          "constant tag "
              + tag
              + " (a global reference) exists from format version "
              + Grammar.GLOBAL_VERSION
              + " on; this file is of version "
              + version);
    }
    switch (tag) {
      case TYPE_REF:
        return new Constant.TypeRef(in.index(0, classes, "class index"));
      case STREAM_CLASS_REF:
        return new Constant.StreamClassRef(in.index(0, classes, "class index"));
      case ENUM_REF:
        return new Constant.EnumRef(in.index(0, classes, "class index"), in.str());
      case STATIC_REF:
        return new Constant.StaticRef(in.index(0, classes, "class index"), in.str());
      case NAMED_REF:
        return new Constant.NamedRef(in.str());
      case ALLOCATOR:
        return new Constant.Allocator(
            in.index(0, classes, "class index"), enumAt(Constant.Mode.values(), in.u1(), in));
      case SIZED:
        int sizedType = in.index(0, classes, "class index");
        int capacity = in.u4() - 1;
        if (capacity < -1) {
          throw in.corrupt("a collection's initial capacity is negative");
        }
        return new Constant.Sized(sizedType, capacity);
      case ARRAY_MAKER:
        return new Constant.ArrayMaker(in.index(0, classes, "class index"));
      case SETTER:
        return new Constant.Setter(in.index(0, classes, "class index"), in.str(), in.str());
      case TEXT:
        return new Constant.Text(in.str());
      case PRIM_ARRAY:
        return new Constant.PrimArray(readArray(in));
      case TEXTS:
        String[] texts = new String[in.count(4)];
        for (int i = 0; i < texts.length; i++) {
          texts[i] = in.str();
        }
        return new Constant.Texts(texts);
      case HOOK:
        Constant.HookKind kind = enumAt(Constant.HookKind.values(), in.u1(), in);
        int type = in.index(0, classes, "class index");
        int id = in.index(0, tableSize, "object id");
        return new Constant.Hook(kind, type, id, readTape(in, tableSize));
      default:
        throw in.corrupt("unknown constant tag " + tag);
    }
  }

  private static <E> E enumAt(E[] values, int ordinal, In in) throws CorruptSnapshotException {
    if (ordinal >= values.length) {
      throw in.corrupt("unknown kind " + ordinal);
    }
    return values[ordinal];
  }

  static Tape readTape(In in, int tableSize) throws CorruptSnapshotException {
    int present = in.u1();
    if (present == 0) {
      return null;
    }
    byte[] data = in.bytes();
    int n = in.count(4);
    if (n % 2 != 0) {
      throw in.corrupt("tape has an odd number of item words");
    }
    int[] items = new int[n];
    long dataUsed = 0;
    for (int i = 0; i < n; i += 2) {
      int kind = in.u4();
      int arg = in.u4();
      if (kind == Tape.OBJECT
          ? arg < -1 || arg >= tableSize
          : kind == Tape.BACK_REFERENCE
              ? arg < 0 || arg >= tableSize
              : kind == Tape.BLOCK
                  ? arg <= 0 || (dataUsed += arg) > data.length
                  : kind != Tape.FIELDS || arg < 0 || arg > (n - i) / 2) {
        throw in.corrupt("bad tape item (" + kind + ", " + arg + ")");
      }
      items[i] = kind;
      items[i + 1] = arg;
    }
    return new Tape(data, items);
  }

  /** Reads a range after its type code: length (bounded by {@link In#rangeLength}), first, step. */
  private static int[] readRange(In in) throws CorruptSnapshotException {
    int[] a = new int[in.rangeLength()];
    int v = in.u4();
    int step = in.u4();
    for (int from = 0; from < a.length; from += RANGE_CHUNK) {
      v = fillRange(a, from, Math.min(a.length, from + RANGE_CHUNK), v, step);
    }
    return a;
  }

  /**
   * Elements {@code [from, to)} of a range, the first {@code v}; returns the next. A method called
   * per chunk, as {@code In.deltaInts} does, so that HotSpot compiles it early in a cold JVM.
   */
  private static int fillRange(int[] a, int from, int to, int v, int step) {
    int x = v;
    for (int i = from; i < to; i++) {
      a[i] = x;
      x += step;
    }
    return x;
  }

  private static Object readArray(In in) throws CorruptSnapshotException {
    int code = in.u1();
    if (code == RANGE) {
      return readRange(in);
    }
    if (in.compact() && code == RAW_INTS) {
      int[] a = new int[in.rawCount(4)];
      in.view(a.length * 4).asIntBuffer().get(a);
      return a;
    }
    if ("ZBCSIJFD".indexOf(code) < 0) {
      throw in.corrupt("unknown array type " + code);
    }
    char c = (char) code;
    boolean varints = in.compact() && (c == 'I' || c == 'J');
    // raw elements have their full size in every mode: a length checked at one byte an element
    // could claim 2^29 doubles, whose byte count overflows an int
    int len = varints ? in.count(1) : in.rawCount(Types.size(c));
    if (in.compact() && c == 'I') {
      return in.deltaInts(len);
    }
    if (in.compact() && c == 'J') {
      long[] a = new long[len];
      for (int i = 0; i < len; i++) {
        a[i] = in.varint(10);
      }
      return a;
    }
    if (c == 'B') {
      return in.raw(len);
    } else if (c == 'Z') {
      return in.booleans(len);
    }
    ByteBuffer b = in.view(len * Types.size(c));
    switch (c) {
      case 'C' -> {
        char[] a = new char[len];
        b.asCharBuffer().get(a);
        return a;
      }
      case 'S' -> {
        short[] a = new short[len];
        b.asShortBuffer().get(a);
        return a;
      }
      case 'I' -> {
        int[] a = new int[len];
        b.asIntBuffer().get(a);
        return a;
      }
      case 'J' -> {
        long[] a = new long[len];
        b.asLongBuffer().get(a);
        return a;
      }
      case 'F' -> {
        float[] a = new float[len];
        b.asFloatBuffer().get(a);
        return a;
      }
      case 'D' -> {
        double[] a = new double[len];
        b.asDoubleBuffer().get(a);
        return a;
      }
      default -> throw new IllegalStateException("array type " + c + " passed the check above");
    }
  }
}
