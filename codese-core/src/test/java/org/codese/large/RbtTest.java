package org.codese.large;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.codese.samples.RedBlackTree;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.RoundTrip.Path;
import org.codese.testkit.TestOutput;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The paper's red-black tree (parent links make it cyclic) at the paper's sizes, through the whole
 * round-trip kit: JDK byte comparison, identity walk, {@code isValid()} on every copy.
 */
class RbtTest {

  @ParameterizedTest(name = "N = {0}")
  @ValueSource(ints = {10, 100, 1_000, 10_000, 100_000})
  void everyRestorePath(int n) {
    RedBlackTree tree = RedBlackTree.random(n, n);
    assertTrue(tree.isValid());
    RoundTrip.Report r =
        RoundTrip.of(tree)
            .name("rbt-" + n)
            .check(
                c -> {
                  RedBlackTree t = (RedBlackTree) c;
                  assertEquals(n, t.size());
                  assertTrue(t.isValid(), "restored tree is not a valid red-black tree");
                })
            .run();
    TestOutput.detail("[timing] RbtTest N=" + n + ": " + r);
  }

  /**
   * A million nodes: the main restore paths only (plain, twice from one snapshot, parallel), to
   * keep the suite's time in check; every check of the kit still runs on each copy.
   */
  @ParameterizedTest(name = "N = {0}")
  @ValueSource(ints = {1_000_000})
  void million(int n) {
    long t0 = System.nanoTime();
    RedBlackTree tree = RedBlackTree.random(n, n);
    RoundTrip.Report r =
        RoundTrip.of(tree)
            .name("rbt-" + n)
            .paths(Path.TO_BYTES_FROM_BYTES, Path.CAPTURE_RESTORE_TWICE, Path.RESTORE_PARALLEL)
            .check(
                c -> {
                  RedBlackTree t = (RedBlackTree) c;
                  assertEquals(n, t.size());
                  assertTrue(t.isValid(), "restored tree is not a valid red-black tree");
                })
            .run();
    TestOutput.detail(
        "[timing] RbtTest N="
            + n
            + ": total "
            + (System.nanoTime() - t0) / 1_000_000
            + " ms, "
            + r);
  }
}
