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

  /** Per range, whether it is an object not made ({@link #addNotMade}). */
  private boolean[] notMade = new boolean[2];

  private int n;

  /** Records ids {@code [first, end)} as lost for {@code cause}. */
  void add(int first, int end, ClassNotFoundException cause) {
    add(first, end, cause, false);
  }

  /**
   * Records object {@code id}, which its segment did not make ({@link ProgramCheck#NOT_MADE}), as
   * lost for {@code cause}: the top level reading it throws, as does a later segment whose program
   * refers to it where a value is used (its prior references); a mere mention among a top-level
   * object's back references ({@link #backReference}) does not, since that object may hold it only
   * in skipped data, as the JDK reads on past such a reference.
   */
  void addNotMade(int id, ClassNotFoundException cause) {
    add(id, id + 1, cause, true);
  }

  private void add(int first, int end, ClassNotFoundException cause, boolean unmade) {
    if (n == from.length) {
      from = java.util.Arrays.copyOf(from, n * 2);
      to = java.util.Arrays.copyOf(to, n * 2);
      causes = java.util.Arrays.copyOf(causes, n * 2);
      notMade = java.util.Arrays.copyOf(notMade, n * 2);
    }
    from[n] = first;
    to[n] = end;
    notMade[n] = unmade;
    causes[n++] = cause;
  }

  /**
   * @return the exception a top-level object that refers back to object {@code id} is lost for:
   *     {@link #cause}, but {@code null} for an object not made, which the program check decided
   */
  ClassNotFoundException backReference(int id) {
    for (int i = 0; i < n; i++) {
      if (!notMade[i] && id >= from[i] && id < to[i]) {
        return causes[i];
      }
    }
    return null;
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
