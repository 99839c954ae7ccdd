package org.codese.load;

/**
 * Chooses, for one phase of one loaded snapshot, whether a restore with several threads runs the
 * phase's classes on the calling thread or on several ({@link Parallel}), by measuring both ways on
 * this machine rather than trusting the load-time cost estimate alone: a phase whose classes'
 * estimate passes {@link Parallel#pays} may still lose on several threads (the hand-off, cache
 * lines of the table written from two cores, a machine busy with other work), and then {@code
 * restore(n)} must not be slower than {@code restore(1)}.
 *
 * <p>Restores are numbered per phase. A <em>trial</em> of {@link #SAMPLES} runs each way,
 * alternating and starting on the calling thread, begins at runs {@link #TRIALS}: the first restore
 * (cold) and then twice more, once the JIT has compiled the generated code. After a trial the phase
 * runs on several threads until the next trial only if the fastest of those runs beat the fastest
 * on the calling thread by {@link #MARGIN_PERCENT} percent; before the first decision, on the
 * calling thread. The runs outside trials are not timed.
 *
 * <p>Thread-safe: restores of one snapshot on several threads share the choice; each call is
 * synchronized (a restore that asks holds at least {@link Parallel#MIN_SHARED_COST} of work, far
 * more than an uncontended lock).
 */
final class PhaseChoice {
  /** Timed runs of each way per trial. */
  static final int SAMPLES = 3;

  /** The runs at which a trial begins. */
  static final int[] TRIALS = {0, 64, 1024};

  /** How much faster, in percent of the calling thread's time, several threads must be. */
  static final int MARGIN_PERCENT = 10;

  /** {@link #next()}'s bit: run on several threads. */
  static final int PARALLEL = 1;

  /** {@link #next()}'s bit: time the run and {@link #record} it. */
  static final int TIMED = 2;

  private int runs;
  private int recorded;
  private boolean parallel;
  private long fastestAlone = Long.MAX_VALUE;
  private long fastestShared = Long.MAX_VALUE;

  /**
   * Takes the next run's number and says how to run it.
   *
   * @return {@link #PARALLEL} if the run is to use several threads, plus {@link #TIMED} if it is a
   *     trial run, whose time must then be given to {@link #record}
   */
  synchronized int next() {
    int offset = trialOffset(runs++);
    if (offset < 0) {
      return parallel ? PARALLEL : 0;
    }
    return TIMED | (offset % 2 == 1 ? PARALLEL : 0);
  }

  /**
   * Records a trial run's time and, once a trial's runs are all recorded, decides until the next
   * trial (a run that failed records nothing; the decision then waits for the next trial's runs).
   *
   * @param how what {@link #next()} returned for the run
   * @param nanos how long the phase took
   */
  synchronized void record(int how, long nanos) {
    if ((how & PARALLEL) != 0) {
      fastestShared = Math.min(fastestShared, nanos);
    } else {
      fastestAlone = Math.min(fastestAlone, nanos);
    }
    if (++recorded == 2 * SAMPLES) {
      recorded = 0;
      parallel =
          fastestShared != Long.MAX_VALUE
              && fastestShared * 100 < fastestAlone * (100 - MARGIN_PERCENT);
      fastestAlone = Long.MAX_VALUE;
      fastestShared = Long.MAX_VALUE;
    }
  }

  /** Whether the phase runs on several threads outside trials, as last decided. */
  synchronized boolean parallel() {
    return parallel;
  }

  /** The offset of run {@code run} in its trial, or -1 outside every trial. */
  private static int trialOffset(int run) {
    for (int start : TRIALS) {
      if (run >= start && run < start + 2 * SAMPLES) {
        return run - start;
      }
    }
    return -1;
  }
}
