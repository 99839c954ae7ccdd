package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.format.StreamSegments;
import org.codese.load.StreamReader;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Tape;
import org.junit.jupiter.api.Test;

/**
 * A stream segment's references to what earlier segments sent cost a byte or two each: whatever
 * they refer to must cost the reader no more than the bytes that sent it, once. Hostile segments
 * here are written with the format's own encoder, with valid checksums.
 */
class StreamDictionaryAbuseTest {
  private static final Tape NO_ITEMS = new Tape(new byte[0], new int[0]);
  private static final ClassEntry ENUM = new ClassEntry("java.time.DayOfWeek", List.of(), 0, false);
  private static final ClassEntry OTHER = new ClassEntry("java.lang.String", List.of(), 0, false);

  private static SnapshotFile segment(List<ClassEntry> classes, List<Constant> constants) {
    return new SnapshotFile("", 0, 0, 0, classes, constants, List.of(), List.of(), NO_ITEMS);
  }

  /**
   * One enum constant with a long name, then a segment of nothing but references to it: each
   * reference is the value decoded once, never a fresh decode and copy of the name (which made a
   * segment of a few KB allocate hundreds of MB before any limit was checked).
   */
  @Test
  void aConstantReferenceCostsNoDecode() throws Exception {
    String name = "N".repeat(50_000);
    Constant big = new Constant.EnumRef(0, name);
    int refs = 2_000;
    StreamSegments.Encoder encoder = new StreamSegments.Encoder();
    byte[] first = encoder.encode(segment(List.of(ENUM), List.of(big)));
    byte[] second = encoder.encode(segment(List.of(ENUM), Collections.nCopies(refs, big)));
    assertTrue(second.length < 4 * refs, "references only: " + second.length + " bytes");
    StreamSegments.Decoder decoder =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    SnapshotFile sent = decoder.decode(first, 0);
    SnapshotFile again = decoder.decode(second, 0);
    assertEquals(refs, again.constants().size());
    for (Constant c : again.constants()) {
      assertEquals(big, c);
      // not assertSame: its message would print the name
      assertTrue(
          ((Constant.EnumRef) sent.constants().get(0)).name() == ((Constant.EnumRef) c).name(),
          "the name decoded when it was sent, not a copy");
    }
  }

  /** A reference names a class by index: it must be an index of the referring segment's table. */
  @Test
  void aConstantReferenceIsCheckedAgainstTheSegmentsOwnClassTable() throws Exception {
    Constant second = new Constant.TypeRef(1);
    StreamSegments.Encoder encoder = new StreamSegments.Encoder();
    byte[] first = encoder.encode(segment(List.of(ENUM, OTHER), List.of(second)));
    byte[] bad = encoder.encode(segment(List.of(ENUM), List.of(second)));
    StreamSegments.Decoder decoder =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    decoder.decode(first, 0);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> decoder.decode(bad, 0));
    assertTrue(
        e.getMessage().contains("class index 1") && e.getMessage().contains("out of range [0, 1)"),
        e.getMessage());
  }

  /** Counts the runs of the constructor Java serialization runs for {@link Victim}. */
  static class Base {
    static int constructed;

    Base() {
      constructed++;
    }
  }

  static final class Victim extends Base implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
    String b;
  }

  /**
   * A class entry that lists one field many times, which a later segment could refer to for a byte
   * per table index, making the loader check every listed field each time: refused as damage,
   * before anything runs.
   */
  @Test
  void aClassEntryListingAFieldTwiceIsDamage() throws Exception {
    Victim v = new Victim();
    v.a = 7;
    v.b = "seven";
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(v);
    }
    byte[] stream = bytes.toByteArray();
    int len = ByteBuffer.wrap(stream).getInt(6);
    byte[] seg = java.util.Arrays.copyOfRange(stream, 10, 10 + len);
    SnapshotFile f =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION)
            .decode(seg, 0);
    List<ClassEntry> classes = new ArrayList<>(f.classes());
    int victim = -1;
    for (int i = 0; i < classes.size(); i++) {
      if (classes.get(i).name().equals(Victim.class.getName())) {
        victim = i;
      }
    }
    ClassEntry e = classes.get(victim);
    List<ClassEntry.FieldEntry> fields = new ArrayList<>(e.fields());
    for (int i = 0; i < 1_000; i++) {
      fields.add(e.fields().get(0));
    }
    classes.set(victim, new ClassEntry(e.name(), List.copyOf(fields), e.suid(), e.hasSuid()));
    byte[] hostile =
        new StreamSegments.Encoder()
            .encode(
                new SnapshotFile(
                    "",
                    0,
                    f.tableSize(),
                    f.depth(),
                    List.copyOf(classes),
                    f.constants(),
                    f.classFiles(),
                    f.placements(),
                    f.items()));
    // the unchanged segment, re-encoded the same way, reads
    byte[] same = new StreamSegments.Encoder().encode(f);
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream(same)))) {
      assertEquals("seven", ((Victim) in.readObject()).b);
    }
    int before = Base.constructed;
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream(hostile)))) {
      CorruptSnapshotException x = assertThrows(CorruptSnapshotException.class, in::readObject);
      assertTrue(
          x.getMessage().contains("lists field " + e.fields().get(0).name() + " twice"),
          x.getMessage());
      assertEquals(0, in.codeStatistics()[0], "no class defined");
    }
    assertEquals(before, Base.constructed, "nothing allocated");
  }

  /** A version 3 stream of one segment. */
  private static byte[] stream(byte[] segment) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(StreamReader.STREAM_MAGIC);
    out.writeShort(StreamReader.STREAM_VERSION);
    out.writeInt(segment.length);
    out.write(segment);
    out.writeInt(StreamReader.END);
    return bytes.toByteArray();
  }
}
