package org.codese.plan;

import java.util.Arrays;
import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.jvm.Slot;
import org.codese.program.Fills;

/**
 * A JDK collection restored by a fill ({@link Fills}) instead of its {@code readObject}: its class,
 * the initial capacity to make it with ({@code -1}: the no-arg constructor) and the references it
 * is filled with, in the order its {@code writeObject} wrote them.
 *
 * <p>{@link #of} reads them from the tape the class's {@code writeObject} recorded at capture and
 * accepts only the exact shape the JDK's code writes, with the default load factor, insertion order
 * and natural ordering; anything else (a subclass, a comparator, another load factor, an
 * access-ordered map) keeps its {@code readObject}. The capacity is the one {@code readObject}
 * gives the table, so that the restored object serializes to the JDK round trip's bytes.
 *
 * @param type the class, one of {@link Fills}'
 * @param capacity the initial capacity, or {@code -1}
 * @param refs the object ids it is filled with (pairs for maps; -1 for {@code null})
 * @param keyType an {@code EnumMap}'s key type, which it is made with in place of a capacity
 *     ({@link Fills#keyed}), else {@code null}
 */
record CollectionFill(Class<?> type, int capacity, int[] refs, Class<?> keyType) {
  CollectionFill(Class<?> type, int capacity, int[] refs) {
    this(type, capacity, refs, null);
  }

  /** {@code HashMap.MAXIMUM_CAPACITY}. */
  private static final int MAXIMUM_CAPACITY = 1 << 30;

  /** {@code HashMap.DEFAULT_INITIAL_CAPACITY}. */
  private static final int DEFAULT_INITIAL_CAPACITY = 16;

  private static final float DEFAULT_LOAD_FACTOR = 0.75f;

  /**
   * @param node a captured object
   * @param graph its graph, where a {@code Vector}'s storage array is
   * @return its fill, or {@code null} if it is restored by its hooks
   */
  static CollectionFill of(Node.Instance node, Graph graph) {
    Class<?> c = node.type().type();
    int kind = Fills.kind(c);
    if (kind == Fills.NONE) {
      return null;
    }
    Node.SlotData[] slots = node.slots();
    // the first slot writes the tape; later ones may be direct (no fields, as LinkedHashSet's)
    if (slots.length == 0
        || slots[0] == null
        || slots[0].tape() == null
        || !restLeavesDefaults(node)) {
      return null;
    }
    TapeCursor in = new TapeCursor(slots[0].tape());
    if (c == java.util.ArrayList.class) {
      return in.fields(0, 4) && in.block(4)
          ? elements(in, c, 1, in.nextInt(), Capacity.SIZE)
          : null;
    } else if (c == java.util.ArrayDeque.class || c == java.util.LinkedList.class) {
      Capacity k = c == java.util.LinkedList.class ? Capacity.NONE : Capacity.SIZE;
      return in.fields(0, 0) && in.block(4) ? elements(in, c, 1, in.nextInt(), k) : null;
    } else if (c == java.util.HashMap.class || c == java.util.LinkedHashMap.class) {
      // the default fields loadFactor and threshold, then the number of buckets and the size
      if (!defaultLoadFactor(in)) {
        return null;
      }
      in.nextInt(); // the number of buckets, which readObject ignores
      return elements(in, c, 2, in.nextInt(), Capacity.HASH_MAP);
    } else if (c == java.util.HashSet.class || c == java.util.LinkedHashSet.class) {
      if (!in.fields(0, 0) || !in.block(12)) {
        return null;
      }
      in.nextInt(); // the capacity, which readObject recomputes
      return in.nextFloat() == DEFAULT_LOAD_FACTOR
          ? elements(in, c, 1, in.nextInt(), Capacity.HASH_SET)
          : null;
    } else if (c == java.util.Vector.class) {
      return vector(in, graph);
    } else if (c == java.util.PriorityQueue.class) {
      // the default fields comparator and size, then the array length the JDK 1.5 form had
      if (!in.fields(1, 0) || !in.has(4)) {
        return null;
      }
      int size = in.nextInt();
      CollectionFill fill =
          in.nextRef() == -1 && in.block(4) && in.skip(4)
              ? elements(in, c, 1, size, Capacity.AT_LEAST_ONE)
              : null;
      return fill != null && isHeapOfValues(fill.refs(), graph) ? fill : null;
    } else if (c == java.util.Hashtable.class) {
      // the default fields loadFactor and threshold, then the table length and the size
      if (!defaultLoadFactor(in)) {
        return null;
      }
      int length = in.nextInt();
      int n = in.nextInt();
      return elements(in, c, 2, n, hashtableLength(n, length));
    } else if (c == java.util.IdentityHashMap.class) {
      // the default field size, then the size again
      return in.fields(0, 4) && in.block(4)
          ? elements(in, c, 2, in.nextInt(), Capacity.SIZE)
          : null;
    } else if (c == java.util.EnumMap.class) {
      return enumMap(in, graph);
    } else if (c == java.util.BitSet.class) {
      return bitSet(in, graph);
    } else if (c == java.util.concurrent.ConcurrentHashMap.class) {
      return ConcurrentFill.of(node, in, graph);
    } else if (c == java.util.TreeMap.class) {
      return in.fields(1, 0) && in.nextRef() == -1 && in.block(4)
          ? elements(in, c, 2, in.nextInt(), Capacity.NONE)
          : null;
    } else {
      return in.fields(0, 0) && in.ref() && in.nextRef() == -1 && in.block(4)
          ? elements(in, c, 1, in.nextInt(), Capacity.NONE)
          : null;
    }
  }

