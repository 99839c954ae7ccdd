package org.codese.bench;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.codese.bench.peers.Peer;
import org.codese.samples.RbtMutations;
import org.codese.samples.RedBlackTree;

/**
 * The model-checker scenario (issue 9): one red-black tree changes a little at each step and is
 * captured whole after every step; every {@code restoreEvery}-th capture is restored and the
 * restored tree compared with the live one. A model checker that stores states and comes back to
 * them does this. Each peer runs it in a fresh JVM ({@link Child}), with one engine for the whole
 * run ({@link Peer#session()}).
 *
 * <p>A restore whose tree differs from the live state ends the run as failed: a failed run has no
 * times, so a peer that restores wrongly is never reported as fast.
 */
final class ModelChecker {
  private ModelChecker() {}

  /** the peers that run the scenario, Codese first */
  static final List<String> PEERS = List.of("codese", "jdk", "kryo", "fory");

  /** leaf keys changed per step, besides the one insertion */
  static final int CHANGES = 2;

  /** the seed of the edits (the tree itself is the suite's {@code rbt-N}, seed 42) */
  static final long SEED = 9;

  /**
   * The scenario's size.
   *
   * @param nodes nodes of the tree at the start
   * @param steps steps, each one edit and one capture
   * @param restoreEvery a restore after every this many steps
   */
  record Plan(int nodes, int steps, int restoreEvery) {
    /** CI's smoke size. */
    static final Plan QUICK = new Plan(1_000, 50, 10);

    /**
     * The full run's size: 500 steps, not the 10,000, because at 100,000 nodes one Codese
     * capture takes about 0.2 s, so 10,000 steps would take over half an hour; 500 steps take all
     * four peers together about 3 minutes (measured 2026-11-27, docs/DESIGN.md).
     */
    static final Plan FULL = new Plan(100_000, 500, 10);

    int restores() {
      return steps / restoreEvery;
    }
  }

  /**
   * What one peer's run gave.
   *
   * @param status {@code ok} or {@code failed}
   * @param setupMs making the peer's engine (a Kryo or Fory instance; nothing for Codese and JDK)
   * @param captureMs all captures, the first included
   * @param restoreMs all restores
   * @param editMs all edits of the live tree (the same work for every peer; not in the total)
   * @param lastBytes the size of the last capture
   * @param message why it failed, else empty
   */
  record Outcome(
      String status,
      double setupMs,
      double captureMs,
      double restoreMs,
      double editMs,
      long lastBytes,
      String message) {

    static Outcome failed(String why) {
      return new Outcome("failed", Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, why);
    }

    boolean ok() {
      return status.equals("ok");
    }

    /** set-up, captures and restores: what the peer costs the model checker */
    double totalMs() {
      return setupMs + captureMs + restoreMs;
    }

    /** One line for the parent: fields separated by spaces, the message last. */
    String line() {
      return String.format(
          Locale.ROOT,
          "%s %s %s %s %s %d %s",
          status,
          setupMs,
          captureMs,
          restoreMs,
          editMs,
          lastBytes,
          message.replace('\n', ' ').replace(',', ';'));
    }

    /**
     * @param line what {@link #line()} wrote
     * @return the outcome it describes
     */
    static Outcome parse(String line) {
      String[] f = line.split(" ", 7);
      return new Outcome(
          f[0],
          Double.parseDouble(f[1]),
          Double.parseDouble(f[2]),
          Double.parseDouble(f[3]),
          Double.parseDouble(f[4]),
          Long.parseLong(f[5]),
          f.length > 6 ? f[6] : "");
    }
  }

  /**
   * Runs the scenario with one peer.
   *
   * @param peer the peer
   * @param plan the scenario's size
   * @return the times, or a failure saying at which step and why
   */
  static Outcome run(Peer peer, Plan plan) {
    RedBlackTree tree = RedBlackTree.random(plan.nodes(), 42);
    long t0 = System.nanoTime();
    Peer.Session session;
    try {
      session = peer.session();
    } catch (Exception e) {
      return Outcome.failed("set-up: " + e);
    }
    return run(session, tree, plan, (System.nanoTime() - t0) / 1e6);
  }

  /**
   * Runs the scenario on a session: the steps, the captures, the restores and their checks.
   *
   * @param session the peer's session
   * @param tree the live tree, changed in place
   * @param plan the scenario's size
   * @param setupMs the time the session took to make
   * @return the times, or a failure saying at which step and why
   */
  static Outcome run(Peer.Session session, RedBlackTree tree, Plan plan, double setupMs) {
    Random random = new Random(SEED);
    long edit = 0;
    long capture = 0;
    long restore = 0;
    long bytes = 0;
    int step = 0;
    try {
      for (step = 1; step <= plan.steps(); step++) {
        long t0 = System.nanoTime();
        RbtMutations.step(tree, random, CHANGES);
        long t1 = System.nanoTime();
        byte[] captured = session.capture(tree);
        long t2 = System.nanoTime();
        edit += t1 - t0;
        capture += t2 - t1;
        bytes = captured.length;
        if (step % plan.restoreEvery() == 0) {
          Object back = session.restore(captured);
          restore += System.nanoTime() - t2;
          String wrong = differs(tree, back);
          if (wrong != null) {
            return Outcome.failed("step " + step + ": " + wrong);
          }
        }
      }
    } catch (Exception | StackOverflowError e) {
      return Outcome.failed("step " + step + ": " + e);
    }
    return new Outcome("ok", setupMs, capture / 1e6, restore / 1e6, edit / 1e6, bytes, "");
  }

  /**
   * @return why the restored object is not a copy of the live tree's state, or null if it is
   */
  static String differs(RedBlackTree live, Object restored) {
    if (restored == live) {
      return "the restore returned the live tree itself";
    }
    if (!(restored instanceof RedBlackTree t)) {
      return "the restore returned "
          + (restored == null ? "null" : restored.getClass().getName())
          + ", not a RedBlackTree";
    }
    long want = RbtMutations.fingerprint(live);
    long got = RbtMutations.fingerprint(t);
    if (want != got || t.size() != live.size()) {
      return "the restored tree differs from the live one (size "
          + t.size()
          + " against "
          + live.size()
          + ", fingerprint "
          + Long.toHexString(got)
          + " against "
          + Long.toHexString(want)
          + ")";
    }
    if (!t.isValid()) {
      return "the restored tree is not a valid red-black tree (links, colours or size)";
    }
    return null;
  }
}
