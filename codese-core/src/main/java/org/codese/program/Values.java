package org.codese.program;

import java.util.List;

/**
 * The JDK value classes a snapshot makes from data with their public factories ({@link
 * Grammar#STEP_VALUES}) instead of replaying their serialized form: which classes, the kind code of
 * each, how many {@code long}s of data make one value, and the class {@code ObjectOutputStream}
 * writes for it (for {@code java.time}, the {@code writeReplace} proxy {@code java.time.Ser}),
 * which the class table lists so that the serialization filter is asked about the class it would
 * see in a JDK stream. Exactly these classes (subclasses are not values).
 *
 * <table>
 *   <caption>Values</caption>
 *   <tr><th>kind</th><th>class</th><th>data</th><th>made by</th></tr>
 *   <tr><td>{@code 'U'}</td><td>{@code UUID}</td><td>most and least significant bits</td>
 *       <td>{@code new UUID(msb, lsb)}</td></tr>
 *   <tr><td>{@code 'D'}</td><td>{@code LocalDate}</td><td>epoch day</td>
 *       <td>{@code LocalDate.ofEpochDay}</td></tr>
 *   <tr><td>{@code 'T'}</td><td>{@code LocalTime}</td><td>nano of day</td>
 *       <td>{@code LocalTime.ofNanoOfDay}</td></tr>
 *   <tr><td>{@code 'L'}</td><td>{@code LocalDateTime}</td><td>epoch day, nano of day</td>
 *       <td>{@code LocalDateTime.of(LocalDate, LocalTime)}</td></tr>
 *   <tr><td>{@code 'I'}</td><td>{@code Instant}</td><td>epoch second, nano</td>
 *       <td>{@code Instant.ofEpochSecond}</td></tr>
 *   <tr><td>{@code 'R'}</td><td>{@code Duration}</td><td>seconds, nano</td>
 *       <td>{@code Duration.ofSeconds}</td></tr>
 *   <tr><td>{@code 'B'}</td><td>{@code BigInteger} that fits in a {@code long} (format {@link
 *       Grammar#BIG_INTEGER_VERSION} on)</td><td>the value</td>
 *       <td>{@code new BigInteger(signum, magnitude)}, a new object as the JDK's
 *       {@code readObject} makes</td></tr>
 *   <tr><td>{@code 'J'}</td><td>{@code java.util.Date} (format {@link
 *       Grammar#DECIMAL_VERSION} on)</td><td>the time in milliseconds, which its {@code
 *       writeObject} writes</td><td>{@code new Date(ms)}, as {@code readObject} sets {@code
 *       fastTime}</td></tr>
 *   <tr><td>{@code 'N'}</td><td>{@code BigDecimal} whose unscaled value fits in a {@code long}
 *       (format {@link Grammar#DECIMAL_VERSION} on; any from format 13)</td><td>the table slot of
 *       its unscaled value (its {@code intVal}, a {@code 'B'} or {@code 'M'} value an earlier step
 *       of the same program made), the
 *       scale</td><td>{@code new BigDecimal(intVal, scale)}, which keeps that very {@code
 *       BigInteger} as {@code readObject} does</td></tr>
 *   <tr><td>{@code 'Z'}, {@code 'O'}, {@code 'E'}</td><td>{@code ZoneOffset}, {@code
 *       OffsetDateTime}, {@code OffsetTime} (format {@link Grammar#TIME_VERSION} on, as the rest
 *       of this table)</td><td>offset seconds; epoch day, nano of day, offset seconds; nano of
 *       day, offset seconds</td><td>{@code ZoneOffset.ofTotalSeconds} (its cached instances, as
 *       its {@code readExternal}), {@code OffsetDateTime.of}, {@code OffsetTime.of}</td></tr>
 *   <tr><td>{@code 'P'}, {@code 'Y'}, {@code 'H'}, {@code 'K'}</td><td>{@code Period}, {@code
 *       Year}, {@code YearMonth}, {@code MonthDay}</td><td>their fields</td><td>their {@code
 *       of}</td></tr>
 *   <tr><td>{@code 'G'}</td><td>{@code ZoneRegion} (a {@code ZoneId} such as {@code
 *       Europe/Paris}) whose id is at most 32 printable ASCII characters</td><td>the id, 8
 *       characters a {@code long}</td><td>{@code ZoneId.of(id)}, which must give a region</td></tr>
 *   <tr><td>{@code 'M'}</td><td>{@code BigInteger} that does not fit in a {@code long}</td>
 *       <td>the signum, the number of 64-bit words of the magnitude, the words, most significant
 *       first</td><td>{@code new BigInteger(signum, magnitude)}, as {@code readObject}</td></tr>
 *   <tr><td>{@code 'W'}</td><td>{@code ZonedDateTime} whose zone is an offset or such a
 *       region</td><td>epoch day, nano of day, offset seconds, the zone's offset seconds or
 *       {@code Long.MIN_VALUE} for a region, then the region's id as for {@code 'G'}</td><td>{@code
 *       ZonedDateTime.ofStrict}, which keeps date-time, offset and zone as {@code readExternal}
 *       does (and refuses an offset the zone's rules no longer allow, where {@code readExternal}
 *       keeps it)</td></tr>
 * </table>
 *
 * <p>Each factory validates its data as the class's own deserialization does and throws the same
 * {@code DateTimeException} for data out of range. A {@code BigInteger}'s serial form holds its
 * magnitude as a {@code byte[]}, which the class table also lists ({@link #otherStreamClasses}) and
 * whose length the loader counts ({@link #magnitudeLength}), so that the filter is asked about what
 * a JDK stream holds.
 *
 * <p>A {@code BigDecimal} is the one value that refers to another: its {@code intVal} is the {@code
 * BigInteger} of the table slot its data names ({@link #referredKind}), so that a {@code
 * BigInteger} shared with the rest of the graph stays one object, as in a JDK stream. A {@code
 * BigDecimal} whose unscaled value does not fit in a {@code long} was replayed before format 13, as
 * that value was; from format 13 its {@code BigInteger} is an {@code 'M'} value.
 */
