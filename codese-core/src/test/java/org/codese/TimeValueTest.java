package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Values;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;

/**
 * The {@code java.time} values of snapshot format 13, made from data with their public factories
 * instead of replaying their serial proxy {@code java.time.Ser}: offsets, zone regions, zoned and
 * offset date-times, offset times, periods, years, year-months and month-days. The JDK round trip's
 * bytes and sharing, what stays replayed, and hostile data.
 */
class TimeValueTest {
  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  static List<Object> values() {
    LocalDateTime t = LocalDateTime.of(2021, 3, 28, 1, 59, 59, 999_999_999);
    List<Object> all = new ArrayList<>();
    all.add(ZoneOffset.UTC);
    all.add(ZoneOffset.ofHoursMinutesSeconds(-3, -30, -15)); // not a multiple of 15 minutes
    all.add(ZoneOffset.MAX);
    all.add(PARIS);
    all.add(ZoneId.of("UTC"));
    all.add(ZoneId.of("America/Argentina/ComodRivadavia")); // 32 characters
    all.add(ZonedDateTime.of(t, PARIS));
    all.add(ZonedDateTime.of(t.plusHours(1), PARIS)); // in the spring gap: moved by the rules
    all.add(
        ZonedDateTime.of(LocalDateTime.of(2021, 10, 31, 2, 30), PARIS).withLaterOffsetAtOverlap());
    all.add(ZonedDateTime.of(t, ZoneOffset.ofHours(5)));
    all.add(ZonedDateTime.of(t, ZoneId.of("UTC+01:00")));
    all.add(OffsetDateTime.of(t, ZoneOffset.ofHours(-8)));
    all.add(OffsetDateTime.MIN);
    all.add(OffsetTime.of(23, 59, 1, 7, ZoneOffset.ofHours(14)));
    all.add(Period.of(-1, 14, Integer.MIN_VALUE));
    all.add(Period.ZERO);
    all.add(Year.of(Year.MIN_VALUE));
    all.add(Year.of(2024));
    all.add(YearMonth.of(-5, Month.DECEMBER));
    all.add(MonthDay.of(2, 29));
    return all;
  }

  private static long hooks(Object root) throws IOException {
    return SnapshotFile.parse(Codese.toBytes(root)).constants().stream()
        .filter(c -> c instanceof Constant.Hook)
        .count();
  }

  @Test
  void everyValueRestoresToTheJdkRoundTripsBytesWithoutReplay() throws IOException {
    for (Object o : values()) {
      String name = o.getClass().getSimpleName() + " " + o;
      assertEquals(0, hooks(new ArrayList<>(List.of(o))), name + ": nothing replayed");
      RoundTrip.of(new ArrayList<>(List.of(o)))
          .name(name)
          .check(r -> assertEquals(o, ((List<?>) r).get(0), name))
          .run();
    }
    RoundTrip.of(new ArrayList<>(values())).run();
  }

  @Test
  void offsetsAreTheJdksCachedInstancesAndSharedValuesStayShared() throws IOException {
    ZonedDateTime z = ZonedDateTime.of(LocalDateTime.of(2020, 1, 2, 3, 4), PARIS);
    Object[] root = {z, z, PARIS, z.getZone(), ZoneOffset.ofHours(1), z.getOffset()};
    RoundTrip.of(root)
        .check(
            o -> {
              Object[] r = (Object[]) o;
              assertSame(r[0], r[1]);
              assertSame(ZoneOffset.ofHours(1), r[4], "ofTotalSeconds' cached instance");
            })
        .run();
  }

  @Test
  void zoneIdsPackIntoFourLongs() {
    long[] d = new long[5];
    Values.packZoneId("America/Argentina/ComodRivadavia", d, 1);
    assertEquals("America/Argentina/ComodRivadavia", Values.unpackZoneId(d, 1));
    assertNull(Values.unpackZoneId(new long[4], 0), "no id");
    assertNull(Values.unpackZoneId(new long[] {0x4100410000000000L, 0, 0, 0}, 0), "after a zero");
    assertNull(Values.unpackZoneId(new long[] {0x4109000000000000L, 0, 0, 0}, 0), "a control");
  }

  @Test
  void anOlderFormatDoesNotMakeThem() throws IOException {
    SnapshotFile f = SnapshotFile.parse(Codese.toBytes(new ArrayList<>(List.of(Year.of(1)))));
    SnapshotFile older = SnapshotEdit.relabel(f, Grammar.TIME_VERSION - 1);
    String m =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(older.bytes())).getMessage();
    assertTrue(m.contains("which format " + (Grammar.TIME_VERSION - 1) + " does not make"), m);
  }

  /** Restores {@code value}'s snapshot with its data replaced by {@code data}. */
  private static Throwable restoreWith(Object value, long[] data) throws IOException {
    SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(new ArrayList<>(List.of(value))));
    int at = e.constantIndex(c -> c instanceof Constant.PrimArray p && p.array() instanceof long[]);
    e.setConstant(at, new Constant.PrimArray(data));
    Snapshot s = Codese.load(e.bytes());
    return assertThrows(RestoreException.class, s::restore).getCause();
  }

  @Test
  void hostileDataFailsAsTheFactoriesFail() throws IOException {
    assertInstanceOf(DateTimeException.class, restoreWith(ZoneOffset.UTC, new long[] {100_000}));
    assertInstanceOf(
        ArithmeticException.class, restoreWith(Year.of(1), new long[] {Long.MAX_VALUE}));
    assertInstanceOf(DateTimeException.class, restoreWith(MonthDay.of(1, 1), new long[] {2, 30}));
    // an id that packs an offset, a garbage id: no region
    long[] offsetId = new long[4];
    Values.packZoneId("+01:00", offsetId, 0);
    assertInstanceOf(DateTimeException.class, restoreWith(PARIS, offsetId));
    assertInstanceOf(DateTimeException.class, restoreWith(PARIS, new long[] {1, 2, 3, 4}));
    // a zoned date-time whose offset its zone does not allow at that time
    ZonedDateTime z = ZonedDateTime.of(LocalDateTime.of(2020, 1, 2, 3, 4), PARIS);
    long[] bad = new long[8];
    bad[0] = z.toLocalDate().toEpochDay();
    bad[1] = z.toLocalTime().toNanoOfDay();
    bad[2] = 7 * 3600;
    bad[3] = Long.MIN_VALUE;
    Values.packZoneId("Europe/Paris", bad, 4);
    assertInstanceOf(DateTimeException.class, restoreWith(z, bad));
  }
}
