package org.codese.samples;

import java.util.ArrayDeque;
import java.util.Random;

/**
 * The model-checker scenario's edits of a {@link RedBlackTree}, and a cheap fingerprint of its
 * state. It lives in the samples' package because the tree's fields are package-private; it is part
 * of the benchmarks, not of the samples.
 *
 * <p>One step inserts a new random key (which may recolour and rotate nodes on its path) and
 * changes the key of {@code changes} leaves reached by random descents to another key that keeps
 * the search order, so the tree stays a valid red-black tree of distinct keys.
 */
public final class RbtMutations {
  private RbtMutations() {}

  /**
   * Applies one step of edits, deterministically for a given {@code random}.
   *
   * @param tree the tree to change in place
   * @param random the source of the edits
   * @param changes how many leaf keys to change
   */
  public static void step(RedBlackTree tree, Random random, int changes) {
    while (!tree.put(random.nextInt())) {
      // the key was present; draw another
    }
    for (int i = 0; i < changes; i++) {
      changeLeaf(tree, random);
    }
  }

  /**
   * Descends from the root at random to a leaf, keeping the open interval its key must stay in, and
   * gives the leaf a new key inside that interval (no other key of the tree lies there).
   */
  private static void changeLeaf(RedBlackTree tree, Random random) {
    RedBlackTree.Node n = tree.root;
    if (n == null) {
      return;
    }
    long lo = Integer.MIN_VALUE - 1L;
    long hi = Integer.MAX_VALUE + 1L;
    while (n.left != null || n.right != null) {
      boolean goLeft = n.right == null || (n.left != null && random.nextBoolean());
      if (goLeft) {
        hi = n.key;
        n = n.left;
      } else {
        lo = n.key;
        n = n.right;
      }
    }
    long room = hi - lo - 1;
    if (room > 1) {
      n.key = (int) (lo + 1 + (long) (random.nextDouble() * room));
    }
  }

  /**
   * A fingerprint of the tree's state: the size, and a checksum of every key and colour in order,
   * computed from the links (so a lost or reordered node, a wrong colour or a wrong size shows).
   *
   * @param tree a tree, or any other object (which gives a fingerprint no tree has)
   * @return size in the high bits mixed with the in-order checksum
   */
  public static long fingerprint(Object tree) {
    if (!(tree instanceof RedBlackTree t)) {
      return Long.MIN_VALUE;
    }
    long sum = 17;
    long count = 0;
    ArrayDeque<RedBlackTree.Node> stack = new ArrayDeque<>();
    RedBlackTree.Node n = t.root;
    while (n != null || !stack.isEmpty()) {
      while (n != null) {
        stack.push(n);
        n = n.left;
      }
      n = stack.pop();
      sum = sum * 31 + n.key * 2L + (n.color ? 1 : 0);
      count++;
      n = n.right;
    }
    return sum ^ ((long) t.size << 40) ^ (count << 20);
  }
}
