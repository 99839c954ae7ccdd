package org.codese.verify;

import java.util.ArrayList;
import java.util.List;

/**
 * A minimal, bounds-checked reader of the parts of a class file the grammar check needs: the
 * constant pool, the class's names, its fields, methods and attributes, and each method's code.
 * Anything malformed raises {@link IllegalArgumentException}. It deliberately depends on nothing,
 * so that checking a snapshot loads no bytecode library.
 */
final class ClassFile {
  // constant pool tags (JVMS §4.4)
  private static final int UTF8 = 1;
  private static final int INTEGER = 3;
  private static final int FLOAT = 4;
  private static final int LONG = 5;
  private static final int DOUBLE = 6;
  private static final int CLASS = 7;
  private static final int STRING = 8;
  static final int FIELDREF = 9;
  static final int METHODREF = 10;
  static final int INTERFACE_METHODREF = 11;
  private static final int NAME_AND_TYPE = 12;
  private static final int METHOD_HANDLE = 15;
  private static final int METHOD_TYPE = 16;
  private static final int DYNAMIC = 17;
  private static final int INVOKE_DYNAMIC = 18;
  private static final int MODULE = 19;
  private static final int PACKAGE = 20;

  /** Marks a constant-pool entry the grammar never loads (method handles, dynamic constants...). */
  static final Object FORBIDDEN = new Object();

  /** One method, with its code ({@code null} if it has none). */
  record Method(
      int access,
      String name,
      String descriptor,
      byte[] code,
      int handlers,
      int maxStack,
      int maxLocals) {}

  private final byte[] b;
  private int pos;
  private final int[] offsets;
  private final int[] tags;
  private final String[] strings;
  private final String[][] members;
  final int access;
  final String name;
  final String superName;
  final List<String> interfaces = new ArrayList<>();
  final List<String> fields = new ArrayList<>();
  final List<String> attributes = new ArrayList<>();
  final List<Method> methods = new ArrayList<>();

  private ClassFile(byte[] bytes) {
    this.b = bytes;
    if (u4() != 0xCAFEBABE) {
      throw new IllegalArgumentException("bad magic number");
    }
    u2();
    u2();
    int count = u2();
    offsets = new int[count];
    tags = new int[count];
    strings = new String[count];
    members = new String[count][];
    for (int i = 1; i < count; i++) {
      tags[i] = u1();
      offsets[i] = pos;
      switch (tags[i]) {
        case UTF8 -> skip(u2());
        case INTEGER,
            FLOAT,
            FIELDREF,
            METHODREF,
            INTERFACE_METHODREF,
            NAME_AND_TYPE,
            DYNAMIC,
            INVOKE_DYNAMIC ->
            skip(4);
        case LONG, DOUBLE -> {
          skip(8);
          i++; // takes two entries
        }
        case CLASS, STRING, METHOD_TYPE, MODULE, PACKAGE -> skip(2);
        case METHOD_HANDLE -> skip(3);
        default -> throw new IllegalArgumentException("unknown constant tag " + tags[i]);
      }
    }
    access = u2();
    name = className(u2());
    int sup = u2();
    superName = sup == 0 ? null : className(sup);
    for (int n = u2(); n > 0; n--) {
      interfaces.add(className(u2()));
    }
    for (int n = u2(); n > 0; n--) {
      u2();
      fields.add(utf8(u2()));
      u2();
      skipAttributes();
    }
    for (int n = u2(); n > 0; n--) {
      methods.add(method());
    }
    for (int n = u2(); n > 0; n--) {
      attributes.add(utf8(u2()));
      skip(u4());
    }
    if (pos != b.length) {
      throw new IllegalArgumentException((b.length - pos) + " bytes after the class file's end");
    }
  }

  static ClassFile parse(byte[] bytes) {
    try {
      return new ClassFile(bytes);
    } catch (RuntimeException e) {
      // not a catch of ArrayIndexOutOfBoundsException, whose class (and its superclass, both of
      // the runtime image) the verifier would load on every load
      if (e instanceof ArrayIndexOutOfBoundsException) {
        throw new IllegalArgumentException("truncated class file");
      }
      throw e;
    }
  }

  private Method method() {
    int acc = u2();
    String n = utf8(u2());
    String d = utf8(u2());
    byte[] code = null;
    int handlers = 0;
    int maxStack = 0;
    int maxLocals = 0;
    for (int a = u2(); a > 0; a--) {
      String attr = utf8(u2());
      int len = u4();
      int end = pos + len;
      if (attr.equals("Code")) {
        if (code != null) {
          throw new IllegalArgumentException("method " + n + " has two Code attributes");
        }
        maxStack = u2();
        maxLocals = u2();
        int codeLength = u4();
        code = java.util.Arrays.copyOfRange(b, pos, checkedEnd(codeLength));
        skip(codeLength);
        handlers = u2();
      }
      pos = checkedEnd(end - pos);
    }
    return new Method(acc, n, d, code, handlers, maxStack, maxLocals);
  }

