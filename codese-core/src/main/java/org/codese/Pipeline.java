package org.codese;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.codese.capture.Capturer;
import org.codese.capture.Graph;
import org.codese.emit.CodeCache;
import org.codese.emit.Emitted;
import org.codese.format.Compression;
import org.codese.format.Signing;
import org.codese.format.SnapshotFile;
import org.codese.plan.Plan;
import org.codese.plan.Planner;

/** Capture, plan and emit, in that order: from a live graph to a snapshot. */
final class Pipeline {
  private Pipeline() {}

  /**
   * A snapshot's bytes as the options write them: compressed if they say so, then signed if they
   * carry a key, so that a signature covers the compressed bytes and is checked before they are
   * inflated.
   */
  static byte[] envelopes(byte[] snapshot, CodeseOptions options) {
    byte[] bytes = options.compressed() ? Compression.compress(snapshot) : snapshot;
    byte[] key = options.signingKey();
    return key == null ? bytes : Signing.sign(bytes, key);
  }

  /**
   * Writes {@code bytes} to a temporary file beside {@code file} and moves it into place,
   * atomically where the file system can, so that a failure never leaves a truncated file under the
   * target name. Here rather than in {@link Codese}, whose every load would otherwise have the
   * verifier load the exception classes of the move.
   */
  static void writeFile(byte[] bytes, Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = dir.resolve("." + file.getFileName() + "." + System.nanoTime() + ".tmp");
    try {
      Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (java.nio.file.AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static SnapshotFile capture(Object root, CodeseOptions options) throws IOException {
    LinkAhead.startCapture();
    Capturer capturer = new Capturer(options);
    capturer.writeObject(root, false);
    SnapshotFile file = toFile(capturer.drain());
    // planned and released: the next capture may take its large arrays
    capturer.recycle();
    return file;
  }

  /** Plans {@code graph} and emits the plan; {@code graph} is {@linkplain #emit released}. */
  static SnapshotFile toFile(Graph graph) {
    return emit(Planner.plan(graph), graph);
  }

  /**
   * A segment of an object stream: planned so that like segments get identical code; {@code graph}
   * is {@linkplain #emit released}.
   */
  static SnapshotFile toSegment(Graph graph) {
    return emit(Planner.planSegment(graph), graph);
  }

  /**
   * {@linkplain Graph#release Releases} {@code planned}, which {@code plan} was made from and which
   * nothing reads again, then emits the plan.
   */
  private static SnapshotFile emit(Plan plan, Graph planned) {
    planned.release();
    Emitted code = CodeCache.emit(plan);
    return new SnapshotFile(
        System.getProperty("java.version"),
        plan.firstId(),
        plan.tableSize(),
        plan.depth(),
        plan.classes(),
        plan.constants(),
        code.classFiles(),
        code.placements(),
        plan.items());
  }
}
