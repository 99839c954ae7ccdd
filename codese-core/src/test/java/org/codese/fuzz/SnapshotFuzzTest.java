package org.codese.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.codese.Codese;
import org.codese.Snapshot;

/**
 * Fuzzes {@link Codese#load(byte[])} and {@link Snapshot#restore()} with mutated valid snapshots.
 * Each input is tried twice: as it is (so the magic, version and checksum checks are fuzzed), and
 * with its checksums recomputed (so the mutation reaches the sections, the class table, the
 * constants, the grammar check and the generated code). Loading may reject an input only with an
 * {@link java.io.IOException}; anything else escaping, a hang or an {@link OutOfMemoryError} is a
 * finding.
 *
 * <p>A plain build replays the inputs under {@code
 * src/test/resources/org/codese/fuzz/SnapshotFuzzTestInputs/loadAndRestore}; {@code JAZZER_FUZZ=1}
 * fuzzes (see the README's "Fuzzing" section).
 */
class SnapshotFuzzTest {

  @FuzzTest(maxDuration = "5m")
  void loadAndRestore(byte[] data) {
    tryLoad(data);
    byte[] fixed = FuzzSupport.fixedSnapshot(data);
    if (!Arrays.equals(fixed, data)) {
      tryLoad(fixed);
    }
  }

  private static void tryLoad(byte[] bytes) {
    FuzzSupport.run(
        "Codese.load + restore",
        () -> {
          try (Snapshot s = Codese.load(bytes)) {
            s.restore();
            return s.restore(2);
          }
        });
  }
}
