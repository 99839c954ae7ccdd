package org.codese.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.codese.CodeseLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** What a misused or unusable fixture reports, each in the tests that use it. */
class ErrorsTest {
  @Launch.Sample
  static class NoFactory {
    @Test
    void uses(@Fixture("nowhere") Shop shop) {}
  }

  @Launch.Sample
  static class NullFactory {
    @Fixture("nothing")
    Shop shop;

    static Shop nothing() {
      return null;
    }

    @Test
    void uses() {}
  }

  @Launch.Sample
  static class WrongType {
    @Fixture("text")
    Shop shop;

    static String text() {
      return "not a shop";
    }

    @Test
    void uses() {}
  }

  @Launch.Sample
  static class StaticField {
    @Fixture("shop")
    static Shop shop;

    @Test
    void uses() {}
  }

  @Launch.Sample
  static class BadName {
    @Test
    void uses(@Fixture("../shop") Shop shop) {}
  }

  static CodeseLimits limits() {
    return CodeseLimits.defaults().withMaxObjects(12_345);
  }

  @Launch.Sample
  static class NotOwn {
    @Test
    void uses(@Fixture(value = "limits") CodeseLimits limits) {}
  }

  @Launch.Sample
  static class Allowed {
    @Test
    void uses(@Fixture(value = "limits", allow = "org.codese.CodeseLimits") CodeseLimits limits) {
      assertEquals(12_345, limits.maxObjects());
    }
  }

  private static String onlyFailure(Path dir, Class<?> sample) {
    TestExecutionSummary s = Launch.run(dir, List.of(), sample);
    List<String> failures = Launch.failures(s);
    assertEquals(1, failures.size(), failures::toString);
    return failures.get(0);
  }

  @Test
  void missingFactory(@TempDir Path dir) {
    String m = onlyFailure(dir, NoFactory.class);
    assertTrue(
        m.startsWith(
            "Codese fixture \"nowhere\" (declared in "
                + NoFactory.class.getName()
                + ", file "
                + dir.resolve("org/codese/junit/nowhere.cdse")
                + ") must be recorded"),
        m);
    assertTrue(m.contains("no factory nowhere: declare a static no-argument method"), m);
  }

  @Test
  void factoryReturningNull(@TempDir Path dir) {
    assertTrue(
        onlyFailure(dir, NullFactory.class)
            .endsWith(
                "could not be recorded: its factory "
                    + NullFactory.class.getName()
                    + ".nothing() returned null"));
  }

  @Test
  void copyOfTheWrongType(@TempDir Path dir) {
    assertTrue(
        onlyFailure(dir, WrongType.class)
            .contains(
                ") holds a java.lang.String, which does"
                    + " not fit field "
                    + WrongType.class.getName()
                    + ".shop of type "
                    + Shop.class.getName()));
  }

  @Test
  void staticFieldRefused(@TempDir Path dir) {
    assertTrue(onlyFailure(dir, StaticField.class).contains("is static or final"));
  }

  @Test
  void nameThatIsNotAFileName(@TempDir Path dir) {
    assertTrue(onlyFailure(dir, BadName.class).contains("a fixture's name is letters, digits"));
  }

  @Test
  void classesNotTheTestsOwnNeedAllow(@TempDir Path dir) {
    String m = onlyFailure(dir, NotOwn.class);
    assertTrue(m.contains("holds classes that are not Serializable and not the tests' own"), m);
    assertTrue(
        m.endsWith(
            "org.codese.CodeseLimits. If they come from your own code, admit them:"
                + " @Fixture(value = \"limits\", allow = {\"org.codese.CodeseLimits\"})"),
        m);
    TestExecutionSummary s = Launch.run(dir, List.of(), Allowed.class);
    assertEquals(List.of(), Launch.failures(s));
    assertEquals(1, s.getTestsSucceededCount());
  }
}
