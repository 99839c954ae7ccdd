package org.codese.cli;

import java.io.IOException;
import java.io.ObjectStreamConstants;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.codese.CorruptSnapshotException;
import org.codese.SnapshotContents;
import org.codese.SnapshotSegment;

/**
 * A snapshot file as the commands see it: either a single snapshot ({@code "CDSE"}, written by
 * {@code Codese.write}; possibly compressed, {@code "CDSZ"}, and signed, {@code "CDSG"}, which
 * {@link SnapshotContents} unwraps without checking the signature) or a Codese object stream
 * ({@code "CDSS"}, written by {@code CodeseOutputStream}) of one or more snapshot segments, read
 * with {@link SnapshotContents}. Reading checks every segment completely (magic, version, lengths,
 * checksums, indices) and never runs or defines any of its code.
 */
final class SnapshotSource {
  /** The two container kinds. */
  enum Kind {
    SNAPSHOT("snapshot"),
    STREAM("object stream");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  final Path path;
  final Kind kind;
  final long size;
  final SnapshotContents contents;
  final List<SnapshotSegment> segments;

  /** What the file holds in order: segments, data and resets. */
  final List<SnapshotContents.Part> frames;

  private SnapshotSource(Path path, SnapshotContents contents) {
    this.path = path;
    this.contents = contents;
    this.kind = contents.isStream() ? Kind.STREAM : Kind.SNAPSHOT;
    this.size = contents.size();
    this.segments = contents.segments();
    this.frames = contents.parts();
  }

  /**
   * Reads and checks a snapshot file or object stream.
   *
   * @param path the file
   * @return its checked content
   * @throws CliException naming the file and the damage
   */
  static SnapshotSource read(Path path) {
    byte[] bytes = readFile(path);
    if (bytes.length >= 4
        && (ByteBuffer.wrap(bytes).getInt() >>> 16)
            == (ObjectStreamConstants.STREAM_MAGIC & 0xFFFF)) {
      throw new CliException(
          path
              + ": this is a JDK serialization file, not a Codese snapshot;"
              + " convert it first with 'codese convert "
              + path
              + " -o OUT.cdss'");
    }
    try {
      return new SnapshotSource(path, SnapshotContents.read(bytes));
    } catch (CorruptSnapshotException e) {
      throw new CliException(path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads a whole file.
   *
   * @param path the file
   * @return its bytes
   * @throws CliException naming the file if it cannot be read
   */
  static byte[] readFile(Path path) {
    try {
      return Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw new CliException(path + ": no such file; check the path");
    } catch (AccessDeniedException e) {
      throw new CliException(path + ": permission denied; check the file's permissions");
    } catch (IOException e) {
      throw new CliException(path + ": cannot read it (" + e.getMessage() + ")", e);
    } catch (OutOfMemoryError e) {
      throw new CliException(path + ": too large to read into memory; raise -Xmx", e);
    }
  }

  /**
   * Lists the restore program of every segment.
   *
   * @param listener what receives the statements
   * @throws CliException if the program cannot be read
   */
  void list(org.codese.ProgramListener listener) {
    try {
      contents.list(listener);
    } catch (CorruptSnapshotException e) {
      throw new CliException(
          path
              + ": "
              + e.getMessage()
              + "; the file is damaged or was not written by Codese, run 'codese verify "
              + path
              + "'");
    }
  }

  /**
   * @param items a segment's items
   * @return them as the listings show them: {@code oN}, {@code null}, {@code data(N bytes)} and
   *     {@code refers back to oN}
   */
  static List<String> describe(List<SnapshotSegment.Item> items) {
    List<String> out = new java.util.ArrayList<>();
    for (SnapshotSegment.Item i : items) {
      switch (i.kind()) {
        case DATA -> out.add("data(" + i.value() + " bytes)");
        case OBJECT -> out.add(i.value() < 0 ? "null" : "o" + i.value());
        case BACK_REFERENCE -> out.add("refers back to o" + i.value());
      }
    }
    return out;
  }
}