  /**
   * Whether the slots after the first set nothing a fill's constructor does not: {@code
   * LinkedHashMap}'s {@code accessOrder} false, {@code LinkedHashSet}'s nothing.
   */
  private static boolean restLeavesDefaults(Node.Instance node) {
    Node.SlotData[] slots = node.slots();
    for (int i = 1; i < slots.length; i++) {
      Node.SlotData s = slots[i];
      if (s == null ? !directLeavesDefaults(node, i) : !leavesDefaults(s)) {
        return false;
      }
    }
    return true;
  }

  /** Whether a slot with data sets nothing: no tape, no reference fields, primitives zero. */
  private static boolean leavesDefaults(Node.SlotData s) {
    if (s.tape() != null || s.slot().readObject() != null) {
      return false;
    }
    for (long p : s.prims() == null ? new long[0] : s.prims()) {
      if (p != 0) {
        return false;
      }
    }
    return s.refs() == null || s.refs().length == 0;
  }

  /** {@link #leavesDefaults} for direct slot {@code i}, whose fields are in the node's row. */
  private static boolean directLeavesDefaults(Node.Instance node, int i) {
    Slot slot = node.type().slots().get(i);
    int nPrims = slot.primitiveCount();
    if (slot.fields().size() != nPrims) {
      return false;
    }
    int base = node.rows().primBase(node.row(), i);
    for (int f = 0; f < nPrims; f++) {
      if (node.rows().prim(base + f) != 0) {
        return false;
      }
    }
    return true;
  }

  /** How the initial capacity follows from the number of elements. */
  private enum Capacity {
    /** The no-arg constructor. */
    NONE,
    /** The number of elements. */
    SIZE,
    /** {@code HashMap.readObject}'s table for the mappings. */
    HASH_MAP,
    /** {@code HashSet.readObject}'s capacity for the elements, as its table size. */
    HASH_SET,
    /** The number of elements, at least 1 ({@code PriorityQueue}'s constructor refuses 0). */
    AT_LEAST_ONE;

    int of(int n) {
      return switch (this) {
        case NONE -> -1;
        case SIZE -> n;
        case AT_LEAST_ONE -> Math.max(n, 1);
        case HASH_MAP -> n == 0 ? -1 : hashMapTable(n);
        case HASH_SET ->
            tableSizeFor(
                (int) Math.min(n * Math.min(1 / DEFAULT_LOAD_FACTOR, 4.0f), MAXIMUM_CAPACITY));
      };
    }
  }

