package org.codese.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link FieldReader}: made once per slot (so once per class, through {@link SerialClass}'s cache)
 * and reading every primitive type to the same raw bits as {@code Types.bits(field.get(obj))}, the
 * boxing reflection it replaced.
 */
class FieldReaderTest {
  static class AllTypes implements Serializable {
    private static final long serialVersionUID = 1L;
    int i = -7;
    long j = Long.MIN_VALUE + 3;
    boolean z = true;
    byte b = -128;
    char c = '\uFFFE';
    short s = -2;
    float f = Float.intBitsToFloat(0x7FC00123); // a NaN with payload: raw bits, not canonical
    double d = -0.0;
    Object o = "x";
    String t;
  }

  @Test
  void aClosedClassesOffsetsAreTakenOnceBeforeJdk24AndUnusedAfter() throws IOException {
    // ArrayList's one serial field, size: java.util is closed to reflection
    Slot slot = SerialClass.of(java.util.ArrayList.class).slots().get(0);
    assertEquals(false, slot.accessible());
    long offset = slot.reader().offset(0);
    if (Jvm.hasDefaultFieldHandles()) {
      assertEquals(-1, offset, "JDK 24+ writes through ReflectionFactory's handles");
    } else {
      assertTrue(offset > 0);
      assertEquals(offset, slot.reader().offset(0));
    }
    // and the default fields read and write through them as before
    java.util.ArrayList<Object> list = new java.util.ArrayList<>(List.of("a", "b"));
    FieldValues v = SlotFields.read(slot, list);
    assertArrayEquals(new long[] {2}, v.prims());
    SlotFields.write(slot, list, new FieldValues(new long[] {1}, new Object[0]));
    assertEquals(1, list.size());
  }

  @Test
  void madeOncePerClass() {
    Slot first = SerialClass.of(AllTypes.class).slots().get(0);
    Slot again = SerialClass.of(AllTypes.class).slots().get(0);
    assertSame(first.reader(), again.reader());
    assertEquals(8, first.reader().primitives());
    assertEquals(2, first.reader().references());
  }

  @Test
  void readsTheBitsReflectionGives() throws Exception {
    AllTypes obj = new AllTypes();
    Slot slot = SerialClass.of(AllTypes.class).slots().get(0);
    FieldReader reader = slot.reader();
    long[] prims = new long[reader.primitives()];
    Object[] refs = new Object[reader.references()];
    reader.readPrimitives(obj, prims);
    reader.readReferences(obj, refs);
    List<SerialField> fields = slot.fields();
    long[] expected = new long[prims.length];
    for (int k = 0; k < expected.length; k++) {
      Field f = fields.get(k).field();
      expected[k] = Types.bits(f.get(obj));
    }
    assertArrayEquals(expected, prims);
    assertArrayEquals(new Object[] {"x", null}, refs);
    assertEquals(expected.length, SlotFields.read(slot, obj).prims().length);
    assertArrayEquals(expected, SlotFields.read(slot, obj).prims());
  }
}
