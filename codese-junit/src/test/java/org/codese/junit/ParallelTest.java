package org.codese.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * JUnit's parallel execution: two classes at once, their tests at once, sharing a JVM-scoped
 * fixture and each loading a class-scoped one; every test mutates its copy while others run.
 */
class ParallelTest {
  static final int ITEMS = 200;
  static final AtomicInteger FACTORY_CALLS = new AtomicInteger();
  static final AtomicInteger RUNNING = new AtomicInteger();
  static final AtomicInteger MOST_RUNNING = new AtomicInteger();
  static final Set<Object> SEEN =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  static Shop shared() {
    FACTORY_CALLS.incrementAndGet();
    return Shop.of("shared", ITEMS);
  }

  static Shop perClass() {
    FACTORY_CALLS.incrementAndGet();
    return Shop.of("per class", ITEMS);
  }

  abstract static class Base {
    @Fixture(value = "shared", scope = Fixture.Scope.JVM)
    Shop shared;

    @Fixture(value = "perClass")
    Shop perClass;

    @RepeatedTest(40)
    void mutatesItsOwnCopies() throws InterruptedException {
      MOST_RUNNING.accumulateAndGet(RUNNING.incrementAndGet(), Math::max);
      try {
        for (Shop s : List.of(shared, perClass)) {
          assertTrue(s.pristine(ITEMS));
          assertTrue(SEEN.add(s));
          s.mutate();
        }
        Thread.sleep(2);
        assertEquals(ITEMS - 1, shared.items.size());
        assertEquals(ITEMS - 1, perClass.bySku.size());
      } finally {
        RUNNING.decrementAndGet();
      }
    }
  }

  @Launch.Sample
  static class First extends Base {}

  @Launch.Sample
  static class Second extends Base {}

  @Test
  void parallelTestsGetIndependentCopies(@TempDir Path dir) {
    TestExecutionSummary s =
        Launch.run(
            dir,
            List.of(
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "4"),
            First.class,
            Second.class);
    assertEquals(List.of(), Launch.failures(s));
    assertEquals(80, s.getTestsSucceededCount());
    assertEquals(160, SEEN.size());
    assertEquals(2, FACTORY_CALLS.get(), "each fixture recorded once");
    assertTrue(MOST_RUNNING.get() > 1, "tests ran in parallel: " + MOST_RUNNING.get());
  }
}
