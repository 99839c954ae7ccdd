package org.codese.program;

/**
 * What a class's own {@code writeObject} or {@code writeExternal} wrote, in order: blocks of
 * primitive data, object references and default-field records. Immutable by convention.
 *
 * <p>{@link #items()} holds pairs {@code (kind, argument)}: {@link #BLOCK} with the block's length
 * in {@link #data()}; {@link #OBJECT} with an object id, or -1 for {@code null}; {@link #FIELDS}
 * with the number of reference fields, whose values follow as that many {@link #OBJECT} items
 * while the primitive field values are in {@link #data()} in field order.
 *
 * @param data the primitive bytes, in {@link java.io.DataOutput} form
 * @param items the item pairs
 */
public record Tape(byte[] data, int[] items) {
  /** A block of primitive data. */
  public static final int BLOCK = 0;
  /** An object reference. */
  public static final int OBJECT = 1;
  /** A record of default field values. */
  public static final int FIELDS = 2;
}