public final class Values {
  /** The kind codes, in table order. */
  static final String KINDS = "UDTLIRBJNZOEPYHKGWM";

  /** {@code java.time.ZoneRegion}, package-private: found by name, not initialised. */
  private static final Class<?> ZONE_REGION = zoneRegion();

  private static Class<?> zoneRegion() {
    try {
      return Class.forName("java.time.ZoneRegion", false, null);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("java.time.ZoneRegion is missing", e);
    }
  }

  /** The longest zone region id a value holds, in ASCII characters, 8 a {@code long}. */
  private static final int ZONE_ID_CHARS = 32;

  /** The classes, in table order (all of {@code java.base}, loaded with it). */
  private static final Class<?>[] TYPES = {
    java.util.UUID.class,
    java.time.LocalDate.class,
    java.time.LocalTime.class,
    java.time.LocalDateTime.class,
    java.time.Instant.class,
    java.time.Duration.class,
    java.math.BigInteger.class,
    java.util.Date.class,
    java.math.BigDecimal.class,
    java.time.ZoneOffset.class,
    java.time.OffsetDateTime.class,
    java.time.OffsetTime.class,
    java.time.Period.class,
    java.time.Year.class,
    java.time.YearMonth.class,
    java.time.MonthDay.class,
    ZONE_REGION,
    java.time.ZonedDateTime.class,
    java.math.BigInteger.class // 'M', of any size: after 'B', which kindOf(Class) finds first
  };

  /** The first format version that makes each kind's values. */
  private static final int[] SINCE = {
    Grammar.VALUE_VERSION,
    Grammar.VALUE_VERSION,
    Grammar.VALUE_VERSION,
    Grammar.VALUE_VERSION,
    Grammar.VALUE_VERSION,
    Grammar.VALUE_VERSION,
    Grammar.BIG_INTEGER_VERSION,
    Grammar.DECIMAL_VERSION,
    Grammar.DECIMAL_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION,
    Grammar.TIME_VERSION
  };

  /** The longs of a value: for {@code 'M'} the least, its signum and word count. */
  private static final int[] ARITY = {2, 1, 1, 2, 2, 2, 1, 1, 2, 1, 3, 2, 3, 1, 2, 2, 4, 8, 2};

  /**
   * The most 64-bit words a {@code 'M'} value's magnitude has: {@code BigInteger}'s own limit
   * ({@code Integer.MAX_VALUE / Integer.SIZE + 1} ints), so that its bytes fit in an array.
   */
  public static final int MAX_MAGNITUDE_WORDS = (Integer.MAX_VALUE / Integer.SIZE + 1) / 2;

  /** The largest {@code BigInteger} bit length (sign excluded) a value of kind 'B' has. */
  private static final int LONG_BITS = 63;

  private static final String TIME_PROXY = "java/time/Ser";

  private Values() {}

  /**
   * @param c a class
   * @return its kind code, or 0 if it is not one of these classes (subclasses are not)
   */
  /**
   * @param c a class
   * @return whether objects of exactly {@code c} may be values ({@link #kindOf(Object)} may still
   *     answer 0 for one of them)
   */
  public static boolean isValueClass(Class<?> c) {
    return kindOf(c) != 0;
  }

  private static char kindOf(Class<?> c) {
    for (int i = 0; i < TYPES.length; i++) {
      if (TYPES[i] == c) {
        return KINDS.charAt(i);
      }
    }
    return 0;
  }

