package org.codese.capture;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.Arrays;
import org.codese.program.Tape;

/** Builds a {@link Tape}; primitive writes go to {@link #data()}, objects to {@link #object}. */
final class TapeBuilder {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream data = new DataOutputStream(bytes);
  private int[] items = new int[8];
  private int size;
  private int blockStart;

  /**
   * @return the stream primitive data is written to
   */
  DataOutputStream data() {
    return data;
  }

  /**
   * Adds an object reference.
   *
   * @return the index of {@code id} in the items: where a reference captured later is written
   */
  int object(int id) {
    closeBlock();
    add(Tape.OBJECT, id);
    return size - 1;
  }

  /** Records that the next top-level object refers back to {@code id}, written earlier. */
  void backReference(int id) {
    closeBlock();
    add(Tape.BACK_REFERENCE, id);
  }

  /** Starts a fields record; the caller writes primitives, then calls {@link #object} per ref. */
  void fields(int refCount) {
    closeBlock();
    add(Tape.FIELDS, refCount);
  }

  /** Marks the end of a fields record's primitive bytes. */
  void endFieldPrimitives() {
    blockStart = data.size();
  }

  private void closeBlock() {
    int len = data.size() - blockStart;
    if (len > 0) {
      add(Tape.BLOCK, len);
    }
    blockStart = data.size();
  }

  private void add(int kind, int arg) {
    if (size + 2 > items.length) {
      items = Arrays.copyOf(items, items.length * 2);
    }
    items[size++] = kind;
    items[size++] = arg;
  }

  boolean isEmpty() {
    return size == 0 && data.size() == 0;
  }

  Tape build() {
    closeBlock();
    return new Tape(bytes.toByteArray(), Arrays.copyOf(items, size));
  }
}
