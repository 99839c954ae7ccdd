package org.codese.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Recording into a temporary fixture directory: once when missing, again when asked. */
class RecordingTest {
  static final AtomicInteger FACTORY_CALLS = new AtomicInteger();

  @Launch.Sample
  static class Recorded {
    @Fixture("recorded")
    Shop shop;

    static Shop recorded() {
      FACTORY_CALLS.incrementAndGet();
      return Shop.of("recorded", 50);
    }

    @Test
    void first() {
      assertTrue(shop.pristine(50));
      shop.mutate();
    }

    @RepeatedTest(3)
    void again(@Fixture("recorded") Shop copy) {
      assertTrue(shop.pristine(50) && copy.pristine(50));
      shop.mutate();
    }
  }

  private static int factoryCalls(Path dir, String... params) {
    FACTORY_CALLS.set(0);
    TestExecutionSummary s = Launch.run(dir, List.of(params), Recorded.class);
    assertEquals(List.of(), Launch.failures(s));
    assertEquals(4, s.getTestsSucceededCount());
    return FACTORY_CALLS.get();
  }

  @Test
  void recordsAMissingFixtureOnceAndLoadsItAfterwards(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("org/codese/junit/recorded.cdse");
    assertEquals(1, factoryCalls(dir));
    assertTrue(Files.size(file) > 0);
    assertEquals(0, factoryCalls(dir));
  }

  @Test
  void recordsAgainWhenAskedByNameOrForAll(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("org/codese/junit/recorded.cdse");
    factoryCalls(dir);
    Files.write(file, new byte[] {1, 2, 3});
    assertEquals(1, factoryCalls(dir, FixtureSpec.RECORD, "other, recorded"));
    assertEquals(0, factoryCalls(dir, FixtureSpec.RECORD, "other"));
    assertEquals(1, factoryCalls(dir, FixtureSpec.RECORD, "true"));
    assertEquals(0, factoryCalls(dir, FixtureSpec.RECORD, "false"));
  }

  @Launch.Sample
  static class FactoryElsewhere {
    @Test
    void usesIt(
        @Fixture(value = "elsewhere", factory = "org.codese.junit.RecordingTest#build") Shop shop) {
      assertTrue(shop.pristine(7));
    }
  }

  static Shop build() {
    return Shop.of("elsewhere", 7);
  }

  @Test
  void factoryOfAnotherClass(@TempDir Path dir) {
    TestExecutionSummary s = Launch.run(dir, List.of(), FactoryElsewhere.class);
    assertEquals(List.of(), Launch.failures(s));
    assertTrue(Files.isRegularFile(dir.resolve("org/codese/junit/elsewhere.cdse")));
  }
}