  /**
   * @param c a class
   * @return whether it is one of this table's classes whose values a JDK stream writes as another
   *     class ({@link #streamClassName}: the {@code java.time} classes, as {@code java.time.Ser}),
   *     so that it holds no descriptor of the class nor of its superclasses
   */
  public static boolean streamedAsOther(Class<?> c) {
    char kind = kindOf(c);
    return kind != 0 && !streamClassName(kind).equals(className(kind));
  }

  /**
   * @param o an object
   * @return the kind code of the value it is, or 0 if it is none: its class is one of this table's
   *     ({@code 'M'} for a {@code BigInteger} that does not fit in a {@code long}), and a zone
   *     region's id fits {@link #packZoneId}
   */
  public static char kindOf(Object o) {
    char kind = kindOf(o.getClass());
    if (kind == 'B') {
      return ((java.math.BigInteger) o).bitLength() > LONG_BITS ? 'M' : kind;
    }
    if (kind == 'G') {
      return isShortAscii(((java.time.ZoneId) o).getId()) ? kind : 0;
    }
    if (kind == 'W') {
      java.time.ZoneId zone = ((java.time.ZonedDateTime) o).getZone();
      return zone instanceof java.time.ZoneOffset
              || (zone.getClass() == ZONE_REGION && isShortAscii(zone.getId()))
          ? kind
          : 0;
    }
    return kind;
  }

