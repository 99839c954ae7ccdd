package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
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

  /**
   * For Codese data the filter's {@code references} are the segment's own objects (README,
   * "Differences from the JDK streams"), not a count that grows with the objects of earlier
   * segments: segments of the same shape report the same number.
   */
  @Test
  void referencesAreTheSegmentsOwnObjects() throws Exception {
    byte[] stream = write(3);
    List<Long> references = new ArrayList<>();
    ObjectInputFilter recorder =
        info -> {
          if (info.serialClass() == null) {
            references.add(info.references());
          }
          return ObjectInputFilter.Status.UNDECIDED;
        };
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
      in.setObjectInputFilter(recorder);
      for (int i = 0; i < 3; i++) {
        assertEquals(i, in.readInt());
        assertEquals(i, ((SmallSegmentsTest.Item) in.readObject()).id);
      }
    }
    assertEquals(3, references.size());
    assertTrue(references.get(0) > 0, references.toString());
    assertEquals(List.of(references.get(0), references.get(0), references.get(0)), references);
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
