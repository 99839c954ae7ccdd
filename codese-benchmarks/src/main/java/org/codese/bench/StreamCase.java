package org.codese.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Many small objects over one stream: {@code N} messages, each written by its own {@code
 * writeObject} (a segment each with Codese's live streams), read back one {@code readObject} at a
 * time, as a socket protocol or an append-only log does. The JDK's streams and Codese's drop-in
 * streams, each written in one child JVM and read in fresh ones: what the file costs, and the time
 * from opening it to the last object read.
 */
final class StreamCase {
  /** The number of objects in a stream. */
  static final int N = 2_000;

  /** The peers timed: the JDK's streams and Codese's. */
  static final String[] PEERS = {"jdk", "codese"};

  private StreamCase() {}

  /** A small message: an id, a text, a number and a reference to the message it answers. */
  static final class Message implements Serializable {
    private static final long serialVersionUID = 1L;
    final int id;
    final String text;
    final double score;
    Message inReplyTo;

    Message(int id) {
      this.id = id;
      this.text = "message-" + id;
      this.score = id * 0.25;
    }
  }

  /** Codese's streams, in a class of their own so that the JDK's child never loads Codese. */
  private static final class Codese {
    static ObjectOutputStream out(OutputStream o) throws IOException {
      return new org.codese.CodeseOutputStream(o);
    }

    static ObjectInputStream in(InputStream i) throws IOException {
      return new org.codese.CodeseInputStream(i);
    }
  }

  /**
   * Writes {@link #N} messages, one {@code writeObject} each, every tenth answering the one before
   * it.
   *
   * @param peer {@code jdk} or {@code codese}
   * @param file where
   * @return the milliseconds taken
   * @throws IOException if writing fails
   */
  static double write(String peer, Path file) throws IOException {
    long start = System.nanoTime();
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file));
        ObjectOutputStream out = peer.equals("jdk") ? new ObjectOutputStream(o) : Codese.out(o)) {
      Message previous = null;
      for (int i = 0; i < N; i++) {
        Message m = new Message(i);
        if (i % 10 == 9) {
          m.inReplyTo = previous;
        }
        out.writeObject(m);
        previous = m;
      }
    }
    return (System.nanoTime() - start) / 1e6;
  }

  /**
   * Reads the messages back, from opening the file to the last one.
   *
   * @param peer {@code jdk} or {@code codese}
   * @param file the file {@link #write} wrote
   * @return the milliseconds taken and a checksum of what was read
   * @throws Exception if reading fails
   */
  static double[] read(String peer, Path file) throws Exception {
    long start = System.nanoTime();
    long sum = 0;
    try (InputStream i = new BufferedInputStream(Files.newInputStream(file));
        ObjectInputStream in = peer.equals("jdk") ? new ObjectInputStream(i) : Codese.in(i)) {
      for (int k = 0; k < N; k++) {
        Message m = (Message) in.readObject();
        sum += m.id + m.text.length() + (m.inReplyTo == null ? 0 : m.inReplyTo.id);
      }
    }
    return new double[] {(System.nanoTime() - start) / 1e6, sum};
  }
}
