package org.codese.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The default build stays quiet; {@code -Dcodese.test.verbose=true} brings the detail back. */
class TestOutputTest {
  private static String filtered(String... writes) throws Exception {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    try (PrintStream err =
        new PrintStream(new TestOutput.NoiseFilter(sink), true, StandardCharsets.UTF_8)) {
      for (String w : writes) {
        err.print(w);
        err.flush();
      }
    }
    return sink.toString(StandardCharsets.UTF_8);
  }

  @Test
  void jazzerNoticesAreDroppedAndEverythingElsePasses() throws Exception {
    assertEquals(
        "",
        filtered(
            "INFO: Instrumented org.codese.fuzz.canary.InitCanary with custom hooks only (took 20 ms,"
                + " size +0%)\n",
            "INFO: Instrumented org.codese.verify.Lifter (took 3 ms, size +12%)\n",
            "INFO: Loaded 718 hooks from com.code_intelligence.jazzer.runtime.TraceCmpHooks\n"));
    String kept =
        "WARN: something Jazzer wants seen\nINFO: Instrumented\n"
            + "== Java Exception: java.lang.NullPointerException\n\tat a.B.c(B.java:1)\n";
    assertEquals(kept, filtered(kept));
    assertEquals("déjà vu, no newline", filtered("déjà vu, ", "no newline"));
    assertEquals("x\n", filtered("INFO: Loaded 3 hooks", " from a.B\nx\n"));
  }

  @Test
  void standardErrorIsFilteredUnlessVerbose() {
    if (TestOutput.verbose()) {
      assertFalse(System.err instanceof TestOutput.Filtered);
      return;
    }
    assertInstanceOf(
        TestOutput.Filtered.class,
        System.err,
        "the launcher session listener did not run: check META-INF/services");
  }

  @Test
  void detailPrintsOnlyWhenVerbose() {
    PrintStream saved = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      TestOutput.detail("[timing] something: 1 ms");
    } finally {
      System.setOut(saved);
    }
    assertEquals(
        TestOutput.verbose() ? "[timing] something: 1 ms" + System.lineSeparator() : "",
        captured.toString(StandardCharsets.UTF_8));
  }
}
