package org.codese.load;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;
import org.codese.program.Grammar;

/**
 * Runs a create program of {@link Grammar#STEP_VALUES} steps: makes a graph's dates, times, UUIDs
 * and {@code BigInteger}s with their public factories and constructors from {@code long} data
 * ({@link org.codese.program.Values}). {@link ProgramCheck} has checked every id, offset and
 * source; a factory's {@code DateTimeException} for data out of range leaves inside a {@link
 * HookFailure}, as the class's own {@code readExternal} would throw it from {@code
 * ObjectInputStream.readObject}.
 */
final class ValueSteps {
  private ValueSteps() {}

  /**
   * Runs create program {@code p}.
   *
   * @param table the restore table
   * @param constants the resolved constants
   * @param p the program
   */
  static void run(Object[] table, Object[] constants, int[] p) {
    for (int i = 0; i < p.length; ) {
      int kind = p[i + 1];
      long[] data = (long[]) constants[p[i + 2]];
      int n = p[i + 3];
      int at = i + 4;
      try {
        for (int k = 0; k < n; k++, at += 2) {
          table[p[at]] = make(kind, data, p[at + 1]);
        }
      } catch (RuntimeException e) {
        throw new HookFailure(e);
      }
      i = at;
    }
  }

  private static Object make(int kind, long[] d, int at) {
    switch (kind) {
      case 'U':
        return new UUID(d[at], d[at + 1]);
      case 'D':
        return LocalDate.ofEpochDay(d[at]);
      case 'T':
        return LocalTime.ofNanoOfDay(d[at]);
      case 'L':
        return LocalDateTime.of(LocalDate.ofEpochDay(d[at]), LocalTime.ofNanoOfDay(d[at + 1]));
      case 'I':
        return Instant.ofEpochSecond(d[at], d[at + 1]);
      case 'B':
        return bigInteger(d[at]);
      default:
        return Duration.ofSeconds(d[at], d[at + 1]);
    }
  }

  /**
   * A new {@code BigInteger} of value {@code v}, as {@code BigInteger.readObject} makes one from
   * its sign and magnitude: never one of the instances {@code BigInteger.valueOf} shares.
   */
  private static BigInteger bigInteger(long v) {
    long magnitude = v < 0 ? -v : v; // Long.MIN_VALUE: 2^63 as an unsigned long
    byte[] bytes = new byte[Long.BYTES];
    for (int i = Long.BYTES - 1; i >= 0; i--) {
      bytes[i] = (byte) magnitude;
      magnitude >>>= Byte.SIZE;
    }
    return new BigInteger(Long.signum(v), bytes);
  }
}
