package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OptionalDataException;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import org.codese.Codese;
import org.codese.CodeseInputStream;
import org.codese.CodeseOutputStream;
import org.codese.CorruptSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.program.Tape;
import org.codese.testkit.Box;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;

/**
 * The frames of a Codese object stream as {@link StreamReader} reads them, and the top-level items
 * of a segment as {@link ReplayStream#readTopLevel} reads them: data cut short inside a frame word,
 * the data and reset frames of a version 2 stream, where damage inside a segment is reported,
 * primitive reads after an object failed to restore, and crafted top-level items whose back
 * references lead nowhere. Streams are written by {@link CodeseOutputStream} or put together from
 * snapshots of the format's own writer ({@link SnapshotEdit}), so every checksum is valid.
 */
class StreamFramesTest {
  /** Where the first frame's content starts: the 6-byte header, then the 4-byte frame word. */
  private static final int FIRST_FRAME = 10;

  private static byte[] write(Object... objects) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new CodeseOutputStream(bytes)) {
      for (Object o : objects) {
        out.writeObject(o);
      }
    }
    return bytes.toByteArray();
  }

  private static CodeseInputStream in(byte[] stream) throws IOException {
    return new CodeseInputStream(new ByteArrayInputStream(stream));
  }

  /**
   * The data ends two bytes into the frame word after the last object (here the end mark): a {@link
   * CorruptSnapshotException} that says how many bytes of the word arrived and where the word
   * starts, after the objects before it were read.
   */
  @Test
  void aFrameWordCutShortIsCorruptWhereTheWordStarts() throws Exception {
    byte[] whole = write(new Box(1));
    assertArrayEquals(
        new byte[4],
        java.util.Arrays.copyOfRange(whole, whole.length - 4, whole.length),
        "the stream ends with the end mark");
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 2);
    try (CodeseInputStream in = in(cut)) {
      assertEquals("Box1", in.readObject().toString());
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, in::readObject);
      assertTrue(
          e.getMessage()
              .contains("the stream ends inside a frame's 4-byte length, after 2" + " bytes"),
          e.getMessage());
      assertEquals(whole.length - 4, e.offset());
    }
  }

  /** A version 2 stream: frames written one by one, as {@code CodeseOutputStream} once did. */
  private static final class Version2 {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    Version2() throws IOException {
      out.writeInt(StreamReader.STREAM_MAGIC);
      out.writeShort(SnapshotEdit.FULL_SEGMENTS_VERSION);
    }

    Version2 data(int value) throws IOException {
      out.writeInt(-4);
      out.writeInt(value);
      return this;
    }

    Version2 segment(byte[] snapshot) throws IOException {
      out.writeInt(snapshot.length);
      out.write(snapshot);
      return this;
    }

    Version2 reset() throws IOException {
      out.writeInt(StreamReader.RESET);
      return this;
    }

    byte[] end() throws IOException {
      out.writeInt(StreamReader.END);
      return bytes.toByteArray();
    }
  }

  /**
   * Data and reset frames, which version 1 streams do not have (there a negative word is damage),
   * are read from version 2 on: the data between objects, and objects numbered from 0 again after a
   * reset.
   */
  @Test
  void aVersion2StreamHasDataAndResetFrames() throws Exception {
    byte[] stream =
        new Version2()
            .data(7)
            .segment(Codese.toBytes(new Box(1)))
            .reset()
            .data(8)
            .segment(Codese.toBytes(new Box(2)))
            .end();
    try (CodeseInputStream in = in(stream)) {
      assertEquals(7, in.readInt());
      assertEquals("Box1", in.readObject().toString());
      assertEquals(8, in.readInt());
      assertEquals("Box2", in.readObject().toString());
      assertEquals(-1, in.read());
    }
  }

  /**
   * Damage inside a segment is reported at its offset in the stream: where the segment starts plus
   * where the damage is inside it (the offset the same damage has in the snapshot alone).
   */
  @Test
  void damageInsideASegmentIsReportedAtItsStreamOffset() throws Exception {
    byte[] damaged = Codese.toBytes(new Box(1));
    damaged[damaged.length / 2] ^= 0x10;
    CorruptSnapshotException alone =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotFile.parse(damaged));
    assertNotEquals(0, alone.offset(), "the damage is not at the segment's first byte");
    byte[] stream = SnapshotEdit.stream(damaged);
    try (CodeseInputStream in = in(stream)) {
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, in::readObject);
      assertEquals(FIRST_FRAME + alone.offset(), e.offset(), e.getMessage());
      assertTrue(
          e.getMessage().contains("stream segment at byte " + FIRST_FRAME + ": " + alone.section()),
          e.getMessage());
    }
  }

  /** Its {@code readObject} refuses its data. */
  static final class Refuses implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException {
      throw new InvalidObjectException("refused");
    }
  }

  /**
   * After an object failed to restore, primitive data after it is not read either (the stream
   * cannot go past the object): {@code read} throws, as {@code readObject} does, and returns no
   * byte.
   */
  @Test
  void noDataIsReadPastAnObjectThatFailedToRestore() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(new Refuses());
      out.writeInt(5);
    }
    try (CodeseInputStream in = in(bytes.toByteArray())) {
      InvalidObjectException first = assertThrows(InvalidObjectException.class, in::readObject);
      assertEquals("refused", first.getMessage());
      byte[] buf = new byte[4];
      StreamCorruptedException e =
          assertThrows(StreamCorruptedException.class, () -> in.read(buf, 0, 4));
      assertTrue(
          e.getMessage()
              .startsWith("the stream cannot be read past an object that failed" + " to restore"),
          e.getMessage());
      assertArrayEquals(new byte[4], buf, "no byte was read");
      assertThrows(StreamCorruptedException.class, in::readInt);
    }
  }

  /** A stream of one segment holding a {@code Box}, whose top-level items are {@code items}. */
  private static byte[] boxWithItems(byte[] data, int... items) throws IOException {
    byte[] segment =
        SnapshotEdit.of(Codese.toBytes(new Box(1))).setItems(new Tape(data, items)).bytes();
    return SnapshotEdit.stream(segment);
  }

  /**
   * Back references in a segment's top-level items must be followed by the object that makes them:
   * back references at the end of the items, or followed by primitive data, are a {@code
   * StreamCorruptedException}.
   */
  @Test
  void backReferencesNotFollowedByTheirObjectAreCorrupt() throws Exception {
    byte[][] streams = {
      boxWithItems(new byte[0], Tape.BACK_REFERENCE, 0),
      boxWithItems(new byte[0], Tape.BACK_REFERENCE, 0, Tape.BACK_REFERENCE, 0),
      boxWithItems(new byte[4], Tape.BACK_REFERENCE, 0, Tape.BLOCK, 4, Tape.OBJECT, 0)
    };
    for (byte[] stream : streams) {
      try (CodeseInputStream in = in(stream)) {
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, in::readObject);
        assertEquals(StreamCorruptedException.class, e.getClass());
        assertEquals(
            "back references in the stream's data are not followed by the object that"
                + " makes them",
            e.getMessage());
      }
    }
  }

  /** Counts its restores: a readObject with a side effect visible to the test. */
  static final class Counted implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    static final java.util.concurrent.atomic.AtomicInteger READS =
        new java.util.concurrent.atomic.AtomicInteger();
    int v = 1;

    private void readObject(java.io.ObjectInputStream in)
        throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      READS.incrementAndGet();
    }
  }

  /**
   * The top-level items are checked before the segment's code runs, as its code is: a segment whose
   * back references no object follows restores nothing (no {@code readObject} ran), also when the
   * bad run comes after the segment's object.
   */
  @Test
  void badTopLevelItemsStopTheSegmentBeforeItsCodeRuns() throws Exception {
    int[][] itemLists = {{Tape.BACK_REFERENCE, 0}, {Tape.OBJECT, 0, Tape.BACK_REFERENCE, 0}};
    for (int[] items : itemLists) {
      byte[] segment =
          SnapshotEdit.of(Codese.toBytes(new Counted()))
              .setItems(new Tape(new byte[0], items))
              .bytes();
      Counted.READS.set(0);
      try (CodeseInputStream in = in(SnapshotEdit.stream(segment))) {
        StreamCorruptedException e = assertThrows(StreamCorruptedException.class, in::readObject);
        assertEquals(
            "back references in the stream's data are not followed by the object that"
                + " makes them",
            e.getMessage());
      }
      assertEquals(0, Counted.READS.get(), "the segment's code ran");
    }
  }

  /**
   * Primitive data before a segment's object, without back references, is read as data: {@code
   * readObject} there is an {@code OptionalDataException} with the data's length, as {@code
   * ObjectInputStream}'s, and the object follows.
   */
  @Test
  void dataBeforeASegmentsObjectIsOptionalData() throws Exception {
    byte[] stream = boxWithItems(new byte[] {0, 0, 0, 9}, Tape.BLOCK, 4, Tape.OBJECT, 0);
    try (CodeseInputStream in = in(stream)) {
      OptionalDataException e = assertThrows(OptionalDataException.class, in::readObject);
      assertEquals(4, e.length);
      assertEquals(false, e.eof);
      assertEquals(9, in.readInt());
      assertInstanceOf(Box.class, in.readObject());
    }
  }
}
