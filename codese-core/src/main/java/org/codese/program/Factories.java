package org.codese.program;

/**
 * The JDK objects a snapshot makes with a public static factory of {@code java.util} ({@link
 * Grammar#STEP_FACTORY}) instead of replaying their default reads and {@code readResolve}: the
 * {@code Collections} wrappers, empties and singletons, {@code Arrays.asList}, {@code
 * Collections.reverseOrder()} and {@code EnumSet}s (from their serial proxy). Each kind is one
 * class of {@code java.base}, named here by its binary name (most are private), and the factory
 * that makes an object equal to what {@code ObjectInputStream} restores of it:
 *
 * <table>
 *   <caption>Factories</caption>
 *   <tr><th>classes ({@code java.util.Collections$...})</th><th>factory of the wrapped
 *       object</th></tr>
 *   <tr><td>{@code UnmodifiableCollection}, {@code UnmodifiableSet}, {@code UnmodifiableSortedSet},
 *       {@code UnmodifiableNavigableSet}, {@code UnmodifiableList}, {@code UnmodifiableMap}, {@code
 *       UnmodifiableSortedMap}, {@code UnmodifiableNavigableMap}</td><td>{@code
 *       Collections.unmodifiableCollection} ... {@code unmodifiableNavigableMap}; a list's factory
 *       picks the random-access class where {@code UnmodifiableList.readResolve} does</td></tr>
 *   <tr><td>{@code SynchronizedCollection} ... {@code SynchronizedNavigableMap}, each with itself
 *       as its mutex</td><td>{@code Collections.synchronizedCollection} ... {@code
 *       synchronizedNavigableMap}; a list's as {@code SynchronizedList.readResolve}</td></tr>
 *   <tr><td>{@code EmptyList}, {@code EmptySet}, {@code EmptyMap}, {@code
 *       ReverseComparator}</td><td>{@code Collections.emptyList()}, {@code emptySet()}, {@code
 *       emptyMap()}, {@code reverseOrder()}: the constants their {@code readResolve}
 *       returns</td></tr>
 *   <tr><td>{@code SingletonList}, {@code SingletonSet}, {@code SingletonMap}</td><td>{@code
 *       Collections.singletonList(e)}, {@code singleton(e)}, {@code singletonMap(k, v)}</td></tr>
 *   <tr><td>{@code java.util.Arrays$ArrayList}</td><td>{@code Arrays.asList(array)}, which keeps
 *       the array itself, as the JDK's restored list does</td></tr>
 *   <tr><td>{@code java.util.EnumSet$SerializationProxy}</td><td>{@code EnumSet.noneOf(type)} and
 *       {@code add} of each element of the array, as the proxy's {@code readResolve} makes the
 *       set</td></tr>
 * </table>
 *
 * <p>Kinds are numbered from 1 in the order of the table's rows and classes; the numbers are part
 * of the snapshot format (format version {@link Grammar#FACTORY_VERSION} on) and never change.
 */
public final class Factories {
  /** Not a factory class. */
  public static final int NONE = 0;

  /** The kind of {@code Collections$UnmodifiableCollection}. */
  public static final int UNMODIFIABLE_COLLECTION = 1;

  /** The kind of {@code Collections$UnmodifiableSet}. */
  public static final int UNMODIFIABLE_SET = 2;

  /** The kind of {@code Collections$UnmodifiableSortedSet}. */
  public static final int UNMODIFIABLE_SORTED_SET = 3;

  /** The kind of {@code Collections$UnmodifiableNavigableSet}. */
  public static final int UNMODIFIABLE_NAVIGABLE_SET = 4;

  /** The kind of {@code Collections$UnmodifiableList}. */
  public static final int UNMODIFIABLE_LIST = 5;

  /** The kind of {@code Collections$UnmodifiableMap}. */
  public static final int UNMODIFIABLE_MAP = 6;

  /** The kind of {@code Collections$UnmodifiableSortedMap}. */
  public static final int UNMODIFIABLE_SORTED_MAP = 7;

  /** The kind of {@code Collections$UnmodifiableNavigableMap}. */
  public static final int UNMODIFIABLE_NAVIGABLE_MAP = 8;

  /** The kind of {@code Collections$SynchronizedCollection}. */
  public static final int SYNCHRONIZED_COLLECTION = 9;

  /** The kind of {@code Collections$SynchronizedSet}. */
  public static final int SYNCHRONIZED_SET = 10;

  /** The kind of {@code Collections$SynchronizedSortedSet}. */
  public static final int SYNCHRONIZED_SORTED_SET = 11;

  /** The kind of {@code Collections$SynchronizedNavigableSet}. */
  public static final int SYNCHRONIZED_NAVIGABLE_SET = 12;

  /** The kind of {@code Collections$SynchronizedList}. */
  public static final int SYNCHRONIZED_LIST = 13;

  /** The kind of {@code Collections$SynchronizedMap}. */
  public static final int SYNCHRONIZED_MAP = 14;

  /** The kind of {@code Collections$SynchronizedSortedMap}. */
  public static final int SYNCHRONIZED_SORTED_MAP = 15;

  /** The kind of {@code Collections$SynchronizedNavigableMap}. */
  public static final int SYNCHRONIZED_NAVIGABLE_MAP = 16;

  /** The kind of {@code Collections$EmptyList}. */
  public static final int EMPTY_LIST = 17;

