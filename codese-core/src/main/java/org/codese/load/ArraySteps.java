package org.codese.load;

import org.codese.program.Grammar;

/**
 * Runs a create program ({@link Grammar#STEP_ARRAYS} steps): makes a graph's arrays from data, so
 * that a snapshot of many small arrays holds a few counted loops' worth of data instead of a
 * statement per array. {@link ProgramCheck} has checked every id, length, offset and source.
 */
final class ArraySteps {
  private ArraySteps() {}

  /**
   * Runs create program {@code p}.
   *
   * @param table the restore table
   * @param constants the resolved constants
   * @param p the program
   */
  static void run(Object[] table, Object[] constants, int[] p) {
    for (int i = 0; i < p.length; ) {
      char kind = (char) p[i + 1];
      int source = p[i + 2];
      int n = p[i + 3];
      Object data = source < 0 ? null : constants[source];
      int at = i + 4;
      for (int k = 0; k < n; k++, at += 3) {
        int length = p[at + 1];
        int offset = p[at + 2];
        Object array = make(kind, data, length);
        if (kind != 'L' && offset >= 0) {
          System.arraycopy(data, offset, array, 0, length);
        }
        table[p[at]] = array;
      }
      i = at;
    }
  }

  /** A new array of {@code length} elements of {@code kind} ({@code maker}: a component class). */
  private static Object make(char kind, Object maker, int length) {
    switch (kind) {
      case 'Z':
        return new boolean[length];
      case 'B':
        return new byte[length];
      case 'C':
        return new char[length];
      case 'S':
        return new short[length];
      case 'I':
        return new int[length];
      case 'J':
        return new long[length];
      case 'F':
        return new float[length];
      case 'D':
        return new double[length];
      default:
        return maker == null
            ? new Object[length]
            : java.lang.reflect.Array.newInstance((Class<?>) maker, length);
    }
  }
}
