package org.codese.corpus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every corpus graph through the round-trip kit, on every restore path. */
class CorpusTest {

  static List<Corpus.Case> cases() {
    return Corpus.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void roundTrip(Corpus.Case c) {
    c.roundTrip().run();
  }

  @Test
  void corpusIsLargeAndNamesAreUnique() {
    List<Corpus.Case> all = Corpus.all();
    assertTrue(all.size() >= 100, "corpus has only " + all.size() + " graphs");
    Set<String> names = new HashSet<>();
    for (Corpus.Case c : all) {
      assertTrue(names.add(c.name()), "duplicate " + c.name());
    }
  }
}
