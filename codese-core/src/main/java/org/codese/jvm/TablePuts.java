package org.codese.jvm;

import java.io.ObjectOutput;
import java.io.ObjectOutputStream;

/**
 * The {@code PutField} view of a {@link FieldTable} that a class's {@code writeObject} fills
 * through {@code putFields()} at capture. A named class of its own, not an anonymous one in {@link
 * FieldTable}, which a restore that replays hooks loads: the verifier of that class would load this
 * one and {@code ObjectOutputStream.PutField} for a method a restore never calls.
 */
final class TablePuts extends ObjectOutputStream.PutField {
  private final FieldTable table;

  private TablePuts(FieldTable table) {
    this.table = table;
  }

  /**
   * @param table the table to store into
   * @return a view that stores into it, typed as its superclass so that the caller's verification
   *     does not load this class
   */
  static ObjectOutputStream.PutField of(FieldTable table) {
    return new TablePuts(table);
  }

  @Override
  public void put(String name, boolean val) {
    table.put(name, boolean.class, val ? 1 : 0);
  }

  @Override
  public void put(String name, byte val) {
    table.put(name, byte.class, val);
  }

  @Override
  public void put(String name, char val) {
    table.put(name, char.class, val);
  }

  @Override
  public void put(String name, short val) {
    table.put(name, short.class, val);
  }

  @Override
  public void put(String name, int val) {
    table.put(name, int.class, val);
  }

  @Override
  public void put(String name, long val) {
    table.put(name, long.class, val);
  }

  @Override
  public void put(String name, float val) {
    table.put(name, float.class, Float.floatToRawIntBits(val));
  }

  @Override
  public void put(String name, double val) {
    table.put(name, double.class, Double.doubleToRawLongBits(val));
  }

  @Override
  public void put(String name, Object val) {
    table.putObject(name, val);
  }

  @Override
  @Deprecated
  public void write(ObjectOutput out) {
    throw new UnsupportedOperationException("PutField.write is deprecated; use writeFields");
  }
}
