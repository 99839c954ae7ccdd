package org.codese.junit;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.JUnitException;

/**
 * One use of a fixture, resolved: its name, the class that declares it, its file and whether this
 * run asks to record it.
 *
 * @param fixture the annotation
 * @param declaringClass the class whose field or method carries it
 * @param file the fixture's file, absolute
 * @param record whether {@code codese.fixtures.record} names this fixture
 */
record FixtureSpec(Fixture fixture, Class<?> declaringClass, Path file, boolean record) {
  /** The configuration parameter (or system property) that asks for recording. */
  static final String RECORD = "codese.fixtures.record";

  /** The configuration parameter (or system property) that replaces src/test/resources. */
  static final String DIR = "codese.fixtures.dir";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final List<String> BUILD_FILES =
      List.of("pom.xml", "build.gradle", "build.gradle.kts");

  static FixtureSpec of(Fixture fixture, Class<?> declaringClass, ExtensionContext context) {
    String name = fixture.value();
    if (!NAME.matcher(name).matches()) {
      throw new JUnitException(
          "@Fixture(\""
              + name
              + "\") in "
              + declaringClass.getName()
              + ": a fixture's name is letters, digits, '.', '_' and '-', starting with a letter or"
              + " digit");
    }
    Path root =
        context
            .getConfigurationParameter(DIR)
            .map(Path::of)
            .orElseGet(() -> moduleDir(declaringClass).resolve("src/test/resources"));
    String pkg = declaringClass.getPackageName();
    Path dir = pkg.isEmpty() ? root : root.resolve(pkg.replace('.', '/'));
    Path file = dir.resolve(name + ".cdse").toAbsolutePath().normalize();
    Optional<String> record = context.getConfigurationParameter(RECORD).map(String::trim);
    return new FixtureSpec(
        fixture, declaringClass, file, record.map(r -> asks(r, name)).orElse(false));
  }

  private static boolean asks(String value, String name) {
    return value.equalsIgnoreCase("true") || Arrays.asList(value.split("\\s*,\\s*")).contains(name);
  }

  /**
   * The nearest directory above the class's output directory with a build file, or the working
   * directory.
   */
  private static Path moduleDir(Class<?> c) {
    CodeSource source = c.getProtectionDomain().getCodeSource();
    if (source != null && source.getLocation() != null) {
      try {
        Path p = Path.of(source.getLocation().toURI());
        for (int up = 0; up < 5 && p != null && Files.isDirectory(p); up++, p = p.getParent()) {
          for (String build : BUILD_FILES) {
            if (Files.isRegularFile(p.resolve(build))) {
              return p;
            }
          }
        }
      } catch (URISyntaxException | IllegalArgumentException e) {
        // not a file system location: fall back to the working directory
      }
    }
    return Path.of("").toAbsolutePath();
  }

  /**
   * @return the fixture's name
   */
  String name() {
    return fixture.value();
  }

  /**
   * @return the top-level class enclosing the declaring class
   */
  Class<?> topLevelClass() {
    Class<?> c = declaringClass;
    while (c.getEnclosingClass() != null) {
      c = c.getEnclosingClass();
    }
    return c;
  }

  /**
   * @return what tells loads of this fixture apart within one store
   */
  List<Object> key() {
    return List.of(file, List.of(fixture.allow()));
  }
}
