package org.codese.format;

import java.lang.reflect.Array;
import org.codese.CorruptSnapshotException;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Tape;

/** Encodes and decodes constant-table entries, checking every index on the way in. */
final class ConstantCodec {
  private static final int TYPE_REF = 1;
  private static final int ENUM_REF = 2;
  private static final int ALLOCATOR = 3;
  private static final int ARRAY_MAKER = 4;
  private static final int SETTER = 5;
  private static final int TEXT = 6;
  private static final int PRIM_ARRAY = 7;
  private static final int HOOK = 8;

  private ConstantCodec() {}

  static void write(Out out, Constant c) {
    if (c instanceof Constant.TypeRef t) {
      out.u1(TYPE_REF).u4(t.type());
    } else if (c instanceof Constant.EnumRef e) {
      out.u1(ENUM_REF).u4(e.type()).str(e.name());
    } else if (c instanceof Constant.Allocator a) {
      out.u1(ALLOCATOR).u4(a.type()).u1(a.mode().ordinal());
    } else if (c instanceof Constant.ArrayMaker a) {
      out.u1(ARRAY_MAKER).u4(a.type());
    } else if (c instanceof Constant.Setter s) {
      out.u1(SETTER).u4(s.type()).str(s.field()).str(s.descriptor());
    } else if (c instanceof Constant.Text t) {
      out.u1(TEXT).str(t.value());
    } else if (c instanceof Constant.PrimArray p) {
      writeArray(out.u1(PRIM_ARRAY), p.array());
    } else if (c instanceof Constant.Hook h) {
      out.u1(HOOK).u1(h.kind().ordinal()).u4(h.type()).u4(h.id());
      writeTape(out, h.tape());
    } else {
      throw new IllegalArgumentException("unknown constant " + c);
    }
  }

  static Constant read(In in, int classes, int tableSize) throws CorruptSnapshotException {
    int tag = in.u1();
    switch (tag) {
      case TYPE_REF:
        return new Constant.TypeRef(in.index(0, classes, "class index"));
      case ENUM_REF:
        return new Constant.EnumRef(in.index(0, classes, "class index"), in.str());
      case ALLOCATOR:
        return new Constant.Allocator(in.index(0, classes, "class index"),
            enumAt(Constant.Mode.values(), in.u1(), in));
      case ARRAY_MAKER:
        return new Constant.ArrayMaker(in.index(0, classes, "class index"));
      case SETTER:
        return new Constant.Setter(in.index(0, classes, "class index"), in.str(), in.str());
      case TEXT:
        return new Constant.Text(in.str());
      case PRIM_ARRAY:
        return new Constant.PrimArray(readArray(in));
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

  static void writeTape(Out out, Tape tape) {
    if (tape == null) {
      out.u1(0);
      return;
    }
    out.u1(1).bytes(tape.data()).u4(tape.items().length);
    for (int v : tape.items()) {
      out.u4(v);
    }
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
      if (kind == Tape.OBJECT ? arg < -1 || arg >= tableSize
          : kind == Tape.BLOCK ? arg <= 0 || (dataUsed += arg) > data.length
          : kind != Tape.FIELDS || arg < 0 || arg > (n - i) / 2) {
        throw in.corrupt("bad tape item (" + kind + ", " + arg + ")");
      }
      items[i] = kind;
      items[i + 1] = arg;
    }
    return new Tape(data, items);
  }

  private static void writeArray(Out out, Object array) {
    char code = Types.primitiveCode(array.getClass().getComponentType());
    int len = Array.getLength(array);
    out.u1(code).u4(len);
    Out o = out;
    for (int i = 0; i < len; i++) {
      long bits = Types.bits(Array.get(array, i));
      switch (Types.size(code)) {
        case 1 -> o.u1((int) bits);
        case 2 -> o.u2((int) bits);
        case 4 -> o.u4((int) bits);
        default -> o.u8(bits);
      }
    }
  }

  private static Object readArray(In in) throws CorruptSnapshotException {
    int code = in.u1();
    if ("ZBCSIJFD".indexOf(code) < 0) {
      throw in.corrupt("unknown array type " + code);
    }
    char c = (char) code;
    int size = Types.size(c);
    int len = in.count(size);
    Object array = Array.newInstance(Types.primitiveClass(c), len);
    for (int i = 0; i < len; i++) {
      long bits = switch (size) {
        case 1 -> (byte) in.u1();
        case 2 -> (short) in.u2();
        case 4 -> in.u4();
        default -> in.u8();
      };
      if (c == 'C') {
        bits &= 0xFFFF;
      }
      Array.set(array, i, Types.box(c, bits));
    }
    return array;
  }
}
