package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.junit.jupiter.api.Test;

/**
 * The serialization-constructor rule for chains of serializable classes in one package, where
 * {@code SurfaceRulesTest}'s JDK classes never go: a serializable superclass with only private
 * constructors is passed through by a nestmate subclass. Each case is checked against what {@code
 * ObjectInputStream} itself does with the class. (A subclass that is no nestmate cannot call such a
 * constructor in Java source; only crafted bytecode could declare one.)
 */
class SerialConstructorRuleTest {
  /** Serializable, with only a private constructor. */
  static class PrivateOnly implements Serializable {
    private static final long serialVersionUID = 1L;

    private PrivateOnly(int unused) {}
  }

  /** A nestmate of {@link PrivateOnly}, so it may call its private constructor. */
  static final class NestmateSub extends PrivateOnly {
    private static final long serialVersionUID = 1L;

    NestmateSub() {
      super(1);
    }
  }

  /**
   * @return whether {@code ObjectInputStream} restores {@code o}, or refuses its class
   */
  private static boolean jdkRestores(Object o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      in.readObject();
      return true;
    } catch (InvalidClassException e) {
      assertTrue(e.getMessage().contains("no valid constructor"), e.getMessage());
      return false;
    }
  }

  @Test
  void aNestmateSubclassPassesThroughPrivateConstructors() throws Exception {
    assertTrue(jdkRestores(new NestmateSub()));
    assertEquals(Object.class, org.codese.jvm.Jvm.serialInitClass(NestmateSub.class));
  }

  @Test
  void aPrivateNoArgConstructorOfTheFirstNonSerializableClassIsNoValidConstructor()
      throws Exception {
    assertEquals(false, jdkRestores(new SurfaceRulesTest.OverPrivateBase()));
    assertNull(org.codese.jvm.Jvm.serialInitClass(SurfaceRulesTest.OverPrivateBase.class));
  }
}