  /** Whether a zone id packs into the longs of {@link #packZoneId}: printable ASCII, short. */
  private static boolean isShortAscii(String id) {
    if (id.isEmpty() || id.length() > ZONE_ID_CHARS) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c <= ' ' || c > '~') {
        return false;
      }
    }
    return true;
  }

  /**
   * Packs a zone region id into {@code ZONE_ID_CHARS / 8} longs, eight ASCII characters each, the
   * first in the highest byte, zeros after the last.
   *
   * @param id an id {@link #kindOf} accepted
   * @param into receives the longs from {@code at}
   */
  public static void packZoneId(String id, long[] into, int at) {
    for (int i = 0; i < ZONE_ID_CHARS; i++) {
      long c = i < id.length() ? id.charAt(i) : 0;
      into[at + i / 8] |= c << (8 * (7 - i % 8));
    }
  }

  /**
   * The zone region id {@link #packZoneId} packed.
   *
   * @return the id, or {@code null} if the longs hold no id (empty, a character that is not
   *     printable ASCII, or a character after a zero)
   */
  public static String unpackZoneId(long[] data, int at) {
    StringBuilder id = new StringBuilder();
    boolean ended = false;
    for (int i = 0; i < ZONE_ID_CHARS; i++) {
      int c = (int) (data[at + i / 8] >>> (8 * (7 - i % 8))) & 0xFF;
      if (c == 0) {
        ended = true;
      } else if (ended || c <= ' ' || c > '~') {
        return null;
      } else {
        id.append((char) c);
      }
    }
    return id.length() == 0 ? null : id.toString();
  }

  /**
   * @param kind a kind code of this table
   * @return the first snapshot format version that makes values of that kind
   */
  public static int since(int kind) {
    return SINCE[KINDS.indexOf(kind)];
  }

  /**
   * @param kind a kind code of this table
   * @return whether an object stream's segments make such values: those of format {@link
   *     Grammar#VALUE_VERSION}, whose code segments carry; a stream replays the others (a {@code
   *     BigInteger}'s magnitude, a {@code BigDecimal}'s {@code BigInteger}, are objects its hooks
   *     see)
   */
  public static boolean inStreams(int kind) {
    return since(kind) == Grammar.VALUE_VERSION;
  }

  /**
   * @param kind a kind code of this table
   * @return the kind of the value in the table slot that such a value's first {@code long} of data
   *     names, which an earlier step of the same program must have made: {@code 'B'} for a {@code
   *     BigDecimal} (its {@code intVal}); 0 for a kind whose data are numbers only
   */
  public static char referredKind(int kind) {
    return kind == 'N' ? 'B' : 0;
  }

  /**
   * @param kind a kind code of this table
   * @param other another kind code
   * @return whether a value of {@code kind} may refer to one of {@code other}: a {@code BigDecimal}
   *     to its {@code BigInteger}, of either kind ({@code 'B'}, or from format 13 {@code 'M'})
   */
  public static boolean refers(int kind, int other) {
    return kind == 'N' && (other == 'B' || other == 'M');
  }

  /**
   * @param kind a kind code of this table
   * @return the classes other than the value's class and stream class that a JDK stream holds a
   *     descriptor of for such a value, which the filter is asked about: for a {@code BigInteger},
   *     its serializable superclass {@code Number} and its magnitude's {@code byte[]}; for a {@code
   *     BigDecimal}, {@code Number} (its {@code BigInteger} is a value of its own)
   */
  public static List<Class<?>> otherStreamClasses(int kind) {
    return kind == 'B' || kind == 'M'
        ? BIG_INTEGER_STREAM_CLASSES
        : kind == 'N' ? NUMBER : List.of();
  }

  /**
   * @param kind a kind code of this table
   * @return whether a JDK stream holds an object one level below such a value (a {@code
   *     BigInteger}'s magnitude array), which the depth the filter is told counts (a {@code
   *     BigDecimal}'s {@code BigInteger} is a value of its own, below it in the graph)
   */
  public static boolean holdsArray(int kind) {
    return kind == 'B' || kind == 'M';
  }

  private static final List<Class<?>> BIG_INTEGER_STREAM_CLASSES =
      List.of(Number.class, byte[].class);

  private static final List<Class<?>> NUMBER = List.of(Number.class);

  /**
   * @param kind a kind code of this table
   * @param data a value's data
   * @param at where the value's data start; {@link #length} of them lie in {@code data}
   * @return the length of the array a JDK stream holds for the value: for a {@code BigInteger}, its
   *     magnitude's bytes; 0 for the other kinds
   */
  public static int magnitudeLength(int kind, long[] data, int at) {
    if (kind == 'B') {
      long magnitude = data[at] < 0 ? -data[at] : data[at]; // Long.MIN_VALUE: 2^63 unsigned
      return (Long.SIZE - Long.numberOfLeadingZeros(magnitude) + Byte.SIZE - 1) / Byte.SIZE;
    }
    if (kind != 'M') {
      return 0;
    }
    int words = (int) data[at + 1];
    for (int i = 0; i < words; i++) {
      long w = data[at + 2 + i];
      if (w != 0) {
        int top = (Long.SIZE - Long.numberOfLeadingZeros(w) + Byte.SIZE - 1) / Byte.SIZE;
        return top + Long.BYTES * (words - i - 1);
      }
    }
    return 0;
  }

  /**
   * A {@code BigInteger}'s {@code 'M'} data: its signum, the number of 64-bit words of its
   * magnitude, the words, most significant first.
   */
  public static long[] bigData(java.math.BigInteger b) {
    java.math.BigInteger magnitude = b.abs();
    int words = (magnitude.bitLength() + Long.SIZE - 1) / Long.SIZE;
    long[] d = new long[2 + words];
    d[0] = b.signum();
    d[1] = words;
    for (int i = 0; i < words; i++) {
      d[2 + i] = magnitude.shiftRight(Long.SIZE * (words - 1 - i)).longValue();
    }
    return d;
  }

  /**
   * The magnitude {@link #bigData} wrote at {@code at}, as the big-endian bytes {@code new
   * BigInteger(signum, magnitude)} takes (the word count checked against the data by the caller).
   */
  public static byte[] magnitudeBytes(long[] data, int at) {
    int words = (int) data[at + 1];
    byte[] magnitude = new byte[Long.BYTES * words];
    for (int i = 0; i < words; i++) {
      long w = data[at + 2 + i];
      for (int b = 0; b < Long.BYTES; b++) {
        magnitude[Long.BYTES * i + b] = (byte) (w >>> (Byte.SIZE * (Long.BYTES - 1 - b)));
      }
    }
    return magnitude;
  }

  /**
   * @param kind a kind code of this table
   * @param data a kind's data
   * @param at where a value's data start
   * @return how many longs the value's data take: {@link #arity} but for {@code 'M'}, whose second
   *     long counts the 64-bit words of its magnitude that follow (unchecked: the loader checks it
   *     is from 0 to {@link #MAX_MAGNITUDE_WORDS} and that they lie in {@code data})
   */
  public static long length(int kind, long[] data, int at) {
    return kind == 'M' && at + 1 < data.length ? 2 + data[at + 1] : arity(kind);
  }

  /**
   * @param kind a kind code
   * @return whether it is one of this table's
   */
  public static boolean isKind(int kind) {
    return kind > 0 && kind < Character.MAX_VALUE && KINDS.indexOf(kind) >= 0;
  }

  /**
   * @param kind a kind code of this table
   * @return how many {@code long}s of data make one value
   */
  public static int arity(int kind) {
    return ARITY[KINDS.indexOf(kind)];
  }

  /**
   * @param kind a kind code of this table
   * @return the internal name of the class the value is
   */
  public static String className(int kind) {
    return type(kind).getName().replace('.', '/');
  }

  /**
   * @param kind a kind code of this table
   * @return the class the value is
   */
  public static Class<?> type(int kind) {
    return TYPES[KINDS.indexOf(kind)];
  }

  /**
   * @param kind a kind code of this table
   * @return the internal name of the class {@code ObjectOutputStream} writes for such a value
   */
  public static String streamClassName(int kind) {
    return kind == 'U' || kind == 'B' || kind == 'J' || kind == 'N' || kind == 'M'
        ? className(kind)
        : TIME_PROXY;
  }
}
