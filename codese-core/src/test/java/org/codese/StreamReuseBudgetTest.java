package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.ReuseBudget;
import org.codese.format.SnapshotFile;
import org.codese.format.StreamSegments;
import org.codese.load.StreamReader;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;

/**
 * The stream's reuse budget ({@link ReuseBudget}): a segment of a dozen bytes may refer to a shape
 * whose code an earlier segment sent once, and the reader checks and runs that code again for it;
 * over a stream, what segments reuse may not exceed {@code ALLOWANCE + FACTOR} times their bytes.
 * Hostile streams are written with the format's own encoder (valid checksums), one whose account
 * was credited with a segment the reader never gets; the guards are counts of segments, never
 * timings.
 */
class StreamReuseBudgetTest {
  /**
   * Loops in the big shape's code: about 55 bytes of class file each, in one method (at most 64
   * KB).
   */
  private static final int LOOPS = 1_000;

  private static final int TINY = 2_000;

  /**
   * A segment that makes one string at {@code first} with a string loop, then runs {@link #LOOPS}
   * more string loops over empty data: valid at any first id, since the code holds only constant
   * indices, as the code of a legit segment does. Its code: about 55 KB.
   */
  private static SnapshotFile bigShape(int first) throws IOException {
    Crafted c = new Crafted().first(first).slots(first + 1).root(first);
    int ids = c.constant(new Constant.PrimArray(new int[] {first}));
    int texts = c.constant(new Constant.Texts(new String[] {"s" + first}));
    int noIds = c.constant(new Constant.PrimArray(new int[0]));
    int noTexts = c.constant(new Constant.Texts(new String[0]));
    c.code(
        0,
        ch -> {
          ch.stringLoop(ids, texts);
          for (int i = 0; i < LOOPS; i++) {
            ch.stringLoop(noIds, noTexts);
          }
        });
    return SnapshotFile.parse(c.bytes());
  }

  private static long codeBytes(SnapshotFile f) {
    long n = 0;
    for (byte[] b : f.classFiles()) {
      n += b.length;
    }
    return n;
  }

  /** A segment of nothing but data, never sent: credit for an encoder that forges references. */
  private static SnapshotFile credit(int bytes) {
    return new SnapshotFile(
        "",
        0,
        0,
        0,
        List.of(),
        List.of(new Constant.PrimArray(new byte[bytes])),
        List.of(),
        List.of(),
        new Tape(new byte[0], new int[0]));
  }

