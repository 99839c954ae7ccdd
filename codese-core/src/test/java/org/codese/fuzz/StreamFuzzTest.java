package org.codese.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.OptionalDataException;
import java.util.Arrays;
import org.codese.CodeseInputStream;

/**
 * Fuzzes {@link CodeseInputStream} with mutated valid Codese object streams: reads objects until
 * the end of the stream, and the primitive data written between them where it finds some. As with
 * {@link SnapshotFuzzTest}, each input is tried as it is and with the checksums of its segments
 * recomputed. Only {@link java.io.IOException}s may escape.
 *
 * <p>Corpus: {@code src/test/resources/org/codese/fuzz/StreamFuzzTestInputs/readStream}.
 */
class StreamFuzzTest {
  /** Reads at most this many items of one stream. */
  private static final int MAX_ITEMS = 10_000;

  @FuzzTest(maxDuration = "5m")
  void readStream(byte[] data) {
    tryRead(data);
    byte[] fixed = FuzzSupport.fixedStream(data);
    if (!Arrays.equals(fixed, data)) {
      tryRead(fixed);
    }
  }

  private static void tryRead(byte[] bytes) {
    FuzzSupport.run(
        "CodeseInputStream",
        () -> {
          try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(bytes))) {
            for (int i = 0; i < MAX_ITEMS; i++) {
              try {
                in.readObject();
              } catch (OptionalDataException e) {
                if (e.eof) {
                  return null;
                }
                // the primitive data before the next object: read a little, skip the rest
                in.readFully(new byte[Math.min(e.length, 64)]);
                in.skipBytes(e.length - Math.min(e.length, 64));
              } catch (EOFException e) {
                return null;
              }
            }
            return null;
          }
        });
  }
}
