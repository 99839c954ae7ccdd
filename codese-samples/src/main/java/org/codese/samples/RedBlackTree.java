package org.codese.samples;

import java.io.Serializable;
import java.util.Random;

/**
 * The red-black tree of the CoDeSe paper's running example (its Figure 1): a tree object with a
 * root and a size, and nodes with a key, a colour and left, right and parent links. Trees are built
 * as in the paper's Section 4.1, by inserting random keys.
 */
public final class RedBlackTree implements Serializable {
  private static final long serialVersionUID = 1L;
  static final boolean RED = true;
  static final boolean BLACK = false;

  Node root;
  int size;

  /** A tree node; {@code parent} links make every tree with two or more nodes cyclic. */
  public static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    int key;
    boolean color;
    Node left;
    Node right;
    Node parent;

    Node(int key, Node parent) {
      this.key = key;
      this.parent = parent;
      this.color = RED;
    }
  }

  /**
   * Builds a tree by inserting {@code n} distinct random keys, as the paper does.
   *
   * @param n the number of nodes
   * @param seed the random seed, so that a size always gives the same tree
   * @return a tree with exactly {@code n} nodes
   */
  public static RedBlackTree random(int n, long seed) {
    RedBlackTree t = new RedBlackTree();
    Random random = new Random(seed);
    while (t.size < n) {
      t.put(random.nextInt());
    }
    return t;
  }

  /**
   * @return the number of keys
   */
  public int size() {
    return size;
  }

  /**
   * Inserts a key if absent.
   *
   * @param key the key
   * @return whether the tree changed
   */
  public boolean put(int key) {
    Node parent = null;
    Node cur = root;
    while (cur != null) {
      parent = cur;
      if (key == cur.key) {
        return false;
      }
      cur = key < cur.key ? cur.left : cur.right;
    }
    Node n = new Node(key, parent);
    if (parent == null) {
      root = n;
    } else if (key < parent.key) {
      parent.left = n;
    } else {
      parent.right = n;
    }
    size++;
    fixAfterInsertion(n);
    return true;
  }

  /**
   * Checks the red-black invariants and the parent links.
   *
   * @return whether the tree is a valid red-black tree holding {@link #size()} keys
   */
  public boolean isValid() {
    if (root == null) {
      return size == 0;
    }
    return root.parent == null
        && root.color == BLACK
        && blackHeight(root) >= 0
        && count(root) == size;
  }

  private static int count(Node root) {
    int c = 0;
    java.util.ArrayDeque<Node> stack = new java.util.ArrayDeque<>();
    stack.push(root);
    while (!stack.isEmpty()) {
      Node n = stack.pop();
      c++;
      if (n.left != null) {
        stack.push(n.left);
      }
      if (n.right != null) {
        stack.push(n.right);
      }
    }
    return c;
  }

  private static int blackHeight(Node n) {
    if (n == null) {
      return 1;
    }
    if ((n.left != null && n.left.parent != n) || (n.right != null && n.right.parent != n)) {
      return -1;
    }
    if (n.color == RED && (colorOf(n.left) == RED || colorOf(n.right) == RED)) {
      return -1;
    }
    int l = blackHeight(n.left);
    int r = blackHeight(n.right);
    if (l < 0 || r < 0 || l != r) {
      return -1;
    }
    return l + (n.color == BLACK ? 1 : 0);
  }

  private static boolean colorOf(Node n) {
    return n == null ? BLACK : n.color;
  }

  private static Node parentOf(Node n) {
    return n == null ? null : n.parent;
  }

  private static void setColor(Node n, boolean c) {
    if (n != null) {
      n.color = c;
    }
  }

  private static Node leftOf(Node n) {
    return n == null ? null : n.left;
  }

  private static Node rightOf(Node n) {
    return n == null ? null : n.right;
  }

  private void rotateLeft(Node p) {
    Node r = p.right;
    p.right = r.left;
    if (r.left != null) {
      r.left.parent = p;
    }
    r.parent = p.parent;
    if (p.parent == null) {
      root = r;
    } else if (p.parent.left == p) {
      p.parent.left = r;
    } else {
      p.parent.right = r;
    }
    r.left = p;
    p.parent = r;
  }

  private void rotateRight(Node p) {
    Node l = p.left;
    p.left = l.right;
    if (l.right != null) {
      l.right.parent = p;
    }
    l.parent = p.parent;
    if (p.parent == null) {
      root = l;
    } else if (p.parent.right == p) {
      p.parent.right = l;
    } else {
      p.parent.left = l;
    }
    l.right = p;
    p.parent = l;
  }

  private void fixAfterInsertion(Node x) {
    while (x != null && x != root && x.parent.color == RED) {
      if (parentOf(x) == leftOf(parentOf(parentOf(x)))) {
        Node y = rightOf(parentOf(parentOf(x)));
        if (colorOf(y) == RED) {
          setColor(parentOf(x), BLACK);
          setColor(y, BLACK);
          setColor(parentOf(parentOf(x)), RED);
          x = parentOf(parentOf(x));
        } else {
          if (x == rightOf(parentOf(x))) {
            x = parentOf(x);
            rotateLeft(x);
          }
          setColor(parentOf(x), BLACK);
          setColor(parentOf(parentOf(x)), RED);
          rotateRight(parentOf(parentOf(x)));
        }
      } else {
        Node y = leftOf(parentOf(parentOf(x)));
        if (colorOf(y) == RED) {
          setColor(parentOf(x), BLACK);
          setColor(y, BLACK);
          setColor(parentOf(parentOf(x)), RED);
          x = parentOf(parentOf(x));
        } else {
          if (x == leftOf(parentOf(x))) {
            x = parentOf(x);
            rotateRight(x);
          }
          setColor(parentOf(x), BLACK);
          setColor(parentOf(parentOf(x)), RED);
          rotateLeft(parentOf(parentOf(x)));
        }
      }
    }
    root.color = BLACK;
  }
}
