package org.codese.capture;

import org.codese.jvm.Kind;
import org.codese.jvm.Types;

/**
 * Makes {@link Node.Box}es: what the planner needs of a box (its primitive kind, its value's raw
 * bits, whether it is the JDK's cached instance) is read while capture has the box at hand, so that
 * planning never reads the box itself again.
 */
final class BoxNodes {
  private BoxNodes() {}

  static Node.Box of(int id, Object box) {
    return new Node.Box(id, box, isCached(box), kind(box.getClass()), Types.bits(box));
  }

  /** The primitive kind of a box class, without a search of {@link Kind#values()}. */
  private static Kind kind(Class<?> box) {
    if (box == Integer.class) {
      return Kind.INT;
    } else if (box == Long.class) {
      return Kind.LONG;
    } else if (box == Boolean.class) {
      return Kind.BOOLEAN;
    } else if (box == Byte.class) {
      return Kind.BYTE;
    } else if (box == Character.class) {
      return Kind.CHAR;
    } else if (box == Short.class) {
      return Kind.SHORT;
    } else if (box == Float.class) {
      return Kind.FLOAT;
    } else if (box == Double.class) {
      return Kind.DOUBLE;
    }
    throw new IllegalArgumentException("not a box class: " + box);
  }

  private static boolean isCached(Object box) {
    if (box instanceof Integer i) {
      return Integer.valueOf(i.intValue()) == box;
    } else if (box instanceof Long l) {
      return Long.valueOf(l.longValue()) == box;
    } else if (box instanceof Short s) {
      return Short.valueOf(s.shortValue()) == box;
    } else if (box instanceof Byte b) {
      return Byte.valueOf(b.byteValue()) == box;
    } else if (box instanceof Character c) {
      return Character.valueOf(c.charValue()) == box;
    } else if (box instanceof Boolean b) {
      return Boolean.valueOf(b.booleanValue()) == box;
    }
    return false;
  }
}
