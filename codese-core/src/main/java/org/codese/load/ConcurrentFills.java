package org.codese.load;

import java.util.HashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.codese.program.Fills;

/**
 * Fills a {@code ConcurrentHashMap} ({@link CollectionFills}), made with {@code new
 * ConcurrentHashMap(pairs)} for its {@code pairs} pairs, through {@code put} so that it holds what
 * its {@code readObject} would have made of the same pairs: the same table length and, bin by bin,
 * the same keys in the same order, hence the same iteration order.
 *
 * <p>{@code readObject} reads pairs up to the first {@code null} key or value, hashes each key,
 * makes the table for that many ({@link Fills#concurrentTable}, the length the constructor gave),
 * and then inserts the pairs last first, each at the head of its bin: a key equal to one its bin
 * holds already is skipped (the last written of equal keys stays), and the ninth key of a bin makes
 * it a tree bin, to whose list of nodes later keys are also put at the head. Each bin therefore
 * lists its keys in the order they were written, less the earlier of equal keys.
 *
 * <p>{@code put} appends at the tail of a list bin, which gives the same order for a bin of at most
 * {@link Fills#CONCURRENT_TREEIFY} pairs: those are put in the order written, and a key put a
 * second time is taken out and put again with its later value, so that it takes the later one's
 * place. The ninth {@code put} into a bin makes it a tree bin in list order, after which {@code
 * put} inserts at the head: so a bin of more keys gets its last nine in order and then the others
 * from the last to the first, which gives the same list (and the same tree: {@code readObject}
 * builds it from the same nine and adds the same keys after them). In a table shorter than {@link
 * Fills#CONCURRENT_MIN_TREE_TABLE} {@code put} grows the table where {@code readObject} makes a
 * tree bin; a snapshot's plan keeps {@code readObject} for any map where that can happen, so only a
 * crafted file gets there, whose map is then complete with a longer table.
 *
 * <p>Equal keys are those {@code equals} says are equal with equal hash codes: for keys whose
 * {@code equals} agrees with {@code hashCode}, as {@code readObject} finds them.
 */
final class ConcurrentFills {
  private ConcurrentFills() {}

  /**
   * Fills {@code map} with the pairs {@code (table[p[k]], table[p[k + 1]])}, {@code k} in range.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static void run(ConcurrentHashMap map, Object[] table, int[] p, int from, int to) {
    int pairs = (to - from) / 2;
    int n = 0;
    while (n < pairs && table[p[from + 2 * n]] != null && table[p[from + 2 * n + 1]] != null) {
      n++; // readObject stops at the first pair with a null; the rest is read and dropped
    }
    if (n == 0) {
      return;
    }
    int length = Fills.concurrentTable(pairs);
    int mask = length - 1;
    int[] bins = new int[n];
    int[] count = new int[length];
    boolean crowded = false;
    for (int i = 0; i < n; i++) {
      int b = Fills.concurrentHash(table[p[from + 2 * i]].hashCode()) & mask;
      bins[i] = b;
      crowded |= ++count[b] > Fills.CONCURRENT_TREEIFY;
    }
    for (int i = 0; i < n; i++) {
      if (count[bins[i]] <= Fills.CONCURRENT_TREEIFY) {
        putLast(map, table[p[from + 2 * i]], table[p[from + 2 * i + 1]]);
      }
    }
    if (crowded) {
      crowdedBins(map, table, p, from, bins, count, length >= Fills.CONCURRENT_MIN_TREE_TABLE);
    }
  }

  /**
   * Puts a pair into a list bin of at most {@link Fills#CONCURRENT_TREEIFY} pairs; a key the map
   * holds already is taken out with its mapping and put again, at the tail of its bin.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void putLast(ConcurrentHashMap map, Object key, Object value) {
    if (map.put(key, value) != null) {
      map.remove(key);
      map.put(key, value);
    }
  }

  /**
   * Puts the pairs of the bins of more than {@link Fills#CONCURRENT_TREEIFY} pairs, bin by bin:
   * {@code bins[i]} is pair {@code i}'s bin, {@code count[b]} bin {@code b}'s number of pairs.
   */
  private static void crowdedBins(
      ConcurrentHashMap<?, ?> map,
      Object[] table,
      int[] p,
      int from,
      int[] bins,
      int[] count,
      boolean trees) {
    int[] end = new int[count.length];
    int total = 0;
    for (int b = 0; b < count.length; b++) {
      if (count[b] > Fills.CONCURRENT_TREEIFY) {
        end[b] = total;
        total += count[b];
      }
    }
    int[] order = new int[total]; // the crowded bins' pairs, bin by bin, in the order written
    for (int i = 0; i < bins.length; i++) {
      int b = bins[i];
      if (count[b] > Fills.CONCURRENT_TREEIFY) {
        order[end[b]++] = i;
      }
    }
    for (int b = 0; b < count.length; b++) {
      if (count[b] > Fills.CONCURRENT_TREEIFY) {
        bin(map, table, p, from, order, end[b] - count[b], end[b], trees);
      }
    }
  }

  /**
   * Puts the pairs {@code order[lo..hi)} of one bin: the last of equal keys only, in the order
   * written, or for more than {@link Fills#CONCURRENT_TREEIFY} of them where the table takes a tree
   * bin the last nine in order and then the others from the last to the first.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void bin(
      ConcurrentHashMap map,
      Object[] table,
      int[] p,
      int from,
      int[] order,
      int lo,
      int hi,
      boolean trees) {
    HashMap<Object, Object> seen = new HashMap<>();
    int[] kept = new int[hi - lo];
    int m = 0;
    for (int k = hi - 1; k >= lo; k--) {
      if (seen.put(table[p[from + 2 * order[k]]], Boolean.TRUE) == null) {
        kept[m++] = order[k]; // last written first
      }
    }
    int tree = Fills.CONCURRENT_TREEIFY + 1;
    if (!trees || m < tree) {
      for (int j = m - 1; j >= 0; j--) {
        put(map, table, p, from, kept[j]);
      }
      return;
    }
    for (int j = tree - 1; j >= 0; j--) {
      put(map, table, p, from, kept[j]);
    }
    for (int j = tree; j < m; j++) {
      put(map, table, p, from, kept[j]);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void put(ConcurrentHashMap map, Object[] table, int[] p, int from, int i) {
    map.put(table[p[from + 2 * i]], table[p[from + 2 * i + 1]]);
  }
}
