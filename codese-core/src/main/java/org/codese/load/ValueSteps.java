package org.codese.load;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.UUID;
import org.codese.program.Grammar;
import org.codese.program.Values;

/**
 * Runs a create program of {@link Grammar#STEP_VALUES} steps: makes a graph's dates, times, UUIDs,
 * {@code BigInteger}s, {@code java.util.Date}s and {@code BigDecimal}s with their public factories
 * and constructors from {@code long} data ({@link org.codese.program.Values}). {@link ProgramCheck}
 * has checked every id, offset and source, and that the slot a {@code BigDecimal}'s data name holds
 * a {@code BigInteger} an earlier step of the same program made ({@link CreateCheck}); a factory's
 * {@code DateTimeException} for data out of range leaves inside a {@link HookFailure}, as the
 * class's own {@code readExternal} would throw it from {@code ObjectInputStream.readObject}.
 *
 * <table>
 *   <caption>What each kind runs, and what the JDK's reader runs</caption>
 *   <tr><th>kind</th><th>here</th><th>{@code ObjectInputStream}</th></tr>
 *   <tr><td>{@code 'B'}</td><td>{@code new BigInteger(signum, magnitude)}</td>
 *       <td>{@code BigInteger.readObject}: a new object of that signum and magnitude</td></tr>
 *   <tr><td>{@code 'J'}</td><td>{@code new Date(ms)}: {@code fastTime = ms}</td>
 *       <td>{@code Date.readObject}: {@code fastTime = readLong()}</td></tr>
 *   <tr><td>{@code 'N'}</td><td>{@code new BigDecimal(table[slot], scale)}: {@code intVal} that
 *       very {@code BigInteger}, {@code intCompact} from it, the scale</td>
 *       <td>{@code BigDecimal.readObject}: the same three fields from the stream's {@code
 *       BigInteger} (never null here) and scale (JDK 17 and 25)</td></tr>
 * </table>
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
          table[p[at]] = make(table, kind, data, p[at + 1]);
        }
      } catch (RuntimeException e) {
        throw new HookFailure(e);
      }
      i = at;
    }
  }

  private static Object make(Object[] table, int kind, long[] d, int at) {
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
      case 'M':
        return bigMagnitude(d, at);
      case 'J':
        return new Date(d[at]);
      case 'N':
        return new BigDecimal((BigInteger) table[(int) d[at]], (int) d[at + 1]);
      case 'R':
        return Duration.ofSeconds(d[at], d[at + 1]);
      default:
        return time(kind, d, at);
    }
  }

  /** The {@code java.time} values of format 13, as their {@code readExternal} makes them. */
  private static Object time(int kind, long[] d, int at) {
    switch (kind) {
      case 'Z':
        return offset(d[at]);
      case 'O':
        return OffsetDateTime.of(dateTime(d[at], d[at + 1]), offset(d[at + 2]));
      case 'E':
        return OffsetTime.of(LocalTime.ofNanoOfDay(d[at]), offset(d[at + 1]));
      case 'P':
        return Period.of(
            Math.toIntExact(d[at]), Math.toIntExact(d[at + 1]), Math.toIntExact(d[at + 2]));
      case 'Y':
        return Year.of(Math.toIntExact(d[at]));
      case 'H':
        return YearMonth.of(Math.toIntExact(d[at]), Math.toIntExact(d[at + 1]));
      case 'K':
        return MonthDay.of(Math.toIntExact(d[at]), Math.toIntExact(d[at + 1]));
      case 'G':
        return region(d, at);
      default: // 'W'
        ZoneId zone = d[at + 3] == Long.MIN_VALUE ? region(d, at + 4) : offset(d[at + 3]);
        return ZonedDateTime.ofStrict(dateTime(d[at], d[at + 1]), offset(d[at + 2]), zone);
    }
  }

  private static LocalDateTime dateTime(long epochDay, long nanoOfDay) {
    return LocalDateTime.of(LocalDate.ofEpochDay(epochDay), LocalTime.ofNanoOfDay(nanoOfDay));
  }

  /** {@code ZoneOffset.ofTotalSeconds}, the cached instances its {@code readExternal} gives. */
  private static ZoneOffset offset(long seconds) {
    return ZoneOffset.ofTotalSeconds(Math.toIntExact(seconds));
  }

  /**
   * The zone region of the id packed at {@code at}; data that packs no id, or the id of an offset
   * (which {@code ZoneId.of} would make a {@code ZoneOffset}), fail as {@code ZoneId.of} fails.
   */
  private static ZoneId region(long[] d, int at) {
    String id = Values.unpackZoneId(d, at);
    ZoneId zone = ZoneId.of(id == null ? "" : id);
    if (zone instanceof ZoneOffset) {
      throw new java.time.DateTimeException("not a zone region id: " + id);
    }
    return zone;
  }

  /**
   * The {@code BigInteger} of a signum and magnitude words ({@link CreateCheck} checked their count
   * against the data), made as {@code readObject} makes it: {@code new BigInteger(signum,
   * magnitude)}, which refuses a signum other than -1, 0, 1 and a zero signum with a magnitude
   * ({@code NumberFormatException}, where the JDK's {@code readObject} throws a {@code
   * StreamCorruptedException} with the same words).
   */
  private static BigInteger bigMagnitude(long[] d, int at) {
    return new BigInteger(Math.toIntExact(d[at]), Values.magnitudeBytes(d, at));
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