  /**
   * Whether this JDK's {@code HashMap.readObject} sizes the table for {@code ceil(n / lf)} mappings
   * (JDK 19 on, JDK-8281631) rather than for {@code n / lf + 1}: a snapshot gives a map the table
   * the capturing JDK's own round trip would.
   */
  private static final boolean CEILING_SIZED = Runtime.version().feature() >= 19;

  /** The table {@code HashMap.readObject} allocates for {@code n > 0} mappings. */
  private static int hashMapTable(int n) {
    double wanted =
        CEILING_SIZED
            ? Math.ceil(n / (double) DEFAULT_LOAD_FACTOR)
            : (float) n / DEFAULT_LOAD_FACTOR + 1.0f;
    return wanted < DEFAULT_INITIAL_CAPACITY
        ? DEFAULT_INITIAL_CAPACITY
        : wanted >= MAXIMUM_CAPACITY ? MAXIMUM_CAPACITY : tableSizeFor((int) wanted);
  }

  /**
   * A {@code Vector} written by its {@code writeObject} ({@code capacityIncrement}, the count, and
   * a copy of its storage array, a node of its own): filled with the first {@code count} elements
   * of that array and made with the array's length as capacity, so that it writes the same array
   * again; the increment is left 0, as {@code readObject} leaves it. {@code null} where the array
   * holds more than the count, or is longer than the loader allows a fill's capacity ({@link
   * Fills#maxCapacity}).
   */
  private static CollectionFill vector(TapeCursor in, Graph graph) {
    if (!in.fields(1, 0) || !in.skip(4) || !in.has(4)) {
      return null;
    }
    int count = in.nextInt();
    int array = in.nextRef();
    if (in.more()
        || !(graph.node(array) instanceof Node.Array a)
        || a.type() != Object[].class
        || !(a.elements() instanceof int[] ids)
        || count < 0
        || count > ids.length
        || ids.length > Fills.maxCapacity(count)) {
      return null;
    }
    for (int i = count; i < ids.length; i++) {
      if (ids[i] != -1) {
        return null;
      }
    }
    return new CollectionFill(java.util.Vector.class, ids.length, Arrays.copyOf(ids, count));
  }

  /**
   * Reads the default fields {@code loadFactor} (which must be 0.75) and {@code threshold} of a
   * {@code HashMap} or {@code Hashtable}, and opens the block of the two {@code int}s its {@code
   * writeObject} writes next.
   */
  private static boolean defaultLoadFactor(TapeCursor in) {
    return in.fields(0, 0)
        && in.has(8)
        && in.nextFloat() == DEFAULT_LOAD_FACTOR
        && in.skip(4)
        && in.block(8);
  }

  /**
   * Whether {@code refs} name values of JDK classes (strings, boxes, dates and the like, enum
   * constants) in an order that is a heap under their natural ordering: then adding them in order
   * moves none, as {@code PriorityQueue.readObject}'s {@code heapify} moves none. An array that is
   * no heap (elements changed after they were added) would come out of the two in different orders,
   * and other elements' {@code compareTo} is not run at capture; both keep {@code readObject}.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean isHeapOfValues(int[] refs, Graph graph) {
    Comparable[] values = new Comparable[refs.length];
    for (int i = 0; i < refs.length; i++) {
      Node n = graph.node(refs[i]);
      Object v =
          n instanceof Node.Text t
              ? t.value()
              : n instanceof Node.Box b
                  ? b.value()
                  : n instanceof Node.Value x
                      ? x.value()
                      : n instanceof Node.Constant k && k.value() instanceof Enum<?> e ? e : null;
      if (!(v instanceof Comparable<?> cv) || !isJdkClass(v)) {
        return false;
      }
      values[i] = cv;
    }
    try {
      for (int i = 1; i < values.length; i++) {
        Comparable parent = values[(i - 1) >>> 1];
        if (parent.compareTo(values[i]) > 0 || values[i].compareTo(parent) < 0) {
          return false;
        }
      }
    } catch (ClassCastException e) {
      return false; // elements of classes that do not compare with each other
    }
    return true;
  }

  /** Whether {@code v}'s {@code compareTo} is the JDK's own, or an enum's (final). */
  private static boolean isJdkClass(Object v) {
    return v instanceof Enum<?> || v.getClass().getClassLoader() == null;
  }

