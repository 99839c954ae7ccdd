package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.codese.load.StreamReader;
import org.junit.jupiter.api.Test;

/**
 * What a serialization filter is told as {@code streamBytes} for Codese data: the running total of
 * bytes read from the stream, up to the end of the segment being checked, as {@code
 * ObjectInputStream} tells its filter the bytes it consumed so far; never the length of a segment
 * encoded again as a whole snapshot.
 */
class StreamFilterBytesTest {
  private static byte[] write(int n) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new CodeseOutputStream(bytes)) {
      for (int i = 0; i < n; i++) {
        out.writeInt(i);
        out.writeObject(new SmallSegmentsTest.Item(i));
      }
    }
    return bytes.toByteArray();
  }

  /** The stream offsets at which its segments end. */
  private static List<Long> segmentEnds(byte[] stream) {
    ByteBuffer b = ByteBuffer.wrap(stream);
    b.position(6);
    List<Long> ends = new ArrayList<>();
    while (b.remaining() >= 4) {
      int w = b.getInt();
      if (w > 0) {
        b.position(b.position() + w);
        ends.add((long) b.position());
      } else if (w != StreamReader.RESET && w != StreamReader.END) {
        b.position(b.position() - w);
      }
    }
    return ends;
  }

  /** Records the stream bytes of every question about the stream as a whole. */
  private static final class Recorder implements ObjectInputFilter {
    final List<Long> bytes = new ArrayList<>();

    @Override
    public Status checkInput(FilterInfo info) {
      if (info.serialClass() == null) {
        bytes.add(info.streamBytes());
      }
      return Status.UNDECIDED;
    }
  }

  @Test
  void streamBytesIsTheRunningTotalUpToTheSegmentsEnd() throws Exception {
    byte[] stream = write(50);
    Recorder r = new Recorder();
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
      in.setObjectInputFilter(r);
      for (int i = 0; i < 50; i++) {
        assertEquals(i, in.readInt());
        assertEquals(i, ((SmallSegmentsTest.Item) in.readObject()).id);
      }
    }
    assertEquals(segmentEnds(stream), r.bytes);
  }

  /** The references of every question about a stream as a whole, reading {@code n} items. */
  private static List<Long> references(ObjectInputStream in, int n) throws Exception {
    List<Long> references = new ArrayList<>();
    in.setObjectInputFilter(
        info -> {
          if (info.serialClass() == null || info.depth() == 1) {
            references.add(info.references());
          }
          return ObjectInputFilter.Status.UNDECIDED;
        });
    for (int i = 0; i < n; i++) {
      assertEquals(i, in.readInt());
      assertEquals(i, ((SmallSegmentsTest.Item) in.readObject()).id);
    }
    return references;
  }

  /**
   * The filter's {@code references} are a running total over the stream, as {@code
   * ObjectInputStream}'s: side by side, both grow with every object read, across a reset too, and
   * never fall; the JDK counts its class descriptors and back references as well, so its figure is
   * the higher one.
   */
  @Test
  void referencesAreARunningTotalAsTheJdks() throws Exception {
    int n = 20;
    byte[] codese = write(n);
    ByteArrayOutputStream jdkBytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(jdkBytes)) {
      for (int i = 0; i < n; i++) {
        out.writeInt(i);
        out.writeObject(new SmallSegmentsTest.Item(i));
      }
    }
    List<Long> jdk;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(jdkBytes.toByteArray()))) {
      jdk = references(in, n);
    }
    List<Long> ours;
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(codese))) {
      ours = references(in, n);
    }
    for (List<Long> refs : List.of(jdk, ours)) {
      for (int i = 1; i < refs.size(); i++) {
        assertTrue(refs.get(i) >= refs.get(i - 1), refs.toString());
      }
      assertTrue(refs.get(refs.size() - 1) >= n, refs.toString());
    }
    assertTrue(jdk.get(jdk.size() - 1) >= ours.get(ours.size() - 1), jdk + " " + ours);
  }

  /** A reset does not start the count again, for either stream. */
  @Test
  void referencesGoOnGrowingAcrossAReset() throws Exception {
    for (boolean codese : new boolean[] {false, true}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out =
          codese ? new CodeseOutputStream(bytes) : new ObjectOutputStream(bytes)) {
        out.writeInt(0);
        out.writeObject(new SmallSegmentsTest.Item(0));
        out.reset();
        out.writeInt(1);
        out.writeObject(new SmallSegmentsTest.Item(1));
      }
      ByteArrayInputStream in = new ByteArrayInputStream(bytes.toByteArray());
      try (ObjectInputStream r = codese ? new CodeseInputStream(in) : new ObjectInputStream(in)) {
        List<Long> refs = references(r, 2);
        assertTrue(refs.get(refs.size() - 1) > refs.get(0), (codese ? "Codese " : "JDK ") + refs);
      }
    }
  }

  /**
   * A {@code maxrefs} limit bounds the stream as a whole, as it does for the JDK's: a stream of
   * many small objects, each written with its own {@code writeObject}, is stopped once the total
   * passes the limit, by both streams (the JDK earlier, counting more).
   */
  @Test
  void aMaxrefsLimitStopsTheStreamAsTheJdks() throws Exception {
    int n = 200;
    ByteArrayOutputStream jdkBytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(jdkBytes)) {
      for (int i = 0; i < n; i++) {
        out.writeInt(i);
        out.writeObject(new SmallSegmentsTest.Item(i));
      }
    }
    int[] stoppedAt = new int[2];
    byte[][] streams = {jdkBytes.toByteArray(), write(n)};
    for (int k = 0; k < 2; k++) {
      ByteArrayInputStream in = new ByteArrayInputStream(streams[k]);
      try (ObjectInputStream r = k == 1 ? new CodeseInputStream(in) : new ObjectInputStream(in)) {
        r.setObjectInputFilter(ObjectInputFilter.Config.createFilter("maxrefs=100"));
        int i = 0;
        try {
          for (; i < n; i++) {
            assertEquals(i, r.readInt());
            r.readObject();
          }
        } catch (InvalidClassException e) {
          stoppedAt[k] = i;
        }
      }
    }
    assertTrue(stoppedAt[0] > 0 && stoppedAt[0] < n, "JDK " + stoppedAt[0]);
    assertTrue(stoppedAt[1] > 0 && stoppedAt[1] < n, "Codese " + stoppedAt[1]);
    assertTrue(stoppedAt[0] <= stoppedAt[1], stoppedAt[0] + " " + stoppedAt[1]);
  }

  /** A {@code maxbytes} limit bounds the stream as a whole, as it does for the JDK's streams. */
  @Test
  void aMaxbytesLimitStopsTheStreamWhereItPassesIt() throws Exception {
    byte[] stream = write(100);
    List<Long> ends = segmentEnds(stream);
    ObjectInputFilter limit = ObjectInputFilter.Config.createFilter("maxbytes=" + ends.get(59));
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
      in.setObjectInputFilter(limit);
      for (int i = 0; i < 60; i++) {
        assertEquals(i, in.readInt());
        assertEquals(i, ((SmallSegmentsTest.Item) in.readObject()).id);
      }
      assertEquals(60, in.readInt());
      InvalidClassException e = assertThrows(InvalidClassException.class, in::readObject);
      assertTrue(e.getMessage().contains("bytes " + ends.get(60)), e.getMessage());
    }
  }
}
