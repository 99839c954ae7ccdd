package org.codese.plan;

import java.nio.ByteBuffer;
import org.codese.program.Tape;

/** Reads a tape in order, answering {@code false} where it differs from what is expected. */
final class TapeCursor {
  private final int[] items;
  private final ByteBuffer data;
  private int item;

  TapeCursor(Tape tape) {
    this.items = tape.items();
    this.data = ByteBuffer.wrap(tape.data());
  }

  /** A default-fields record with {@code refs} references and {@code bytes} of primitives. */
  boolean fields(int refs, int bytes) {
    if (item + 2 > items.length || items[item] != Tape.FIELDS || items[item + 1] != refs) {
      return false;
    }
    item += 2;
    return skipData(bytes);
  }

  /** A block of exactly {@code bytes} bytes, read by the next calls. */
  boolean block(int bytes) {
    if (item + 2 > items.length || items[item] != Tape.BLOCK || items[item + 1] != bytes) {
      return false;
    }
    item += 2;
    return data.remaining() >= bytes;
  }

  /** Whether an object reference follows. */
  boolean ref() {
    return item + 2 <= items.length && items[item] == Tape.OBJECT;
  }

  /** Whether anything is left: items or data. */
  boolean more() {
    return item < items.length || data.hasRemaining();
  }

  /** The number of items left: what {@link #lastRefs} reads if they are all references. */
  int itemsLeft() {
    return (items.length - item) / 2;
  }

  int nextRef() {
    if (!ref()) {
      return Integer.MIN_VALUE;
    }
    item += 2;
    return items[item - 1];
  }

  int nextInt() {
    return data.getInt();
  }

  float nextFloat() {
    return data.getFloat();
  }

  boolean has(int bytes) {
    return data.remaining() >= bytes;
  }

  boolean skip(int bytes) {
    return skipData(bytes);
  }

  private boolean skipData(int bytes) {
    if (data.remaining() < bytes) {
      return false;
    }
    data.position(data.position() + bytes);
    return true;
  }

  /**
   * The next {@code n} references, which must end the tape and its data; {@code null} if they do
   * not.
   */
  int[] lastRefs(long n) {
    if (n < 0 || n > Integer.MAX_VALUE || data.hasRemaining() || item + 2 * n != items.length) {
      return null;
    }
    int[] ids = new int[(int) n];
    for (int i = 0; i < ids.length; i++) {
      if (!ref()) {
        return null;
      }
      ids[i] = nextRef();
    }
    return ids;
  }
}
