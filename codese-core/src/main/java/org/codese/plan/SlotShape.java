package org.codese.plan;

import java.lang.reflect.Modifier;
import java.util.List;
import org.codese.jvm.Kind;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;

/**
 * What the set phase needs of a slot for each store it plans: whether generated code may join the
 * class's nest, the owner's internal name, and per field whether it is stored with {@code
 * putfield}, its descriptor and kind, and the cast its value needs. Worked out once per slot and
 * kept per class, since the set phase asks for every object it sets one by one; the names are then
 * the same strings from capture to capture, their hash codes cached for the code cache's key.
 */
final class SlotShape {
  private static final ClassValue<Holder> SHAPES =
      new ClassValue<>() {
        @Override
        protected Holder computeValue(Class<?> type) {
          return new Holder();
        }
      };

  /** One class's last shape; replaced whole. */
  private static final class Holder {
    volatile SlotShape shape;
  }

  final Slot slot;
  final boolean nest;
  final String owner;
  private final boolean[] direct;
  private final String[] casts;
  private final String[] descriptors;
  private final Kind[] kinds;

  private SlotShape(Slot slot) {
    this.slot = slot;
    this.nest = Types.nestable(slot.type());
    this.owner = Types.internalName(slot.type());
    List<SerialField> fields = slot.fields();
    this.direct = new boolean[fields.size()];
    this.casts = new String[fields.size()];
    this.descriptors = new String[fields.size()];
    this.kinds = new Kind[fields.size()];
    for (int f = 0; f < fields.size(); f++) {
      SerialField sf = fields.get(f);
      direct[f] = nest && sf.field() != null && !Modifier.isFinal(sf.field().getModifiers());
      Class<?> t = sf.type();
      descriptors[f] = sf.descriptor();
      kinds[f] = f < slot.primitiveCount() ? Kind.primitive(t) : Kind.REFERENCE;
      // none for Object and interfaces, which putfield takes without a cast
      casts[f] = t == Object.class || t.isInterface() ? null : Types.internalName(t);
    }
  }

  /**
   * @param slot a direct slot (every field backed by a declared field)
   * @return its shape
   */
  static SlotShape of(Slot slot) {
    Holder h = SHAPES.get(slot.type());
    SlotShape s = h.shape;
    if (s == null || s.slot != slot) {
      s = new SlotShape(slot);
      h.shape = s;
    }
    return s;
  }

  /** Whether field {@code f} is stored with {@code putfield} (else through a setter constant). */
  boolean direct(int f) {
    return direct[f];
  }

  /** Field {@code f}'s type descriptor. */
  String descriptor(int f) {
    return descriptors[f];
  }

  /** Field {@code f}'s kind: its primitive type, or a reference. */
  Kind kind(int f) {
    return kinds[f];
  }

  /** The cast field {@code f}'s value needs before {@code putfield}, or {@code null}. */
  String cast(int f) {
    return casts[f];
  }
}
