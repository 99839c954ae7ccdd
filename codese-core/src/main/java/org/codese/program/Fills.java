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
 *   <tr><td>{@code ArrayList}, {@code ArrayDeque}, {@code LinkedList}, {@code Vector}</td>
 *       <td>{@link #ADD}</td><td>{@code add} of each element, in order</td></tr>
 *   <tr><td>{@code PriorityQueue} (natural order)</td><td>{@link #ADD}</td><td>{@code add} of
 *       each element in the order of its heap array, which leaves a heap where it is (as {@code
 *       readObject}'s {@code heapify} does)</td></tr>
 *   <tr><td>{@code HashMap}, {@code LinkedHashMap}, {@code HashSet}, {@code LinkedHashSet}</td>
 *       <td>{@link #PUT}, {@link #ADD}</td><td>{@code put(key, value)} of each pair, or {@code
 *       add}</td></tr>
 *   <tr><td>{@code BitSet}</td><td>{@link #WORDS}</td><td>{@code or(BitSet.valueOf(words))} of
 *       the one {@code long[]} its {@code writeObject} wrote, into a set made with no capacity
 *       (last word not zero) or with 64 bits per word (its {@code readObject} then keeps the
 *       size: {@code sizeIsSticky}), so that its words and stickiness are {@code readObject}'s;
 *       the capacity is at most 64 bits per word of that array</td></tr>
 *   <tr><td>{@code EnumMap}</td><td>{@link #PUT}</td><td>{@code put(key, value)} of each pair,
 *       into a map made with {@code new EnumMap(keyType)} ({@link #keyed})</td></tr>
 *   <tr><td>{@code Hashtable}, {@code IdentityHashMap}</td><td>{@link #PUT}</td><td>{@code
 *       put(key, value)} of each pair; a key put twice (which their {@code readObject} refuses
 *       with a {@code StreamCorruptedException}) and, for {@code Hashtable}, a {@code null} key or
 *       value, fail the restore the same way</td></tr>
 *   <tr><td>{@code ConcurrentHashMap}</td><td>{@link #PUT}</td><td>{@code put(key, value)}
 *       into a map made with {@code new ConcurrentHashMap(pairs)} (the table its {@code
 *       readObject} makes, {@link #concurrentTable}), in an order that leaves every bin as {@code
 *       readObject} does: the order written, the last of equal keys, tree bins alike; a {@code
 *       null} key or value ends the fill, as it ends {@code readObject}'s reading; its {@code
 *       readObject} asks the filter about no array</td></tr>
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

  /** {@code or(BitSet.valueOf(words))} of the one {@code long[]} referenced. */
  public static final int WORDS = 5;

  private static final Class<?>[] CLASSES = {
    java.util.ArrayList.class,
    java.util.ArrayDeque.class,
    java.util.LinkedList.class,
    java.util.HashMap.class,
    java.util.LinkedHashMap.class,
    java.util.HashSet.class,
    java.util.LinkedHashSet.class,
    java.util.TreeMap.class,
    java.util.TreeSet.class,
    java.util.Vector.class,
    java.util.PriorityQueue.class,
    java.util.Hashtable.class,
    java.util.IdentityHashMap.class,
    java.util.EnumMap.class,
    java.util.BitSet.class,
    java.util.concurrent.ConcurrentHashMap.class
  };

  private static final int[] KINDS = {
    ADD, ADD, ADD, PUT, PUT, ADD, ADD, SORTED_PUT, SORTED_ADD, ADD, ADD, PUT, PUT, PUT, WORDS, PUT
  };

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
   * {@link #kind} by name, for readers of a snapshot that do not load its classes.
   *
   * @param binaryName a class's binary name
   * @return how the class of that name is filled, {@link #NONE} if it is not a fill class
   */
  public static int kind(String binaryName) {
    for (int i = 0; i < CLASSES.length; i++) {
      if (CLASSES[i].getName().equals(binaryName)) {
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
   * Whether {@code c} is made with a class, not a capacity: {@code EnumMap}, whose {@code
   * Constant.Sized} gives the class-table index of its key type (an enum class) in place of a
   * capacity, and which allocates only as many slots as the enum has constants, never from data.
   *
   * @param c a fill class
   * @return whether it is {@code EnumMap}
   */
  public static boolean keyed(Class<?> c) {
    return c == java.util.EnumMap.class;
  }

  /**
   * The smallest initial capacity the class's constructor accepts: 1 for {@code PriorityQueue},
   * whose constructor throws for less, 0 for the others.
   *
   * @param c a fill class with a constructor taking a capacity ({@link #sized})
   * @return the smallest capacity a snapshot may give it
   */
  public static int minCapacity(Class<?> c) {
    return c == java.util.PriorityQueue.class ? 1 : 0;
  }

  /**
   * The classes of the objects a JDK stream writes inside a fill class's data that a fill does not
   * make, whose descriptors {@code ObjectInputStream} asks the filter about: for {@code
   * ConcurrentHashMap}, the {@code Segment}s of its serial form and their locks.
   *
   * @param c a fill class
   * @return the binary names of those classes, none for most
   */
  public static java.util.List<String> streamOnlyClasses(Class<?> c) {
    return c == java.util.concurrent.ConcurrentHashMap.class
        ? CONCURRENT_STREAM_CLASSES
        : java.util.List.of();
  }

  private static final java.util.List<String> CONCURRENT_STREAM_CLASSES =
      java.util.List.of(
          "[Ljava.util.concurrent.ConcurrentHashMap$Segment;",
          "java.util.concurrent.ConcurrentHashMap$Segment",
          "java.util.concurrent.locks.ReentrantLock",
          "java.util.concurrent.locks.ReentrantLock$Sync",
          "java.util.concurrent.locks.ReentrantLock$NonfairSync",
          "java.util.concurrent.locks.AbstractQueuedSynchronizer",
          "java.util.concurrent.locks.AbstractOwnableSynchronizer");

  /**
   * The length of the {@code ConcurrentHashMap$Segment[]} a {@code ConcurrentHashMap}'s {@code
   * writeObject} writes ({@code DEFAULT_CONCURRENCY_LEVEL}, JDK 8 on; JDK 17 and 25 alike), an
   * array of the stream that {@code ObjectInputStream} asks the filter about with this length.
   */
  public static final int CONCURRENT_SEGMENTS = 16;

  /**
   * @return the class {@code ConcurrentHashMap$Segment[]} ({@link #streamOnlyClasses}), loaded
   *     uninitialised where a snapshot fills a {@code ConcurrentHashMap}
   */
  public static Class<?> concurrentSegments() {
    try {
      return Class.forName(CONCURRENT_STREAM_CLASSES.get(0), false, null);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "java.util.concurrent.ConcurrentHashMap$Segment is missing", e);
    }
  }

  /**
   * The array class whose length {@code ObjectInputStream} asks the filter about when the class's
   * {@code readObject} allocates its storage ({@code ObjectInputStream.checkArray}), or {@code
   * null} where it asks about none ({@code Vector}'s storage is an array of the snapshot itself,
   * asked about as every array is; {@code ConcurrentHashMap}'s {@code readObject} allocates its
   * table without asking).
   *
   * @param c a fill class
   * @return the array class, or {@code null}
   */
  public static Class<?> checkedArray(Class<?> c) {
    if (c == java.util.ArrayList.class
        || c == java.util.ArrayDeque.class
        || c == java.util.PriorityQueue.class
        || c == java.util.IdentityHashMap.class) {
      return Object[].class;
    }
    if (c == java.util.HashMap.class
        || c == java.util.LinkedHashMap.class
        || c == java.util.HashSet.class
        || c == java.util.LinkedHashSet.class
        || c == java.util.Hashtable.class) {
      return java.util.Map.Entry[].class;
    }
    return null;
  }

  /**
   * The length {@code ObjectInputStream} asks the filter about for {@link #checkedArray}, or -1
   * where the class's {@code readObject} asks about none: the initial capacity, except for {@code
   * PriorityQueue} (its size, also when empty), {@code ArrayDeque} (its size plus one, also when
   * empty, or the capacity plus one its constructor allocates if that is more), {@code
   * IdentityHashMap} (twice the table capacity its constructor gives {@code capacity} expected
   * mappings, as its {@code readObject} asks); -1 for an empty {@code ArrayList}, {@code HashMap}
   * or {@code LinkedHashMap}, whose {@code readObject} asks only when there are elements. The other
   * classes' {@code readObject} asks also when empty (a {@code HashSet} and a {@code Hashtable}
   * about a table of at least one entry).
   *
   * @param c a fill class whose {@link #checkedArray} is not {@code null}
   * @param capacity the initial capacity the snapshot gives it, at least 0
   * @param elements the number of elements (pairs for maps) it is filled with
   * @return the length, or -1
   */
  public static long checkedLength(Class<?> c, int capacity, int elements) {
    if (c == java.util.PriorityQueue.class) {
      return elements;
    }
    if (c == java.util.ArrayDeque.class) {
      return Math.max(capacity, (long) elements) + 1;
    }
    if (c == java.util.IdentityHashMap.class) {
      return 2L * identityCapacity(capacity);
    }
    if (elements == 0
        && (c == java.util.ArrayList.class
            || c == java.util.HashMap.class
            || c == java.util.LinkedHashMap.class)) {
      return -1;
    }
    return c == java.util.HashSet.class
            || c == java.util.LinkedHashSet.class
            || c == java.util.Hashtable.class
        ? Math.max(capacity, 1)
        : capacity;
  }

  /** {@code IdentityHashMap.capacity}: the table capacity for {@code expected} mappings. */
  private static int identityCapacity(int expected) {
    int minimum = 4;
    int maximum = 1 << 29;
    return expected > maximum / 3
        ? maximum
        : expected <= 2 * minimum / 3 ? minimum : Integer.highestOneBit(expected + (expected << 1));
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

  /** {@code ConcurrentHashMap.MAXIMUM_CAPACITY}. */
  private static final int CONCURRENT_MAXIMUM = 1 << 30;

  /**
   * The table length of a {@code ConcurrentHashMap} made with {@code new
   * ConcurrentHashMap(mappings)}, which is the length its {@code readObject} gives the table for
   * {@code mappings} mappings: both compute {@code tableSizeFor((long) (1.0 + mappings / 0.75f))}
   * (JDK 11 on; JDK 17 and 25 alike).
   *
   * @param mappings the number of mappings, at least 1
   * @return the table length, a power of two
   */
  public static int concurrentTable(int mappings) {
    long size = (long) (1.0 + mappings / 0.75f);
    if (size >= CONCURRENT_MAXIMUM) {
      return CONCURRENT_MAXIMUM;
    }
    int n = -1 >>> Integer.numberOfLeadingZeros((int) size - 1);
    return n < 0 ? 1 : n >= CONCURRENT_MAXIMUM ? CONCURRENT_MAXIMUM : n + 1;
  }

  /**
   * {@code ConcurrentHashMap.spread}: the hash a {@code ConcurrentHashMap} files a key of hash code
   * {@code h} under; its bin is this hash masked by the table length minus one.
   *
   * @param h a key's {@code hashCode()}
   * @return the spread hash, not negative
   */
  public static int concurrentHash(int h) {
    return (h ^ (h >>> 16)) & 0x7fffffff;
  }

  /**
   * {@code ConcurrentHashMap.TREEIFY_THRESHOLD}: a bin that would hold more mappings than this
   * becomes a tree bin, to whose node list {@code put} and {@code readObject} add keys at the head,
   * not at the tail as to a list bin.
   */
  public static final int CONCURRENT_TREEIFY = 8;

  /**
   * {@code ConcurrentHashMap.MIN_TREEIFY_CAPACITY}: in a shorter table {@code put} grows the table
   * where {@code readObject} makes a tree bin.
   */
  public static final int CONCURRENT_MIN_TREE_TABLE = 64;
}
