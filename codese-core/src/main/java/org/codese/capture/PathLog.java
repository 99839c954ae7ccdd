package org.codese.capture;

import java.util.Arrays;

/**
 * Remembers, for each captured object, its parent and the field or index that led to it, so that an
 * error can name the path from the root ({@code root.children[3].owner}).
 *
 * <p>A label is a name (a field's, or the root's) or, when the name is {@code null} or one of
 * {@link Written}, a number kept as an {@code int}: an element's index, or the count of objects a
 * {@code writeObject} or {@code writeExternal} wrote before it. Numbers are never boxed: a
 * collection of a million elements would otherwise leave a million {@code Integer}s to collect.
 */
final class PathLog {
  /** The label of an object a class's own method wrote: the number is its position among them. */
  enum Written {
    OBJECT("writeObject"),
    EXTERNAL("writeExternal");

    private final String method;

    Written(String method) {
      this.method = method;
    }
  }

  private int[] parents = new int[64];
  private Object[] names = new Object[64];
  private int[] numbers = new int[64];
  private int base = -1;
  private int used;

  /**
   * Records how object {@code id} was reached.
   *
   * @param name a field's or the root's name, a {@link Written}, or {@code null} for an element
   * @param number the element's index or the written object's position; ignored with a name
   */
  void record(int id, int parent, Object name, int number) {
    if (base < 0) {
      base = id;
    }
    int i = id - base;
    if (i >= parents.length) {
      int n = Math.max(i + 1, parents.length * 2);
      parents = Arrays.copyOf(parents, n);
      names = Arrays.copyOf(names, n);
      numbers = Arrays.copyOf(numbers, n);
    }
    parents[i] = parent;
    names[i] = name;
    numbers[i] = number;
    used = Math.max(used, i + 1);
  }

  /** Forgets every path: the objects recorded so far are no longer captured. */
  /** Makes room for {@code n} objects at once, where the log would grow by doubling. */
  void reserve(int n) {
    if (parents.length < n) {
      parents = Arrays.copyOf(parents, n);
      names = Arrays.copyOf(names, n);
      numbers = Arrays.copyOf(numbers, n);
    }
  }

  void clear() {
    Arrays.fill(names, 0, used, null);
    used = 0;
    base = -1;
  }

  String path(int id) {
    StringBuilder sb = new StringBuilder();
    java.util.ArrayDeque<Integer> parts = new java.util.ArrayDeque<>();
    int cur = id;
    int guard = 0;
    while (cur >= base && cur - base < parents.length && guard++ < 10_000) {
      parts.push(cur - base);
      cur = parents[cur - base];
    }
    for (int i : parts) {
      Object name = names[i];
      if (name == null) {
        sb.append('[').append(numbers[i]).append(']');
      } else {
        if (sb.length() > 0) {
          sb.append('.');
        }
        if (name instanceof Written w) {
          sb.append('<').append(w.method).append(" object ").append(numbers[i]).append('>');
        } else {
          sb.append(name);
        }
      }
    }
    if (guard >= 10_000) {
      sb.insert(0, "...");
    }
    return sb.toString();
  }
}
