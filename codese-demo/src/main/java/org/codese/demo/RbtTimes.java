package org.codese.demo;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.codese.Codese;
import org.codese.Snapshot;
import org.codese.samples.RedBlackTree;

/**
 * One sample of the paper's Figure 5 measurement for the red-black tree, meant to run in a fresh
 * JVM per sample (see {@code scripts/rbt-figures.sh}): the cumulative time of D restores, counted
 * from reading the file, with Codese or with JDK deserialization.
 *
 * <p>Usage: {@code prepare N DIR} writes {@code rbtN.cdse} and {@code rbtN.ser}; {@code codese N
 * DIR D} and {@code jdk N DIR D} print the cumulative milliseconds of D restores. The JDK side
 * reads the file once and deserializes D times from memory, as the paper's driver did.
 */
public final class RbtTimes {
  private RbtTimes() {}

  /**
   * @param args {@code prepare N DIR} or {@code codese|jdk N DIR D}
   * @throws Exception if anything fails; a restored tree that is invalid is an error
   */
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    int n = Integer.parseInt(args[1]);
    Path dir = Path.of(args[2]);
    Path cdse = dir.resolve("rbt" + n + ".cdse");
    Path ser = dir.resolve("rbt" + n + ".ser");
    if (mode.equals("prepare")) {
      Files.createDirectories(dir);
      RedBlackTree tree = RedBlackTree.random(n, 42);
      Codese.write(tree, cdse);
      try (OutputStream f = Files.newOutputStream(ser);
          ObjectOutputStream out = new ObjectOutputStream(new BufferedOutputStream(f))) {
        out.writeObject(tree);
      }
      System.out.println(Files.size(cdse) + " " + Files.size(ser));
      return;
    }
    int d = Integer.parseInt(args[3]);
    Object last = null;
    long start = System.nanoTime();
    if (mode.equals("codese")) {
      try (Snapshot s = Codese.load(cdse)) {
        for (int i = 0; i < d; i++) {
          last = s.restore();
        }
      }
    } else if (mode.equals("jdk")) {
      byte[] bytes = Files.readAllBytes(ser);
      for (int i = 0; i < d; i++) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
          last = in.readObject();
        }
      }
    } else {
      throw new IllegalArgumentException("unknown mode " + mode);
    }
    long elapsed = System.nanoTime() - start;
    RedBlackTree tree = (RedBlackTree) last;
    if (tree.size() != n || !tree.isValid()) {
      throw new IllegalStateException(mode + " restored an invalid tree");
    }
    System.out.printf("%.1f%n", elapsed / 1e6);
  }
}
