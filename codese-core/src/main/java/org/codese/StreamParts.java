package org.codese;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.Signing;
import org.codese.format.SnapshotFile;
import org.codese.format.StreamSegments;
import org.codese.load.StreamReader;

/** Reads the frames of a Codese object stream for {@link SnapshotContents}, checking each. */
final class StreamParts {
  private StreamParts() {}

  /**
   * @param bytes a whole stream, magic number included
   * @return its segments, data and resets in file order
   * @throws CorruptSnapshotException naming the damage and its byte offset in the file
   */
  static List<SnapshotContents.Part> read(byte[] bytes) throws CorruptSnapshotException {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (bytes.length < 6) {
      throw corrupt(0, "the stream ends inside its header");
    }
    in.getInt();
    int version = in.getShort() & 0xFFFF;
    if (version < StreamReader.OLDEST_VERSION || version > StreamReader.STREAM_VERSION) {
      throw corrupt(
          4,
          "stream version "
              + version
              + " is not supported; this library reads versions "
              + StreamReader.OLDEST_VERSION
              + " to "
              + StreamReader.STREAM_VERSION);
    }
    List<SnapshotContents.Part> parts = new ArrayList<>();
    StreamSegments.Decoder compact = StreamReader.decoder(version);
    int nextId = 0;
    while (true) {
      if (in.remaining() < 4) {
        throw corrupt(
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
        throw corrupt(at, "negative segment length " + len + " in a version 1 stream");
      }
      if (len == StreamReader.RESET) {
        parts.add(new SnapshotContents.Reset(at));
        nextId = 0;
        compact.reset();
        continue;
      }
      int n = Math.abs(len);
      if (n > in.remaining()) {
        throw corrupt(
            at,
            (len < 0 ? "data" : "segment")
                + " length "
                + n
                + " but only "
                + in.remaining()
                + " bytes follow (truncated or damaged)");
      }
      if (len < 0) {
        parts.add(new SnapshotContents.Data(at + 4, n));
        in.position(in.position() + n);
        continue;
      }
      byte[] seg = new byte[len];
      in.get(seg);
      SnapshotFile f = segment(version, compact, seg, nextId, at + 4);
      if (f.firstId() != nextId) {
        throw corrupt(
            at,
            "segment starts at object "
                + f.firstId()
                + " but the segments before it hold "
                + nextId
                + " objects");
      }
      nextId = f.tableSize();
      parts.add(new SnapshotSegment(f, at + 4, len));
    }
    if (in.remaining() != 0) {
      throw corrupt(in.position(), in.remaining() + " unexpected bytes after the end mark");
    }
    return parts;
  }

  /** A segment: from version 3 on in the compact form that refers to earlier segments. */
  private static SnapshotFile segment(
      int version, StreamSegments.Decoder compact, byte[] seg, int firstId, long base)
      throws CorruptSnapshotException {
    try {
      return version >= 3
          ? compact.decode(Signing.unwrap(seg, null), firstId)
          : SnapshotFile.parse(seg);
    } catch (CorruptSnapshotException e) {
      throw new CorruptSnapshotException(
          e.getMessage() + " [segment starting at file byte " + base + "]",
          e.section(),
          base + e.offset());
    } catch (AuthenticityException e) {
      throw new CorruptSnapshotException(e.getMessage(), "signature", base);
    }
  }

  private static CorruptSnapshotException corrupt(long offset, String problem) {
    return new CorruptSnapshotException(
        "corrupt object stream: "
            + problem
            + " (byte offset "
            + offset
            + "); the file was damaged or truncated, write it again",
        "stream",
        offset);
  }
}
