package org.codese.capture;

import java.util.List;
import org.codese.program.Tape;

/**
 * The captured objects of one capture (or of one segment of a stream): nodes with ids from {@code
 * firstId} on, the order in which restore hooks must complete, and the top-level items.
 *
 * @param firstId the id of {@code nodes.get(0)}; ids below it belong to earlier segments
 * @param nodes the nodes, in id order; the graph owns the list ({@link #release} empties it). A
 *     snapshot's capture gives a {@link Nodes}, which keeps the objects of plain classes as columns
 *     and makes their {@link Node.Instance} on each {@code get}: equal each time, not the same
 *     object
 * @param postOrder node ids in the order Java deserialization would complete them (children before
 *     parents, as in a depth-first traversal from the roots)
 * @param items what was written at top level: {@link Tape#OBJECT} items for {@code writeObject}
 *     calls and {@link Tape#BLOCK} items for primitive data in between
 * @param depth the greatest depth of the traversal: the longest path of first visits from a root
 * @param late per node (by id minus {@code firstId}), whether it is late: a record or an object
 *     whose class has {@code readResolve}, whose identity is known only after its hooks ran; {@code
 *     null} if no node is
 * @param arrays how many of the nodes are arrays
 */
public record Graph(
    int firstId,
    List<Node> nodes,
    int[] postOrder,
    Tape items,
    int depth,
    boolean[] late,
    int arrays) {
  /**
   * @return the id after the last node
   */
  public int endId() {
    return firstId + nodes.size();
  }

  /**
   * @param id an object id
   * @return the node of object {@code id}, or {@code null} if it is not one of this graph's (an
   *     earlier segment's, or none)
   */
  public Node node(int id) {
    return id < firstId || id >= endId() ? null : nodes.get(id - firstId);
  }

  /**
   * Empties {@link #nodes}, once the graph is planned and no longer read; {@link #endId()} is then
   * {@link #firstId()}. A large graph's list is an array G1 allocates in old regions (a humongous
   * object); dropped but still full, it would keep every node alive until the old generation is
   * next marked, copied by young collections in the meantime.
   */
  public void release() {
    nodes.clear();
  }
}
