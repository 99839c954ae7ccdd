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
 */
final class Parallel {
  private Parallel() {}

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

  static void run(
      List<BiConsumer<Object[], Object[]>> classes, Object[] table, Object[] constants, int threads)
      throws Throwable {
    int parts = Math.min(threads, classes.size());
    List<Future<?>> futures = new ArrayList<>(parts - 1);
    for (int t = 1; t < parts; t++) {
      List<BiConsumer<Object[], Object[]>> share = slice(classes, t, parts);
      futures.add(Workers.POOL.submit(() -> runAll(share, table, constants)));
    }
    Throwable failure = null;
    try {
      runAll(slice(classes, 0, parts), table, constants);
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

  private static List<BiConsumer<Object[], Object[]>> slice(
      List<BiConsumer<Object[], Object[]>> all, int part, int parts) {
    return all.subList(all.size() * part / parts, all.size() * (part + 1) / parts);
  }

  private static void runAll(
      List<BiConsumer<Object[], Object[]>> classes, Object[] table, Object[] constants) {
    for (BiConsumer<Object[], Object[]> c : classes) {
      c.accept(table, constants);
    }
  }
}
