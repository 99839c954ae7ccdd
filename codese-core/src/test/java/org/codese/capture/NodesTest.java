package org.codese.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.List;
import org.codese.CodeseOptions;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Test;

/**
 * A snapshot's capture keeps the objects of plain classes as columns ({@link Nodes}), not as a
 * {@link Node.Instance} each: the graph must still answer for every one of them the node a capture
 * without columns made (its id, class, rows and row), keep real nodes for the classes the planner
 * asks more of, and forget column entries on a rollback as it forgets nodes.
 */
class NodesTest {
  static final class Link implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    int value;
    Link next;
  }

  /** Not plain: its {@code readResolve} makes its objects late. */
  static final class Resolving implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    int value;

    @Serial
    private Object readResolve() {
      return this;
    }
  }

  static final class Pair implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    Link links;
    Object other;
  }

  /** Fails its capture, after the objects before it in the traversal were captured. */
  static final class Failing implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    @Serial
    private void writeObject(ObjectOutputStream out) throws IOException {
      throw new IOException("refused on purpose");
    }
  }

  private static Link chain(int n) {
    Link first = null;
    for (int i = n - 1; i >= 0; i--) {
      Link l = new Link();
      l.value = i;
      l.next = first;
      first = l;
    }
    return first;
  }

  private static Graph capture(Object root) throws IOException {
    Capturer c = new Capturer(CodeseOptions.defaults());
    c.writeObject(root, false);
    return c.drain();
  }

  /** Checks that every node of {@code g} has its index's id, and each link its own value. */
  private static void assertLinks(Graph g, int links) {
    List<Node> nodes = g.nodes();
    int seen = 0;
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      assertEquals(g.firstId() + i, n.id(), "id of node " + i);
      if (n instanceof Node.Instance in && in.type().type() == Link.class) {
        assertTrue(Nodes.isTemplate(Nodes.rawNode(nodes, i)), "a link is a column entry");
        assertEquals(in.row(), Nodes.rowOf(nodes, i));
        assertEquals(seen, in.rows().prim(in.rows().primBase(in.row(), 0)), "value of link " + i);
        assertEquals(n, nodes.get(i), "the same node each time");
        assertNotSame(n, nodes.get(i));
        seen++;
      }
    }
    assertEquals(links, seen);
  }

  @Test
  void plainObjectsAnswerTheirNodes() throws IOException {
    assertLinks(capture(chain(50)), 50);
  }

  @Test
  void aResolvingClassKeepsItsNodes() throws IOException {
    Pair p = new Pair();
    p.links = chain(3);
    p.other = new Resolving();
    Graph g = capture(p);
    assertLinks(g, 3);
    boolean found = false;
    for (int i = 0; i < g.nodes().size(); i++) {
      Node raw = Nodes.rawNode(g.nodes(), i);
      if (raw instanceof Node.Instance in && in.type().type() == Resolving.class) {
        assertFalse(Nodes.isTemplate(raw));
        assertEquals(g.firstId() + i, raw.id());
        assertSame(raw, g.nodes().get(i), "a real node is stored, not made on each read");
        found = true;
      }
    }
    assertTrue(found);
    assertTrue(g.late() != null && containsLate(g), "the resolving object is late");
  }

  private static boolean containsLate(Graph g) {
    for (boolean b : g.late()) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aRollbackForgetsColumnEntries() throws IOException {
    Capturer c = new Capturer(CodeseOptions.defaults());
    Pair p = new Pair();
    p.links = chain(40);
    p.other = new Failing();
    assertThrows(IOException.class, () -> c.writeObject(p, false));
    c.writeObject(chain(3), false);
    Graph g = c.drain();
    assertEquals(3, g.nodes().size(), "only the second write's objects");
    assertLinks(g, 3);
  }

  @Test
  void plainObjectsRestore() throws Exception {
    Pair p = new Pair();
    p.links = chain(100);
    p.other = p.links.next.next;
    RoundTrip.of(p).name("a chain of plain objects, one shared").run();
  }
}
