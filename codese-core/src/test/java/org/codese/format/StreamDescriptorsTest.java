package org.codese.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassDescriptor;
import org.codese.program.ClassEntry;
import org.codese.program.Tape;
import org.junit.jupiter.api.Test;

/**
 * The class descriptors of stream format 5 segments: they travel with the segment, in order, in
 * both forms of segment (parts and known shape), cost nothing when a segment has none, are never
 * carried over to the next segment, and a damaged section is refused.
 */
class StreamDescriptorsTest {
  private static final Tape ITEMS = new Tape(new byte[0], new int[] {Tape.OBJECT, -1});

  private static SnapshotFile segment(int depth) {
    return new SnapshotFile(
        "",
        0,
        0,
        depth,
        List.of(new ClassEntry("a.B", List.of(), 0, false)),
        List.of(),
        List.of(),
        List.of(),
        ITEMS);
  }

  private static final List<ClassDescriptor> TWO =
      List.of(
          new ClassDescriptor(new byte[] {1, 2, 3}, new byte[0]),
          new ClassDescriptor(new byte[] {4}, new byte[] {5, 6}));

  private static List<String> text(List<ClassDescriptor> d) {
    return d.stream()
        .map(c -> Arrays.toString(c.form()) + " " + Arrays.toString(c.annotation()))
        .toList();
  }

  @Test
  void descriptorsTravelWithTheirSegmentInBothForms() throws Exception {
    StreamSegments.Encoder e = new StreamSegments.Encoder();
    StreamSegments.Decoder d =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    SnapshotFile first = d.decode(e.encode(segment(7), TWO), 0);
    assertEquals(7, first.depth());
    assertEquals(text(TWO), text(d.descriptors()));
    // the same shape again: the short form, with other descriptors
    SnapshotFile again = d.decode(e.encode(segment(3), TWO.subList(1, 2)), 0);
    assertEquals(3, again.depth());
    assertEquals(text(TWO.subList(1, 2)), text(d.descriptors()));
    // none: nothing carried over from the segment before
    d.decode(e.encode(segment(4)), 0);
    assertEquals(List.of(), d.descriptors());
  }

  @Test
  void aSegmentWithoutDescriptorsCostsNothing() {
    byte[] without = new StreamSegments.Encoder().encode(segment(5));
    byte[] with = new StreamSegments.Encoder().encode(segment(5), TWO);
    // the flag takes the depth word's low bit, no byte of its own (zigzag varints: 10 and 11 are
    // one byte each); then the count, and per descriptor a kind byte (stream format 10) and its
    // form and annotation, each with its length
    assertEquals(without.length + 1 + 1 + (1 + 3) + 1 + 1 + (1 + 1) + (1 + 2), with.length);
  }

  @Test
  void aSegmentOfAnEarlierFormatReadsItsDepthAsItIs() throws Exception {
    byte[] bytes = new StreamSegments.Encoder().encode(segment(3));
    // format 5 writes depth 3 as 6; a reader of format 4 takes the word as it is
    assertEquals(
        6, new StreamSegments.Decoder(SnapshotFile.VERSION, false).decode(bytes, 0).depth());
  }

  @Test
  void aDamagedDescriptorSectionIsRefused() throws Exception {
    byte[] good = new StreamSegments.Encoder().encode(segment(2), TWO);
    byte[] body = Arrays.copyOf(good, good.length - 4);
    // the section ends the body: count 2 (zigzag 4), then two kind bytes and the four arrays
    int section = body.length - 13;
    assertEquals(4, body[section]);
    byte[] none = body.clone();
    none[section] = 0; // the header says descriptors follow, the count says none
    byte[] more = body.clone();
    more[section] = 6; // one more than there are
    byte[] longer = body.clone();
    longer[section + 2] = 0x7E; // a form of 63 bytes, longer than the segment
    byte[] unknown = body.clone();
    unknown[section + 1] = 2; // a kind of descriptor no version writes
    for (byte[] b : List.of(none, more, longer, unknown)) {
      byte[] damaged = Encoding.withTrailer(b);
      CorruptSnapshotException x =
          assertThrows(
              CorruptSnapshotException.class,
              () ->
                  org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION)
                      .decode(damaged, 0));
      assertTrue(x.getMessage().contains("class descriptors"), x.getMessage());
    }
    byte[] cut = Encoding.withTrailer(Arrays.copyOf(body, body.length - 1));
    assertThrows(
        CorruptSnapshotException.class,
        () ->
            org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION)
                .decode(cut, 0));
    assertArrayEquals(
        TWO.get(1).annotation(),
        decodeDescriptors(good).get(1).annotation(),
        "control: the undamaged segment reads");
  }

  @Test
  void aProxyDescriptorTravelsWithItsInterfacesAndAnnotation() throws Exception {
    List<ClassDescriptor> mixed =
        List.of(ClassDescriptor.proxy(List.of("a.B", "c.D"), new byte[] {9}), TWO.get(0));
    List<ClassDescriptor> back =
        decodeDescriptors(new StreamSegments.Encoder().encode(segment(2), mixed));
    assertEquals(List.of("a.B", "c.D"), back.get(0).interfaces());
    assertArrayEquals(new byte[] {9}, back.get(0).annotation());
    assertEquals(0, back.get(0).form().length);
    assertEquals(text(TWO.subList(0, 1)), text(back.subList(1, 2)));
    assertEquals(null, back.get(1).interfaces());
  }

  private static List<ClassDescriptor> decodeDescriptors(byte[] segment) throws Exception {
    StreamSegments.Decoder d =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    d.decode(segment, 0);
    return d.descriptors();
  }
}
