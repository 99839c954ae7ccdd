package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The first snapshot capture in a JVM bootstraps no record {@code equals} or {@code hashCode}
 * ({@code java.lang.runtime.ObjectMethods}, about 40 ms of method-handle spinning on that call
 * before Codese's plan and op records wrote theirs out; docs/DESIGN.md, Section 3) and no lambda of
 * Codese's own (the loop emitter's bodies were lambdas). Classes loaded, not a time: deterministic.
 */
class FirstCaptureTest {
  /** A tree node of plain fields, as the benchmarks' red-black tree. */
  static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    int key;
    boolean red;
    Node left;
    Node right;
    Node parent;
  }

  /** The child JVM's program: captures a tree and a map of lists, prints the snapshot sizes. */
  public static void main(String[] args) throws Exception {
    Node root = new Node();
    Random random = new Random(1);
    for (int i = 0; i < 2_000; i++) {
      Node n = new Node();
      n.key = random.nextInt();
      n.red = (i & 1) == 0;
      Node at = root;
      while (true) {
        if (n.key < at.key) {
          if (at.left == null) {
            at.left = n;
            break;
          }
          at = at.left;
        } else {
          if (at.right == null) {
            at.right = n;
            break;
          }
          at = at.right;
        }
      }
      n.parent = at;
    }
    HashMap<String, ArrayList<Integer>> map = new HashMap<>();
    for (int i = 0; i < 500; i++) {
      ArrayList<Integer> list = new ArrayList<>();
      for (int j = 0; j < i % 4; j++) {
        list.add(i * j);
      }
      map.put("key" + i, list);
    }
    System.out.println("sizes " + Codese.toBytes(root).length + " " + Codese.toBytes(map).length);
    // and through the drop-in stream, whose class dictionary is a map of class entries
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      for (int i = 0; i < 20; i++) {
        out.writeObject(new ArrayList<>(List.of(i, i + 1)));
        out.writeObject(map.get("key" + i));
      }
    }
    System.out.println("stream " + bytes.size());
  }

  @Test
  void firstCaptureBootstrapsNoRecordMethods() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Xlog:class+load=info:stdout",
                "-cp",
                System.getProperty("java.class.path"),
                FirstCaptureTest.class.getName())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    assertEquals(0, p.exitValue(), out);
    assertTrue(
        out.contains("sizes ") && out.contains("stream "), "the child did not capture: " + out);
    assertTrue(
        out.contains("org.codese.emit.Emitter "), "the log names no class the capture loaded");
    assertFalse(
        out.contains("java.lang.runtime.ObjectMethods "),
        "a first capture bootstrapped a record's equals or hashCode: write them out in the record"
            + " that the class-load log shows being hashed (-Xlog:class+load)");
    // the tree's 2,000 nodes are made and set by loops, whose emitter once took a lambda body
    assertTrue(out.contains("org.codese.emit.Loops "), "the capture emitted no loop");
    Matcher lambda = Pattern.compile("org\\.codese\\.\\S*\\$\\$Lambda").matcher(out);
    assertFalse(
        lambda.find(),
        () -> "a first capture bootstrapped a lambda of Codese's own: " + lambda.group());
  }
}
