package org.codese.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.codese.CorruptSnapshotException;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Tape;
import org.junit.jupiter.api.Test;

/**
 * The shape dictionary of a stream's reader (stream format 3) under keys whose hashes collide: a
 * shape costs a segment of a dozen bytes, and the stream chooses the class references that make its
 * key, so it can make every key's hash collide. Segments are written with the format's own encoder,
 * with valid checksums.
 */
class StreamShapesTest {
  private static final Tape NO_ITEMS = new Tape(new byte[0], new int[0]);

  private static SnapshotFile segment(List<ClassEntry> classes, List<Constant> constants) {
    return new SnapshotFile("", 0, 0, 0, classes, constants, List.of(), List.of(), NO_ITEMS);
  }

  /**
   * Decoding n new shapes whose keys' hashes collide costs a logarithmic number of key comparisons
   * each, not a linear one (a scan of one hash bin per new shape): the decoder counts how often a
   * shape is compared with one of the same hash and other content, about 2 n log2 n while the keys
   * are ordered (a tree bin), n^2 / 2 or more if they were not.
   */
  @Test
  void shapesWhoseHashesCollideCostALogarithmicLookUp() throws Exception {
    int m = 1_000;
    int n = 5_000;
    List<ClassEntry> dictionary = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      dictionary.add(new ClassEntry("c" + i, List.of(), 0, false));
    }
    // four class references i, j, k, l with equal 29791 i + 961 j + 31 k + l: equal hashes
    List<int[]> colliding = new ArrayList<>();
    int sum = 29791 * 500 + 961 * 500 + 31 * 500 + 500;
    for (int i = 0; i < m && colliding.size() < n; i++) {
      for (int j = 0; j < m && colliding.size() < n; j++) {
        int rest = sum - 29791 * i - 961 * j;
        for (int k = Math.max(0, (rest - m + 31) / 31);
            k < m && 31 * k <= rest && colliding.size() < n;
            k++) {
          int l = rest - 31 * k;
          if (l >= 0 && l < m) {
            colliding.add(new int[] {i, j, k, l});
          }
        }
      }
    }
    assertEquals(n, colliding.size());
    StreamSegments.Decoder decoder = decodeAll(shapes(dictionary, colliding), m);
    long compared = decoder.collisions();
    org.codese.testkit.Costs.assertCollisionsNLogN(compared, n, "shapes");
  }

  /** The dictionary's segment, then one segment per tuple of class references. */
  private static byte[][] shapes(List<ClassEntry> dictionary, List<int[]> tuples) {
    StreamSegments.Encoder encoder = new StreamSegments.Encoder();
    byte[][] out = new byte[tuples.size() + 1][];
    out[0] = encoder.encode(segment(dictionary, List.of()));
    for (int t = 0; t < tuples.size(); t++) {
      List<ClassEntry> classes = new ArrayList<>();
      for (int c : tuples.get(t)) {
        classes.add(dictionary.get(c));
      }
      out[t + 1] = encoder.encode(segment(classes, List.of()));
    }
    return out;
  }

  private static StreamSegments.Decoder decodeAll(byte[][] segments, int classes)
      throws CorruptSnapshotException {
    StreamSegments.Decoder decoder =
        org.codese.load.StreamReader.decoder(org.codese.load.StreamReader.STREAM_VERSION);
    for (byte[] s : segments) {
      decoder.decode(s, 0);
    }
    // the dictionary's class entries, and every segment a new shape
    assertEquals(classes + segments.length, decoder.entries());
    return decoder;
  }
}
