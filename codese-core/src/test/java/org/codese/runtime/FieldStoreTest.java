package org.codese.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;

/** {@link FieldStore} stores what {@code Field.set*} stores and refuses what it refuses. */
class FieldStoreTest {
  static final class Finals {
    private final boolean z = false;
    private final byte b = 0;
    private final char c = 0;
    private final short s = 0;
    private final int i = 0;
    private final long j = 0;
    private final float f = 0;
    private final double d = 0;
    private final CharSequence text = null;
    static int shared;

    Object read(String name) throws ReflectiveOperationException {
      return Finals.class.getDeclaredField(name).get(this);
    }
  }

  record Point(int x) {}

  private static FieldStore store(String name) throws NoSuchFieldException {
    Field f = Finals.class.getDeclaredField(name);
    f.setAccessible(true);
    return FieldStore.of(f);
  }

  @Test
  void storesEveryKindIntoFinalFields() throws Exception {
    Finals o = new Finals();
    store("z").setBoolean(o, true);
    store("b").setByte(o, (byte) -5);
    store("c").setChar(o, '\uffee');
    store("s").setShort(o, (short) -300);
    store("i").setInt(o, Integer.MIN_VALUE);
    store("j").setLong(o, Long.MAX_VALUE);
    store("f").setFloat(o, Float.intBitsToFloat(0x7fc00001));
    store("d").setDouble(o, -0.0);
    StringBuilder text = new StringBuilder("x");
    store("text").set(o, text);
    assertEquals(true, o.read("z"));
    assertEquals((byte) -5, o.read("b"));
    assertEquals('\uffee', o.read("c"));
    assertEquals((short) -300, o.read("s"));
    assertEquals(Integer.MIN_VALUE, o.read("i"));
    assertEquals(Long.MAX_VALUE, o.read("j"));
    assertEquals(0x7fc00001, Float.floatToRawIntBits((Float) o.read("f")));
    assertEquals(
        Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) o.read("d")));
    assertSame(text, o.read("text"));
    store("text").set(o, null);
    assertEquals(null, o.read("text"));
  }

  @Test
  void refusesWhatFieldSetRefuses() throws Exception {
    FieldStore text = store("text");
    assertThrows(NullPointerException.class, () -> text.set(null, "a"));
    assertThrows(IllegalArgumentException.class, () -> text.set("not a Finals", "a"));
    assertThrows(IllegalArgumentException.class, () -> text.set(new Finals(), Integer.valueOf(1)));
    assertThrows(IllegalArgumentException.class, () -> text.setInt(new Finals(), 1));
    FieldStore i = store("i");
    assertThrows(IllegalArgumentException.class, () -> i.setLong(new Finals(), 1));
    assertThrows(IllegalArgumentException.class, () -> i.setInt(new Object(), 1));
  }

  @Test
  void isMadeOnlyForAccessibleInstanceFieldsOfOrdinaryClasses() throws Exception {
    Field notAccessible = Finals.class.getDeclaredField("i");
    assertThrows(IllegalArgumentException.class, () -> FieldStore.of(notAccessible));
    Field statik = Finals.class.getDeclaredField("shared");
    statik.setAccessible(true);
    assertThrows(IllegalArgumentException.class, () -> FieldStore.of(statik));
    Field component = Point.class.getDeclaredField("x");
    component.setAccessible(true);
    assertThrows(IllegalArgumentException.class, () -> FieldStore.of(component));
  }

  @Test
  void anInertStoreNeverStores() throws Exception {
    Field f = Finals.class.getDeclaredField("i");
    FieldStore inert = FieldStore.inert(f);
    Finals o = new Finals();
    assertThrows(IllegalStateException.class, () -> inert.setInt(o, 7));
    assertThrows(IllegalStateException.class, () -> inert.set(o, null));
    assertEquals(0, o.read("i"));
    assertSame(f, inert.field());
  }
}
