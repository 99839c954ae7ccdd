package org.codese.load;

/**
 * The program check's loops over a snapshot's data, one pass per table slot or reference: the only
 * part of loading whose cost grows with the number of objects. Each runs until the first element
 * that needs the full check, which the caller makes, and resumes after it.
 *
 * <p>In a cold JVM such a loop runs interpreted until the JIT compiles it, after a few hundred
 * calls; {@link #warmUp} makes those calls on a few dummy slots, on the code-check thread while the
 * loader resolves classes, so that a snapshot of a million objects is checked by compiled code.
 */
final class CheckLoops {
  /** Calls of each loop in {@link #warmUp}: above the JIT's first compilation threshold. */
  private static final int WARM_CALLS = 256;

  private static final int WARM_SLOTS = 32;

  /** Set once the loops were warmed in this JVM; a race only warms them twice. */
  private static volatile boolean warm;

  private CheckLoops() {}

  /**
   * Fills empty slots: for {@code i} from {@code from}, while {@code ids[i] - base} is a slot of
   * {@code kinds} that holds {@code empty}, sets it to {@code kind} and its class to {@code c}.
   *
   * @return the index of the first id that is not such a slot, or {@code to}
   */
  static int fillEmpty(
      int[] ids,
      int from,
      int to,
      byte[] kinds,
      Class<?>[] types,
      int base,
      byte empty,
      byte kind,
      Class<?> c) {
    int n = kinds.length;
    for (int i = from; i < to; i++) {
      int at = ids[i] - base;
      if (at < 0 || at >= n || kinds[at] != empty) {
        return i;
      }
      kinds[at] = kind;
      types[at] = c;
    }
    return to;
  }

  /**
   * Skips references that need no check: the null slot {@code nul}, and slots whose class is {@code
   * fit}.
   *
   * @return the index of the first other reference in {@code refs[from..to)}, or {@code to}
   */
  static int firstUnfit(
      int[] refs, int from, int to, Class<?>[] types, int base, int nul, Class<?> fit) {
    int n = types.length;
    for (int i = from; i < to; i++) {
      int r = refs[i];
      int at = r - base;
      if (r != nul && (at < 0 || at >= n || types[at] != fit)) {
        return i;
      }
    }
    return to;
  }

  /**
   * @return how many of {@code refs[0..rows)} are {@code value}
   */
  static long count(int[] refs, int rows, int value) {
    long n = 0;
    for (int i = 0; i < rows; i++) {
      n += refs[i] == value ? 1 : 0;
    }
    return n;
  }

  /**
   * Runs each loop {@link #WARM_CALLS} times over {@link #WARM_SLOTS} dummy slots, the first time
   * it is called in a JVM.
   */
  static void warmUp() {
    if (warm) {
      return;
    }
    warm = true;
    int[] ids = new int[WARM_SLOTS];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    Class<?>[] types = new Class<?>[WARM_SLOTS];
    for (int call = 0; call < WARM_CALLS; call++) {
      byte[] kinds = new byte[WARM_SLOTS];
      fillEmpty(ids, 0, WARM_SLOTS, kinds, types, 0, (byte) 0, (byte) 1, Object.class);
      firstUnfit(ids, 0, WARM_SLOTS, types, 0, -1, Object.class);
    }
  }
}
