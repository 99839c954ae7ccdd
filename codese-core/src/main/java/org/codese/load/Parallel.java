package org.codese.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.function.BiConsumer;

/**
 * Runs the classes of one phase on several threads and returns when all are done: the barrier
 * between the create and set phases. Worker threads are daemons, created on first use only, so that
 * sequential restores never start a thread.
 *
 * <p>Classes are divided by their work as the load-time check counted it ({@link
 * ProgramCheck#classCost}: statements plus loop rows and columns), largest first, each to the least
 * loaded thread; and a phase runs on the calling thread alone unless the threads other than the one
 * with the largest class get at least {@link #MIN_SHARED_COST} of work: handing work to a pool
 * thread and waiting for it costs tens of microseconds, which small phases never win back.
 */
final class Parallel {
  private Parallel() {}

  /**
   * The least work, in {@link ProgramCheck#classCost} units, that the classes other than a phase's
   * largest must hold for the phase to run on several threads: about 200 microseconds of restoring
   * at 2 ns a unit (rbt-100,000's set phase, 100,000 rows of 5 columns, takes about 1.3 ms, warm,
   * JDK 17), ten times the cost of a hand-off to a pool thread on this 2-core machine.
   */
  static final long MIN_SHARED_COST = 100_000;

  /** Work handed to pool threads since the JVM started, for tests. */
  static final java.util.concurrent.atomic.AtomicLong HANDOFFS =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * @param costs the work of each class of the phase (at least {@code n} entries)
   * @param n the number of classes
   * @return whether the phase is worth running on several threads
   */
  static boolean pays(long[] costs, int n) {
    if (n < 2) {
      return false;
    }
    long total = 0;
    long largest = 0;
    for (int i = 0; i < n; i++) {
      total += costs[i];
      largest = Math.max(largest, costs[i]);
    }
    return total - largest >= MIN_SHARED_COST;
  }

  private static final class Workers {
    static final ExecutorService POOL =
        Executors.newCachedThreadPool(
            new ThreadFactory() {
              @Override
              public Thread newThread(Runnable r) {
                Thread t = new Thread(r, "codese-restore");
                t.setDaemon(true);
                return t;
              }
            });
  }

  /**
   * Runs a phase whose classes' estimated work would pay for {@code threads} threads, on the
   * calling thread or on several as its {@link PhaseChoice} says, timing its trial runs.
   *
   * @param choice the phase's choice
   * @param classes the phase's classes
   * @param costs the work of each ({@link ProgramCheck#classCost})
   * @param table the restore table
   * @param constants the resolved constants
   * @param threads the most threads to use
   * @throws Throwable what a class threw
   */
  static void runMeasured(
      PhaseChoice choice,
      List<BiConsumer<Object[], Object[]>> classes,
      long[] costs,
      Object[] table,
      Object[] constants,
      int threads)
      throws Throwable {
    int how = choice.next();
    long start = (how & PhaseChoice.TIMED) != 0 ? System.nanoTime() : 0;
    if ((how & PhaseChoice.PARALLEL) != 0) {
      run(classes, costs, table, constants, threads);
    } else {
      for (BiConsumer<Object[], Object[]> c : classes) {
        c.accept(table, constants);
      }
    }
    if ((how & PhaseChoice.TIMED) != 0) {
      choice.record(how, System.nanoTime() - start);
    }
  }

  static void run(
      List<BiConsumer<Object[], Object[]>> classes,
      long[] costs,
      Object[] table,
      Object[] constants,
      int threads)
      throws Throwable {
    List<List<BiConsumer<Object[], Object[]>>> shares = divide(classes, costs, threads);
    List<Future<?>> futures = new ArrayList<>(shares.size() - 1);
    for (int t = 1; t < shares.size(); t++) {
      List<BiConsumer<Object[], Object[]>> share = shares.get(t);
      HANDOFFS.incrementAndGet();
      futures.add(Workers.POOL.submit(() -> runAll(share, table, constants)));
    }
    Throwable failure = null;
    try {
      runAll(shares.get(0), table, constants);
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        failure = failure != null ? failure : e.getCause();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Divides the classes among at most {@code threads} shares, largest first, each to the least
   * loaded share; the order within a phase does not matter, since its classes fill or set disjoint
   * slots.
   */
  static List<List<BiConsumer<Object[], Object[]>>> divide(
      List<BiConsumer<Object[], Object[]>> classes, long[] costs, int threads) {
    int n = classes.size();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, new ByCost(costs));
    int parts = Math.min(threads, n);
    long[] load = new long[parts];
    List<List<BiConsumer<Object[], Object[]>>> shares = new ArrayList<>(parts);
    for (int t = 0; t < parts; t++) {
      shares.add(new ArrayList<>());
    }
    for (int i : order) {
      int least = 0;
      for (int t = 1; t < parts; t++) {
        if (load[t] < load[least]) {
          least = t;
        }
      }
      load[least] += costs[i];
      shares.get(least).add(classes.get(i));
    }
    return shares; // none is empty: the first classes go one to each share
  }

  /** Orders class indices by their cost, largest first. */
  private static final class ByCost implements java.util.Comparator<Integer> {
    private final long[] costs;

    ByCost(long[] costs) {
      this.costs = costs;
    }

    @Override
    public int compare(Integer a, Integer b) {
      return Long.compare(costs[b], costs[a]);
    }
  }

  private static void runAll(
      List<BiConsumer<Object[], Object[]>> classes, Object[] table, Object[] constants) {
    for (BiConsumer<Object[], Object[]> c : classes) {
      c.accept(table, constants);
    }
  }
}
