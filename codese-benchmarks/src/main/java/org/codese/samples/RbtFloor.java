package org.codese.samples;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;

/**
 * The floor for the red-black tree: hand-written code that rebuilds the identical tree from plain
 * arrays (keys, colours, and child and parent indexes). It lives in the samples' package because
 * the tree's fields are package-private; it is part of the benchmarks, not of the samples.
 */
public final class RbtFloor {
  private final int size;
  private final int root;
  private final int[] keys;
  private final boolean[] colors;
  private final int[] left;
  private final int[] right;
  private final int[] parent;

  private RbtFloor(
      int size, int root, int[] keys, boolean[] colors, int[] left, int[] right, int[] parent) {
    this.size = size;
    this.root = root;
    this.keys = keys;
    this.colors = colors;
    this.left = left;
    this.right = right;
    this.parent = parent;
  }

  /**
   * Writes the tree as arrays: node count, size, root index, then per node key, colour and the
   * indexes (plus one; zero is null) of left, right and parent.
   *
   * @param tree the tree
   * @return the encoded arrays
   */
  public static byte[] encode(RedBlackTree tree) {
    IdentityHashMap<RedBlackTree.Node, Integer> index = new IdentityHashMap<>();
    java.util.ArrayList<RedBlackTree.Node> order = new java.util.ArrayList<>();
    ArrayDeque<RedBlackTree.Node> queue = new ArrayDeque<>();
    if (tree.root != null) {
      queue.add(tree.root);
    }
    while (!queue.isEmpty()) {
      RedBlackTree.Node n = queue.poll();
      index.put(n, order.size());
      order.add(n);
      if (n.left != null) {
        queue.add(n.left);
      }
      if (n.right != null) {
        queue.add(n.right);
      }
    }
    int n = order.size();
    ByteBuffer out = ByteBuffer.allocate(12 + n * 17);
    out.putInt(n).putInt(tree.size).putInt(tree.root == null ? 0 : 1);
    for (RedBlackTree.Node node : order) {
      out.putInt(node.key);
    }
    for (RedBlackTree.Node node : order) {
      out.put((byte) (node.color ? 1 : 0));
    }
    for (RedBlackTree.Node node : order) {
      out.putInt(node.left == null ? 0 : index.get(node.left) + 1);
    }
    for (RedBlackTree.Node node : order) {
      out.putInt(node.right == null ? 0 : index.get(node.right) + 1);
    }
    for (RedBlackTree.Node node : order) {
      out.putInt(node.parent == null ? 0 : index.get(node.parent) + 1);
    }
    return out.array();
  }

  /**
   * Reads the arrays back (done once per program, like reading a file).
   *
   * @param bytes what {@link #encode} wrote
   * @return a builder of trees
   */
  public static RbtFloor decode(ByteBuffer bytes) {
    int n = bytes.getInt();
    int size = bytes.getInt();
    int root = bytes.getInt();
    int[] keys = new int[n];
    bytes.asIntBuffer().get(keys);
    bytes.position(bytes.position() + 4 * n);
    boolean[] colors = new boolean[n];
    for (int i = 0; i < n; i++) {
      colors[i] = bytes.get() != 0;
    }
    int[][] links = new int[3][n];
    for (int[] link : links) {
      bytes.asIntBuffer().get(link);
      bytes.position(bytes.position() + 4 * n);
    }
    return new RbtFloor(size, root, keys, colors, links[0], links[1], links[2]);
  }

  /**
   * @return a new tree, built directly
   */
  public RedBlackTree build() {
    int n = keys.length;
    RedBlackTree.Node[] nodes = new RedBlackTree.Node[n];
    for (int i = 0; i < n; i++) {
      RedBlackTree.Node node = new RedBlackTree.Node(keys[i], null);
      node.color = colors[i];
      nodes[i] = node;
    }
    for (int i = 0; i < n; i++) {
      RedBlackTree.Node node = nodes[i];
      int l = left[i];
      int r = right[i];
      int p = parent[i];
      node.left = l == 0 ? null : nodes[l - 1];
      node.right = r == 0 ? null : nodes[r - 1];
      node.parent = p == 0 ? null : nodes[p - 1];
    }
    RedBlackTree tree = new RedBlackTree();
    tree.root = root == 0 ? null : nodes[0];
    tree.size = size;
    if (n >= 1 << 15) {
      // as Codese empties its table: a large array outlives the build in G1's old regions, and
      // while it refers to the tree the tree stays alive until the old generation is marked
      java.util.Arrays.fill(nodes, null);
    }
    return tree;
  }
}
