package org.codese.plan;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.codese.capture.Node;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Values;

/**
 * Plans the values ({@link Node.Value}) of a graph as one create program of {@link
 * Grammar#STEP_VALUES} steps, one per kind, with the data of all of a kind's values in one {@code
 * long[]} constant; the steps of kinds that refer to other values ({@link Values#referredKind}: a
 * {@code BigDecimal}'s {@code BigInteger}) come after all the others, so that what they refer to is
 * made first.
 *
 * <p>Contract: {@link #add} takes each value node in graph order; {@link #flush} then returns the
 * program, or nothing when the graph has no values.
 */
final class ValueData {
  private final PlanContext cx;
  private final Map<Character, Group> groups = new LinkedHashMap<>();

  ValueData(PlanContext cx) {
    this.cx = cx;
  }

  /** The values of one kind: their ids and, one after the other, their data. */
  private static final class Group {
    final IntList ids = new IntList();
    long[] data = new long[16];
    int size;

    void add(int id, long[] value) {
      ids.add(id);
      if (size + value.length > data.length) {
        data = Arrays.copyOf(data, Math.max(data.length * 2, size + value.length));
      }
      System.arraycopy(value, 0, data, size, value.length);
      size += value.length;
    }
  }

  /**
   * Takes value {@code v}, listing the class a JDK stream would write for it and the value's class,
   * which {@code ObjectInputStream} asks the filter about once {@code readResolve} returned it, and
   * the other classes such a stream holds descriptors of for it.
   */
  void add(Node.Value v) {
    char kind = v.kind();
    Group g = groups.get(kind);
    if (g == null) {
      // the same classes for every value of a kind
      cx.tables.type(v.streamClass());
      cx.tables.type(v.value().getClass());
      for (Class<?> c : Values.otherStreamClasses(kind)) {
        cx.tables.type(c);
      }
      g = new Group();
      groups.put(kind, g);
    }
    g.add(v.id(), data(v));
  }

  /** The data of value {@code v}, as {@link Values} lays it out. */
  static long[] data(Node.Value v) {
    Object o = v.value();
    return switch (v.kind()) {
      case 'U' ->
          new long[] {((UUID) o).getMostSignificantBits(), ((UUID) o).getLeastSignificantBits()};
      case 'D' -> new long[] {((LocalDate) o).toEpochDay()};
      case 'T' -> new long[] {((LocalTime) o).toNanoOfDay()};
      case 'L' ->
          new long[] {
            ((LocalDateTime) o).toLocalDate().toEpochDay(),
            ((LocalDateTime) o).toLocalTime().toNanoOfDay()
          };
      case 'I' -> new long[] {((Instant) o).getEpochSecond(), ((Instant) o).getNano()};
      case 'R' -> new long[] {((Duration) o).getSeconds(), ((Duration) o).getNano()};
      case 'B' -> new long[] {((java.math.BigInteger) o).longValueExact()};
      case 'J' -> new long[] {((java.util.Date) o).getTime()};
      case 'N' -> new long[] {v.ref(), ((java.math.BigDecimal) o).scale()};
      case 'Z' -> new long[] {((java.time.ZoneOffset) o).getTotalSeconds()};
      case 'O' -> {
        java.time.OffsetDateTime t = (java.time.OffsetDateTime) o;
        yield new long[] {
          t.toLocalDate().toEpochDay(),
          t.toLocalTime().toNanoOfDay(),
          t.getOffset().getTotalSeconds()
        };
      }
      case 'E' -> {
        java.time.OffsetTime t = (java.time.OffsetTime) o;
        yield new long[] {t.toLocalTime().toNanoOfDay(), t.getOffset().getTotalSeconds()};
      }
      case 'P' -> {
        java.time.Period t = (java.time.Period) o;
        yield new long[] {t.getYears(), t.getMonths(), t.getDays()};
      }
      case 'Y' -> new long[] {((java.time.Year) o).getValue()};
      case 'H' ->
          new long[] {
            ((java.time.YearMonth) o).getYear(), ((java.time.YearMonth) o).getMonthValue()
          };
      case 'K' ->
          new long[] {
            ((java.time.MonthDay) o).getMonthValue(), ((java.time.MonthDay) o).getDayOfMonth()
          };
      case 'G' -> {
        long[] d = new long[Values.arity('G')];
        Values.packZoneId(((java.time.ZoneId) o).getId(), d, 0);
        yield d;
      }
      case 'W' -> zoned((java.time.ZonedDateTime) o);
      case 'M' -> Values.bigData((java.math.BigInteger) o);
      default -> throw new IllegalArgumentException("not a value kind: " + v.kind());
    };
  }

  /** A {@code ZonedDateTime}'s data: date, time, offset, then its zone's offset or region id. */
  private static long[] zoned(java.time.ZonedDateTime t) {
    long[] d = new long[Values.arity('W')];
    d[0] = t.toLocalDate().toEpochDay();
    d[1] = t.toLocalTime().toNanoOfDay();
    d[2] = t.getOffset().getTotalSeconds();
    if (t.getZone() instanceof java.time.ZoneOffset z) {
      d[3] = z.getTotalSeconds();
    } else {
      d[3] = Long.MIN_VALUE;
      Values.packZoneId(t.getZone().getId(), d, 4);
    }
    return d;
  }

  /**
   * @return the create program's op, or {@code null} if no value was taken
   */
  Op flush() {
    if (groups.isEmpty()) {
      return null;
    }
    IntList program = new IntList();
    for (Map.Entry<Character, Group> e : groups.entrySet()) {
      if (Values.referredKind(e.getKey()) == 0) {
        step(program, e.getKey(), e.getValue());
      }
    }
    // values that refer to values of other kinds (a BigDecimal's BigInteger) after all of those
    for (Map.Entry<Character, Group> e : groups.entrySet()) {
      if (Values.referredKind(e.getKey()) != 0) {
        step(program, e.getKey(), e.getValue());
      }
    }
    return new Op.RunSteps(cx.intArray(program.toArray()));
  }

  /** Adds the step that makes the values of group {@code g}, of kind {@code kind}. */
  private void step(IntList program, char kind, Group g) {
    program.add(Grammar.STEP_VALUES);
    program.add(kind);
    program.add(cx.tables.constant(new Constant.PrimArray(Arrays.copyOf(g.data, g.size))));
    program.add(g.ids.size());
    int offset = 0;
    for (int i = 0; i < g.ids.size(); i++) {
      program.add(g.ids.get(i));
      program.add(offset);
      offset += (int) Values.length(kind, g.data, offset);
    }
  }
}
