package org.codese.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Random;
import org.codese.bench.peers.Peer;
import org.codese.bench.peers.Peers;
import org.codese.samples.RbtMutations;
import org.codese.samples.RedBlackTree;
import org.junit.jupiter.api.Test;

/** The model-checker scenario: its edits, its check, and that a wrong restore is never timed. */
class ModelCheckerTest {
  private static final ModelChecker.Plan SMALL = new ModelChecker.Plan(200, 30, 10);

  @Test
  void editsKeepAValidTreeAndChangeItsFingerprint() {
    RedBlackTree t = RedBlackTree.random(1_000, 42);
    Random random = new Random(1);
    long before = RbtMutations.fingerprint(t);
    for (int i = 0; i < 500; i++) {
      RbtMutations.step(t, random, ModelChecker.CHANGES);
      long after = RbtMutations.fingerprint(t);
      assertNotEquals(before, after, "step " + i);
      before = after;
    }
    assertTrue(t.isValid());
    assertEquals(1_500, t.size());
    // the same seed gives the same state
    RedBlackTree u = RedBlackTree.random(1_000, 42);
    Random again = new Random(1);
    for (int i = 0; i < 500; i++) {
      RbtMutations.step(u, again, ModelChecker.CHANGES);
    }
    assertEquals(RbtMutations.fingerprint(t), RbtMutations.fingerprint(u));
  }

  @Test
  void everyPeerRestoresTheLiveStateAndIsTimed() {
    for (String p : ModelChecker.PEERS) {
      ModelChecker.Outcome o = ModelChecker.run(Peers.byName(p), SMALL);
      assertTrue(o.ok(), p + ": " + o.message());
      assertTrue(o.captureMs() > 0 && o.restoreMs() > 0 && o.lastBytes() > 0, p);
      ModelChecker.Outcome back = ModelChecker.Outcome.parse(o.line());
      assertEquals(o, back);
    }
  }

  /** A session whose restore returns something else than a copy of what it captured. */
  private abstract static class Broken implements Peer.Session {
    final Peer.Session jdk;

    Broken() throws Exception {
      jdk = Peers.byName("jdk").session();
    }

    @Override
    public byte[] capture(Object root) throws Exception {
      return jdk.capture(root);
    }
  }

  private static void assertFailedAt(int step, ModelChecker.Outcome o, String why) {
    assertFalse(o.ok());
    assertEquals("failed", o.status());
    assertTrue(o.message().startsWith("step " + step + ": "), o.message());
    assertTrue(o.message().contains(why), o.message());
    assertTrue(Double.isNaN(o.totalMs()), "a failed run has no time");
    ModelChecker.Outcome back = ModelChecker.Outcome.parse(o.line());
    assertFalse(back.ok());
    assertEquals(o.message().replace(',', ';'), back.message());
  }

  @Test
  void aRestoreThatLosesAnEditFails() throws Exception {
    Peer.Session changed =
        new Broken() {
          @Override
          public Object restore(byte[] bytes) throws Exception {
            RedBlackTree t = (RedBlackTree) jdk.restore(bytes);
            t.put(1);
            return t;
          }
        };
    assertFailedAt(
        10, ModelChecker.run(changed, RedBlackTree.random(200, 42), SMALL, 0), "differs");
  }

  @Test
  void aStaleRestoreFails() throws Exception {
    Peer.Session stale =
        new Broken() {
          byte[] first;

          @Override
          public byte[] capture(Object root) throws Exception {
            byte[] b = jdk.capture(root);
            if (first == null) {
              first = b;
            }
            return b;
          }

          @Override
          public Object restore(byte[] bytes) throws Exception {
            return jdk.restore(first);
          }
        };
    assertFailedAt(10, ModelChecker.run(stale, RedBlackTree.random(200, 42), SMALL, 0), "differs");
  }

  @Test
  void returningTheLiveTreeOrAnotherObjectOrThrowingFails() throws Exception {
    RedBlackTree live = RedBlackTree.random(200, 42);
    Peer.Session same =
        new Broken() {
          @Override
          public Object restore(byte[] bytes) {
            return live;
          }
        };
    assertFailedAt(10, ModelChecker.run(same, live, SMALL, 0), "live tree itself");
    Peer.Session other =
        new Broken() {
          @Override
          public Object restore(byte[] bytes) {
            return "a string";
          }
        };
    assertFailedAt(
        10, ModelChecker.run(other, RedBlackTree.random(200, 42), SMALL, 0), "java.lang.String");
    Peer.Session throwing =
        new Broken() {
          @Override
          public Object restore(byte[] bytes) throws Exception {
            throw new java.io.InvalidObjectException("bad, really");
          }
        };
    assertFailedAt(
        10, ModelChecker.run(throwing, RedBlackTree.random(200, 42), SMALL, 0), "bad, really");
  }

  @Test
  void theReportLeavesFailedPeersOutAndJudgesTheTarget() {
    Results r = new Results();
    r.checkerPlan = SMALL;
    r.checker.put("codese", new ModelChecker.Outcome("ok", 0, 80, 20, 1, 100, ""));
    r.checker.put("jdk", new ModelChecker.Outcome("ok", 0, 150, 50, 1, 100, ""));
    r.checker.put("kryo", ModelChecker.Outcome.failed("step 10: differs"));
    StringWriter s = new StringWriter();
    try (PrintWriter w = new PrintWriter(s)) {
      ModelCheckerReport.headline(w, r);
      ModelCheckerReport.section(w, r);
    }
    String md = s.toString();
    assertTrue(md.contains("jdk 2.00, kryo failed (left out)"), md);
    assertTrue(md.contains("every peer: **met**"), md);
    assertTrue(md.contains("| kryo | **failed**: step 10: differs |"), md);
    r.checker.put("fory", new ModelChecker.Outcome("ok", 10, 50, 20, 1, 100, ""));
    s = new StringWriter();
    try (PrintWriter w = new PrintWriter(s)) {
      ModelCheckerReport.headline(w, r);
    }
    assertTrue(s.toString().contains("**not met** (not faster than fory)"), s.toString());
  }
}
