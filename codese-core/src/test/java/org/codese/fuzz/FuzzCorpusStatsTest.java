package org.codese.fuzz;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OptionalDataException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.codese.Codese;
import org.codese.CodeseInputStream;
import org.codese.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Tells how deep a fuzzing corpus gets: for each input of a snapshot or stream corpus (with its
 * checksums fixed, as the fuzz tests do), whether it restored or which exception rejected it. Runs
 * only when asked, with {@code -Dcodese.fuzz.stats=DIR} naming a corpus directory such as {@code
 * codese-core/.cifuzz-corpus/org.codese.fuzz.SnapshotFuzzTest/loadAndRestore}.
 */
@EnabledIfSystemProperty(named = "codese.fuzz.stats", matches = ".+")
class FuzzCorpusStatsTest {

  @Test
  void histogram() throws IOException {
    Path dir = Path.of(System.getProperty("codese.fuzz.stats"));
    boolean stream = dir.toString().contains("Stream");
    Map<String, Integer> counts = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(Files::isRegularFile).toList();
    }
    for (Path f : files) {
      byte[] data = Files.readAllBytes(f);
      String outcome;
      try {
        if (stream) {
          outcome = readStream(FuzzSupport.fixedStream(data));
        } else {
          try (Snapshot snap = Codese.load(FuzzSupport.fixedSnapshot(data))) {
            snap.restore();
            outcome = "restored";
          }
        }
      } catch (Throwable t) {
        String m = String.valueOf(t.getMessage());
        outcome = t.getClass().getSimpleName() + ": " + m.substring(0, Math.min(60, m.length()));
      }
      counts.merge(outcome, 1, Integer::sum);
    }
    System.out.println("corpus " + dir + ": " + files.size() + " inputs");
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(e -> System.out.println(String.format("%6d  %s", e.getValue(), e.getKey())));
  }

  private static String readStream(byte[] bytes) throws Exception {
    int objects = 0;
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(bytes))) {
      for (int i = 0; i < 10_000; i++) {
        try {
          in.readObject();
          objects++;
        } catch (OptionalDataException e) {
          if (e.eof) {
            break;
          }
          in.skipBytes(e.length);
        } catch (EOFException e) {
          break;
        }
      }
    }
    return "read to the end (" + Math.min(objects, 3) + (objects >= 3 ? "+" : "") + " objects)";
  }
}
