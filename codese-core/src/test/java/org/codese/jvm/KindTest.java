package org.codese.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;

/** The kinds round-trip their descriptor characters and agree with the JVM's own names. */
class KindTest {
  @Test
  void descriptorCharactersRoundTrip() {
    assertEquals("ZBCSIJFDL", descriptors());
    for (Kind k : Kind.values()) {
      assertSame(k, Kind.ofDescriptor(k.descriptor()));
    }
  }

  private static String descriptors() {
    StringBuilder sb = new StringBuilder();
    for (Kind k : Kind.values()) {
      sb.append(k.descriptor());
    }
    return sb.toString();
  }

  @Test
  void unknownDescriptorsAreRefusedNotDefaulted() {
    for (char c : new char[] {'V', '[', 'X', 'd', 0}) {
      assertThrows(IllegalArgumentException.class, () -> Kind.ofDescriptor(c), "" + (int) c);
    }
  }

  @Test
  void primitiveKindsMatchTheirClassesAndTypes() {
    for (Kind k : Kind.values()) {
      if (!k.isPrimitive()) {
        continue;
      }
      assertSame(k, Kind.of(k.type()));
      assertSame(k, Kind.primitive(k.type()));
      assertEquals(String.valueOf(k.descriptor()), Types.descriptor(k.type()));
      assertEquals(k.descriptor(), Types.primitiveCode(k.type()));
    }
  }

  @Test
  void referencesAndVoid() {
    assertSame(Kind.REFERENCE, Kind.of(String.class));
    assertSame(Kind.REFERENCE, Kind.of(int[].class));
    assertFalse(Kind.REFERENCE.isPrimitive());
    assertTrue(Kind.INT.isPrimitive());
    assertThrows(IllegalArgumentException.class, () -> Kind.of(void.class));
    assertThrows(IllegalArgumentException.class, () -> Kind.primitive(String.class));
    assertThrows(IllegalStateException.class, Kind.REFERENCE::boxOwner);
    assertThrows(IllegalStateException.class, Kind.REFERENCE::setterSuffix);
  }

  @Test
  void boxClassesAndFieldSettersExist() throws ReflectiveOperationException {
    for (Kind k : Kind.values()) {
      if (!k.isPrimitive()) {
        continue;
      }
      Class<?> box = Class.forName(k.boxOwner().replace('/', '.'));
      assertSame(k.type(), box.getField("TYPE").get(null));
      Field.class.getMethod("set" + k.setterSuffix(), Object.class, k.type());
    }
  }
}