  /**
   * A {@code BitSet} written by its {@code writeObject} (the field {@code bits}, a {@code long[]}
   * of the snapshot): made with no capacity where the last word is not zero, and with 64 bits per
   * word where it is (or there is none), so that after {@code or(BitSet.valueOf(bits))} it has the
   * words, the words in use and the stickiness of size {@code readObject} gives it ({@code
   * sizeIsSticky} is whether the last word read is zero).
   */
  private static CollectionFill bitSet(TapeCursor in, Graph graph) {
    if (!in.fields(1, 0)) {
      return null;
    }
    int bits = in.nextRef();
    if (in.more()
        || !(graph.node(bits) instanceof Node.Array a)
        || !(a.elements() instanceof long[] words)
        || words.length > Integer.MAX_VALUE / Long.SIZE) {
      return null;
    }
    boolean sticky = words.length == 0 || words[words.length - 1] == 0;
    int capacity = sticky ? words.length * Long.SIZE : -1;
    return new CollectionFill(java.util.BitSet.class, capacity, new int[] {bits});
  }

  /**
   * An {@code EnumMap} written by its {@code writeObject} (the default field {@code keyType}, a
   * class the snapshot holds as a constant, the size, the pairs in the order of the keys'
   * ordinals), filled by {@code put} in that order into {@code new EnumMap(keyType)}, as its {@code
   * readObject} puts them into the map its default fields made.
   */
  private static CollectionFill enumMap(TapeCursor in, Graph graph) {
    if (!in.fields(1, 0)) {
      return null;
    }
    int key = in.nextRef();
    if (!(graph.node(key) instanceof Node.Constant k)
        || !(k.value() instanceof Class<?> keyType)
        || !keyType.isEnum()
        || !in.block(4)) {
      return null;
    }
    int n = in.nextInt();
    int[] refs = n < 0 ? null : in.lastRefs(2L * n);
    return refs == null ? null : new CollectionFill(java.util.EnumMap.class, -1, refs, keyType);
  }

  /**
   * Whether this JDK's {@code Hashtable.readObject} computes the table length with {@code elements
   * * 1.05f} (JDK 19 on, JDK-8280459) rather than {@code elements + elements / 20}.
   */
  private static final boolean FLOAT_GROWTH = Runtime.version().feature() >= 19;

  /**
   * The table length {@code Hashtable.readObject} allocates for {@code n} elements of a table that
   * had {@code length} buckets, with the default load factor: the capacity a fill gives the {@code
   * Hashtable}, whose constructor then sets the same threshold, so that no {@code put} rehashes.
   */
  private static int hashtableLength(int n, int length) {
    float lf = DEFAULT_LOAD_FACTOR;
    int original = Math.max(length, (int) (n / lf) + 1);
    int wanted = FLOAT_GROWTH ? (int) (n * 1.05f / lf) + 3 : (int) ((n + n / 20) / lf) + 3;
    if (wanted > n && (wanted & 1) == 0) {
      wanted--;
    }
    wanted = Math.min(wanted, original);
    return wanted < 0 ? original : wanted;
  }

  /** {@code HashMap.tableSizeFor}: the smallest power of two at least {@code c}, at least 1. */
  private static int tableSizeFor(int c) {
    int n = -1 >>> Integer.numberOfLeadingZeros(c - 1);
    return n < 0 ? 1 : n >= MAXIMUM_CAPACITY ? MAXIMUM_CAPACITY : n + 1;
  }

  /** {@code n} elements of {@code width} references each, which must end the tape and its data. */
  private static CollectionFill elements(
      TapeCursor in, Class<?> c, int width, int n, Capacity capacity) {
    return n < 0 ? null : elements(in, c, width, n, capacity.of(n));
  }

  /** {@link #elements(TapeCursor, Class, int, int, Capacity)} with the capacity given. */
  private static CollectionFill elements(
      TapeCursor in, Class<?> c, int width, int n, int capacity) {
    int[] ids = n < 0 ? null : in.lastRefs((long) n * width);
    return ids == null ? null : new CollectionFill(c, capacity, ids);
  }
}
