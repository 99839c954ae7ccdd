package org.codese.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A resolved {@code Constant.Sized}: makes one empty JDK collection with its public constructor,
 * the no-argument one or the one taking an initial capacity, by a direct call ({@link
 * Entry#allocate}). A direct call, not {@code Constructor.newInstance}: reflection costs a boxed
 * argument array per object and a call site shared by every constructor, whose changing type
 * profile made the JIT compiler throw away the create phase's compiled code again and again.
 *
 * <p>Instances are immutable and made only by {@link #of}, for exactly the classes the snapshot
 * format lets a snapshot fill ({@code org.codese.program.Fills}); the loader checks the capacity
 * bound before any code runs.
 */
public final class NewCollection {
  private static final int ARRAY_LIST = 0;
  private static final int ARRAY_DEQUE = 1;
  private static final int LINKED_LIST = 2;
  private static final int HASH_MAP = 3;
  private static final int LINKED_HASH_MAP = 4;
  private static final int HASH_SET = 5;
  private static final int LINKED_HASH_SET = 6;
  private static final int TREE_MAP = 7;
  private static final int TREE_SET = 8;
  private static final int VECTOR = 9;
  private static final int PRIORITY_QUEUE = 10;
  private static final int HASHTABLE = 11;
  private static final int IDENTITY_HASH_MAP = 12;
  private static final int BIT_SET = 13;
  private static final int CONCURRENT_HASH_MAP = 14;

  /** Not one of {@link #CLASSES}: made with a key type, by {@link #enumMap} only. */
  private static final int ENUM_MAP = 15;

  private static final Class<?>[] CLASSES = {
    ArrayList.class,
    ArrayDeque.class,
    LinkedList.class,
    HashMap.class,
    LinkedHashMap.class,
    HashSet.class,
    LinkedHashSet.class,
    TreeMap.class,
    TreeSet.class,
    Vector.class,
    PriorityQueue.class,
    Hashtable.class,
    IdentityHashMap.class,
    BitSet.class,
    ConcurrentHashMap.class
  };

  /** Which of {@link #CLASSES}. */
  private final int which;

  /** The initial capacity passed to the constructor, or -1 for the no-argument constructor. */
  private final int capacity;

  /** An {@code EnumMap}'s key type, else {@code null}. */
  private final Class<?> keyType;

  private NewCollection(int which, int capacity, Class<?> keyType) {
    this.which = which;
    this.capacity = capacity;
    this.keyType = keyType;
  }

  /**
   * The maker of empty {@code EnumMap}s of key type {@code keyType}.
   *
   * @param keyType an enum class
   * @return the maker
   * @throws IllegalArgumentException if {@code keyType} is not an enum class
   */
  public static NewCollection enumMap(Class<?> keyType) {
    if (!keyType.isEnum()) {
      throw new IllegalArgumentException(keyType + " is not an enum class");
    }
    return new NewCollection(ENUM_MAP, -1, keyType);
  }

  /**
   * The maker of empty instances of {@code type}.
   *
   * @param type the collection's class
   * @param capacity the initial capacity, or a negative number for the no-argument constructor;
   *     ignored for the classes without a constructor taking one ({@code LinkedList}, {@code
   *     TreeMap}, {@code TreeSet}), which the caller rejects first, as it rejects a capacity their
   *     constructor refuses ({@code PriorityQueue}'s 0)
   * @return the maker, or {@code null} if {@code type} is not one of the classes this makes with a
   *     capacity ({@code EnumMap} is made by {@link #enumMap})
   */
  public static NewCollection of(Class<?> type, int capacity) {
    for (int i = 0; i < CLASSES.length; i++) {
      if (CLASSES[i] == type) {
        return new NewCollection(i, Math.max(capacity, -1), null);
      }
    }
    return null;
  }

  /** A new empty collection, made as this maker says. */
  Object make() {
    int n = capacity;
    switch (which) {
      case ARRAY_LIST:
        return n < 0 ? new ArrayList<>() : new ArrayList<>(n);
      case ARRAY_DEQUE:
        return n < 0 ? new ArrayDeque<>() : new ArrayDeque<>(n);
      case LINKED_LIST:
        return new LinkedList<>();
      case HASH_MAP:
        return n < 0 ? new HashMap<>() : new HashMap<>(n);
      case LINKED_HASH_MAP:
        return n < 0 ? new LinkedHashMap<>() : new LinkedHashMap<>(n);
      case HASH_SET:
        return n < 0 ? new HashSet<>() : new HashSet<>(n);
      case LINKED_HASH_SET:
        return n < 0 ? new LinkedHashSet<>() : new LinkedHashSet<>(n);
      case TREE_MAP:
        return new TreeMap<>();
      case TREE_SET:
        return new TreeSet<>();
      case VECTOR:
        return n < 0 ? new Vector<>() : new Vector<>(n);
      case PRIORITY_QUEUE:
        return n < 0 ? new PriorityQueue<>() : new PriorityQueue<>(n);
      case HASHTABLE:
        return n < 0 ? new Hashtable<>() : new Hashtable<>(n);
      case IDENTITY_HASH_MAP:
        return n < 0 ? new IdentityHashMap<>() : new IdentityHashMap<>(n);
      case BIT_SET:
        return n < 0 ? new BitSet() : new BitSet(n);
      case CONCURRENT_HASH_MAP:
        return n < 0 ? new ConcurrentHashMap<>() : new ConcurrentHashMap<>(n);
      default:
        return newEnumMap(keyType);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object newEnumMap(Class<?> keyType) {
    return new EnumMap(keyType);
  }
}
