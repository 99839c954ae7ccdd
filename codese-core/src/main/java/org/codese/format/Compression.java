package org.codese.format;

import java.io.InvalidObjectException;
import java.util.Arrays;
import java.util.zip.Deflater;
import org.codese.CorruptSnapshotException;

/**
 * The optional compression envelope: magic {@code "CDSZ"}, version (u2), the length of the snapshot
 * it holds (u4, unsigned), then that snapshot compressed as {@link Deflater} writes it (at {@link
 * #LEVEL}, in its default format): a zlib stream (RFC 1950), DEFLATE data (RFC 1951) between a
 * two-byte header and an Adler-32 of the uncompressed bytes. A zlib stream of any level reads. It
 * holds exactly one snapshot ({@code "CDSE"}); a signature ({@link Signing}) goes around it, never
 * inside, so that a snapshot's authenticity is checked before a byte of it is inflated.
 *
 * <p>Reading ({@link #inflate}) trusts nothing the envelope says: the declared length is checked
 * against what DEFLATE can make of the bytes present and against the caller's limit before any
 * buffer is allocated; the output buffer then grows only as data actually inflates, never past the
 * declared length; and data that inflates to more or fewer bytes than declared, ends early, has
 * bytes after its end, or is not valid zlib data is a {@link CorruptSnapshotException} naming the
 * byte offset. Every round of the inflation loop either produces output, consumes input or ends it,
 * so a hostile envelope can neither exhaust the heap nor hang the reader.
 *
 * <p>Part of the restore path: no lambdas, no {@code String.format}, no regular expressions.
 */
public final class Compression {
  /** The envelope's magic number, {@code "CDSZ"} in ASCII. */
  public static final int MAGIC = 0x4344535A;

  /** The envelope version this library writes and reads. */
  public static final int VERSION = 1;

  /** The envelope's header: magic, version, uncompressed length. */
  public static final int HEADER = 4 + 2 + 4;

  /**
   * The most bytes DEFLATE can make of one byte of its data: a match of 258 bytes coded in two bits
   * gives 1032 to 1 (zlib's technical notes). A declared length beyond that ratio is a lie.
   */
  static final long MAX_RATIO = 1032;

  /**
   * The DEFLATE level Codese writes: the fastest. On the sample graphs (issue 9,
   * large.CompressionCost) it compressed 7 to 12 times faster than zlib's default level 6, and to
   * fewer bytes on four of five (a snapshot's repetitions are long and near, which level 1's greedy
   * matching finds as well); level 9 took another 2.5 to 7 times level 6's time for at most 1%
   * fewer bytes.
   */
  static final int LEVEL = Deflater.BEST_SPEED;

  /** The largest array a JVM allocates: a snapshot is one. */
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  private static final String SECTION = "compression envelope";

  private Compression() {}

  /**
   * @param bytes any data
   * @return whether it starts with the envelope's magic number
   */
  public static boolean isCompressed(byte[] bytes) {
    return magic(bytes) == MAGIC;
  }

  /** The first four bytes, big-endian, or 0 if there are fewer. */
  static int magic(byte[] bytes) {
    if (bytes.length < 4) {
      return 0;
    }
    return (bytes[0] & 0xFF) << 24
        | (bytes[1] & 0xFF) << 16
        | (bytes[2] & 0xFF) << 8
        | (bytes[3] & 0xFF);
  }

  /**
   * Wraps a snapshot in the envelope.
   *
   * @param snapshot the snapshot's bytes ({@code "CDSE"})
   * @return the envelope
   */
  public static byte[] compress(byte[] snapshot) {
    byte[] out = deflate(snapshot, HEADER, snapshot.length / 4);
    int n = snapshot.length;
    out[0] = (byte) (MAGIC >>> 24);
    out[1] = (byte) (MAGIC >>> 16);
    out[2] = (byte) (MAGIC >>> 8);
    out[3] = (byte) MAGIC;
    out[4] = (byte) (VERSION >>> 8);
    out[5] = (byte) VERSION;
    out[6] = (byte) (n >>> 24);
    out[7] = (byte) (n >>> 16);
    out[8] = (byte) (n >>> 8);
    out[9] = (byte) n;
    return out;
  }

  /**
   * The uncompressed length an envelope declares, unchecked: for tools that report it.
   *
   * @param envelope the envelope
   * @return the declared length, or -1 if the envelope is too short to hold one
   */
  public static long declaredLength(byte[] envelope) {
    if (envelope.length < HEADER) {
      return -1;
    }
    return ((envelope[6] & 0xFFL) << 24)
        | ((envelope[7] & 0xFFL) << 16)
        | ((envelope[8] & 0xFFL) << 8)
        | (envelope[9] & 0xFFL);
  }

  /**
   * Compresses {@code data} into a zlib stream at {@link #LEVEL}, as {@link #compress} does inside
   * the envelope: what the compact code section of a snapshot holds.
   *
   * @param data the bytes
   * @return the zlib stream
   */
  static byte[] deflate(byte[] data) {
    return deflate(data, 0, data.length / 2);
  }