  /** The kind of {@code Collections$EmptySet}. */
  public static final int EMPTY_SET = 18;

  /** The kind of {@code Collections$EmptyMap}. */
  public static final int EMPTY_MAP = 19;

  /** The kind of {@code Collections$ReverseComparator}. */
  public static final int REVERSE_ORDER = 20;

  /** The kind of {@code Collections$SingletonList}. */
  public static final int SINGLETON_LIST = 21;

  /** The kind of {@code Collections$SingletonSet}. */
  public static final int SINGLETON = 22;

  /** The kind of {@code Collections$SingletonMap}. */
  public static final int SINGLETON_MAP = 23;

  /** The kind of {@code Arrays$ArrayList}. */
  public static final int ARRAY_LIST = 24;

  /**
   * The kind of {@code EnumSet$SerializationProxy}: two arguments, the element type and an array of
   * the elements, made into the set its {@code readResolve} makes.
   */
  public static final int ENUM_SET = 25;

  private static final String C = "java.util.Collections$";

  /** By kind: the class's binary name ({@code null} for {@link #NONE}). */
  private static final String[] NAMES = {
    null,
    C + "UnmodifiableCollection",
    C + "UnmodifiableSet",
    C + "UnmodifiableSortedSet",
    C + "UnmodifiableNavigableSet",
    C + "UnmodifiableList",
    C + "UnmodifiableMap",
    C + "UnmodifiableSortedMap",
    C + "UnmodifiableNavigableMap",
    C + "SynchronizedCollection",
    C + "SynchronizedSet",
    C + "SynchronizedSortedSet",
    C + "SynchronizedNavigableSet",
    C + "SynchronizedList",
    C + "SynchronizedMap",
    C + "SynchronizedSortedMap",
    C + "SynchronizedNavigableMap",
    C + "EmptyList",
    C + "EmptySet",
    C + "EmptyMap",
    C + "ReverseComparator",
    C + "SingletonList",
    C + "SingletonSet",
    C + "SingletonMap",
    "java.util.Arrays$ArrayList",
    "java.util.EnumSet$SerializationProxy"
  };

  /** By kind: the factory, as the listing shows it. */
  private static final String[] FACTORIES = {
    null,
    "Collections.unmodifiableCollection",
    "Collections.unmodifiableSet",
    "Collections.unmodifiableSortedSet",
    "Collections.unmodifiableNavigableSet",
    "Collections.unmodifiableList",
    "Collections.unmodifiableMap",
    "Collections.unmodifiableSortedMap",
    "Collections.unmodifiableNavigableMap",
    "Collections.synchronizedCollection",
    "Collections.synchronizedSet",
    "Collections.synchronizedSortedSet",
    "Collections.synchronizedNavigableSet",
    "Collections.synchronizedList",
    "Collections.synchronizedMap",
    "Collections.synchronizedSortedMap",
    "Collections.synchronizedNavigableMap",
    "Collections.emptyList",
    "Collections.emptySet",
    "Collections.emptyMap",
    "Collections.reverseOrder",
    "Collections.singletonList",
    "Collections.singleton",
    "Collections.singletonMap",
    "Arrays.asList",
    "EnumSet.noneOf"
  };

  /** The last kind. */
  public static final int LAST = NAMES.length - 1;

  private Factories() {}

  /**
   * @param c any class
   * @return its factory kind, {@link #NONE} if it is not a class of {@code java.base} in the table
   */
  public static int kind(Class<?> c) {
    return c.getClassLoader() == null ? kind(c.getName()) : NONE;
  }

  /**
   * @param binaryName a class's binary name
   * @return the factory kind of the {@code java.base} class of that name, {@link #NONE} if none
   */
  public static int kind(String binaryName) {
    if (!binaryName.startsWith("java.util.")) {
      return NONE;
    }
    for (int k = 1; k < NAMES.length; k++) {
      if (NAMES[k].equals(binaryName)) {
        return k;
      }
    }
    return NONE;
  }

  /**
   * @param kind a kind, 1 to {@link #LAST}
   * @return the binary name of its class
   */
  public static String className(int kind) {
    return NAMES[kind];
  }

  /**
   * @param kind a kind, 1 to {@link #LAST}
   * @return the factory that makes it, as {@code Collections.unmodifiableList}
   */
  public static String factory(int kind) {
    return FACTORIES[kind];
  }

  /**
   * @param kind a kind, 1 to {@link #LAST}
   * @return how many objects its factory takes: 0 for the empties and {@code reverseOrder}, 2 for
   *     {@code singletonMap} and an {@code EnumSet}, else 1
   */
  public static int arity(int kind) {
    return kind >= EMPTY_LIST && kind <= REVERSE_ORDER
        ? 0
        : kind == SINGLETON_MAP || kind == ENUM_SET ? 2 : 1;
  }

  /**
   * @param kind a kind, 1 to {@link #LAST}
   * @return whether it wraps a collection or map: the object its factory returns must not be that
   *     one (the factories return a wrapper of their own class unchanged, which {@code
   *     ObjectInputStream} would have wrapped once more)
   */
  public static boolean wraps(int kind) {
    return kind >= UNMODIFIABLE_COLLECTION && kind <= SYNCHRONIZED_NAVIGABLE_MAP;
  }
}
