package org.codese.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Assertions on the text of a rejection: what it names, not its exact wording. */
public final class Messages {
  private Messages() {}

  /**
   * Asserts that {@code message} contains every one of {@code parts}.
   *
   * @param message an exception's message
   * @param parts what it must mention
   */
  public static void assertMentions(String message, String... parts) {
    for (String p : parts) {
      assertTrue(message.contains(p), () -> "expected \"" + p + "\" in: " + message);
    }
  }
}
