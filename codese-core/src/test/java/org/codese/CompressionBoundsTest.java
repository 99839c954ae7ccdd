package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InvalidObjectException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Adler32;
import org.codese.format.Compression;
import org.codese.format.Signing;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The compression envelope's checks at their exact boundaries, each rejection with its exact type,
 * byte offset and message ({@link Compression#inflate} called directly, the envelope placed at a
 * nonzero {@link #BASE} in its file so that every offset is seen to count from the file's start).
 * The zlib data of most envelopes is written here by hand as one stored block ({@link #stored}),
 * whose bytes inflate one for one: how far the inflater has read when a check fires is then known
 * exactly. {@link CompressionTest} covers the round trips and the entry points.
 */
class CompressionBoundsTest {
  /** Where the envelope starts in its file, as after a signature envelope. */
  static final long BASE = 1_000;

  /** DEFLATE's bound: at most 1032 bytes out of one byte of data. */
  static final long RATIO = 1032;

  /** The largest array a JVM allocates. */
  static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  /** The bytes of a stored block's zlib stream before its data: header, block type, LEN, NLEN. */
  static final int STORED_HEAD = 2 + 1 + 4;

  /** {@code n} bytes that look like no envelope, each position distinct. */
  static byte[] content(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 7 + 3);
    }
    return b;
  }

  /** A zlib stream (RFC 1950) of one final stored block holding {@code data} (at most 65535). */
  static byte[] stored(byte[] data) {
    int n = data.length;
    Adler32 adler = new Adler32();
    adler.update(data);
    return ByteBuffer.allocate(STORED_HEAD + n + 4)
        .put((byte) 0x78)
        .put((byte) 0x01)
        .put((byte) 0x01)
        .put((byte) n)
        .put((byte) (n >>> 8))
        .put((byte) ~n)
        .put((byte) (~n >>> 8))
        .put(data)
        .putInt((int) adler.getValue())
        .array();
  }

  static byte[] envelope(long declared, byte[] zlib) {
    return CompressionTest.envelope(declared, zlib);
  }

  static byte[] inflate(byte[] envelope) throws Exception {
    return Compression.inflate(envelope, BASE, Long.MAX_VALUE);
  }

  /** The corruption {@code envelope} is, at {@code BASE + offset}, with {@code message} in it. */
  static CorruptSnapshotException corrupt(
      byte[] envelope, long maxBytes, long offset, String message) {
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class, () -> Compression.inflate(envelope, BASE, maxBytes));
    assertEquals("compression envelope", e.section(), e.getMessage());
    assertEquals(BASE + offset, e.offset(), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
    assertTrue(e.getMessage().contains("byte offset " + (BASE + offset)), e.getMessage());
    return e;
  }

  static CorruptSnapshotException corrupt(byte[] envelope, long offset, String message) {
    return corrupt(envelope, Long.MAX_VALUE, offset, message);
  }

  /** The over-limit refusal, exactly an {@link InvalidObjectException}, not a corruption. */
  static InvalidObjectException overLimit(byte[] envelope, long maxBytes) {
    InvalidObjectException e =
        assertThrows(
            InvalidObjectException.class, () -> Compression.inflate(envelope, BASE, maxBytes));
    assertEquals(InvalidObjectException.class, e.getClass(), e.getMessage());
    return e;
  }

  @Nested
  class Header {
    @Test
    void isCompressedReadsExactlyTheFourMagicBytes() {
      byte[] magic = "CDSZ".getBytes(StandardCharsets.ISO_8859_1);
      assertTrue(Compression.isCompressed(magic), "the magic alone, exactly four bytes");
      assertTrue(Compression.isCompressed(Compression.compress(content(100))));
      assertFalse(Compression.isCompressed(new byte[0]));
      assertFalse(Compression.isCompressed(Arrays.copyOf(magic, 3)));
      assertFalse(Compression.isCompressed(new byte[4]));
      assertFalse(Compression.isCompressed("ZSDC".getBytes(StandardCharsets.ISO_8859_1)));
      assertFalse(Compression.isCompressed(Signing.sign(content(20), new byte[32])));
      for (int i = 0; i < 4; i++) {
        for (int bit = 0; bit < 8; bit++) {
          byte[] b = magic.clone();
          b[i] ^= (byte) (1 << bit);
          assertFalse(Compression.isCompressed(b), "byte " + i + " bit " + bit);
        }
      }
    }

    @Test
    void declaredLengthIsTheUnsignedU4AfterTheVersion() {
      byte[] header = envelope(0, new byte[0]);
      assertEquals(Compression.HEADER, header.length);
      assertEquals(-1, Compression.declaredLength(Arrays.copyOf(header, Compression.HEADER - 1)));
      assertEquals(-1, Compression.declaredLength(new byte[0]));
      for (long n : new long[] {0, 1, 0x01020304L, 0x80000000L, 0xFFFFFFFFL, 0x7F00FF80L}) {
        assertEquals(n, Compression.declaredLength(envelope(n, new byte[0])), "length " + n);
      }
    }

    /** Cut inside the header, the envelope ends where it was cut. */
    @Test
    void anEnvelopeCutInsideItsHeaderIsCorruptWhereItEnds() {
      byte[] packed = Compression.compress(content(100));
      for (int cut = 0; cut < Compression.HEADER; cut++) {
        corrupt(
            Arrays.copyOf(packed, cut),
            cut,
            "the compression envelope ends after " + cut + " bytes, inside its 10-byte header");
      }
    }

    @Test
    void anEnvelopeOfOnlyAHeaderHoldsNoData() {
      byte[] big = envelope(2_000, new byte[0]);
      corrupt(
          big, 6, "declares 2000 uncompressed bytes, which no snapshot compressed into 0 bytes");
      byte[] small = envelope(20, new byte[0]);
      corrupt(
          small,
          Compression.HEADER,
          "the compressed data ends after 0 bytes, before its end mark, having inflated to 0 of"
              + " 20 bytes: truncated");
    }

    @Test
    void everyOtherVersionIsRefusedAtItsOffset() {
      byte[] packed = Compression.compress(content(100));
      for (int version : new int[] {0, 2, 0x0100, 0x0101, 0xFF01, 0xFFFF}) {
        byte[] b = packed.clone();
        b[4] = (byte) (version >>> 8);
        b[5] = (byte) version;
        corrupt(
            b,
            4,
            "compressed snapshot of envelope version "
                + version
                + ", which this library does not read (it reads version 1)");
      }
    }

    /** A snapshot over 16 MiB sets every byte of the declared length. */
    @Test
    void compressWritesTheWholeHeader() throws Exception {
      int n = 0x01020304;
      byte[] packed = Compression.compress(new byte[n]);
      byte[] head = Arrays.copyOf(packed, Compression.HEADER);
      assertArrayEquals(new byte[] {'C', 'D', 'S', 'Z', 0, 1, 1, 2, 3, 4}, head);
      assertEquals(n, Compression.declaredLength(packed));
      assertEquals(n, Compression.inflate(packed, 0, n).length);
    }

    /**
     * Compressing sizes its buffer by what DEFLATE makes of a snapshot (a quarter of it at first),
     * not by a multiple of the snapshot: a megabyte of zeros costs far less than a megabyte.
     */
    @Test
    void compressAllocatesAboutWhatItWrites() {
      byte[] zeros = new byte[1 << 20];
      Compression.compress(zeros);
      com.sun.management.ThreadMXBean bean =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long id = Thread.currentThread().getId();
      long before = bean.getThreadAllocatedBytes(id);
      byte[] packed = Compression.compress(zeros);
      long allocated = bean.getThreadAllocatedBytes(id) - before;
      assertTrue(allocated < zeros.length / 2, "allocated " + allocated + " bytes");
      assertEquals(zeros.length, Compression.declaredLength(packed));
    }

    /** Incompressible data outgrows compress's first guess at its size. */
    @Test
    void compressGrowsItsBufferForIncompressibleData() throws Exception {
      byte[] noise = new byte[300_000];
      new java.util.Random(5).nextBytes(noise);
      byte[] packed = Compression.compress(noise);
      assertTrue(packed.length > noise.length, packed.length + " bytes");
      assertArrayEquals(noise, Compression.inflate(packed, 0, noise.length));
      byte[] tiny = Compression.compress(content(10));
      assertArrayEquals(content(10), Compression.inflate(tiny, 0, 10));
    }
  }

  /** The declared length against the snapshot minimum, DEFLATE's ratio, arrays and maxBytes. */
  @Nested
  class DeclaredLength {
    @Test
    void tenBytesIsTheSmallestSnapshot() throws Exception {
      assertArrayEquals(content(10), inflate(envelope(10, stored(content(10)))));
      corrupt(
          envelope(9, stored(content(9))),
          6,
          "the envelope declares 9 uncompressed bytes, which no snapshot compressed into 20 bytes"
              + " of DEFLATE data can have (a snapshot has at least 10 bytes, DEFLATE makes at"
              + " most 1032 of one)");
      corrupt(envelope(0, stored(content(9))), 6, "declares 0 uncompressed bytes");
    }

    /**
     * Exactly 1032 bytes per byte of data (plus one byte's worth) passes the ratio check and meets
     * the next one, maxBytes; one more is a lie. Nothing is allocated for either.
     */
    @Test
    void theRatioBoundIsExact() {
      for (int data : new int[] {0, 1, 11, 4_096}) {
        byte[] zlib = new byte[data];
        long bound = RATIO * data + RATIO;
        InvalidObjectException e = overLimit(envelope(bound, zlib), bound - 1);
        assertTrue(e.getMessage().contains("declares " + bound + " uncompressed"), e.getMessage());
        corrupt(
            envelope(bound + 1, zlib),
            6,
            "declares "
                + (bound + 1)
                + " uncompressed bytes, which no snapshot compressed into "
                + data
                + " bytes");
      }
    }

    /**
     * A length the largest array can hold passes (here onto the maxBytes check), one more cannot be
     * a snapshot however much data there is.
     */
    @Test
    void theLargestArrayIsTheLargestLength() {
      byte[] zlib = new byte[2_100_000];
      assertTrue(RATIO * zlib.length > MAX_ARRAY + 1, "enough data for the ratio");
      InvalidObjectException e = overLimit(envelope(MAX_ARRAY, zlib), MAX_ARRAY - 1);
      assertTrue(e.getMessage().contains("declares " + MAX_ARRAY + " "), e.getMessage());
      for (long lie : new long[] {MAX_ARRAY + 1, 1L << 31, 0xFFFFFFFFL}) {
        corrupt(envelope(lie, zlib), Long.MAX_VALUE, 6, "declares " + lie + " uncompressed");
      }
    }

    @Test
    void maxBytesItselfIsAllowed() throws Exception {
      byte[] s = content(5_000);
      byte[] packed = Compression.compress(s);
      assertArrayEquals(s, Compression.inflate(packed, BASE, s.length));
      InvalidObjectException e = overLimit(packed, s.length - 1);
      assertEquals(
          "compressed snapshot declares 5000 uncompressed bytes, over the limit of 4999 (nothing"
              + " was inflated); raise it with CodeseLimits.withMaxBytes if the snapshot is"
              + " trusted",
          e.getMessage());
    }
  }

  /** What the data inflates to against what the envelope declares. */
  @Nested
  class Inflating {
    final byte[] s = content(100);
    final byte[] zlib = stored(s);

    @Test
    void dataOfExactlyTheDeclaredLengthInflates() throws Exception {
      assertArrayEquals(s, inflate(envelope(100, zlib)));
    }

    /**
     * More than declared: inflating stops just after the byte of data that made the first byte too
     * many (a stored block's bytes inflate one for one). One byte more: that byte is the last, and
     * the inflater reads the checksum after it.
     */
    @Test
    void moreThanDeclaredIsCaughtAtTheByteThatMadeIt() {
      corrupt(
          envelope(50, zlib),
          Compression.HEADER + STORED_HEAD + 51,
          "the data inflates to more than the 50 bytes the envelope declares (a false length, or"
              + " a compression bomb); inflating stopped there");
      byte[] oneMore = envelope(99, zlib);
      corrupt(oneMore, oneMore.length, "the data inflates to more than the 99 bytes");
    }

    /** One byte less: the whole stream was read, its end is where the shortfall shows. */
    @Test
    void oneByteLessIsCaughtAtTheEndOfTheData() {
      byte[] b = envelope(101, zlib);
      corrupt(
          b,
          b.length,
          "the data inflates to 100 bytes, but the envelope declares 101 (a false length)");
    }

    /** Cut anywhere in the data: truncated at the end of what is there, having inflated so far. */
    @Test
    void dataCutAnywhereIsTruncated() {
      for (int cut = 0; cut < zlib.length; cut++) {
        byte[] b = envelope(100, Arrays.copyOf(zlib, cut));
        int inflated = Math.min(100, Math.max(0, cut - STORED_HEAD));
        corrupt(
            b,
            b.length,
            "the compressed data ends after "
                + cut
                + " bytes, before its end mark, having inflated to "
                + inflated
                + " of 100 bytes: truncated");
      }
    }

    @Test
    void trailingBytesAreCountedFromTheirFirst() {
      for (int extra = 1; extra <= 3; extra++) {
        byte[] b = envelope(100, Arrays.copyOf(zlib, zlib.length + extra));
        corrupt(
            b,
            Compression.HEADER + zlib.length,
            extra + " unexpected bytes after the end of the compressed data");
      }
    }

    /** The inflater reads the zlib header's two bytes, then rejects them. */
    @Test
    void aBadZlibHeaderIsInvalidAfterIt() {
      byte[] bad = zlib.clone();
      bad[1] ^= 0x01;
      corrupt(
          envelope(100, bad),
          Compression.HEADER + 2,
          "not valid zlib/DEFLATE data (incorrect header check)");
    }

    /** A bad checksum after several rounds of inflating is found past the data's start. */
    @Test
    void aBadChecksumAfterSeveralRoundsIsFoundWhereReadingGotTo() throws Exception {
      byte[] packed = Compression.compress(new byte[1 << 20]);
      byte[] bad = packed.clone();
      bad[bad.length - 1] ^= 0x01;
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, () -> inflate(bad));
      assertTrue(e.getMessage().contains("not valid zlib/DEFLATE data ("), e.getMessage());
      assertTrue(
          e.offset() > BASE + Compression.HEADER && e.offset() <= BASE + bad.length,
          e.offset() + " not in the data of " + bad.length + " bytes");
    }

    @Test
    void aPresetDictionaryIsRefusedAtTheDataStart() {
      java.util.zip.Deflater d = new java.util.zip.Deflater();
      d.setDictionary(new byte[] {1, 2, 3});
      d.setInput(s);
      d.finish();
      byte[] data = new byte[1024];
      int n = d.deflate(data);
      d.end();
      corrupt(
          envelope(100, Arrays.copyOf(data, n)),
          Compression.HEADER,
          "the compressed data asks for a preset dictionary, which Codese never uses");
    }

    /** The output buffer starts small and doubles up to the declared length, to the byte. */
    @Test
    void aBufferThatGrowsSeveralTimesEndsAtTheDeclaredLength() throws Exception {
      byte[] big = new byte[1_000_003];
      for (int i = 0; i < big.length; i++) {
        big[i] = (byte) (i % 1_000 * 13);
      }
      byte[] packed = Compression.compress(big);
      assertTrue(packed.length * 4 < (1 << 16), packed.length + " bytes: the first buffer is 64K");
      assertArrayEquals(big, inflate(packed));
      byte[] lie = CompressionTest.withLength(packed, big.length - 1);
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, () -> inflate(lie));
      assertTrue(
          e.getMessage().contains("inflates to more than the 1000002 bytes"), e.getMessage());
      assertTrue(
          e.offset() > BASE + Compression.HEADER && e.offset() <= BASE + lie.length,
          e.offset() + " not in the data of " + lie.length + " bytes");
    }
  }

  @Nested
  class Nesting {
    @Test
    void anEnvelopeInsideIsNamedForWhatItIs() {
      byte[] twice = Compression.compress(Compression.compress(content(100)));
      corrupt(
          twice,
          Compression.HEADER,
          "the compression envelope holds another compression envelope; Codese compresses");
      byte[] signedInside = Compression.compress(Signing.sign(content(100), new byte[32]));
      corrupt(
          signedInside,
          Compression.HEADER,
          "the compression envelope holds another signature envelope; Codese compresses");
    }
  }
}
