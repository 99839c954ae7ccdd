package org.codese.junit;

import java.io.IOException;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.codese.ClassMismatchException;
import org.codese.ClassNotAllowedException;
import org.codese.Codese;
import org.codese.CodeseOptions;
import org.codese.Snapshot;
import org.junit.platform.commons.JUnitException;

/**
 * Loads a fixture's bytes, admitting the classes it needs that are the tests' own: those of the
 * declaring class's package and its subpackages, and those loaded from the same class path entry as
 * the declaring class; plus the patterns of {@link Fixture#allow()}.
 */
final class Admission {
  private Admission() {}

  static Snapshot load(FixtureSpec spec, byte[] bytes) {
    CodeseOptions options =
        CodeseOptions.defaults()
            .withClassLoader(spec.declaringClass().getClassLoader())
            .withStaticConstants(spec.fixture().staticConstants());
    List<String> others = new ArrayList<>();
    try {
      List<String> admitted = new ArrayList<>(List.of(spec.fixture().allow()));
      for (String name : Codese.classesToAllow(bytes, options)) {
        (own(spec.declaringClass(), name) ? admitted : others).add(name);
      }
      return Codese.load(bytes, options.withAllowedClasses(admitted.toArray(String[]::new)));
    } catch (ClassMismatchException e) {
      throw new JUnitException(Messages.stale(spec, e), e);
    } catch (ClassNotAllowedException e) {
      String message =
          others.isEmpty() ? Messages.refused(spec, e) : Messages.notAllowed(spec, others);
      throw new JUnitException(message, e);
    } catch (IOException | IllegalArgumentException e) {
      throw new JUnitException(
          Messages.about(spec, "could not be loaded: " + e) + Messages.howToRecord(spec), e);
    }
  }

  /** Whether a class is the tests' own, as seen from the class declaring the fixture. */
  static boolean own(Class<?> declaring, String className) {
    Class<?> c;
    try {
      c = Class.forName(className, false, declaring.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
    String pkg = declaring.getPackageName();
    String its = c.getPackageName();
    boolean inPackage = its.equals(pkg) || !pkg.isEmpty() && its.startsWith(pkg + ".");
    return inPackage || sameLocation(declaring, c);
  }

  private static boolean sameLocation(Class<?> a, Class<?> b) {
    CodeSource x = a.getProtectionDomain().getCodeSource();
    CodeSource y = b.getProtectionDomain().getCodeSource();
    return x != null
        && y != null
        && x.getLocation() != null
        && Objects.equals(x.getLocation(), y.getLocation());
  }
}