  private void skipAttributes() {
    for (int n = u2(); n > 0; n--) {
      u2();
      skip(u4());
    }
  }

  private int checkedEnd(int len) {
    if (len < 0 || pos + (long) len > b.length) {
      throw new IllegalArgumentException("length " + len + " runs past the class file's end");
    }
    return pos + len;
  }

  private void skip(int n) {
    pos = checkedEnd(n);
  }

  private int u1() {
    return b[pos++] & 0xFF;
  }

  private int u2() {
    return (u1() << 8) | u1();
  }

  private int u4() {
    return (u2() << 16) | u2();
  }

  private int entry(int index, int tag) {
    if (index <= 0 || index >= tags.length || tags[index] != tag) {
      throw new IllegalArgumentException("constant " + index + " is not of kind " + tag);
    }
    return offsets[index];
  }

  private int at2(int off) {
    return ((b[off] & 0xFF) << 8) | (b[off + 1] & 0xFF);
  }

  private int at4(int off) {
    return (at2(off) << 16) | at2(off + 2);
  }

  String utf8(int index) {
    int off = entry(index, UTF8);
    if (strings[index] != null) {
      return strings[index];
    }
    int len = at2(off);
    StringBuilder sb = new StringBuilder(len);
    for (int i = off + 2, end = off + 2 + len; i < end; ) {
      int c = b[i++] & 0xFF;
      if (c < 0x80) {
        sb.append((char) c);
      } else if ((c & 0xE0) == 0xC0 && i < end) {
        sb.append((char) (((c & 0x1F) << 6) | (b[i++] & 0x3F)));
      } else if ((c & 0xF0) == 0xE0 && i + 1 < end) {
        sb.append((char) (((c & 0x0F) << 12) | ((b[i] & 0x3F) << 6) | (b[i + 1] & 0x3F)));
        i += 2;
      } else {
        throw new IllegalArgumentException("malformed modified UTF-8 in constant " + index);
      }
    }
    strings[index] = sb.toString();
    return strings[index];
  }

  String className(int index) {
    return utf8(at2(entry(index, CLASS)));
  }

  /**
   * @param index a constant-pool index
   * @param tag the kind the instruction needs: {@link #FIELDREF}, {@link #METHODREF} (a method of a
   *     class) or {@link #INTERFACE_METHODREF}; an instruction whose reference is of another kind
   *     fails at run time with {@code IncompatibleClassChangeError}, so it is malformed here
   * @return {owner, name, descriptor} of a field or method reference
   */
  String[] member(int index, int tag) {
    if (index <= 0 || index >= tags.length || tags[index] != tag) {
      throw new IllegalArgumentException(
          "constant "
              + index
              + " is not a "
              + (tag == FIELDREF ? "field" : tag == METHODREF ? "class method" : "interface method")
              + " reference, as its instruction needs");
    }
    if (members[index] == null) {
      int off = offsets[index];
      int nat = entry(at2(off + 2), NAME_AND_TYPE);
      members[index] = new String[] {className(at2(off)), utf8(at2(nat)), utf8(at2(nat + 2))};
    }
    return members[index];
  }

  /**
   * @return the value an {@code ldc} of {@code index} loads, or {@link #FORBIDDEN}
   */
  Object loadable(int index) {
    if (index <= 0 || index >= tags.length) {
      throw new IllegalArgumentException("constant " + index + " does not exist");
    }
    int off = offsets[index];
    return switch (tags[index]) {
      case INTEGER -> at4(off);
      case FLOAT -> Float.intBitsToFloat(at4(off));
      case LONG -> ((long) at4(off) << 32) | (at4(off + 4) & 0xFFFFFFFFL);
      case DOUBLE ->
          Double.longBitsToDouble(((long) at4(off) << 32) | (at4(off + 4) & 0xFFFFFFFFL));
      case STRING -> utf8(at2(off));
      default -> FORBIDDEN;
    };
  }

  /**
   * @return whether the pool holds entries the grammar never needs (handles, dynamic, modules)
   */
  boolean hasForbiddenConstants() {
    for (int t : tags) {
      if (t >= METHOD_HANDLE) {
        return true;
      }
    }
    return false;
  }
}
