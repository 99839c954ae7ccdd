package org.codese;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.codese.format.Compression;
import org.codese.format.Signing;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Jvm;

/**
 * What a snapshot ({@link Codese#write}) or Codese object stream ({@link CodeseOutputStream})
 * holds, read for tools without running, defining or loading any of its code: its segments with
 * their classes, generated class files and items, the primitive data and resets between them, and a
 * readable listing of the restore program ({@link #list}). Immutable and safe to share between
 * threads.
 *
 * <p>{@link #read} checks the file completely (magic numbers, versions, lengths, checksums and
 * indices) as a load does before anything runs. The checks that need the classes the snapshot names
 * are {@link SnapshotSegment#check} and {@link SnapshotSegment#classesToAllow}.
 *
 * <pre>{@code
 * SnapshotContents contents = SnapshotContents.read(Files.readAllBytes(path));
 * for (SnapshotSegment s : contents.segments()) {
 *   System.out.println(s.objectCount() + " objects of " + s.classes().size() + " classes");
 * }
 * }</pre>
 */
public final class SnapshotContents {
  private final boolean stream;
  private final long size;
  private final boolean signed;
  private final long compressedSize;
  private final long snapshotSize;
  private final List<Part> parts;
  private final List<SnapshotSegment> segments;

  private SnapshotContents(
      boolean stream,
      long size,
      boolean signed,
      long compressedSize,
      long snapshotSize,
      List<Part> parts) {
    this.stream = stream;
    this.size = size;
    this.signed = signed;
    this.compressedSize = compressedSize;
    this.snapshotSize = snapshotSize;
    this.parts = List.copyOf(parts);
    List<SnapshotSegment> s = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof SnapshotSegment seg) {
        s.add(seg);
      }
    }
    this.segments = List.copyOf(s);
  }

  /**
   * Reads and checks a snapshot or a Codese object stream; the two are told apart by their magic
   * number. Signed segments of a stream, and a signed snapshot, are read without checking their
   * signature. A compressed snapshot ({@link CodeseOptions#withCompression}) is inflated, up to
   * {@link CodeseLimits#maxBytes()} of the default limits, with the checks a load makes; the
   * offsets of its segment then count from the start of the inflated snapshot.
   *
   * @param bytes the whole file; not kept, and not modified
   * @return what it holds
   * @throws CorruptSnapshotException if the bytes are not a Codese snapshot or object stream (the
   *     message says what they are, such as JDK serialization data), are damaged or truncated, are
   *     of a format version this library does not read, or are one segment cut out of a stream; or
   *     if a signature or compression envelope around a snapshot is damaged, or inflates to more
   *     than the default limit
   * @throws NullPointerException if {@code bytes} is null
   */
  public static SnapshotContents read(byte[] bytes) throws CorruptSnapshotException {
    Objects.requireNonNull(bytes, "bytes");
    int magic = bytes.length >= 4 ? ByteBuffer.wrap(bytes).getInt() : 0;
    if (magic == SnapshotFile.STREAM_MAGIC) {
      return new SnapshotContents(
          true, bytes.length, false, -1, bytes.length, StreamParts.read(bytes));
    }
    boolean signed = magic == Signing.MAGIC;
    byte[] snapshot = bytes;
    if (signed) {
      try {
        snapshot = Signing.unwrap(bytes, null);
      } catch (AuthenticityException e) {
        throw new CorruptSnapshotException("signature", 0, e.getMessage());
      }
      magic = snapshot.length >= 4 ? ByteBuffer.wrap(snapshot).getInt() : 0;
    }
    long compressedSize = -1;
    if (magic == Compression.MAGIC) {
      compressedSize = snapshot.length;
      try {
        snapshot =
            Compression.inflate(
                snapshot, signed ? Signing.HEADER : 0, CodeseLimits.defaults().maxBytes());
      } catch (java.io.InvalidObjectException e) {
        throw new CorruptSnapshotException(
            "compression envelope",
            (signed ? Signing.HEADER : 0) + 6L,
            e.getMessage(),
            "SnapshotContents, and so the codese command, inflates snapshots up to the default"
                + " limit only");
      }
      magic = ByteBuffer.wrap(snapshot).getInt();
    } else if (signed && magic != SnapshotFile.MAGIC) {
      throw new CorruptSnapshotException(
          "signature",
          Signing.HEADER,
          "a signature envelope holds something other than a snapshot");
    }
    if (magic != SnapshotFile.MAGIC) {
      if ((magic >>> 16) == SnapshotFile.JDK_MAGIC) {
        throw new CorruptSnapshotException(
            "header",
            0,
            "this is JDK serialization data, not a Codese snapshot",
            "convert it to a Codese file first");
      }
      throw new CorruptSnapshotException(
          "header",
          0,
          "not a Codese snapshot or object stream (bad magic number)",
          "give a file written by Codese.write or CodeseOutputStream");
    }
    SnapshotFile f = SnapshotFile.parse(snapshot == bytes ? bytes.clone() : snapshot);
    if (f.firstId() != 0) {
      throw new CorruptSnapshotException(
          "header",
          0,
          "this is one segment cut out of a Codese object stream",
          "use the whole stream file");
    }
    return new SnapshotContents(
        false,
        bytes.length,
        signed,
        compressedSize,
        snapshot.length,
        List.of(new SnapshotSegment(f, 0, snapshot.length)));
  }

  /**
   * The {@code serialVersionUID} a class declares, read as a check of a snapshot's {@link
   * SnapshotSegment.ClassInfo#serialVersionUID} needs it: from the class file where the value is a
   * constant there, so that the class is initialised only where it is not.
   *
   * @param c any class
   * @return its declared {@code serialVersionUID}, or empty if it declares none
   * @throws IllegalStateException if the value cannot be read in this JVM
   */
  public static java.util.OptionalLong declaredSerialVersionUID(Class<?> c) {
    Long suid = Jvm.declaredSuidFromClassFile(Objects.requireNonNull(c, "c"));
    return suid == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(suid);
  }

  /**
   * Returns whether the file is a Codese object stream.
   *
   * @return whether the file is a Codese object stream, not a single snapshot
   */
  public boolean isStream() {
    return stream;
  }

  /**
   * Returns the file's length in bytes.
   *
   * @return the file's length in bytes
   */
  public long size() {
    return size;
  }

  /**
   * Returns whether the file is a snapshot in a signature envelope ({@link
   * CodeseOptions#withSigningKey}); the signature is not checked here.
   *
   * @return whether the snapshot is signed
   */
  public boolean isSigned() {
    return signed;
  }

  /**
   * Returns whether the file is a compressed snapshot ({@link CodeseOptions#withCompression}).
   *
   * @return whether the snapshot is compressed
   */
  public boolean isCompressed() {
    return compressedSize >= 0;
  }

  /**
   * Returns the length of the compression envelope, its header included: the file's length less a
   * signature envelope's header.
   *
   * @return the compressed size in bytes, or -1 if the snapshot is not compressed
   */
  public long compressedSize() {
    return compressedSize;
  }

  /**
   * Returns the length of the snapshot or stream itself, without the envelopes around it: for a
   * compressed snapshot, its length once inflated.
   *
   * @return the uncompressed size in bytes
   */
  public long snapshotSize() {
    return snapshotSize;
  }

  /**
   * Returns what the file holds.
   *
   * @return what the file holds, in file order: one {@link SnapshotSegment} for a snapshot; for a
   *     stream its segments, {@link Data} and {@link Reset}s
   */
  public List<Part> parts() {
    return parts;
  }

  /**
   * Returns the snapshot segments.
   *
   * @return the snapshot segments, in file order (one for a snapshot; none for an empty stream)
   */
  public List<SnapshotSegment> segments() {
    return segments;
  }

  /**
   * Reports the restore program of every segment, in order, as readable statements, decoded from
   * its generated code and constants without running it.
   *
   * @param listener what receives the statements; it may stop the listing by throwing an unchecked
   *     exception, which this method passes on
   * @throws CorruptSnapshotException if a segment's program does not follow the restore grammar or
   *     its data does not match it (such as an index out of range); the message names the segment,
   *     class, method and instruction
   */
  public void list(ProgramListener listener) throws CorruptSnapshotException {
    Objects.requireNonNull(listener, "listener");
    org.codese.tools.Listing listing = new org.codese.tools.Listing(listener);
    for (int i = 0; i < segments.size(); i++) {
      SnapshotSegment s = segments.get(i);
      listener.segment(i, s);
      try {
        listing.run(s.file);
      } catch (org.codese.tools.Listing.DecodeException e) {
        String where = segments.size() == 1 ? "" : "segment " + (i + 1) + ": ";
        throw new CorruptSnapshotException(
            "the restore program cannot be read: " + where + e.getMessage(), "code", s.offset());
      }
      listener.end(i, s);
    }
  }

  /** A part of the file: a {@link SnapshotSegment}, {@link Data} or a {@link Reset}. */
  public sealed interface Part permits SnapshotSegment, Data, Reset {}

  /**
   * Primitive data written between objects of a stream ({@code writeInt}, {@code write(byte[])}),
   * outside any segment.
   *
   * @param offset its first byte in the file
   * @param length its length in bytes
   */
  public record Data(long offset, int length) implements Part {}

  /**
   * A {@code reset()} of the stream: the objects before it are forgotten, the next segment starts
   * at object 0.
   *
   * @param offset the position of its mark in the file
   */
  public record Reset(long offset) implements Part {}
}
