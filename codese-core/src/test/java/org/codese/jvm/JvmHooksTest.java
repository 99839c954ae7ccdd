package org.codese.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

/**
 * {@link Jvm#readObject} and {@link Jvm#writeObject} find a class's serialization methods exactly
 * where {@code ObjectStreamClass} does: private, non-static, {@code void}, one stream parameter,
 * declared by the class itself, on a {@code Serializable} class.
 */
class JvmHooksTest {
  static class Plain implements Serializable {}

  static class Both implements Serializable {
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
    }
  }

  /** Inherits Both's methods, which Java serialization calls for Both's part only. */
  static class Sub extends Both {}

  static class NotPrivate implements Serializable {
    void readObject(ObjectInputStream in) {}
  }

  static class Static implements Serializable {
    private static void readObject(ObjectInputStream in) {}
  }

  static class Returns implements Serializable {
    private Object readObject(ObjectInputStream in) {
      return null;
    }
  }

  static class OtherParameter implements Serializable {
    private void readObject(java.io.ObjectInput in) {}
  }

  static class NotSerializable {
    private void readObject(ObjectInputStream in) {}
  }

  @Test
  void findsTheDeclaredPrivateMethods() {
    assertNotNull(Jvm.readObject(Both.class));
    assertNotNull(Jvm.writeObject(Both.class));
    assertTrue(Jvm.declaresReadObject(Both.class));
    assertEquals(
        MethodType.methodType(void.class, Both.class, ObjectInputStream.class),
        Jvm.readObject(Both.class).type());
  }

  @Test
  void ignoresEveryOtherShape() {
    for (Class<?> c :
        new Class<?>[] {
          Plain.class,
          Sub.class,
          NotPrivate.class,
          Static.class,
          Returns.class,
          OtherParameter.class
        }) {
      assertNull(Jvm.readObject(c), c.getSimpleName());
      assertNull(Jvm.writeObject(c), c.getSimpleName());
      assertFalse(Jvm.declaresReadObject(c), c.getSimpleName());
    }
  }

  @Test
  void aClassThatIsNotSerializableHasNoReadObject() {
    assertTrue(Jvm.declaresReadObject(NotSerializable.class));
    assertNull(Jvm.readObject(NotSerializable.class));
  }

  @Test
  void jdkClassesAsObjectStreamClassSeesThem() {
    assertNotNull(Jvm.readObject(java.util.ArrayList.class));
    assertNotNull(Jvm.readObject(java.util.HashMap.class));
    assertNull(Jvm.readObject(java.util.AbstractList.class));
    assertNull(Jvm.readObject(Integer.class));
  }
}
