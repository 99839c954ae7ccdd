package org.codese.bench.peers;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One way of turning a graph into a file and the file back into graphs. Implementations are loaded
 * by name ({@link Peers#byName}) so that a fresh JVM timing one peer never loads another.
 */
public interface Peer {
  /**
   * @return the peer's name as it appears in the results
   */
  String name();

  /**
   * @return the configuration used, stated in the report
   */
  String config();

  /**
   * @return the suffix of the files this peer writes
   */
  String extension();

  /**
   * Captures {@code root} into bytes.
   *
   * @param root the graph
   * @return the file contents
   * @throws Exception if this peer cannot capture the graph
   */
  byte[] capture(Object root) throws Exception;

  /**
   * Captures {@code root} into the peer's own compressed form, where it offers one as an option
   * (Codese's {@code withCompression}); the suite reports its size beside the plain form's.
   *
   * @param root the graph
   * @return the compressed bytes, or {@code null} if the peer has no such option
   * @throws Exception if this peer cannot capture the graph
   */
  default byte[] captureCompressed(Object root) throws Exception {
    return null;
  }

  /**
   * Reads a file and prepares to restore from it: everything a program must do once before its
   * first restore (reading the bytes, creating the peer's engine, loading a snapshot).
   *
   * @param file a file this peer wrote
   * @param threads restore threads (only Codese uses more than one)
   * @return something that restores a new graph on each call
   * @throws Exception if the file cannot be read or the peer cannot be set up
   */
  Restorer open(Path file, int threads) throws Exception;

  /**
   * Opens an in-memory session for the model-checker scenario: one engine (a Kryo or Fory instance)
   * made once and kept, capturing and restoring the same evolving state many times, as a program
   * that checkpoints its state would.
   *
   * @return a new session
   * @throws Exception if the peer cannot be set up
   * @throws NotApplicable if the peer has no such session
   */
  default Session session() throws Exception {
    throw new NotApplicable(name() + " has no in-memory session");
  }

  /** Captures to bytes and restores from bytes, many times, with one engine. */
  interface Session {
    /**
     * @param root the graph
     * @return its bytes
     * @throws Exception if capturing fails
     */
    byte[] capture(Object root) throws Exception;

    /**
     * @param bytes bytes {@link #capture} returned
     * @return a new graph
     * @throws Exception if restoring fails
     */
    Object restore(byte[] bytes) throws Exception;
  }

  /**
   * Reads a file whole through {@code java.io}, as every peer but Codese (which reads its own
   * files, the same way) does in {@link #open}: {@code Files.readAllBytes} would load some thirty
   * classes of the channel machinery, about 2 ms of a fresh JVM, that {@code FileInputStream} does
   * not need.
   *
   * @param file the file
   * @return its bytes
   * @throws IOException if it cannot be read
   */
  static byte[] readFile(Path file) throws IOException {
    try (java.io.FileInputStream in = new java.io.FileInputStream(file.toFile())) {
      return in.readAllBytes();
    }
  }

  /** Restores one new graph per call. */
  interface Restorer {
    /**
     * @return a new graph
     * @throws Exception if restoring fails
     */
    Object restore() throws Exception;
  }

  /** Thrown when a peer does not handle a kind of graph at all (not an error of the peer). */
  final class NotApplicable extends IOException {
    private static final long serialVersionUID = 1L;

    public NotApplicable(String why) {
      super(why);
    }
  }
}
