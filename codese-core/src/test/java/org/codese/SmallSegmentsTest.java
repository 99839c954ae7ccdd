package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.codese.corpus.Types.Point;
import org.codese.load.StreamReader;
import org.codese.testkit.Checksums;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Streams;
import org.junit.jupiter.api.Test;

/**
 * Many small objects over one stream, each its own {@code writeObject} and so its own segment
 * (stream format 3): what a segment costs in bytes and in generated classes once the stream has
 * sent its class and code, that nothing but the bytes is shared, and that the results are the
 * JDK's. The figures are deterministic: sizes, counts of classes and dictionary entries.
 */
class SmallSegmentsTest {
  private static final int N = 2_000;

  /** A small object, as a message or a log record. */
  static final class Item implements Serializable {
    private static final long serialVersionUID = 1L;
    int id;
    String name;
    double score;
    Item next;

    Item(int id) {
      this.id = id;
      this.name = "item-" + id;
      this.score = id * 0.5;
    }

    @Override
    public String toString() {
      return id + ":" + name + ":" + score + (next == null ? "" : "->" + next.id);
    }
  }

  private static byte[] write(Streams s, int n) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = s.out(bytes)) {
      for (int i = 0; i < n; i++) {
        out.writeObject(new Item(i));
      }
    }
    return bytes.toByteArray();
  }

  /** The bytes of each frame of a Codese stream (segments and marks, without their words). */
  private static List<byte[]> segments(byte[] stream) {
    ByteBuffer b = ByteBuffer.wrap(stream);
    b.position(6);
    List<byte[]> out = new ArrayList<>();
    while (b.remaining() >= 4) {
      int w = b.getInt();
      if (w > 0) {
        byte[] seg = new byte[w];
        b.get(seg);
        out.add(seg);
      } else if (w != StreamReader.RESET && w != StreamReader.END) {
        b.position(b.position() - w);
      }
    }
    return out;
  }

  @Test
  void aSmallObjectOfAClassAlreadySentCostsTensOfBytes() throws Exception {
    byte[] jdk = write(SideBySide.JDK, N);
    byte[] codese = write(SideBySide.CODESE, N);
    List<byte[]> segments = segments(codese);
    assertEquals(N, segments.size());
    // the first segment carries the class entry and the code; the later ones neither
    assertTrue(segments.get(0).length > 500, "first segment: " + segments.get(0).length);
    for (int i = 1; i < N; i++) {
      assertTrue(
          segments.get(i).length <= 64, "segment " + i + ": " + segments.get(i).length + " bytes");
    }
    // with a whole snapshot per segment (stream format 2): about 1,400 bytes per object
    double perObject = codese.length / (double) N;
    double jdkPerObject = jdk.length / (double) N;
    assertTrue(
        perObject <= 2.25 * jdkPerObject,
        "Codese " + perObject + " bytes per object, JDK " + jdkPerObject);
  }

  @Test
  void segmentsOfOneShapeDefineTheirClassesOnce() throws Exception {
    byte[] codese = write(SideBySide.CODESE, N);
    int[] first;
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(codese))) {
      assertEquals("0:item-0:0.0", in.readObject().toString());
      first = in.codeStatistics();
      for (int i = 1; i < N; i++) {
        assertEquals(i + ":item-" + i + ":" + i * 0.5, in.readObject().toString());
      }
      assertThrows(EOFException.class, in::readObject);
      assertArrayEquals(
          first,
          in.codeStatistics(),
          "classes defined and dictionary entries"
              + " after the first segment, and after all "
              + N);
    }
    assertTrue(first[0] >= 1 && first[0] <= 3, "classes for the first segment: " + first[0]);
  }

  /** Objects of other shapes, references back, a reset: read as the JDK reads them. */
  @Test
  void mixedSegmentsReadAsTheJdkReadsThem() throws Exception {
    SideBySide.Writer w =
        out -> {
          Item shared = new Item(-1);
          for (int i = 0; i < 300; i++) {
            Item it = new Item(i);
            it.next = i % 3 == 0 ? shared : null;
            it.name = i % 7 == 0 ? null : it.name;
            out.writeObject(i % 5 == 0 ? new Point(i, -i) : it);
            out.writeInt(i);
            if (i % 11 == 0) {
              out.writeObject(shared);
            }
            if (i == 150) {
              out.reset();
            }
          }
        };
    SideBySide.Reader r =
        (in, facts) -> {
          Object shared = null;
          for (int i = 0; i < 300; i++) {
            Object o = in.readObject();
            facts.add(o.toString() + "/" + in.readInt());
            if (o instanceof Item it && it.next != null) {
              facts.add(it.next == shared ? "same shared" : "new shared");
              shared = it.next;
            }
            if (i % 11 == 0) {
              Object s = in.readObject();
              facts.add(s == shared ? "same" : "other " + s);
              shared = s;
            }
          }
        };
    assertEquals(facts(SideBySide.JDK, w, r), facts(SideBySide.CODESE, w, r));
  }

  private static List<String> facts(Streams s, SideBySide.Writer w, SideBySide.Reader r)
      throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = s.out(bytes)) {
      w.write(out);
    }
    List<String> facts = new ArrayList<>();
    try (ObjectInputStream in = s.in(new ByteArrayInputStream(bytes.toByteArray()))) {
      r.read(in, facts);
    }
    return facts;
  }

  @Test
  void aResetSendsClassesAndCodeAgain() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(new Item(0));
      out.writeObject(new Item(1));
      out.reset();
      out.writeObject(new Item(2));
    }
    List<byte[]> segments = segments(bytes.toByteArray());
    assertTrue(segments.get(1).length < segments.get(0).length / 4);
    assertEquals(
        segments.get(0).length,
        segments.get(2).length,
        "after the reset, the first" + " object of the class costs what the stream's first did");
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      in.readObject();
      int defined = in.codeStatistics()[0];
      in.readObject();
      assertEquals(defined, in.codeStatistics()[0]);
      assertEquals(2, ((Item) in.readObject()).id);
      // the reader forgot what it defined with the rest, and defined the classes again
      assertEquals(2 * defined, in.codeStatistics()[0]);
    }
  }

  @Test
  void aReferenceToAnEntryNeverSentIsDamage() throws Exception {
    byte[] stream = write(SideBySide.CODESE, 2);
    int firstLen = ByteBuffer.wrap(stream).getInt(6);
    int second = 6 + 4 + firstLen + 4;
    int secondLen = ByteBuffer.wrap(stream).getInt(second - 4);
    // the second segment: its count of objects, depth, then the first segment's shape by
    // reference 1 (zigzag 2): make it 5 (10), a shape never sent
    byte[] bad = stream.clone();
    int shapeRef = second + 2;
    assertEquals(2, bad[shapeRef], "the shape reference of the second segment");
    bad[shapeRef] = 10;
    Checksums.fixTrailer(bad, second, second + secondLen);
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(bad))) {
      in.readObject();
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, in::readObject);
      assertTrue(
          e.getMessage().contains("shape reference 5 is out of range [0, 2)"), e.getMessage());
    }
    // damage without a new checksum
    byte[] damaged = stream.clone();
    damaged[second + 5] ^= 1;
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(damaged))) {
      in.readObject();
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, in::readObject);
      assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    }
  }
}
