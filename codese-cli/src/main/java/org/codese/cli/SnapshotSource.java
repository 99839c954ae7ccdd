package org.codese.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.codese.CorruptSnapshotException;
import org.codese.format.Signing;
import org.codese.format.SnapshotFile;
import org.codese.format.StreamSegments;
import org.codese.load.StreamReader;

/**
 * A snapshot file as the commands see it: either a single snapshot ({@code "CDSE"}, written by
 * {@code Codese.write}) or a Codese object stream ({@code "CDSS"}, written by {@code
 * CodeseOutputStream}) of one or more snapshot segments. Reading checks every segment completely
 * (magic, version, lengths, checksums, indices) and never runs or defines any of its code.
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

  /**
   * One parsed snapshot and where it lies in the file.
   *
   * @param file the parsed snapshot
   * @param offset its first byte in the file
   * @param length its length in bytes
   */
  record Segment(SnapshotFile file, long offset, int length) {}

  /**
   * Primitive data written between objects, outside any segment (stream version 2).
   *
   * @param offset its first byte in the file
   * @param length its length in bytes
   */
  record Data(long offset, int length) {}

  /**
   * A reset: the objects before it are forgotten, the next segment starts at object 0.
   *
   * @param offset the reset's frame in the file
   */
  record Reset(long offset) {}

  /** Names of the sections, in file order. */
  static final String[] SECTIONS = {"header", "classes", "constants", "code", "items"};

  final Path path;
  final Kind kind;
  final long size;
  final List<Segment> segments;

  /** What the file holds in order: {@link Segment}s, {@link Data} and {@link Reset}s. */
  final List<Record> frames;

  private SnapshotSource(Path path, Kind kind, long size, List<Record> frames) {
    this.path = path;
    this.kind = kind;
    this.size = size;
    this.frames = frames;
    List<Segment> s = new ArrayList<>();
    for (Record r : frames) {
      if (r instanceof Segment seg) {
        s.add(seg);
      }
    }
    this.segments = List.copyOf(s);
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
    if (bytes.length >= 4) {
      int magic = ByteBuffer.wrap(bytes).getInt();
      if (magic == StreamReader.STREAM_MAGIC) {
        return new SnapshotSource(path, Kind.STREAM, bytes.length, stream(path, bytes));
      }
      if (magic == SnapshotFile.MAGIC) {
        SnapshotFile f = parse(path, bytes, 0);
        if (f.firstId() != 0) {
          throw new CliException(
              path
                  + ": this is one segment cut out of a Codese object stream;"
                  + " use the whole stream file");
        }
        return new SnapshotSource(
            path, Kind.SNAPSHOT, bytes.length, List.of(new Segment(f, 0, bytes.length)));
      }
      if ((magic >>> 16) == 0xACED) {
        throw new CliException(
            path
                + ": this is a JDK serialization file, not a Codese snapshot;"
                + " convert it first with 'codese convert "
                + path
                + " -o OUT.cdss'");
      }
    }
    throw new CliException(
        path
            + ": not a Codese snapshot or object stream (bad magic number);"
            + " give a file written by Codese.write or CodeseOutputStream");
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

  private static SnapshotFile parse(Path path, byte[] bytes, long base) {
    try {
      return SnapshotFile.parse(bytes);
    } catch (CorruptSnapshotException e) {
      String m = e.getMessage();
      if (base != 0) {
        m = m + " [segment starting at file byte " + base + "]";
      }
      throw new CliException(path + ": " + m, e);
    }
  }

  /** A segment of a version 3 stream, in the compact form that refers to earlier segments. */
  private static SnapshotFile decode(
      Path path, StreamSegments.Decoder compact, byte[] seg, int firstId, long base) {
    try {
      return compact.decode(Signing.unwrap(seg, null), firstId);
    } catch (CorruptSnapshotException e) {
      throw new CliException(
          path + ": " + e.getMessage() + " [segment starting at file byte " + base + "]", e);
    } catch (org.codese.AuthenticityException e) {
      throw new CliException(path + ": " + e.getMessage(), e);
    }
  }

  private static List<Record> stream(Path path, byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (bytes.length < 6) {
      throw corrupt(path, 0, "the stream ends inside its header");
    }
    in.getInt();
    int version = in.getShort() & 0xFFFF;
    if (version < StreamReader.OLDEST_VERSION || version > StreamReader.STREAM_VERSION) {
      throw corrupt(
          path,
          4,
          "stream version "
              + version
              + " is not supported; this tool reads"
              + " versions "
              + StreamReader.OLDEST_VERSION
              + " to "
              + StreamReader.STREAM_VERSION);
    }
    List<Record> frames = new ArrayList<>();
    StreamSegments.Decoder compact = StreamReader.decoder(version);
    int nextId = 0;
    while (true) {
      if (in.remaining() < 4) {
        throw corrupt(
            path,
            in.position(),
            "the stream ends without its end mark (truncated, or"
                + " the CodeseOutputStream was not closed)");
      }
      int at = in.position();
      int len = in.getInt();
      if (len == StreamReader.END) {
        break;
      }
      if (len < 0 && version < 2) {
        throw corrupt(path, at, "negative segment length " + len + " in a version 1 stream");
      }
      if (len == StreamReader.RESET) {
        frames.add(new Reset(at));
        nextId = 0;
        compact.reset();
        continue;
      }
      int n = Math.abs(len);
      if (n > in.remaining()) {
        throw corrupt(
            path,
            at,
            (len < 0 ? "data" : "segment")
                + " length "
                + n
                + " but only "
                + in.remaining()
                + " bytes follow (truncated or damaged)");
      }
      if (len < 0) {
        frames.add(new Data(at + 4, n));
        in.position(in.position() + n);
        continue;
      }
      byte[] seg = new byte[len];
      in.get(seg);
      SnapshotFile f =
          version >= 3 ? decode(path, compact, seg, nextId, at + 4) : parse(path, seg, at + 4);
      if (f.firstId() != nextId) {
        throw corrupt(
            path,
            at,
            "segment starts at object "
                + f.firstId()
                + " but the segments"
                + " before it hold "
                + nextId
                + " objects");
      }
      nextId = f.tableSize();
      frames.add(new Segment(f, at + 4, len));
    }
    if (in.remaining() != 0) {
      throw corrupt(path, in.position(), in.remaining() + " unexpected bytes after the end mark");
    }
    return List.copyOf(frames);
  }

  private static CliException corrupt(Path path, long offset, String problem) {
    return new CliException(
        path
            + ": corrupt object stream: "
            + problem
            + " (byte offset "
            + offset
            + "); the file was damaged or truncated, write it again");
  }

  /**
   * The payload sizes of a segment's sections, in {@link #SECTIONS} order, read from its checked
   * file form.
   *
   * @param segment a parsed segment
   * @return the five payload lengths
   */
  static int[] sectionSizes(SnapshotFile segment) {
    ByteBuffer b = ByteBuffer.wrap(segment.bytes());
    b.position(6);
    int[] sizes = new int[SECTIONS.length];
    for (int i = 0; i < sizes.length; i++) {
      b.get();
      sizes[i] = b.getInt();
      b.getInt();
      b.position(b.position() + sizes[i]);
    }
    return sizes;
  }
}
