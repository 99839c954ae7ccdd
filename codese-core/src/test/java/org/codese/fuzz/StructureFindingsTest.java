package org.codese.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the structure fuzzer found on main before issue 15 was fixed, one minimized snapshot per
 * finding under {@code src/test/resources/org/codese/fuzz/findings-issue15/}, listed in its {@code
 * index.tsv}: file, JDK ({@code any}, {@code 17} or {@code 25}), invariant, the harness's
 * signature, and what it shows. Each snapshot has valid checksums and is run as the fuzzer runs it
 * ({@link StructureHarness}: default options, then the allow-list filter, canaries compared and
 * repaired).
 *
 * <p>Skipped in a plain build. {@code -Dcodese.fuzz.issue15=open} checks that each still shows its
 * finding (true on main when they were recorded); {@code -Dcodese.fuzz.issue15=fixed} checks that
 * none shows any finding: each snapshot is rejected with a typed exception or restores, with every
 * canary intact. Findings not fixed yet are listed in {@code open.tsv} (same columns): {@code open}
 * checks them too, {@code fixed} skips them. The second is the check of the fix:
 *
 * <pre>
 * mvn -B -pl codese-core test -Dtest=StructureFindingsTest -Dcodese.fuzz.issue15=fixed
 * </pre>
 */
@EnabledIfSystemProperty(named = "codese.fuzz.issue15", matches = "open|fixed")
class StructureFindingsTest {
  private static final String DIR = "findings-issue15/";

  record Entry(String file, String jdk, String invariant, String signature, String what) {}

  static List<Entry> index() throws IOException {
    return index("index.tsv");
  }

  static List<Entry> index(String name) throws IOException {
    List<Entry> out = new ArrayList<>();
    for (String line : new String(resource(name), StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      out.add(new Entry(f[0], f[1], f[2], f[3], f[4]));
    }
    return out;
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = StructureFindingsTest.class.getResourceAsStream(DIR + name)) {
      assertNotNull(in, "missing resource " + DIR + name);
      return in.readAllBytes();
    }
  }

  @TestFactory
  Stream<DynamicTest> issue15Findings() throws IOException {
    String mode = System.getProperty("codese.fuzz.issue15");
    String feature = Integer.toString(Runtime.version().feature());
    List<DynamicTest> tests = new ArrayList<>();
    List<Entry> entries = new ArrayList<>(index());
    List<Entry> open = index("open.tsv");
    entries.addAll(open);
    for (Entry e : entries) {
      tests.add(
          DynamicTest.dynamicTest(
              e.file() + " (" + e.invariant() + ")",
              () -> {
                Assumptions.assumeFalse(
                    mode.equals("fixed") && open.contains(e),
                    "not fixed yet (open.tsv): " + e.what());
                StructureHarness.Report r =
                    StructureHarness.shared().run(e.file(), List.of(), resource(e.file()));
                List<String> signatures = new ArrayList<>();
                for (StructureHarness.Finding f : r.findings()) {
                  signatures.add(f.signature());
                }
                if (mode.equals("fixed")) {
                  assertTrue(r.findings().isEmpty(), e.what() + " still happens:\n" + r.describe());
                } else {
                  Assumptions.assumeTrue(
                      e.jdk().equals("any") || e.jdk().equals(feature),
                      "recorded on JDK " + e.jdk());
                  assertTrue(
                      signatures.contains(e.signature()),
                      "no longer shows "
                          + e.signature()
                          + " ("
                          + e.what()
                          + "); it gives "
                          + signatures
                          + "\n"
                          + r.describe());
                }
              }));
    }
    return tests.stream();
  }
}
