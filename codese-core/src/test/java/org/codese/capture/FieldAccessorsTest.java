package org.codese.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.Codese;
import org.codese.jvm.SerialClass;
import org.codese.jvm.Slot;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;

/**
 * The field readers {@link FieldAccessors} generates read what reflection reads, field by field and
 * bit by bit, and a capture gives the same snapshot before and after its classes get one.
 */
class FieldAccessorsTest {
  /** Every primitive kind, private and final fields, references. */
  static class Base implements Serializable {
    private static final long serialVersionUID = 1L;
    protected long baseLong = -7;
    Object baseRef = "base";
  }

  static final class AllKinds extends Base {
    private static final long serialVersionUID = 1L;
    private final boolean z;
    private final byte b;
    private final char c;
    private final short s;
    private final int i;
    private final long j;
    private final float f;
    private final double d;
    private final String text;
    private final Object self;
    transient int skipped = 99;

    AllKinds(int k) {
      z = k % 2 == 1;
      b = (byte) (-k);
      c = (char) (0xFFFF - k);
      s = (short) (-1000 * k);
      i = Integer.MIN_VALUE + k;
      j = Long.MAX_VALUE - k;
      f = k == 3 ? Float.intBitsToFloat(0x7fc00001) : -1.5f * k;
      d = k == 4 ? Double.longBitsToDouble(0x7ff0000000000123L) : Math.PI * k;
      text = "t" + k;
      self = this;
    }
  }

  record Point(int x, double y, String label) implements Serializable {}

  private static void sameAsReflection(Object obj) throws Exception {
    for (Slot slot : SerialClass.of(obj.getClass()).slots()) {
      if (!slot.direct()) {
        continue;
      }
      FieldAccess access = FieldAccessors.make(slot);
      assertNotNull(access, slot.type().getName());
      long[] expectedPrims = new long[slot.reader().primitives()];
      Object[] expectedRefs = new Object[slot.reader().references()];
      slot.reader().readPrimitives(obj, expectedPrims);
      slot.reader().readReferences(obj, expectedRefs);
      long[] prims = new long[expectedPrims.length];
      Object[] refs = new Object[expectedRefs.length];
      access.read(obj, prims, refs);
      assertArrayEquals(expectedPrims, prims, slot.type().getName());
      for (int k = 0; k < refs.length; k++) {
        assertSame(expectedRefs[k], refs[k], slot.type().getName() + " reference " + k);
      }
    }
  }

  @Test
  void generatedReadersReadWhatReflectionReads() throws Exception {
    for (int k = 0; k < 6; k++) {
      sameAsReflection(new AllKinds(k));
    }
    sameAsReflection(new Point(-3, Double.NaN, "p"));
    sameAsReflection(new Point(0, -0.0, null));
  }

  @Test
  void classesOfOtherModulesKeepReflection() {
    Slot slot = SerialClass.of(java.util.Date.class).slots().get(0);
    assertNull(FieldAccessors.of(slot), "java.base cannot host a generated reader");
  }

  /** A class of its own, so that no other test has taken it past the threshold. */
  static final class Counted implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int n;
    private final Counted next;
    private final double weight;

    Counted(int n, Counted next) {
      this.n = n;
      this.next = next;
      this.weight = n / 3.0;
    }
  }

  @Test
  void capturesBeforeAndAfterTheThresholdAreTheSameSnapshot() throws Exception {
    List<Object> roots = new ArrayList<>();
    Counted chain = null;
    for (int k = 0; k < FieldAccessors.THRESHOLD / 4; k++) {
      chain = new Counted(k, k % 3 == 0 ? null : chain);
      roots.add(chain);
    }
    byte[] first = Codese.toBytes(roots); // read by reflection
    for (int k = 0; k < 4; k++) {
      Codese.toBytes(roots); // past the threshold during one of these
    }
    Slot slot = SerialClass.of(Counted.class).slots().get(0);
    assertNotNull(FieldAccessors.of(slot), "generated after the threshold");
    byte[] after = Codese.toBytes(roots);
    assertArrayEquals(first, after);
    assertArrayEquals(JdkBytes.serialize(roots), JdkBytes.serialize(Codese.fromBytes(after)));
  }
}
