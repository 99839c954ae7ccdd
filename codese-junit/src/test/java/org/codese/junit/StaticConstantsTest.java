package org.codese.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * {@link Fixture#staticConstants()}: a fixture whose graph holds a class's own constant restores it
 * as that constant when the fixture says so, as a copy when it does not, and a fixture recorded
 * with constants but declared without them fails with a message that names the attribute.
 */
class StaticConstantsTest {
  /** A key compared by identity, as a library's key constants are. */
  static final class Key implements Serializable {
    private static final long serialVersionUID = 1L;
    final String name;

    Key(String name) {
      this.name = name;
    }
  }

  /** Values by key, looked up by identity; the keys are this class's constants. */
  static final class Settings implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Key COLOUR = new Key("colour");
    final Map<Key, String> values = new IdentityHashMap<>();

    static Settings sample() {
      Settings s = new Settings();
      s.values.put(COLOUR, "blue");
      return s;
    }
  }

  @Launch.Sample
  static class Kept {
    @Fixture(value = "settings", factory = "settings", staticConstants = true)
    Settings settings;

    static Settings settings() {
      return Settings.sample();
    }

    @Test
    void theConstantIsTheLiveOne() {
      assertEquals("blue", settings.values.get(Settings.COLOUR));
      assertSame(Settings.COLOUR, settings.values.keySet().iterator().next());
    }
  }

  @Launch.Sample
  static class Copied {
    @Fixture(value = "copied", factory = "settings")
    Settings settings;

    static Settings settings() {
      return Settings.sample();
    }

    @Test
    void theConstantIsACopy() {
      Key key = settings.values.keySet().iterator().next();
      assertNotSame(Settings.COLOUR, key);
      assertEquals("colour", key.name);
    }
  }

  /** Loads the file {@link Kept} recorded, without saying it holds constants. */
  @Launch.Sample
  static class Undeclared {
    @Fixture(value = "settings", factory = "settings")
    Settings settings;

    static Settings settings() {
      return Settings.sample();
    }

    @Test
    void loads() {
      assertEquals(1, settings.values.size());
    }
  }

  private static TestExecutionSummary run(Path dir, Class<?> sample) {
    return Launch.run(dir, List.of(FixtureSpec.RECORD, "all"), sample);
  }

  @Test
  void constantsAreKeptWhenTheFixtureSaysSo(@TempDir Path dir) {
    TestExecutionSummary s = Launch.run(dir, List.of(), Kept.class);
    assertEquals(List.of(), Launch.failures(s));
    assertEquals(1, s.getTestsSucceededCount());
    // and again from the recorded file
    s = Launch.run(dir, List.of(), Kept.class);
    assertEquals(List.of(), Launch.failures(s));
    assertEquals(1, s.getTestsSucceededCount());
  }

  @Test
  void constantsAreCopiedByDefault(@TempDir Path dir) {
    TestExecutionSummary s = run(dir, Copied.class);
    assertEquals(List.of(), Launch.failures(s));
    assertEquals(1, s.getTestsSucceededCount());
  }

  @Test
  void aFileWithConstantsLoadedWithoutTheAttributeSaysWhatToDeclare(@TempDir Path dir) {
    assertEquals(1, Launch.run(dir, List.of(), Kept.class).getTestsSucceededCount());
    TestExecutionSummary s = Launch.run(dir, List.of(), Undeclared.class);
    List<String> failures = Launch.failures(s);
    assertEquals(1, failures.size(), failures.toString());
    assertTrue(failures.get(0).contains("staticConstants = true"), failures.get(0));
    assertTrue(failures.get(0).contains("settings"), failures.get(0));
  }
}
