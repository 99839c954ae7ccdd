package org.codese.capture;

import java.util.Arrays;
import java.util.List;
import org.codese.program.Factories;

/**
 * What the planner must know about a segment's objects before it plans any of them, noted while
 * they are captured so that it need not read every node once more for it: which objects are
 * <em>late</em> (records, classes with {@code readResolve} and the {@link Factories} classes: their
 * identity is known only after their hooks or their factory ran) and how many are arrays.
 *
 * <p>Contract: indices are ids minus the segment's first id. Not thread-safe.
 */
final class NodeMarks {
  private boolean[] late = new boolean[16];
  private int lateCount;
  private int arrays;

  /** Notes the node captured at {@code index}. */
  void note(int index, Node node) {
    if (node instanceof Node.Array) {
      arrays++;
    } else if (isLate(node)) {
      if (index >= late.length) {
        late = Arrays.copyOf(late, Math.max(index + 1, 2 * late.length));
      }
      late[index] = true;
      lateCount++;
    }
  }

  /** The class {@link #isLate} found last, and whether it is made by a factory. */
  private Object lastType;

  private boolean lastMade;

  private boolean isLate(Node node) {
    if (node instanceof Node.Record) {
      return true;
    } else if (node instanceof Node.Instance i) {
      return i.type().resolves() || madeByFactory(i);
    } else if (node instanceof Node.External e) {
      return e.type().resolves();
    }
    return false;
  }

  /**
   * Whether {@code i}'s class is one a snapshot may make with a {@link Factories} factory in the
   * finish phase, so that stores of references to it wait for it as for a {@code readResolve}.
   */
  private boolean madeByFactory(Node.Instance i) {
    if (i.type() != lastType) {
      lastType = i.type();
      lastMade = Factories.kind(i.type().type()) != Factories.NONE;
    }
    return lastMade;
  }

  /** Forgets the nodes from {@code from} on, which a failed write captured. */
  void forget(int from, List<Node> nodes) {
    for (int i = from; i < nodes.size(); i++) {
      arrays -= nodes.get(i) instanceof Node.Array ? 1 : 0;
      if (i < late.length && late[i]) {
        late[i] = false;
        lateCount--;
      }
    }
  }

  /** Moves the mark of index {@code i} to {@code perm[i] - firstId}, for {@code n} nodes. */
  void permute(int[] perm, int firstId, int n) {
    if (lateCount == 0) {
      return;
    }
    boolean[] moved = new boolean[Math.max(n, late.length)];
    for (int i = 0; i < n && i < late.length; i++) {
      moved[perm[i] - firstId] = late[i];
    }
    late = moved;
  }

  /**
   * @param n the number of nodes
   * @return per node, whether it is late; {@code null} if none is
   */
  boolean[] late(int n) {
    return lateCount == 0 ? null : Arrays.copyOf(late, n);
  }

  /**
   * @return how many of the nodes are arrays
   */
  int arrays() {
    return arrays;
  }

  /** Forgets every mark, for the next segment. */
  void clear() {
    if (lateCount > 0) {
      Arrays.fill(late, false);
    }
    lateCount = 0;
    arrays = 0;
  }
}
