package org.codese.load;

/**
 * The objects of an object stream that were never restored because a class of their segment was not
 * found ({@code resolveClass} or {@code resolveProxyClass} threw {@code ClassNotFoundException} or
 * returned {@code null}, or the loader did not find the class), with the exception: as {@code
 * ObjectInputStream} marks the handles of such objects with the exception and throws it again from
 * every later {@code readObject} that reaches one of them, while objects that do not reach them
 * read on. Kept per stream until a reset; a few ranges of ids, scanned in order.
 */
final class LostObjects {
  private int[] from = new int[2];
  private int[] to = new int[2];
  private ClassNotFoundException[] causes = new ClassNotFoundException[2];
  private int n;

  /** Records ids {@code [first, end)} as lost for {@code cause}. */
  void add(int first, int end, ClassNotFoundException cause) {
    if (n == from.length) {
      from = java.util.Arrays.copyOf(from, n * 2);
      to = java.util.Arrays.copyOf(to, n * 2);
      causes = java.util.Arrays.copyOf(causes, n * 2);
    }
    from[n] = first;
    to[n] = end;
    causes[n++] = cause;
  }

  /**
   * @return the exception object {@code id} was lost for, or {@code null} if it was not lost
   */
  ClassNotFoundException cause(int id) {
    for (int i = 0; i < n; i++) {
      if (id >= from[i] && id < to[i]) {
        return causes[i];
      }
    }
    return null;
  }

  boolean isEmpty() {
    return n == 0;
  }

  /** Forgets every lost object, as a reset forgets the handles. */
  void clear() {
    java.util.Arrays.fill(causes, 0, n, null);
    n = 0;
  }
}
