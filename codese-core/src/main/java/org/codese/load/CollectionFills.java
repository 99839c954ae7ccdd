package org.codese.load;

import java.io.StreamCorruptedException;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import org.codese.program.Fills;

/**
 * Runs {@code STEP_FILL} steps ({@link org.codese.program.Grammar#STEP_FILL}): fills a JDK
 * collection the create phase made with its public constructor, through its public API, with
 * objects of the table, as {@link Fills} describes. Runs where the class's {@code readObject} would
 * have run, so every element is as complete as {@code readObject} would have found it.
 *
 * <p>{@link ProgramCheck} has checked that the target slot holds a collection this snapshot made
 * with its public constructor and fills once, and that every reference is a table slot; the exact
 * class is checked again here, since no subclass's overriding method may run.
 */
final class CollectionFills {
  private CollectionFills() {}

  /**
   * Runs the fill step at {@code i} of finish program {@code p}.
   *
   * @return where the next step starts
   * @throws StreamCorruptedException if the target is not a fill class
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int run(Object[] table, int[] p, int i) throws StreamCorruptedException {
    Object target = table[p[i + 1]];
    int n = p[i + 2];
    int from = i + 3;
    int to = from + n;
    Class<?> c = target == null ? null : target.getClass();
    if (c == ArrayList.class
        || c == ArrayDeque.class
        || c == LinkedList.class
        || c == HashSet.class
        || c == LinkedHashSet.class
        || c == Vector.class
        || c == PriorityQueue.class) {
      Collection col = (Collection) target;
      for (int k = from; k < to; k++) {
        col.add(table[p[k]]);
      }
    } else if (c == HashMap.class || c == LinkedHashMap.class || c == EnumMap.class) {
      Map map = (Map) target;
      for (int k = from; k < to; k += 2) {
        map.put(table[p[k]], table[p[k + 1]]);
      }
    } else if (c == BitSet.class) {
      ((BitSet) target).or(BitSet.valueOf((long[]) table[p[from]]));
    } else if (c == Hashtable.class || c == IdentityHashMap.class) {
      putEach((Map) target, table, p, from, to);
    } else if (c == ConcurrentHashMap.class) {
      ConcurrentFills.run((ConcurrentHashMap) target, table, p, from, to);
    } else if (c == TreeMap.class) {
      // TreeMap.putAll of a sorted map with the same (natural) order into an empty map builds the
      // tree from the sorted entries in linear time, as readObject does, without comparing keys
      ((TreeMap) target).putAll(new SortedEntries(table, p, from, n / 2));
    } else if (c == TreeSet.class) {
      ((TreeSet) target).addAll(new SortedElements(table, p, from, n));
    } else {
      throw new StreamCorruptedException(
          "a fill step targets a " + (c == null ? "null" : c.getName()) + ", not a JDK collection");
    }
    return to;
  }

  /**
   * Puts each pair into a {@code Hashtable} or {@code IdentityHashMap}, refusing what their {@code
   * readObject} refuses: a key twice, and in a {@code Hashtable} a {@code null} value ({@code
   * StreamCorruptedException}) or key ({@code NullPointerException}, from {@code put} as from
   * {@code readObject}'s {@code key.hashCode()}).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void putEach(Map map, Object[] table, int[] p, int from, int to)
      throws StreamCorruptedException {
    boolean nulls = map instanceof IdentityHashMap;
    for (int k = from; k < to; k += 2) {
      Object key = table[p[k]];
      Object value = table[p[k + 1]];
      if (!nulls && value == null) {
        throw new StreamCorruptedException("a fill puts a null value into a Hashtable");
      }
      int size = map.size();
      map.put(key, value);
      if (map.size() == size) {
        throw new StreamCorruptedException(
            "a fill puts a key into a " + map.getClass().getName() + " twice");
      }
    }
  }

  /**
   * A map of the pairs {@code (table[p[k]], table[p[k + 1]])}, sorted as the data gives them: only
   * what {@code TreeMap.putAll} reads of it (its size, comparator and entries).
   */
  private static final class SortedEntries extends AbstractMap<Object, Object>
      implements SortedMap<Object, Object> {
    private final Object[] table;
    private final int[] p;
    private final int from;
    private final int size;

    SortedEntries(Object[] table, int[] p, int from, int size) {
      this.table = table;
      this.p = p;
      this.from = from;
      this.size = size;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Comparator<? super Object> comparator() {
      return null;
    }

    @Override
    public Set<Map.Entry<Object, Object>> entrySet() {
      return new EntrySet(this);
    }

    @Override
    public SortedMap<Object, Object> subMap(Object fromKey, Object toKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SortedMap<Object, Object> headMap(Object toKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SortedMap<Object, Object> tailMap(Object fromKey) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object firstKey() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object lastKey() {
      throw new UnsupportedOperationException();
    }
  }

  /** The entries of a {@link SortedEntries}. */
  private static final class EntrySet extends AbstractSet<Map.Entry<Object, Object>> {
    private final SortedEntries map;

    EntrySet(SortedEntries map) {
      this.map = map;
    }

    @Override
    public Iterator<Map.Entry<Object, Object>> iterator() {
      return new EntryIterator(map);
    }

    @Override
    public int size() {
      return map.size;
    }
  }

  /**
   * Iterates over a {@link SortedEntries}, handing out each entry as a new immutable entry (which
   * {@code TreeMap.buildFromSorted} reads before it asks for the next).
   */
  private static final class EntryIterator implements Iterator<Map.Entry<Object, Object>> {
    private final SortedEntries map;
    private int k;

    EntryIterator(SortedEntries map) {
      this.map = map;
    }

    @Override
    public boolean hasNext() {
      return k < map.size;
    }

    @Override
    public Map.Entry<Object, Object> next() {
      if (k >= map.size) {
        throw new NoSuchElementException();
      }
      int at = map.from + 2 * k++;
      return new AbstractMap.SimpleImmutableEntry<>(map.table[map.p[at]], map.table[map.p[at + 1]]);
    }
  }

  /**
   * A set of {@code table[p[k]]}, sorted as the data gives them: only what {@code TreeSet.addAll}
   * reads of it (its size, comparator and elements).
   */
  private static final class SortedElements extends AbstractSet<Object>
      implements SortedSet<Object> {
    private final Object[] table;
    private final int[] p;
    private final int from;
    private final int size;

    SortedElements(Object[] table, int[] p, int from, int size) {
      this.table = table;
      this.p = p;
      this.from = from;
      this.size = size;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Iterator<Object> iterator() {
      return new ElementIterator(this);
    }

    @Override
    public Comparator<? super Object> comparator() {
      return null;
    }

    @Override
    public SortedSet<Object> subSet(Object fromElement, Object toElement) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SortedSet<Object> headSet(Object toElement) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SortedSet<Object> tailSet(Object fromElement) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object first() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object last() {
      throw new UnsupportedOperationException();
    }
  }

  /** Iterates over a {@link SortedElements}. */
  private static final class ElementIterator implements Iterator<Object> {
    private final SortedElements set;
    private int k;

    ElementIterator(SortedElements set) {
      this.set = set;
    }

    @Override
    public boolean hasNext() {
      return k < set.size;
    }

    @Override
    public Object next() {
      if (k >= set.size) {
        throw new NoSuchElementException();
      }
      return set.table[set.p[set.from + k++]];
    }
  }
}
