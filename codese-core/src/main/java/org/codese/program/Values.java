package org.codese.program;

/**
 * The JDK value classes a snapshot makes from data with their public factories ({@link
 * Grammar#STEP_VALUES}) instead of replaying their serialized form: which classes, the kind code of
 * each, how many {@code long}s of data make one value, and the class {@code ObjectOutputStream}
 * writes for it (for {@code java.time}, the {@code writeReplace} proxy {@code java.time.Ser}),
 * which the class table lists so that the serialization filter is asked about the class it would
 * see in a JDK stream. Exactly these classes (all final).
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
 * </table>
 *
 * <p>Each factory validates its data as the class's own deserialization does and throws the same
 * {@code DateTimeException} for data out of range.
 */
public final class Values {
  /** The kind codes, in table order. */
  static final String KINDS = "UDTLIR";

  /** The classes, in table order (all of {@code java.base}, loaded with it). */
  private static final Class<?>[] TYPES = {
    java.util.UUID.class,
    java.time.LocalDate.class,
    java.time.LocalTime.class,
    java.time.LocalDateTime.class,
    java.time.Instant.class,
    java.time.Duration.class
  };

  private static final int[] ARITY = {2, 1, 1, 2, 2, 2};

  private static final String TIME_PROXY = "java/time/Ser";

  private Values() {}

  /**
   * @param c a class
   * @return its kind code, or 0 if it is not one of these classes (subclasses are not)
   */
  public static char kindOf(Class<?> c) {
    for (int i = 0; i < TYPES.length; i++) {
      if (TYPES[i] == c) {
        return KINDS.charAt(i);
      }
    }
    return 0;
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
    return kind == 'U' ? className(kind) : TIME_PROXY;
  }
}
