package org.codese.large;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.Codese;
import org.codese.Snapshot;
import org.codese.corpus.Types.Key;
import org.codese.corpus.Types.Link;
import org.codese.corpus.Types.Node;
import org.codese.corpus.Types.Point;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.RoundTrip.Jdk;
import org.codese.testkit.RoundTrip.Path;
import org.codese.testkit.TestOutput;
import org.junit.jupiter.api.Test;

/** Graphs of a million objects and chains a million deep: nothing may recurse per object. */
class LargeGraphTest {
  private static final int MILLION = 1_000_000;

  private static Link chain(int n) {
    Link head = null;
    for (int i = n - 1; i >= 0; i--) {
      head = new Link(i, head);
    }
    return head;
  }

  private static void checkChain(Object copy, int n) {
    Link l = (Link) copy;
    for (int i = 0; i < n; i++) {
      assertEquals(i, l.v, "value at link " + i);
      l = l.next;
      if (i < n - 1) {
        assertTrue(l != null, "chain ends early at " + i);
      }
    }
    assertNull(l, "chain is longer than " + n);
  }

  /** A non-serializable singly linked list of a million nodes, through the walker. */
  @Test
  void millionLinkChainNotSerializable() {
    long t0 = System.nanoTime();
    RoundTrip.Report r =
        RoundTrip.of(chain(MILLION))
            .name("link-chain-1M")
            .jdk(Jdk.NOT_SERIALIZABLE)
            .allow(Link.class.getName())
            .paths(Path.TO_BYTES_FROM_BYTES, Path.CAPTURE_RESTORE_TWICE)
            .check(c -> checkChain(c, MILLION))
            .run();
    TestOutput.detail(
        "[timing] link-chain-1M: total " + (System.nanoTime() - t0) / 1_000_000 + " ms, " + r);
  }

  /**
   * A serializable chain a million deep. JDK serialization would overflow its stack on it, so only
   * the walker checks it; Codese must not recurse.
   */
  @Test
  void millionNodeChainSerializableClassesWithoutJdk() throws Exception {
    long t0 = System.nanoTime();
    Node head = null;
    for (int i = 0; i < MILLION; i++) {
      Node n = new Node(i % 1000 == 0 ? "n" + i : null);
      n.next = head;
      head = n;
    }
    RoundTrip.Report r =
        RoundTrip.of(head)
            .name("node-chain-1M")
            .jdk(Jdk.SKIP)
            .paths(Path.TO_BYTES_FROM_BYTES, Path.RESTORE_PARALLEL)
            .run();
    TestOutput.detail(
        "[timing] node-chain-1M: total " + (System.nanoTime() - t0) / 1_000_000 + " ms, " + r);
  }

  /** A cycle a million long: the last link points back to the first. */
  @Test
  void millionLinkCycle() throws Exception {
    Link head = chain(MILLION);
    Link last = head;
    while (last.next != null) {
      last = last.next;
    }
    last.next = head;
    try (Snapshot s = Snapshot.capture(head)) {
      Link copy = (Link) s.restore();
      Link l = copy;
      for (int i = 0; i < MILLION; i++) {
        assertEquals(i, l.v);
        l = l.next;
      }
      assertTrue(l == copy, "cycle not closed on the copy's head");
    }
  }

  /**
   * More than a million objects in a wide graph: a HashMap of 350,000 user keys (each with its own
   * string) to records, compared byte for byte with JDK serialization.
   */
  @Test
  void overAMillionObjectsInAHashMap() {
    long t0 = System.nanoTime();
    Map<Key, Object> m = new HashMap<>();
    for (int i = 0; i < 350_000; i++) {
      m.put(new Key("k" + i, i), new Point(i, -i));
    }
    RoundTrip.Report r =
        RoundTrip.of(m)
            .name("hashmap-350k")
            .paths(Path.TO_BYTES_FROM_BYTES, Path.RESTORE_PARALLEL)
            .check(c -> assertEquals(new Point(77, -77), ((Map<?, ?>) c).get(new Key("k77", 77))))
            .run();
    assertTrue(r.objects > MILLION, "graph has only " + r.objects + " objects");
    TestOutput.detail(
        "[timing] hashmap-350k: total " + (System.nanoTime() - t0) / 1_000_000 + " ms, " + r);
  }

  /** A million small arrays and strings in one list, through the plain API. */
  @Test
  void millionSmallObjectsInAList() throws Exception {
    List<Object> l = new ArrayList<>(MILLION);
    for (int i = 0; i < MILLION; i++) {
      l.add(i % 2 == 0 ? new int[] {i} : "s" + i);
    }
    long t0 = System.nanoTime();
    byte[] snapshot = Codese.toBytes(l);
    long t1 = System.nanoTime();
    @SuppressWarnings("unchecked")
    List<Object> copy = (List<Object>) Codese.fromBytes(snapshot);
    long t2 = System.nanoTime();
    assertEquals(MILLION, copy.size());
    for (int i = 0; i < MILLION; i++) {
      Object x = copy.get(i);
      if (i % 2 == 0) {
        assertEquals(i, ((int[]) x)[0]);
      } else {
        assertEquals("s" + i, x);
      }
    }
    TestOutput.detail(
        "[timing] list-1M: capture "
            + (t1 - t0) / 1_000_000
            + " ms, restore "
            + (t2 - t1) / 1_000_000
            + " ms, snapshot "
            + snapshot.length
            + " B");
  }
}