  /**
   * Compresses {@code data} into raw DEFLATE data (RFC 1951, no zlib header or Adler-32: the
   * snapshot's checksum covers the bytes, and the reader knows the dictionary by the format
   * version) at zlib's default level 6 with a preset dictionary, as the packed block of a snapshot
   * holds it: the block is a few kilobytes of class files and tables, compressed once per shape,
   * where level 6 gives about 5% fewer bytes than level 1.
   *
   * @param data the bytes
   * @param dictionary the preset dictionary
   * @return the DEFLATE data
   */
  static byte[] deflate(byte[] data, byte[] dictionary) {
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    deflater.setDictionary(dictionary);
    return run(deflater, data, 0, data.length / 2);
  }

  /**
   * Deflates {@code data} at {@link #LEVEL} into a new array after {@code offset} bytes left free.
   *
   * @param guess the expected size of the zlib stream (at least 64 are allotted at first)
   * @return exactly {@code offset} bytes and then the zlib stream
   */
  private static byte[] deflate(byte[] data, int offset, int guess) {
    return run(new Deflater(LEVEL), data, offset, guess);
  }

  /** Runs {@code deflater} over {@code data} and ends it; the rest as {@link #deflate(byte[])}. */
  private static byte[] run(Deflater deflater, byte[] data, int offset, int guess) {
    try {
      deflater.setInput(data);
      deflater.finish();
      byte[] out = new byte[offset + Math.max(64, guess)];
      int pos = offset;
      while (!deflater.finished()) {
        if (pos == out.length) {
          out = Arrays.copyOf(out, (int) Math.min(MAX_ARRAY, 2L * out.length));
        }
        pos += deflater.deflate(out, pos, out.length - pos);
      }
      return pos == out.length ? out : Arrays.copyOf(out, pos);
    } finally {
      deflater.end();
    }
  }

  /**
   * Checks the envelope and inflates the snapshot it holds.
   *
   * @param envelope bytes that start with {@link #MAGIC}
   * @param base where the envelope starts in the file (after a signature envelope, its length), for
   *     the offsets that messages name
   * @param maxBytes the largest snapshot the caller reads ({@code CodeseLimits.maxBytes})
   * @return the snapshot, exactly as long as the envelope declares
   * @throws CorruptSnapshotException if the envelope is of another version, truncated, declares a
   *     length its data cannot have, or its data is not valid zlib data, inflates to more or fewer
   *     bytes than declared, is followed by other bytes or holds another envelope
   * @throws InvalidObjectException if the declared length is over {@code maxBytes}, before anything
   *     is inflated
   */
  public static byte[] inflate(byte[] envelope, long base, long maxBytes)
      throws CorruptSnapshotException, InvalidObjectException {
    if (envelope.length < HEADER) {
      throw new CorruptSnapshotException(
          SECTION,
          base + envelope.length,
          "the compression envelope ends after "
              + envelope.length
              + " bytes, inside its "
              + HEADER
              + "-byte header");
    }
    int version = (envelope[4] & 0xFF) << 8 | (envelope[5] & 0xFF);
    if (version != VERSION) {
      throw new CorruptSnapshotException(
          SECTION,
          base + 4,
          "compressed snapshot of envelope version "
              + version
              + ", which this library does not read (it reads version "
              + VERSION
              + ")",
          "read it with the Codese version that wrote it, or capture it again");
    }
    long declared = declaredLength(envelope);
    long data = envelope.length - HEADER;
    if (declared < 10 || declared > MAX_ARRAY || declared > MAX_RATIO * data + MAX_RATIO) {
      throw new CorruptSnapshotException(
          SECTION,
          base + 6,
          "the envelope declares "
              + declared
              + " uncompressed bytes, which no snapshot compressed into "
              + data
              + " bytes of DEFLATE data can have (a snapshot has at least 10 bytes, DEFLATE"
              + " makes at most "
              + MAX_RATIO
              + " of one)");
    }
    if (declared > maxBytes) {
      throw new InvalidObjectException(
          "compressed snapshot declares "
              + declared
              + " uncompressed bytes, over the limit of "
              + maxBytes
              + " (nothing was inflated); raise it with CodeseLimits.withMaxBytes if the"
              + " snapshot is trusted");
    }
    byte[] out =
        Inflating.inflate(
            envelope, HEADER, (int) data, (int) declared, SECTION, base, "the envelope", null);
    int inner = magic(out);
    if (inner == MAGIC || inner == Signing.MAGIC) {
      throw new CorruptSnapshotException(
          SECTION,
          base + HEADER,
          "the compression envelope holds another "
              + (inner == MAGIC ? "compression" : "signature")
              + " envelope; Codese compresses a snapshot once and signs the compressed envelope,"
              + " never the other way round");
    }
    return out;
  }
}
