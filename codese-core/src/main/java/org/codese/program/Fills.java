package org.codese.program;

/**
 * The JDK collections a snapshot restores by filling them through their public API ({@link
 * Grammar#STEP_FILL}) instead of replaying their {@code readObject}: which classes, how each is
 * made ({@link Constant.Sized}) and filled, and which array {@code ObjectInputStream}'s {@code
 * readObject} of the class would have asked the serialization filter about. Exactly these classes,
 * never a subclass: a subclass may override the methods a fill calls.
 *
 * <p>Each is made with its public constructor, the no-arg one or the one taking an initial
 * capacity, and filled, at the point where the JDK would have run its {@code readObject}, as
 * follows:
 *
 * <table>
 *   <caption>Fills</caption>
 *   <tr><th>class</th><th>kind</th><th>fill of {@code n} references</th></tr>
 *   <tr><td>{@code ArrayList}, {@code ArrayDeque}, {@code LinkedList}</td><td>{@link #ADD}</td>
 *       <td>{@code add} of each element, in order</td></tr>
 *   <tr><td>{@code HashMap}, {@code LinkedHashMap}, {@code HashSet}, {@code LinkedHashSet}</td>
 *       <td>{@link #PUT}, {@link #ADD}</td><td>{@code put(key, value)} of each pair, or {@code
 *       add}</td></tr>
 *   <tr><td>{@code TreeMap}, {@code TreeSet} (natural order)</td><td>{@link #SORTED_PUT},
 *       {@link #SORTED_ADD}</td><td>{@code putAll} or {@code addAll} of a sorted view of the
 *       data, which both build in linear time without comparing keys, as their {@code
 *       readObject} does</td></tr>
 * </table>
 */
public final class Fills {
  /** Not a fill class. */
  public static final int NONE = 0;

  /** {@code add(element)} per reference. */
  public static final int ADD = 1;

  /** {@code put(key, value)} per pair of references. */
  public static final int PUT = 2;

  /** {@code putAll} of a sorted map view of the pairs. */
  public static final int SORTED_PUT = 3;

  /** {@code addAll} of a sorted set view of the elements. */
  public static final int SORTED_ADD = 4;

  private static final Class<?>[] CLASSES = {
    java.util.ArrayList.class,
    java.util.ArrayDeque.class,
    java.util.LinkedList.class,
    java.util.HashMap.class,
    java.util.LinkedHashMap.class,
    java.util.HashSet.class,
    java.util.LinkedHashSet.class,
    java.util.TreeMap.class,
    java.util.TreeSet.class
  };

  private static final int[] KINDS = {ADD, ADD, ADD, PUT, PUT, ADD, ADD, SORTED_PUT, SORTED_ADD};

  private Fills() {}

  /**
   * @param c any class
   * @return how {@code c} is filled, {@link #NONE} if it is not one of the fill classes
   */
  public static int kind(Class<?> c) {
    for (int i = 0; i < CLASSES.length; i++) {
      if (CLASSES[i] == c) {
        return KINDS[i];
      }
    }
    return NONE;
  }

  /**
   * @param kind a fill kind other than {@link #NONE}
   * @return the number of references per element: 2 for maps, 1 for collections
   */
  public static int width(int kind) {
    return kind == PUT || kind == SORTED_PUT ? 2 : 1;
  }

  /**
   * @param c a fill class
   * @return whether {@code c} has a public constructor taking an {@code int} initial capacity
   */
  public static boolean sized(Class<?> c) {
    return c != java.util.LinkedList.class
        && c != java.util.TreeMap.class
        && c != java.util.TreeSet.class;
  }

  /**
   * The array class whose length {@code ObjectInputStream} asks the filter about when the class's
   * {@code readObject} allocates its storage ({@code ObjectInputStream.checkArray}), or {@code
   * null} where it asks about none.
   *
   * @param c a fill class
   * @return the array class, or {@code null}
   */
  public static Class<?> checkedArray(Class<?> c) {
    if (c == java.util.ArrayList.class || c == java.util.ArrayDeque.class) {
      return Object[].class;
    }
    if (c == java.util.HashMap.class
        || c == java.util.LinkedHashMap.class
        || c == java.util.HashSet.class
        || c == java.util.LinkedHashSet.class) {
      return java.util.Map.Entry[].class;
    }
    return null;
  }

  /**
   * The largest initial capacity a snapshot may give a fill class for {@code elements} elements:
   * what {@code readObject} allocates is below it for every class, and a capacity from the data can
   * therefore not allocate more than a small multiple of what the snapshot holds.
   *
   * @param elements the number of elements (pairs for maps) the object is filled with
   * @return the bound
   */
  public static long maxCapacity(int elements) {
    return Math.max(16L, 4L * elements);
  }
}
