package org.codese.junit;

import java.lang.reflect.Method;
import java.util.List;
import org.codese.ClassMismatchException;

/** The texts of the failures a fixture reports. */
final class Messages {
  private Messages() {}

  /** The start of every message: which fixture, declared where, and its file. */
  static String about(FixtureSpec spec, String problem) {
    return "Codese fixture \""
        + spec.name()
        + "\" (declared in "
        + spec.declaringClass().getName()
        + ", file "
        + spec.file()
        + ") "
        + problem;
  }

  /** How to record the fixture again; starts with a line break. */
  static String howToRecord(FixtureSpec spec) {
    String test = spec.topLevelClass().getSimpleName();
    return "\nRe-record it: mvn test -Dtest="
        + test
        + " -D"
        + FixtureSpec.RECORD
        + "="
        + spec.name()
        + "\n("
        + FixtureSpec.RECORD
        + " is a system property or JUnit configuration"
        + " parameter, true for every fixture; or delete the file: the next run records it.)";
  }

  static String stale(FixtureSpec spec, ClassMismatchException e) {
    return about(
        spec,
        "is stale: its classes changed since it was recorded ("
            + e.getMessage()
            + ")."
            + howToRecord(spec));
  }

  static String notAllowed(FixtureSpec spec, List<String> others) {
    return about(
        spec,
        "holds classes that are not Serializable and not the tests' own (not in"
            + " package "
            + spec.declaringClass().getPackageName()
            + " or its subpackages, nor in the"
            + " test classes' directory): "
            + String.join(", ", others)
            + ". If they come from your"
            + " own code, admit them: @Fixture(value = \""
            + spec.name()
            + "\", allow = {\""
            + String.join("\", \"", others)
            + "\"})");
  }

  /**
   * A fixture refused for something other than a class of its own: a reference to a static
   * constant, unless the fixture declares them.
   */
  static String refused(FixtureSpec spec, Exception e) {
    String hint =
        spec.fixture().staticConstants()
            ? ""
            : ". If it was recorded with references to static constants, declare them:"
                + " @Fixture(value = \""
                + spec.name()
                + "\", staticConstants = true)";
    return about(spec, "could not be loaded: " + e.getMessage() + hint);
  }

  static String noFactory(FixtureSpec spec, String factory) {
    return about(
        spec,
        "must be recorded (its file is missing or "
            + FixtureSpec.RECORD
            + " asks for it) but has no factory "
            + factory
            + ": declare a static no-argument method"
            + " of that name in "
            + spec.declaringClass().getName()
            + " or an enclosing class, or"
            + " name one with @Fixture(value = \""
            + spec.name()
            + "\", factory = \"method\" or"
            + " \"com.example.Fixtures#method\")");
  }

  static String method(Method m) {
    return m.getDeclaringClass().getName() + "." + m.getName() + "()";
  }
}
