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

  /** Calls the setter of {@code kind} on {@code store}. */
  private static void setAny(FieldStore store, char kind, Object target) throws Exception {
    switch (kind) {
      case 'Z' -> store.setBoolean(target, true);
      case 'B' -> store.setByte(target, (byte) 1);
      case 'C' -> store.setChar(target, 'c');
      case 'S' -> store.setShort(target, (short) 1);
      case 'I' -> store.setInt(target, 1);
      case 'J' -> store.setLong(target, 1);
      case 'F' -> store.setFloat(target, 1);
      case 'D' -> store.setDouble(target, 1);
      default -> store.set(target, "x");
    }
  }

  private static final String KINDS = "ZBCSIJFDL";
  private static final String[] NAMES = {"z", "b", "c", "s", "i", "j", "f", "d", "text"};

  @Test
  void everySetterChecksItsTargetAndItsKind() throws Exception {
    for (int k = 0; k < KINDS.length(); k++) {
      FieldStore store = store(NAMES[k]);
      char kind = KINDS.charAt(k);
      assertThrows(IllegalArgumentException.class, () -> setAny(store, kind, new Object()));
      assertThrows(NullPointerException.class, () -> setAny(store, kind, null));
      char other = KINDS.charAt((k + 1) % KINDS.length());
      assertThrows(IllegalArgumentException.class, () -> setAny(store, other, new Finals()));
    }
  }

  @Test
  void inertStoresOfEveryKindNeverStore() throws Exception {
    for (int k = 0; k < KINDS.length(); k++) {
      Field f = Finals.class.getDeclaredField(NAMES[k]);
      f.setAccessible(true);
      FieldStore inert = FieldStore.inert(f);
      Finals o = new Finals();
      Object before = o.read(NAMES[k]);
      char kind = KINDS.charAt(k);
      assertThrows(IllegalStateException.class, () -> setAny(inert, kind, o));
      assertEquals(before, o.read(NAMES[k]));
    }
  }

  @Test
  void refusesAFieldOfAHiddenClass() throws Exception {
    org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(0);
    String name = "org/codese/runtime/HiddenHolder";
    cw.visit(
        org.objectweb.asm.Opcodes.V11,
        org.objectweb.asm.Opcodes.ACC_PUBLIC,
        name,
        null,
        "java/lang/Object",
        null);
    cw.visitField(org.objectweb.asm.Opcodes.ACC_PUBLIC, "value", "I", null, null).visitEnd();
    cw.visitEnd();
    Class<?> hidden =
        java.lang.invoke.MethodHandles.lookup()
            .defineHiddenClass(cw.toByteArray(), false)
            .lookupClass();
    Field f = hidden.getDeclaredField("value");
    f.setAccessible(true);
    assertThrows(IllegalArgumentException.class, () -> FieldStore.of(f));
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
