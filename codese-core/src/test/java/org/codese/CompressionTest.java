package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.Deflater;
import org.codese.format.Compression;
import org.codese.format.Signing;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Optional compression ({@link CodeseOptions#withCompression}): a compressed snapshot restores to
 * the same graph as an uncompressed one, by every path that reads bytes; signed and compressed, the
 * signature covers the compressed envelope; a hostile envelope is a {@link
 * CorruptSnapshotException} (an over-limit length an {@link InvalidObjectException}, as for an
 * uncompressed snapshot) before anything large is allocated.
 */
class CompressionTest {
  static final CodeseOptions COMPRESSED = CodeseOptions.defaults().withCompression(true);
  static final byte[] KEY = "0123456789abcdef-compressed".getBytes(StandardCharsets.UTF_8);
  static final CodeseOptions SIGNED = CodeseOptions.defaults().withSigningKey(KEY);
  static final CodeseOptions SIGNED_COMPRESSED = SIGNED.withCompression(true);

  static boolean startsWith(byte[] bytes, int at, String magic) {
    return new String(bytes, at, 4, StandardCharsets.ISO_8859_1).equals(magic);
  }

  /** The graphs both forms must restore alike. */
  static Map<String, Object> graphs() {
    Map<String, Object> graphs = new LinkedHashMap<>();
    graphs.put("red-black tree of 2,000", RedBlackTree.random(2_000, 42));
    graphs.put("JDK collections", SampleGraphs.jdkCollections());
    TreeMap<Integer, String> map = new TreeMap<>();
    for (int i = 0; i < 3_000; i++) {
      map.put(i, "value-" + (i % 37));
    }
    graphs.put("TreeMap of 3,000", map);
    HashMap<String, ArrayList<Integer>> lists = new HashMap<>();
    for (int i = 0; i < 500; i++) {
      lists.put("k" + i, new ArrayList<>(List.of(i, i + 1, i % 7)));
    }
    graphs.put("HashMap of lists", lists);
    graphs.put("int[] and text", new Object[] {new int[10_000], "text", 7L});
    graphs.put("a string", "only a string");
    return graphs;
  }

  @Nested
  class RoundTrips {
    /** Every graph, compressed and not, through every restore path of the kit. */
    @Test
    void compressedAndUncompressedRestoreTheSameGraphs() {
      for (Map.Entry<String, Object> g : graphs().entrySet()) {
        RoundTrip.Report plain = RoundTrip.of(g.getValue()).name(g.getKey()).run();
        RoundTrip.Report packed =
            RoundTrip.of(g.getValue()).name(g.getKey() + ", compressed").compressed().run();
        assertTrue(plain.snapshotBytes > 0 && packed.snapshotBytes > 0, g.getKey());
      }
    }

    @Test
    void theNullRootRoundTripsCompressed() throws Exception {
      byte[] bytes = Codese.toBytes(null, COMPRESSED);
      assertTrue(startsWith(bytes, 0, "CDSZ"));
      assertEquals(null, Codese.fromBytes(bytes));
    }

    /**
     * Compression is a property of the written bytes: the same capture restores alike from both,
     * and the compressed bytes inflate to exactly the uncompressed ones.
     */
    @Test
    void theEnvelopeHoldsExactlyTheUncompressedSnapshot() throws Exception {
      Object graph = SampleGraphs.jdkCollections();
      try (Snapshot s = Snapshot.capture(graph, COMPRESSED)) {
        byte[] packed = s.toBytes();
        byte[] plain = Snapshot.capture(graph).toBytes();
        assertTrue(startsWith(packed, 0, "CDSZ"));
        assertTrue(startsWith(plain, 0, "CDSE"));
        assertEquals(plain.length, Compression.declaredLength(packed));
        assertArrayEquals(plain, Compression.inflate(packed, 0, Long.MAX_VALUE));
        assertArrayEquals(
            JdkBytes.serialize(graph), JdkBytes.serialize(Codese.fromBytes(packed)), "restored");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.writeTo(out);
        assertArrayEquals(packed, out.toByteArray(), "writeTo writes what toBytes returns");
      }
    }

    @Test
    void aCompressedSnapshotIsSmallerOnARepetitiveGraph() throws Exception {
      RedBlackTree tree = RedBlackTree.random(20_000, 7);
      byte[] plain = Codese.toBytes(tree);
      byte[] packed = Codese.toBytes(tree, COMPRESSED);
      byte[] jdk = JdkBytes.serialize(tree);
      assertTrue(
          packed.length < plain.length,
          "compressed " + packed.length + " bytes, uncompressed " + plain.length);
      // issue 9's target: compressed, at most 0.6 times the JDK's bytes
      assertTrue(
          packed.length * 10L <= jdk.length * 6L,
          "compressed " + packed.length + " bytes, JDK serialization " + jdk.length);
      assertArrayEquals(jdk, JdkBytes.serialize(Codese.fromBytes(packed)));
    }

    @Test
    void optionsCarryTheSetting() {
      assertFalse(CodeseOptions.defaults().compressed(), "off by default");
      assertTrue(COMPRESSED.compressed());
      assertFalse(COMPRESSED.withCompression(false).compressed());
      assertEquals(CodeseOptions.defaults(), COMPRESSED.withCompression(false));
      assertFalse(CodeseOptions.defaults().equals(COMPRESSED));
      assertEquals(COMPRESSED, CodeseOptions.defaults().withCompression(true));
      assertEquals(
          COMPRESSED.hashCode(), CodeseOptions.defaults().withCompression(true).hashCode());
      assertTrue(COMPRESSED.toString().contains("compressed=true"), COMPRESSED.toString());
      assertTrue(
          COMPRESSED
              .withRestoreThreads(2)
              .withSigningKey(KEY)
              .withLimits(CodeseLimits.defaults())
              .compressed(),
          "other with-ers keep the setting");
    }

    @Test
    void everyReadingEntryPointInflates(@TempDir Path dir) throws Exception {
      List<Object> graph = List.of("a", 1, RedBlackTree.random(300, 5));
      byte[] jdk = JdkBytes.serialize(graph);
      byte[] packed = Codese.toBytes(graph, COMPRESSED);
      Path file = dir.resolve("graph.cdse");
      Codese.write(graph, file, COMPRESSED);
      assertTrue(startsWith(Files.readAllBytes(file), 0, "CDSZ"));
      List<Object> copies = new ArrayList<>();
      copies.add(Codese.fromBytes(packed));
      copies.add(Codese.fromBytes(packed, CodeseOptions.defaults()));
      copies.add(Codese.read(new ByteArrayInputStream(packed)));
      copies.add(Codese.read(file));
      try (Snapshot s = Codese.load(file)) {
        copies.add(s.restore());
        copies.add(s.restore(2));
      }
      try (Snapshot s = Codese.load(new ByteArrayInputStream(packed))) {
        copies.add(s.restore());
      }
      for (Object copy : copies) {
        assertArrayEquals(jdk, JdkBytes.serialize(copy));
      }
      assertEquals(List.of(), Codese.classesToAllow(packed, CodeseOptions.defaults()));
    }

    @Test
    void aCompressedSnapshotGivenToCodeseInputStreamSaysWhatItIs() {
      byte[] packed = assertDoesNotThrowBytes(List.of(1, 2));
      CorruptSnapshotException e =
          assertThrows(
              CorruptSnapshotException.class,
              () -> new CodeseInputStream(new ByteArrayInputStream(packed)));
      assertTrue(e.getMessage().contains("CDSZ"), e.getMessage());
      assertTrue(e.getMessage().contains("Codese.load"), e.getMessage());
    }

    private byte[] assertDoesNotThrowBytes(Object graph) {
      try {
        return Codese.toBytes(graph, COMPRESSED);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }
  }

  /** The signature covers the compressed envelope: sign(compress(snapshot)). */
  @Nested
  class SignedAndCompressed {
    @Test
    void theSignatureIsOutsideTheCompression() throws Exception {
      RedBlackTree tree = RedBlackTree.random(500, 3);
      byte[] bytes = Codese.toBytes(tree, SIGNED_COMPRESSED);
      assertTrue(startsWith(bytes, 0, "CDSG"), "signed outside");
      assertTrue(startsWith(bytes, Signing.HEADER, "CDSZ"), "compressed inside");
      byte[] jdk = JdkBytes.serialize(tree);
      assertArrayEquals(jdk, JdkBytes.serialize(Codese.fromBytes(bytes, SIGNED)));
      assertArrayEquals(jdk, JdkBytes.serialize(Codese.fromBytes(bytes, SIGNED_COMPRESSED)));
      // without a key, a signed snapshot is unwrapped unchecked, as an uncompressed one is
      assertArrayEquals(jdk, JdkBytes.serialize(Codese.fromBytes(bytes)));
      try (Snapshot s = Snapshot.capture(tree, SIGNED_COMPRESSED)) {
        byte[] again = s.toBytes();
        assertTrue(startsWith(again, 0, "CDSG") && startsWith(again, Signing.HEADER, "CDSZ"));
      }
    }

    @Test
    void anotherKeyOrNoSignatureIsRejectedBeforeInflating() throws Exception {
      byte[] bytes = Codese.toBytes(RedBlackTree.random(100, 1), SIGNED_COMPRESSED);
      CodeseOptions other =
          CodeseOptions.defaults()
              .withSigningKey("another-key-0123456789".getBytes(StandardCharsets.UTF_8));
      assertThrows(AuthenticityException.class, () -> Codese.load(bytes, other));
      byte[] unsigned = Codese.toBytes(RedBlackTree.random(100, 1), COMPRESSED);
      AuthenticityException e =
          assertThrows(AuthenticityException.class, () -> Codese.load(unsigned, SIGNED));
      assertTrue(e.getMessage().contains("not signed"), e.getMessage());
      // a compression bomb under a key it was not signed with is never inflated
      byte[] bomb = envelope(8 << 20, zeros(8 << 20));
      byte[] signedBomb = Signing.sign(bomb, "another-key-0123456789".getBytes());
      long allocated =
          allocatedBy(AuthenticityException.class, () -> Codese.load(signedBomb, SIGNED));
      assertTrue(allocated < 4 << 20, "allocated " + allocated + " bytes for a rejected bomb");
    }

    @Test
    void anyChangedByteIsAnAuthenticityFailure() throws Exception {
      byte[] bytes = Codese.toBytes(List.of("a", 1, RedBlackTree.random(50, 2)), SIGNED_COMPRESSED);
      for (int i = 6; i < bytes.length; i += Math.max(1, bytes.length / 97)) {
        byte[] changed = bytes.clone();
        changed[i] ^= 0x01;
        assertThrows(AuthenticityException.class, () -> Codese.load(changed, SIGNED), "byte " + i);
      }
    }

    /** Compressing a signed snapshot is not what Codese writes, and is refused as such. */
    @Test
    void aSignatureInsideTheCompressionIsRefused() throws Exception {
      byte[] signed = Codese.toBytes(RedBlackTree.random(20, 1), SIGNED);
      byte[] wrongOrder = Compression.compress(signed);
      CorruptSnapshotException e =
          assertThrows(CorruptSnapshotException.class, () -> Codese.load(wrongOrder));
      assertTrue(e.getMessage().contains("signature envelope"), e.getMessage());
      byte[] twice = Compression.compress(Codese.toBytes(RedBlackTree.random(20, 1), COMPRESSED));
      e = assertThrows(CorruptSnapshotException.class, () -> Codese.load(twice));
      assertTrue(e.getMessage().contains("compression envelope"), e.getMessage());
    }
  }

  /**
   * Envelopes as an attacker writes them. Each is rejected with a typed exception, by every entry
   * point that reads bytes, quickly and without allocating more than the data really inflates to.
   */
  @Nested
  class Hostile {
    final byte[] snapshot;
    final byte[] packed;

    Hostile() throws IOException {
      snapshot = Codese.toBytes(RedBlackTree.random(1_000, 9));
      packed = Compression.compress(snapshot);
    }

    /** What every reading entry point throws for {@code bytes}; all must agree. */
    <T extends IOException> T rejected(Class<T> type, byte[] bytes, CodeseOptions options) {
      return assertTimeoutPreemptively(
          Duration.ofSeconds(30),
          () -> {
            T e = assertThrows(type, () -> Codese.load(bytes, options));
            assertThrows(type, () -> Codese.fromBytes(bytes, options));
            assertThrows(type, () -> Codese.read(new ByteArrayInputStream(bytes), options));
            assertThrows(type, () -> Codese.classesToAllow(bytes, options));
            if (type == CorruptSnapshotException.class) {
              assertThrows(type, () -> SnapshotContents.read(bytes));
            }
            return e;
          });
    }

    CorruptSnapshotException corrupt(byte[] bytes, String expected) {
      CorruptSnapshotException e =
          rejected(CorruptSnapshotException.class, bytes, CodeseOptions.defaults());
      assertTrue(e.getMessage().contains(expected), e.getMessage());
      assertEquals("compression envelope", e.section(), e.getMessage());
      assertTrue(e.getMessage().contains("byte offset"), e.getMessage());
      return e;
    }

    @Test
    void theHonestEnvelopeLoads() throws Exception {
      assertEquals(1_000, ((RedBlackTree) Codese.fromBytes(packed)).size());
    }

    @Test
    void aLengthNoDataCanHaveIsCorruptAndAllocatesNothing() {
      for (long lie : new long[] {0xFFFF_FFFFL, 1L << 31, (1L << 30) + 1, 1032L * packed.length}) {
        byte[] b = withLength(packed, lie);
        corrupt(b, "uncompressed bytes, which no snapshot");
        long allocated = allocatedBy(CorruptSnapshotException.class, () -> Codese.load(b));
        assertTrue(allocated < 4 << 20, lie + ": allocated " + allocated + " bytes");
      }
      corrupt(withLength(packed, 3), "uncompressed bytes, which no snapshot");
    }

    /** A length DEFLATE could make but over maxBytes is over the limit, as an uncompressed one. */
    @Test
    void aLengthOverMaxBytesIsRejectedBeforeInflating() {
      CodeseOptions small =
          CodeseOptions.defaults()
              .withLimits(CodeseLimits.defaults().withMaxBytes(snapshot.length - 1));
      InvalidObjectException e = rejected(InvalidObjectException.class, packed, small);
      assertTrue(e.getMessage().contains("CodeseLimits.withMaxBytes"), e.getMessage());
      assertTrue(e.getMessage().contains("nothing was inflated"), e.getMessage());
      // the same snapshot uncompressed is refused by the same limit
      rejected(InvalidObjectException.class, snapshot, small);
      // a bomb that declares just under the default 1 GiB is refused under a 1 MB limit
      byte[] bomb = envelope(64 << 20, zeros(64 << 20));
      CodeseOptions oneMb =
          CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxBytes(1 << 20));
      rejected(InvalidObjectException.class, bomb, oneMb);
      long allocated = allocatedBy(InvalidObjectException.class, () -> Codese.load(bomb, oneMb));
      assertTrue(allocated < 8 << 20, "allocated " + allocated + " bytes");
    }

    @Test
    void dataThatInflatesToMoreThanDeclaredStopsThere() {
      corrupt(withLength(packed, snapshot.length - 1), "inflates to more than");
      // 64 MB of zeros under a length of 1 MB: inflating stops after 1 MB and a byte
      byte[] bomb = envelope(1 << 20, zeros(64 << 20));
      corrupt(bomb, "compression bomb");
      long allocated = allocatedBy(CorruptSnapshotException.class, () -> Codese.load(bomb));
      assertTrue(allocated < 12 << 20, "allocated " + allocated + " bytes");
    }

    @Test
    void dataThatInflatesToLessThanDeclaredIsCorrupt() {
      CorruptSnapshotException e =
          corrupt(withLength(packed, snapshot.length + 1), "inflates to " + snapshot.length);
      assertTrue(e.getMessage().contains("declares " + (snapshot.length + 1)), e.getMessage());
    }

    @Test
    void aTruncatedEnvelopeIsCorruptWhereverItIsCut() {
      for (int cut = 0; cut < packed.length; cut += cut < 40 ? 1 : 97) {
        byte[] b = Arrays.copyOf(packed, cut);
        if (cut < 4) {
          // too short to carry the magic: not recognised as an envelope, but still corrupt
          rejected(CorruptSnapshotException.class, b, CodeseOptions.defaults());
        } else {
          corrupt(b, "");
        }
      }
      corrupt(Arrays.copyOf(packed, packed.length - 1), "truncated");
    }

    @Test
    void garbageIsNotValidDeflate() {
      byte[] b = packed.clone();
      java.util.Random random = new java.util.Random(11);
      for (int i = Compression.HEADER; i < b.length; i++) {
        b[i] = (byte) random.nextInt();
      }
      corrupt(b, "not valid zlib/DEFLATE data");
    }

    /**
     * A flipped bit in the data is rejected, or it changed only the encoding and not the snapshot:
     * DEFLATE is not unique, and in a repetitive snapshot another match distance can copy the same
     * bytes (three of the 450 flips here do). The Adler-32 and the snapshot's own checksums see
     * every change of the content.
     */
    @Test
    void everyFlippedByteOfTheDataIsCorruptOrHarmless() throws Exception {
      int rejected = 0;
      int flips = 0;
      for (int at = Compression.HEADER;
          at < packed.length;
          at += Math.max(1, packed.length / 150)) {
        for (int mask : new int[] {0x01, 0x80, 0xFF}) {
          byte[] b = packed.clone();
          b[at] ^= (byte) mask;
          flips++;
          byte[] inflated;
          try {
            inflated = Compression.inflate(b, 0, Long.MAX_VALUE);
          } catch (CorruptSnapshotException e) {
            rejected(CorruptSnapshotException.class, b, CodeseOptions.defaults());
            rejected++;
            continue;
          }
          assertArrayEquals(snapshot, inflated, "byte " + at + " ^ " + mask);
          assertEquals(1_000, ((RedBlackTree) Codese.fromBytes(b)).size());
        }
      }
      assertTrue(rejected > flips * 9 / 10, rejected + " of " + flips + " flips rejected");
    }

    @Test
    void trailingBytesAreCorrupt() {
      byte[] b = Arrays.copyOf(packed, packed.length + 3);
      CorruptSnapshotException e = corrupt(b, "3 unexpected bytes after");
      assertEquals(packed.length, e.offset());
    }

    @Test
    void anUnknownEnvelopeVersionIsAClearError() {
      byte[] b = packed.clone();
      b[5] = 2;
      CorruptSnapshotException e = corrupt(b, "envelope version 2");
      assertTrue(e.getMessage().contains("reads version 1"), e.getMessage());
      assertEquals(4, e.offset());
    }

    @Test
    void aPresetDictionaryIsRefused() {
      Deflater d = new Deflater();
      d.setDictionary(new byte[] {1, 2, 3});
      d.setInput(snapshot);
      d.finish();
      byte[] data = new byte[snapshot.length + 1024];
      int n = d.deflate(data);
      d.end();
      byte[] b =
          ByteBuffer.allocate(Compression.HEADER + n)
              .putInt(Compression.MAGIC)
              .putShort((short) 1)
              .putInt(snapshot.length)
              .put(data, 0, n)
              .array();
      corrupt(b, "preset dictionary");
    }

    /** The envelope's offsets count from the start of the file, signature included. */
    @Test
    void offsetsInsideASignedFileCountTheSignature() {
      byte[] b = Signing.sign(Arrays.copyOf(packed, packed.length + 2), KEY);
      CorruptSnapshotException e =
          assertThrows(CorruptSnapshotException.class, () -> Codese.load(b, SIGNED));
      assertEquals(Signing.HEADER + packed.length, e.offset(), e.getMessage());
    }

    @Test
    void noEntryPointThrowsAnythingUntyped() {
      List<byte[]> inputs =
          List.of(
              withLength(packed, 0xFFFF_FFFFL),
              withLength(packed, snapshot.length + 1),
              withLength(packed, snapshot.length - 1),
              Arrays.copyOf(packed, packed.length / 2),
              Arrays.copyOf(packed, Compression.HEADER),
              Arrays.copyOf(packed, packed.length + 1));
      for (byte[] b : inputs) {
        Throwable t = assertThrows(Throwable.class, () -> Codese.load(new ByteArrayInputStream(b)));
        assertInstanceOf(CorruptSnapshotException.class, t);
      }
    }
  }

  /** {@code env} with another declared length. */
  static byte[] withLength(byte[] env, long length) {
    byte[] b = env.clone();
    ByteBuffer.wrap(b).putInt(6, (int) length);
    return b;
  }

  /** An envelope declaring {@code length} around the compressed {@code data}. */
  static byte[] envelope(long length, byte[] data) {
    return ByteBuffer.allocate(Compression.HEADER + data.length)
        .putInt(Compression.MAGIC)
        .putShort((short) Compression.VERSION)
        .putInt((int) length)
        .put(data)
        .array();
  }

  /** {@code n} zero bytes, compressed as zlib data, made without holding them. */
  static byte[] zeros(int n) {
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
    byte[] block = new byte[1 << 16];
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[1 << 16];
    for (int left = n; left > 0; left -= block.length) {
      d.setInput(block, 0, Math.min(block.length, left));
      while (!d.needsInput()) {
        out.write(buf, 0, d.deflate(buf));
      }
    }
    d.finish();
    while (!d.finished()) {
      out.write(buf, 0, d.deflate(buf));
    }
    d.end();
    return out.toByteArray();
  }

  /** A call that is expected to throw. */
  interface Rejection {
    void run() throws Throwable;
  }

  /**
   * The bytes the current thread allocated while {@code r} ran and threw {@code expected}, on this
   * thread: a hostile envelope costs what its data really inflates to, not what it declares.
   */
  static long allocatedBy(Class<? extends Throwable> expected, Rejection r) {
    com.sun.management.ThreadMXBean bean =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = bean.getThreadAllocatedBytes(id);
    Throwable thrown = null;
    try {
      r.run();
    } catch (Throwable t) {
      thrown = t;
    }
    long allocated = bean.getThreadAllocatedBytes(id) - before;
    assertInstanceOf(expected, thrown);
    return allocated;
  }
}
