package org.codese.format;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.Tape;

/**
 * Encodes constant-table entries as {@link ConstantCodec} decodes them: one constant, its tag then
 * its fields. Apart from the decoder so that a cold load, which reads constants and never writes
 * one, does not load, parse and verify this code.
 */
final class ConstantWriter implements Constant.Visitor<Void, RuntimeException> {
  private final Out out;

  private ConstantWriter(Out out) {
    this.out = out;
  }

  /** Writes {@code c} to {@code out}. */
  static void write(Out out, Constant c) {
    c.accept(new ConstantWriter(out));
  }

  @Override
  public Void visitTypeRef(Constant.TypeRef t) {
    out.u1(ConstantCodec.TYPE_REF).u4(t.type());
    return null;
  }

  @Override
  public Void visitStreamClassRef(Constant.StreamClassRef t) {
    out.u1(ConstantCodec.STREAM_CLASS_REF).u4(t.type());
    return null;
  }

  @Override
  public Void visitEnumRef(Constant.EnumRef e) {
    out.u1(ConstantCodec.ENUM_REF).u4(e.type()).str(e.name());
    return null;
  }

  @Override
  public Void visitStaticRef(Constant.StaticRef r) {
    out.u1(ConstantCodec.STATIC_REF).u4(r.type()).str(r.field());
    return null;
  }

  @Override
  public Void visitNamedRef(Constant.NamedRef r) {
    out.u1(ConstantCodec.NAMED_REF).str(r.name());
    return null;
  }

  @Override
  public Void visitAllocator(Constant.Allocator a) {
    out.u1(ConstantCodec.ALLOCATOR).u4(a.type()).u1(a.mode().ordinal());
    return null;
  }

  @Override
  public Void visitSized(Constant.Sized s) {
    // the no-arg constructor's -1 as 0: the compact form has no negative numbers
    out.u1(ConstantCodec.SIZED).u4(s.type()).u4(s.capacity() + 1);
    return null;
  }

  @Override
  public Void visitArrayMaker(Constant.ArrayMaker a) {
    out.u1(ConstantCodec.ARRAY_MAKER).u4(a.type());
    return null;
  }

  @Override
  public Void visitSetter(Constant.Setter s) {
    out.u1(ConstantCodec.SETTER).u4(s.type()).str(s.field()).str(s.descriptor());
    return null;
  }

  @Override
  public Void visitText(Constant.Text t) {
    out.u1(ConstantCodec.TEXT).str(t.value());
    return null;
  }

  @Override
  public Void visitPrimArray(Constant.PrimArray p) {
    writeArray(out.u1(ConstantCodec.PRIM_ARRAY), p.array());
    return null;
  }

  @Override
  public Void visitTexts(Constant.Texts t) {
    out.u1(ConstantCodec.TEXTS).u4(t.values().length);
    for (String v : t.values()) {
      out.str(v);
    }
    return null;
  }

  @Override
  public Void visitHook(Constant.Hook h) {
    out.u1(ConstantCodec.HOOK).u1(h.kind().ordinal()).u4(h.type()).u4(h.id());
    writeTape(out, h.tape());
    return null;
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

  private static void writeArray(Out out, Object array) {
    char code = Types.primitiveCode(array.getClass().getComponentType());
    int len = Array.getLength(array);
    if (code == 'I' && isRange((int[]) array) && out.takeRange(len)) {
      int[] a = (int[]) array;
      out.u1(ConstantCodec.RANGE).varint(len).varint(a[0]).varint(a[1] - a[0]);
      return;
    }
    if (out.compact() && code == 'I' && out.takeCompactInts(len)) {
      // ids and int columns: each the zigzag difference from the one before, often one byte
      out.u1(code).u4(len).intDeltas((int[]) array);
      return;
    }
    if (out.compact() && code == 'J') {
      out.u1(code).u4(len).varints((long[]) array);
      return;
    }
    if (code == 'Z') {
      // a byte each, written in place: not through a buffer of its own
      out.u1(code).u4(len).booleans((boolean[]) array);
      return;
    }
    if (code == 'I') {
      // written in place: not through a buffer of its own
      out.u1(out.compact() ? ConstantCodec.RAW_INTS : code).u4(len).ints((int[]) array);
      return;
    }
    ByteBuffer b = ByteBuffer.allocate(len * Types.size(code));
    switch (code) {
      case 'B' -> b.put((byte[]) array);
      case 'C' -> b.asCharBuffer().put((char[]) array);
      case 'S' -> b.asShortBuffer().put((short[]) array);
      case 'I' -> b.asIntBuffer().put((int[]) array);
      case 'J' -> b.asLongBuffer().put((long[]) array);
      case 'F' -> b.asFloatBuffer().put((float[]) array);
      case 'D' -> b.asDoubleBuffer().put((double[]) array);
      default -> throw new IllegalArgumentException("not a primitive array: " + array);
    }
    // a compact int array past the budget stays raw: read by a bulk copy, not element by element
    // in a cold JVM
    out.u1(out.compact() && code == 'I' ? ConstantCodec.RAW_INTS : code).u4(len).raw(b.array());
  }

  /**
   * Whether {@code a} has at least {@link ConstantCodec#MIN_RANGE} elements, each the one before
   * plus one step.
   */
  static boolean isRange(int[] a) {
    if (a.length < ConstantCodec.MIN_RANGE) {
      return false;
    }
    int step = a[1] - a[0];
    for (int i = 2; i < a.length; i++) {
      if (a[i] - a[i - 1] != step) {
        return false;
      }
    }
    return true;
  }
}
