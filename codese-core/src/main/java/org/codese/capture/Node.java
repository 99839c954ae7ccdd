package org.codese.capture;

import org.codese.jvm.Kind;
import org.codese.jvm.SerialClass;
import org.codese.jvm.Slot;
import org.codese.program.Tape;

/**
 * One captured object. Ids are dense and start at 0; references between nodes are ids, and -1
 * stands for {@code null}.
 */
public sealed interface Node {
  /**
   * @return this node's id
   */
  int id();

  /** A {@code String}. */
  record Text(int id, String value) implements Node {}

  /**
   * A box; {@code cached} when the original was the JDK's cached instance for its value.
   *
   * @param kind its primitive kind
   * @param bits its value's raw bits ({@link org.codese.jvm.Types#bits})
   */
  record Box(int id, Object value, boolean cached, Kind kind, long bits) implements Node {}

  /** An enum constant or a {@code Class}: restored as the very same instance. */
  record Constant(int id, Object value) implements Node {}

  /**
   * A value of one of {@link org.codese.program.Values}' classes, made from data.
   *
   * @param value the original
   * @param streamClass the class {@code ObjectOutputStream} writes for it (after {@code
   *     writeReplace})
   * @param kind its kind code ({@link org.codese.program.Values#kindOf(Object)})
   * @param ref the id of the value it refers to ({@link org.codese.program.Values#referredKind}: a
   *     {@code BigDecimal}'s {@code BigInteger}), or -1
   */
  record Value(int id, Object value, Class<?> streamClass, char kind, int ref) implements Node {
    /** A value that refers to none. */
    public Value(int id, Object value, Class<?> streamClass, char kind) {
      this(id, value, streamClass, kind, -1);
    }
  }

  /**
   * A global reference: an object restored as the same instance, the value of static final field
   * {@code name} declared by {@code owner}, or with {@code owner} {@code null} the object the
   * options name {@code name}. Its contents are not captured.
   */
  record Global(int id, Object value, Class<?> owner, String name) implements Node {}

  /**
   * An array: for primitive component types a private copy of the original, otherwise the element
   * ids.
   */
  record Array(int id, Class<?> type, Object elements) implements Node {}

  /** A record, restored through its canonical constructor. */
  record Record(int id, SerialClass type, long[] prims, int[] refs) implements Node {}

  /** An {@code Externalizable}, restored with its public constructor and {@code readExternal}. */
  record External(int id, SerialClass type, Tape tape) implements Node {}

  /**
   * Any other object: one {@link SlotData} per slot that is not direct, superclass first; the
   * fields of its direct slots ({@link Slot#direct()}) are in row {@code row} of {@code rows}.
   *
   * @param slots per slot of {@code type}, its data, or {@code null} for a direct slot (the array
   *     may be shared by many nodes: never written)
   * @param rows the rows of the class's direct slots, or {@code null} if it has none
   * @param row this object's row, or -1 without rows
   */
  record Instance(int id, SerialClass type, SlotData[] slots, ClassRows rows, int row)
      implements Node {}

  /**
   * One slot's data, for a slot that is not direct: default field values (when the class has no
   * {@code writeObject}), or the tape its {@code writeObject} wrote.
   *
   * @param slot the slot
   * @param prims primitive field values as raw bits, or {@code null} with a tape
   * @param refs reference field ids, or {@code null} with a tape
   * @param tape what {@code writeObject} wrote, or {@code null}
   */
  record SlotData(Slot slot, long[] prims, int[] refs, Tape tape) {}
}
