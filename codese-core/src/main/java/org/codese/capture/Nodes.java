package org.codese.capture;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * The nodes of a segment by index (id minus the segment's first id), kept as columns: an object of
 * a <em>plain</em> class (every slot direct, no {@code readResolve}, no collection fill, factory or
 * immutable-collection form: {@link ClassRows#plain()}) has no node object of its own, only its
 * class's rows, held in {@link #template} form, and its row in an {@code int} column; a snapshot of
 * a hundred thousand tree nodes thus makes no object per node (one {@link Node.Instance} each, the
 * largest single allocation of a repeated capture before, 2026-11-28).
 *
 * <p>{@link #get} answers a {@link Node.Instance} for such an object made on the call (equal to the
 * one a capture without columns made, not the same object each time); the planner reads {@link
 * #template} and {@link #row} instead. Only a snapshot's capture stores plain objects; a stream's
 * renumbering replaces nodes and never sees them.
 *
 * <p>Contract: as {@link java.util.ArrayList} for {@code get}, {@code set}, {@code add}, {@code
 * size}, {@code clear} and {@code subList(...).clear()}; indices are checked. Not thread-safe.
 */
public final class Nodes extends AbstractList<Node> implements RandomAccess {
  private final int firstId;
  private Node[] nodes;

  /** Per index of a plain object, its row in its class's rows; undefined elsewhere. */
  private int[] rows;

  private int size;

  /**
   * @param firstId the id of index 0
   * @param capacity the nodes to make room for at first
   */
  Nodes(int firstId, int capacity) {
    this.firstId = firstId;
    this.nodes = new Node[Math.max(capacity, 10)];
    this.rows = new int[nodes.length];
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Node get(int index) {
    Node n = raw(index);
    if (n instanceof Node.Instance t && t.id() < 0) {
      return new Node.Instance(firstId + index, t.type(), t.slots(), t.rows(), rows[index]);
    }
    return n;
  }

  /**
   * @return the node at {@code index} as stored: for a plain object its class's {@linkplain
   *     ClassRows#template() template}, whose id is -1 (its row is {@link #row})
   */
  Node raw(int index) {
    if (index >= size) {
      throw new IndexOutOfBoundsException("index " + index + " of " + size + " nodes");
    }
    return nodes[index];
  }

  /**
   * @return the row of the plain object at {@code index}
   */
  int row(int index) {
    return rows[index];
  }

  /**
   * Reads node {@code index} of {@code nodes} as stored: a template for a plain object of {@link
   * Nodes}, which {@code row} then gives, else the node itself.
   *
   * @param nodes a graph's nodes
   * @param index an index
   * @return the node or template
   */
  public static Node rawNode(java.util.List<Node> nodes, int index) {
    return nodes instanceof Nodes n ? n.raw(index) : nodes.get(index);
  }

  /**
   * @param nodes a graph's nodes
   * @param index the index of a plain object ({@link #rawNode} gave a template)
   * @return its row
   */
  public static int rowOf(java.util.List<Node> nodes, int index) {
    return ((Nodes) nodes).row(index);
  }

  /**
   * @param node what {@link #rawNode} answered
   * @return whether it is a plain object's template (id -1), not a node
   */
  public static boolean isTemplate(Node node) {
    return node instanceof Node.Instance t && t.id() < 0;
  }

  @Override
  public Node set(int index, Node node) {
    Node old = raw(index);
    nodes[index] = node;
    return old;
  }

  /** Stores the plain object at {@code index}: its class's {@code template} and its {@code row}. */
  void setPlain(int index, Node.Instance template, int row) {
    if (index >= size) {
      throw new IndexOutOfBoundsException("index " + index + " of " + size + " nodes");
    }
    nodes[index] = template;
    rows[index] = row;
  }

  @Override
  public boolean add(Node node) {
    if (size == nodes.length) {
      ensureCapacity(2 * size);
    }
    nodes[size++] = node;
    modCount++;
    return true;
  }

  /** Makes room for {@code capacity} nodes. */
  void ensureCapacity(int capacity) {
    if (capacity > nodes.length) {
      nodes = Arrays.copyOf(nodes, capacity);
      rows = Arrays.copyOf(rows, capacity);
    }
  }

  /** Whether any index holds no node yet (an object not expanded). */
  boolean anyMissing() {
    for (int i = 0; i < size; i++) {
      if (nodes[i] == null) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected void removeRange(int from, int to) {
    System.arraycopy(nodes, to, nodes, from, size - to);
    Arrays.fill(nodes, size - (to - from), size, null);
    size -= to - from;
    modCount++;
  }

  @Override
  public void clear() {
    Arrays.fill(nodes, 0, size, null);
    size = 0;
    modCount++;
  }
}
