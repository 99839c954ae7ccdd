package org.codese.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.codese.Codese;
import org.codese.CorruptSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.testkit.Checksums;
import org.junit.jupiter.api.Test;

/** Phases and placements: the typed form of where a generated class runs, and its encoding. */
class PlacementTest {
  @Test
  void phasesAreNumberedInTheOrderTheyRun() {
    for (Phase p : Phase.values()) {
      assertEquals(p, Phase.of(p.ordinal()));
    }
    assertEquals(Grammar.PHASES, Phase.values().length);
    assertThrows(IllegalArgumentException.class, () -> Phase.of(-1));
    assertThrows(IllegalArgumentException.class, () -> Phase.of(Grammar.PHASES));
  }

  @Test
  void aPlacementNeedsAPhaseAndAHostFromMinusOne() {
    assertTrue(new Placement(Phase.CREATE, Placement.CODESE).codeseHosted());
    assertFalse(new Placement(Phase.SET, 0).codeseHosted());
    assertThrows(NullPointerException.class, () -> new Placement(null, 0));
    assertThrows(IllegalArgumentException.class, () -> new Placement(Phase.SET, -2));
  }

  @Test
  void placementsSurviveTheFormat() throws IOException {
    Map<String, List<Integer>> graph = new TreeMap<>(Map.of("a", new ArrayList<>(List.of(1, 2))));
    SnapshotFile f = SnapshotFile.parse(Codese.toBytes(graph));
    SnapshotFile again = SnapshotFile.parse(f.bytes());
    assertEquals(f.placements(), again.placements());
    assertTrue(f.placements().stream().anyMatch(p -> p.phase() == Phase.CREATE));
    assertTrue(f.placements().stream().anyMatch(p -> p.phase() == Phase.FINISH));
  }

  /** A phase number past the last phase, checksums valid, is a corrupt file, not a wrong class. */
  @Test
  void anUnknownPhaseNumberIsCorrupt() throws IOException {
    byte[] b =
        org.codese.testkit.OlderFormats.sectioned(
            Codese.toBytes(new ArrayList<>(List.of(1, 2, 3))));
    // sections from byte 6: tag (u1), length (u4), checksum (u4), payload; in the code section
    // (tag 3) of the compact form, the count of class files (one byte), then the first's phase
    int at = 6;
    while (b[at] != 3) {
      at += 9 + java.nio.ByteBuffer.wrap(b).getInt(at + 1);
    }
    int phaseAt = at + 9 + 1;
    assertEquals(Phase.CREATE.ordinal(), b[phaseAt], "the layout this test assumes");
    b[phaseAt] = (byte) Grammar.PHASES;
    byte[] bad = Checksums.fixed(b);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> SnapshotFile.parse(bad));
    assertTrue(e.getMessage().contains("has phase " + Grammar.PHASES), e.getMessage());
  }
}
