package org.codese.plan;

import java.util.Arrays;

/** A growable list of ints. */
final class IntList {
  private int[] values = new int[8];
  private int size;

  void add(int v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  /** Makes room for {@code n} values in all. */
  void reserve(int n) {
    if (values.length < n) {
      values = Arrays.copyOf(values, n);
    }
  }

  int get(int i) {
    return values[i];
  }

  int size() {
    return size;
  }

  int[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
