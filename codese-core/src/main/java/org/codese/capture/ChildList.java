package org.codese.capture;

import java.io.IOException;
import java.util.Arrays;

/**
 * The references an expanded object holds, in the JDK's order: ids taken already (without hooks;
 * nulls skipped), or objects the traversal takes when it reaches them (with hooks), each with where
 * its id is to be stored.
 */
final class ChildList {
  /** Ids taken already, without hooks; {@code null} until the first. */
  private int[] ids;

  /** Per pending reference: the object, its label's name and the array its id goes into. */
  private Object[] pending;

  /** Per pending reference: its label's number ({@link PathLog#record}). */
  private int[] numbers;

  /** Per pending reference: where in that array, shifted left by one; the low bit: unshared. */
  private int[] places;

  int size;

  /** Empties the list for another object; taken references hold nothing more. */
  ChildList reset() {
    size = 0;
    return this;
  }

  void add(int id) {
    if (id < 0) {
      return;
    }
    if (ids == null) {
      ids = new int[4];
    } else if (size == ids.length) {
      ids = Arrays.copyOf(ids, size * 2);
    }
    ids[size++] = id;
  }

  /**
   * Notes a reference to take later; its id goes into {@code into} at {@code at}: an {@code int[]},
   * a {@link ClassRows}, or {@code null} until {@link #bind}.
   */
  void pend(Object value, Object name, int number, boolean unshared, Object into, int at) {
    if (pending == null) {
      pending = new Object[12];
      places = new int[4];
      numbers = new int[4];
    } else if (size == places.length) {
      pending = Arrays.copyOf(pending, size * 6);
      places = Arrays.copyOf(places, size * 2);
      numbers = Arrays.copyOf(numbers, size * 2);
    }
    pending[3 * size] = value;
    pending[3 * size + 1] = name;
    pending[3 * size + 2] = into;
    places[size] = at << 1 | (unshared ? 1 : 0);
    numbers[size] = number;
    size++;
  }

  /** Stores into {@code items} the references pended from {@code from} on without a place. */
  void bind(int from, int[] items) {
    for (int k = from; pending != null && k < size; k++) {
      if (pending[3 * k + 2] == null) {
        pending[3 * k + 2] = items;
      }
    }
  }

  /** The id of reference {@code k}, taking it now if it is pending. */
  int take(int k, Capturer capturer, int parent) throws IOException {
    if (pending == null) {
      return ids[k];
    }
    Object value = pending[3 * k];
    Object name = pending[3 * k + 1];
    Object into = pending[3 * k + 2];
    pending[3 * k] = null;
    pending[3 * k + 1] = null;
    pending[3 * k + 2] = null;
    int id = capturer.ref(value, parent, name, numbers[k], (places[k] & 1) != 0);
    if (into instanceof ClassRows rows) {
      rows.setRef(places[k] >>> 1, id);
    } else {
      ((int[]) into)[places[k] >>> 1] = id;
    }
    return id;
  }
}
