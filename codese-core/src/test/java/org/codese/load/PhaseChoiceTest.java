package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The measured choice between one thread and several per phase, driven with given times (no clock):
 * trials alternate the two ways starting alone, several threads are kept only when clearly faster,
 * and later trials revise the choice.
 */
class PhaseChoiceTest {
  /** Runs one trial, giving {@code alone} and {@code shared} nanoseconds to the two ways. */
  private static void trial(PhaseChoice c, long alone, long shared) {
    for (int i = 0; i < 2 * PhaseChoice.SAMPLES; i++) {
      int how = c.next();
      assertTrue((how & PhaseChoice.TIMED) != 0, "run " + i + " of a trial is timed");
      assertEquals(i % 2 == 1, (how & PhaseChoice.PARALLEL) != 0, "trial runs alternate");
      c.record(how, (how & PhaseChoice.PARALLEL) != 0 ? shared + i : alone + i);
    }
  }

  /** Runs untimed runs up to the next trial, checking each follows the decision. */
  private static void untilNextTrial(PhaseChoice c, int from, int to) {
    for (int run = from; run < to; run++) {
      int how = c.next();
      assertEquals(0, how & PhaseChoice.TIMED, "run " + run + " is not timed");
      assertEquals(c.parallel(), (how & PhaseChoice.PARALLEL) != 0);
    }
  }

  @Test
  void theFirstRunIsAloneAndSeveralThreadsAreKeptOnlyWhenClearlyFaster() {
    PhaseChoice c = new PhaseChoice();
    assertFalse(c.parallel());
    assertEquals(PhaseChoice.TIMED, c.next(), "the first, cold run: alone, timed");
    c.record(PhaseChoice.TIMED, 1_000);
    for (int i = 1; i < 2 * PhaseChoice.SAMPLES; i++) {
      int how = c.next();
      c.record(how, (how & PhaseChoice.PARALLEL) != 0 ? 500 : 1_000);
    }
    assertTrue(c.parallel(), "twice as fast on several threads");
    untilNextTrial(c, 2 * PhaseChoice.SAMPLES, PhaseChoice.TRIALS[1]);
  }

  @Test
  void aSmallGainOrALossKeepsTheCallingThread() {
    for (long shared : new long[] {950, 1_000, 2_000}) {
      PhaseChoice c = new PhaseChoice();
      trial(c, 1_000, shared);
      assertFalse(c.parallel(), "several threads at " + shared + " against 1000 alone");
    }
  }

  @Test
  void laterTrialsReviseTheChoice() {
    PhaseChoice c = new PhaseChoice();
    trial(c, 1_000, 400);
    assertTrue(c.parallel());
    untilNextTrial(c, 2 * PhaseChoice.SAMPLES, PhaseChoice.TRIALS[1]);
    trial(c, 1_000, 1_500); // warm, several threads lose
    assertFalse(c.parallel());
    untilNextTrial(c, PhaseChoice.TRIALS[1] + 2 * PhaseChoice.SAMPLES, PhaseChoice.TRIALS[2]);
    trial(c, 1_000, 300);
    assertTrue(c.parallel());
    // no trial after the last: the choice stands
    untilNextTrial(
        c, PhaseChoice.TRIALS[2] + 2 * PhaseChoice.SAMPLES, PhaseChoice.TRIALS[2] + 10_000);
  }

  @Test
  void aFailedTrialRunDelaysTheDecisionToTheNextTrial() {
    PhaseChoice c = new PhaseChoice();
    int first = c.next(); // fails: nothing recorded
    assertEquals(PhaseChoice.TIMED, first);
    for (int i = 1; i < 2 * PhaseChoice.SAMPLES; i++) {
      int how = c.next();
      c.record(how, (how & PhaseChoice.PARALLEL) != 0 ? 100 : 1_000);
    }
    assertFalse(c.parallel(), "one run short: not decided");
    untilNextTrial(c, 2 * PhaseChoice.SAMPLES, PhaseChoice.TRIALS[1]);
    int how = c.next();
    c.record(how, 1_000); // the missing run's record, from the next trial
    assertTrue(c.parallel());
  }
}
