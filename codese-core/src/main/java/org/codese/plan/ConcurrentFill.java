package org.codese.plan;

import org.codese.capture.Graph;
import org.codese.capture.Node;
import org.codese.program.Fills;

/**
 * A {@code ConcurrentHashMap} restored by a fill ({@link CollectionFill}): made with {@code new
 * ConcurrentHashMap(n)} for its {@code n} mappings, whose table is as long as the one its {@code
 * readObject} makes ({@link Fills#concurrentTable}), and filled by {@code put} of each pair in the
 * order its {@code writeObject} wrote them, which the loader's fill turns into the order of {@code
 * readObject}'s bins.
 *
 * <p>Its {@code writeObject} writes a default-fields record of three pseudo-fields ({@code
 * segmentMask}, {@code segmentShift} and {@code segments}: sixteen new {@code Segment}s, each a
 * {@code ReentrantLock}, made for that call), then each key and value, then two {@code null}s. Its
 * {@code readObject} ignores the fields and reads pairs up to the first {@code null}. A snapshot's
 * capture writes the same tape with {@code null} for the segments, without running {@code
 * writeObject} ({@code capture.KnownWrites}); a stream's capture runs it, and the segments are then
 * objects of the stream's segment that nothing but the map's data refers to.
 *
 * <p>Kept by {@code readObject} instead (this answers {@code null}): a tape of any other shape, a
 * map that is its own key (its {@code readObject} hashes every key before it puts any, so the map's
 * hash is that of an empty map there, and not under {@code put}), and a map whose table would be
 * too short for a tree bin ({@link Fills#CONCURRENT_MIN_TREE_TABLE}) unless its keys' hashes are
 * known here (strings, boxes and values, whose hash codes are the same in every JVM) and put no
 * more than {@link Fills#CONCURRENT_TREEIFY} keys in a bin: {@code readObject} would make a tree
 * bin in such a table where {@code put} grows the table, and so reorders the map.
 */
final class ConcurrentFill {
  private ConcurrentFill() {}

  /**
   * @param node a captured {@code ConcurrentHashMap}, of exactly that class
   * @param in its first slot's tape, at the start
   * @param graph its graph
   * @return its fill, or {@code null} if its {@code readObject} restores it
   */
  static CollectionFill of(Node.Instance node, TapeCursor in, Graph graph) {
    // the pseudo-fields: segmentMask and segmentShift (ints), then segments
    if (!in.fields(1, 8)) {
      return null;
    }
    int segments = in.nextRef();
    int[] refs = in.lastRefs(in.itemsLeft());
    if (segments == Integer.MIN_VALUE || refs == null || refs.length < 2 || refs.length % 2 != 0) {
      return null;
    }
    int n = refs.length / 2 - 1;
    if (refs[2 * n] != -1 || refs[2 * n + 1] != -1) {
      return null;
    }
    int[] pairs = java.util.Arrays.copyOf(refs, 2 * n);
    for (int i = 0; i < pairs.length; i++) {
      if (pairs[i] == -1 || (i % 2 == 0 && pairs[i] == node.id())) {
        return null; // a null pair ends readObject's reading; a map that is its own key
      }
    }
    if (n > Fills.CONCURRENT_TREEIFY
        && Fills.concurrentTable(n) < Fills.CONCURRENT_MIN_TREE_TABLE
        && !fewPerBin(pairs, n, graph)) {
      return null;
    }
    return new CollectionFill(java.util.concurrent.ConcurrentHashMap.class, n == 0 ? -1 : n, pairs);
  }

  /**
   * Whether every key is a string, box or value, and at most {@link Fills#CONCURRENT_TREEIFY} of
   * them fall in one bin of the table for {@code n} mappings.
   */
  private static boolean fewPerBin(int[] pairs, int n, Graph graph) {
    int mask = Fills.concurrentTable(n) - 1;
    int[] count = new int[mask + 1];
    for (int i = 0; i < pairs.length; i += 2) {
      Node key = graph.node(pairs[i]);
      Object v =
          key instanceof Node.Text t
              ? t.value()
              : key instanceof Node.Box b
                  ? b.value()
                  : key instanceof Node.Value x ? x.value() : null;
      if (v == null
          || ++count[Fills.concurrentHash(v.hashCode()) & mask] > Fills.CONCURRENT_TREEIFY) {
        return false;
      }
    }
    return true;
  }
}
