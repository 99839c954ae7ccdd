package org.codese.capture;

import java.util.Arrays;

/**
 * Remembers, for each captured object, its parent and the field or index that led to it, so that an
 * error can name the path from the root ({@code root.children[3].owner}).
 */
final class PathLog {
  private int[] parents = new int[64];
  private Object[] labels = new Object[64];
  private int base = -1;
  private int used;

  void record(int id, int parent, Object label) {
    if (base < 0) {
      base = id;
    }
    int i = id - base;
    if (i >= parents.length) {
      int n = Math.max(i + 1, parents.length * 2);
      parents = Arrays.copyOf(parents, n);
      labels = Arrays.copyOf(labels, n);
    }
    parents[i] = parent;
    labels[i] = label;
    used = Math.max(used, i + 1);
  }

  /** Forgets every path: the objects recorded so far are no longer captured. */
  void clear() {
    Arrays.fill(labels, 0, used, null);
    used = 0;
    base = -1;
  }

  String path(int id) {
    StringBuilder sb = new StringBuilder();
    java.util.ArrayDeque<Object> parts = new java.util.ArrayDeque<>();
    int cur = id;
    int guard = 0;
    while (cur >= base && cur - base < parents.length && guard++ < 10_000) {
      parts.push(labels[cur - base]);
      cur = parents[cur - base];
    }
    for (Object p : parts) {
      if (p instanceof Integer i) {
        sb.append('[').append(i).append(']');
      } else if (sb.length() == 0) {
        sb.append(p);
      } else {
        sb.append('.').append(p);
      }
    }
    if (guard >= 10_000) {
      sb.insert(0, "...");
    }
    return sb.toString();
  }
}
