package org.codese.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Deterministic bounds on work counted in a test, in place of timings. */
public final class Costs {
  private Costs() {}

  /**
   * Asserts that {@code n} keys whose hashes collide met others ({@code compared > n}: the keys do
   * collide) and that they cost at most {@code 6 n log2 n} comparisons, not the quadratic count of
   * a linear bucket.
   *
   * @param compared the comparisons counted
   * @param n the keys
   * @param what the keys, for the message
   */
  public static void assertCollisionsNLogN(long compared, int n, String what) {
    int log2 = 32 - Integer.numberOfLeadingZeros(n);
    assertTrue(compared > n, "the " + what + "' hashes collide, so keys meet others: " + compared);
    assertTrue(
        compared <= 6L * n * log2,
        compared
            + " comparisons of colliding "
            + what
            + " for "
            + n
            + " keys, more than 6 n log2 n = "
            + 6L * n * log2);
  }
}
