package org.codese.junit;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.codese.Codese;
import org.codese.CodeseOptions;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Gives a fixture's bytes: read from its file, or recorded first by running its factory and
 * capturing the result. One file is recorded or read by one thread at a time, and re-recorded at
 * most once per test run when the run asks for recording.
 */
final class Recorder {
  private static final Map<Path, Object> LOCKS = new ConcurrentHashMap<>();

  private Recorder() {}

  /**
   * @param spec the fixture
   * @param recorded the files recorded in this test run so far, thread-safe; this one is added
   * @return the fixture's bytes
   */
  static byte[] bytes(FixtureSpec spec, Set<Path> recorded) {
    Path file = spec.file();
    synchronized (LOCKS.computeIfAbsent(file, k -> new Object())) {
      boolean missing = !Files.isRegularFile(file);
      boolean asked = spec.record() && !recorded.contains(file);
      if (missing || asked) {
        recorded.add(file);
        return record(spec);
      }
      try {
        return Files.readAllBytes(file);
      } catch (IOException e) {
        throw new JUnitException(Messages.about(spec, "could not be read: " + e), e);
      }
    }
  }

  private static byte[] record(FixtureSpec spec) {
    Method factory = factory(spec);
    Object value;
    try {
      value = ReflectionSupport.invokeMethod(factory, null);
    } catch (Throwable e) {
      if (e instanceof VirtualMachineError) {
        throw (VirtualMachineError) e;
      }
      throw new JUnitException(
          Messages.about(
              spec,
              "could not be recorded: its factory " + Messages.method(factory) + " threw " + e),
          e);
    }
    if (value == null) {
      throw new JUnitException(
          Messages.about(
              spec,
              "could not be recorded: its factory " + Messages.method(factory) + " returned null"));
    }
    try {
      byte[] bytes =
          Codese.toBytes(
              value,
              CodeseOptions.defaults().withStaticConstants(spec.fixture().staticConstants()));
      write(spec.file(), bytes);
      return bytes;
    } catch (IOException e) {
      throw new JUnitException(Messages.about(spec, "could not be recorded: " + e), e);
    }
  }

  private static void write(Path file, byte[] bytes) throws IOException {
    Files.createDirectories(file.getParent());
    // not createTempFile, whose file is private to its owner: fixtures are shared sources
    Path temp =
        file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      Files.write(temp, bytes);
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The factory: {@code Class#method}, or a method of the declaring class or an enclosing one. */
  private static Method factory(FixtureSpec spec) {
    String name = spec.fixture().factory().isEmpty() ? spec.name() : spec.fixture().factory();
    int hash = name.indexOf('#');
    Optional<Method> found = Optional.empty();
    if (hash >= 0) {
      found =
          ReflectionSupport.tryToLoadClass(
                  name.substring(0, hash), spec.declaringClass().getClassLoader())
              .toOptional()
              .flatMap(c -> ReflectionSupport.findMethod(c, name.substring(hash + 1)));
    } else {
      for (Class<?> c = spec.declaringClass();
          c != null && found.isEmpty();
          c = c.getEnclosingClass()) {
        found = ReflectionSupport.findMethod(c, name);
      }
    }
    Method m = found.orElseThrow(() -> new JUnitException(Messages.noFactory(spec, name)));
    if (!Modifier.isStatic(m.getModifiers())) {
      throw new JUnitException(
          Messages.about(
              spec,
              "could not be recorded: its factory " + Messages.method(m) + " must be static"));
    }
    return m;
  }
}
