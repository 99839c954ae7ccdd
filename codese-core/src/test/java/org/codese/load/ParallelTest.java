package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.codese.Codese;
import org.codese.Snapshot;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Test;

/**
 * Parallel restore divides a phase's classes by their work and never hands a small phase to another
 * thread; deterministic guards on {@link Parallel#HANDOFFS}, not timings.
 */
class ParallelTest {
  /** A class of its own, so that its objects are set by a class of their own. */
  static final class A implements Serializable {
    private static final long serialVersionUID = 1L;
    int x;
    int y;
  }

  /** Another. */
  static final class B implements Serializable {
    private static final long serialVersionUID = 1L;
    long z;
    String s;
  }

  @Test
  void smallGraphsRestoreOnTheCallingThreadWhateverTheThreadCount() throws IOException {
    List<Object> small = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      A a = new A();
      a.x = i;
      small.add(a);
      B b = new B();
      b.z = i;
      small.add(b);
    }
    try (Snapshot s = Snapshot.capture(small)) {
      long before = Parallel.HANDOFFS.get();
      s.restore(2);
      s.restore(8);
      assertEquals(before, Parallel.HANDOFFS.get(), "a small restore handed work to the pool");
    }
  }

  @Test
  void largeSetPhasesOfSeveralClassesRunOnSeveralThreadsAndRestoreCorrectly() throws IOException {
    List<Object> big = new ArrayList<>();
    for (int i = 0; i < 60_000; i++) {
      A a = new A();
      a.x = i;
      a.y = -i;
      big.add(a);
      B b = new B();
      b.z = 3L * i;
      b.s = i % 1000 == 0 ? "s" + i : null;
      big.add(b);
    }
    byte[] bytes = Codese.toBytes(big);
    long before = Parallel.HANDOFFS.get();
    try (Snapshot s = Codese.load(bytes)) {
      s.restore(2); // the first run of a trial: on the calling thread
      assertEquals(before, Parallel.HANDOFFS.get());
      s.restore(2); // the second: on two
    }
    assertTrue(Parallel.HANDOFFS.get() > before, "two set classes of 60,000 rows each ran alone");
    RoundTrip.of(big).run(); // restore(2) among the paths, checked by JDK bytes and identity
  }

  @Test
  void sharesAreBalancedLargestFirst() {
    List<BiConsumer<Object[], Object[]>> classes = new ArrayList<>();
    long[] costs = {10, 1, 8, 3, 2};
    for (int i = 0; i < costs.length; i++) {
      classes.add(new Named(i));
    }
    List<List<BiConsumer<Object[], Object[]>>> shares = Parallel.divide(classes, costs, 2);
    assertEquals(2, shares.size());
    long[] load = new long[2];
    for (int t = 0; t < 2; t++) {
      for (BiConsumer<Object[], Object[]> c : shares.get(t)) {
        load[t] += costs[((Named) c).index];
      }
    }
    assertEquals(12, load[0]);
    assertEquals(12, load[1]);
    assertEquals(1, Parallel.divide(classes.subList(0, 1), costs, 4).size());
  }

  @Test
  void aPhaseRunsInParallelOnlyIfTheOtherClassesHoldEnoughWork() {
    long m = Parallel.MIN_SHARED_COST;
    assertFalse(Parallel.pays(new long[] {5 * m}, 1));
    assertFalse(Parallel.pays(new long[] {5 * m, m - 1}, 2));
    assertTrue(Parallel.pays(new long[] {5 * m, m}, 2));
    assertTrue(Parallel.pays(new long[] {m / 2, m / 2, m / 2}, 3));
  }

  /** A class of a phase, known by its index. */
  private record Named(int index) implements BiConsumer<Object[], Object[]> {
    @Override
    public void accept(Object[] t, Object[] c) {}
  }
}