  private static byte[] stream(List<byte[]> segments) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(StreamReader.STREAM_MAGIC);
    out.writeShort(StreamReader.STREAM_VERSION);
    for (byte[] s : segments) {
      out.writeInt(s.length);
      out.write(s);
    }
    out.writeInt(StreamReader.END);
    return bytes.toByteArray();
  }

  /** How many segments after the first one the budget lets refer to its whole shape. */
  private static int allowed(int first, long shapeWeight, List<byte[]> tiny) {
    long received = first;
    long reused = 0;
    int n = 0;
    for (byte[] t : tiny) {
      received += t.length;
      reused += shapeWeight;
      if (reused > ReuseBudget.ALLOWANCE + ReuseBudget.FACTOR * received) {
        return n;
      }
      n++;
    }
    return n;
  }

  /**
   * One big shape, then {@link #TINY} segments of about two dozen bytes each referring to it: the
   * reader takes as many as the budget pays for (about 32, from the first segment's bytes), then
   * refuses the next with a {@code CorruptSnapshotException} that says which segment, where and
   * why, before checking or running anything of it. Without the budget it would check and run the
   * 1,001 loops of the shape 2,000 times, for 2,000 times two dozen bytes.
   */
  @Test
  void tinySegmentsReferringToABigShapeAreRefusedOnceTheirBytesNoLongerPayForIt() throws Exception {
    StreamSegments.Encoder forger = new StreamSegments.Encoder();
    byte[] first = forger.encode(bigShape(0));
    forger.encode(credit(10_000_000));
    List<byte[]> segments = new ArrayList<>();
    segments.add(first);
    for (int i = 1; i <= TINY; i++) {
      segments.add(forger.encode(bigShape(i)));
    }
    assertEquals(0, forger.resentSegments(), "the forger's credit covers every reference");
    List<byte[]> tiny = segments.subList(1, segments.size());
    // the shape's weight: its class file (no class entries, no symbolic constants)
    long shapeWeight = codeBytes(bigShape(0));
    for (byte[] t : tiny) {
      assertTrue(t.length < 32, "a tiny segment: " + t.length + " bytes");
    }
    assertTrue(shapeWeight > 40_000, "a big shape: " + shapeWeight + " bytes of code");
    int allowed = allowed(first.length, shapeWeight, tiny);
    assertTrue(allowed > 10 && allowed < 40, "allowed " + allowed);

    byte[] stream = stream(segments);
    int read = 0;
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
      for (int i = 0; i <= allowed; i++) {
        assertEquals("s" + i, in.readObject());
        read++;
      }
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, in::readObject);
      String m = e.getMessage();
      assertTrue(
          m.contains("segment " + (allowed + 2) + " of the stream")
              && m.contains("refers to shape 0")
              && m.contains("reuse budget")
              && m.contains("stream segment at byte ")
              && m.contains("crafted or damaged"),
          m);
      assertEquals(1, in.codeStatistics()[0], "the first segment's classes, once");
    }
    assertEquals(allowed + 1, read);
    // the same segments, decoded on their own: the first refused one is the same
    StreamSegments.Decoder d =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    int decoded = 0;
    try {
      for (int i = 0; i < segments.size(); i++) {
        d.decode(segments.get(i), i);
        decoded++;
      }
    } catch (CorruptSnapshotException e) {
      assertTrue(e.getMessage().contains("reuse budget"), e.getMessage());
    }
    assertEquals(allowed + 1, decoded);
    assertTrue(
        d.budget().reused() <= ReuseBudget.ALLOWANCE + ReuseBudget.FACTOR * d.budget().received());
  }

  /**
   * The same attack through a segment sent in parts: each segment has a class table and a symbolic
   * constant of its own (so a shape of its own) and refers to the big class file for a byte or two.
   * Charged the same way, at decoding.
   */
  @Test
  void referencesToABigClassFileFromSegmentsInPartsAreChargedToo() throws Exception {
    StreamSegments.Encoder forger = new StreamSegments.Encoder();
    SnapshotFile big = bigShape(0);
    byte[] first = forger.encode(big);
    forger.encode(credit(10_000_000));
    List<byte[]> segments = new ArrayList<>();
    segments.add(first);
    for (int i = 1; i <= 200; i++) {
      SnapshotFile s = bigShape(i);
      List<Constant> constants = new ArrayList<>(s.constants());
      constants.add(new Constant.EnumRef(0, "E" + i));
      segments.add(
          forger.encode(
              new SnapshotFile(
                  "",
                  i,
                  i + 1,
                  0,
                  List.of(new ClassEntry("java.time.DayOfWeek", List.of(), 0, false)),
                  List.copyOf(constants),
                  s.classFiles(),
                  s.placements(),
                  s.items())));
    }
    StreamSegments.Decoder d =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () -> {
              for (int i = 0; i < segments.size(); i++) {
                d.decode(segments.get(i), i);
              }
            });
    assertTrue(
        e.getMessage().contains("refers to entries sent before")
            && e.getMessage().contains("reuse budget"),
        e.getMessage());
    int decoded = (int) (d.budget().reused() / codeBytes(big));
    assertTrue(decoded > 10 && decoded < 40, decoded + " segments reused the class file");
  }

  /**
   * The honest writer keeps the same account: the big shape followed by tiny segments of the same
   * shape goes over it after about 32 of them, so the writer sends the parts again (and the reader,
   * which knows the class file by its bytes, checks nothing twice): every object reads, no segment
   * is refused, and every class file is defined once.
   */
  @Test
  void theWriterSendsThePartsAgainRatherThanGoOverTheBudget() throws Exception {
    StreamSegments.Encoder honest = new StreamSegments.Encoder();
    List<byte[]> segments = new ArrayList<>();
    for (int i = 0; i <= 300; i++) {
      segments.add(honest.encode(bigShape(i)));
    }
    assertTrue(
        honest.resentSegments() >= 5 && honest.resentSegments() <= 12,
        honest.resentSegments() + " segments sent again");
    assertTrue(
        honest.budget().reused()
            <= ReuseBudget.ALLOWANCE + ReuseBudget.FACTOR * honest.budget().received());
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream(segments)))) {
      for (int i = 0; i <= 300; i++) {
        assertEquals("s" + i, in.readObject());
      }
      assertEquals(1, in.codeStatistics()[0], "the class file defined once");
    }
  }

  /**
   * Writes {@code objects} one {@code writeObject} each, with a reset after every {@code every}.
   */
  private static byte[] write(List<Object> objects, int every) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new CodeseOutputStream(bytes)) {
      for (int i = 0; i < objects.size(); i++) {
        out.writeObject(objects.get(i));
        if (every > 0 && i % every == every - 1) {
          out.reset();
        }
      }
    }
    return bytes.toByteArray();
  }

  /**
   * Decodes every segment of {@code stream} and encodes it again with a fresh encoder: the same
   * bytes, and none sent again for the budget. Returns the decoder's account.
   */
  private static ReuseBudget reencode(byte[] stream) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(stream);
    b.position(6);
    StreamSegments.Decoder d =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    StreamSegments.Encoder e = new StreamSegments.Encoder();
    int size = 0;
    while (b.remaining() >= 4) {
      int w = b.getInt();
      if (w > 0) {
        byte[] seg = new byte[w];
        b.get(seg);
        SnapshotFile f = d.decode(seg, size);
        assertArrayEquals(seg, e.encode(f, d.descriptors()));
        size = f.tableSize();
      } else if (w == StreamReader.RESET) {
        size = 0;
        d.reset();
        e.reset();
      } else if (w != StreamReader.END) {
        b.position(b.position() - w);
      }
    }
    assertEquals(0, e.resentSegments(), "no segment sent again for the budget");
    return d.budget();
  }

  /**
   * Legit streams stay within the budget without sending anything again: small messages (about 26
   * bytes reused per byte, the heaviest legit ratio measured: the shape of a small object weighs
   * about 1.6 KB, its segment 60 bytes), boxes, strings, and big graphs one per {@code
   * writeObject}, new and repeated, with and without resets.
   */
  @Test
  void legitStreamsStayWithinTheBudget() throws Exception {
    List<Object> items = new ArrayList<>();
    List<Object> boxes = new ArrayList<>();
    List<Object> strings = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      items.add(new SmallSegmentsTest.Item(i));
      boxes.add(Integer.valueOf(1_000 + i));
      strings.add("s" + i);
    }
    List<Object> graphs = new ArrayList<>();
    for (int g = 0; g < 20; g++) {
      List<SmallSegmentsTest.Item> list = new ArrayList<>();
      for (int k = 0; k < 1_000; k++) {
        list.add(new SmallSegmentsTest.Item(k));
        if (k > 0) {
          list.get(k - 1).next = list.get(k);
        }
      }
      graphs.add(list);
      graphs.add(list);
    }
    for (List<Object> objects : List.of(items, boxes, strings, graphs)) {
      for (int every : new int[] {0, 100}) {
        byte[] stream = write(objects, every);
        ReuseBudget account = reencode(stream);
        assertTrue(account.reused() > 0);
        try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
          for (Object o : objects) {
            assertEquals(o.getClass(), in.readObject().getClass());
          }
        }
      }
    }
  }
}
