package org.codese.program;

/**
 * What a class's own {@code writeObject} or {@code writeExternal} wrote, in order: blocks of
 * primitive data, object references and default-field records. Immutable by convention.
 *
 * <p>{@link #items()} holds pairs {@code (kind, argument)}: {@link #BLOCK} with the block's length
 * in {@link #data()}; {@link #OBJECT} with an object id, or -1 for {@code null}; {@link #FIELDS}
 * with the number of reference fields, whose values follow as that many {@link #OBJECT} items while
 * the primitive field values are in {@link #data()} in field order.
 *
 * <p>Only in the top-level items of an object stream segment, {@link #BACK_REFERENCE} items with an
 * object id precede an {@link #OBJECT} item: the objects of earlier {@code writeObject} calls that
 * this call referred back to (the JDK's stream would hold a back reference to each), among them the
 * top-level object itself when it was written before. {@code readUnshared} needs them.
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

  /** An object of an earlier {@code writeObject} call that the next top-level object refers to. */
  public static final int BACK_REFERENCE = 3;
}
