package org.codese.junit;

import java.io.IOException;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.Set;
import org.codese.ClassMismatchException;
import org.codese.Snapshot;
import org.junit.platform.commons.JUnitException;

/**
 * A fixture as its scope keeps it: the loaded snapshot, or why it could not be had. Stored in a
 * JUnit store, which closes it when the scope ends (JUnit 5.13 and later close {@code
 * AutoCloseable} values; with earlier versions the store and the snapshot are simply dropped with
 * the scope). Thread-safe: {@link Snapshot#restore()} is.
 */
final class LoadedFixture implements AutoCloseable {
  private final FixtureSpec spec;
  private final Snapshot snapshot;
  private final JUnitException failure;

  private LoadedFixture(FixtureSpec spec, Snapshot snapshot, JUnitException failure) {
    this.spec = spec;
    this.snapshot = snapshot;
    this.failure = failure;
  }

  /** Records the fixture if it must be, then loads it; a failure is kept, not thrown. */
  static LoadedFixture open(FixtureSpec spec, Set<Path> recorded) {
    try {
      byte[] bytes = Recorder.bytes(spec, recorded);
      return new LoadedFixture(spec, Admission.load(spec, bytes), null);
    } catch (JUnitException e) {
      return new LoadedFixture(spec, null, e);
    }
  }

  /**
   * @param type the field's or parameter's type
   * @param target the field or parameter, for messages
   * @return a new copy of the fixture
   * @throws JUnitException if the fixture could not be had, or restoring fails, or the copy does
   *     not fit {@code type}
   */
  Object restore(Class<?> type, String target) {
    if (failure != null) {
      throw new JUnitException(failure.getMessage(), failure.getCause());
    }
    Object copy;
    try {
      copy = snapshot.restore();
    } catch (ClassMismatchException e) {
      throw new JUnitException(Messages.stale(spec, e), e);
    } catch (IOException e) {
      throw new JUnitException(Messages.about(spec, "could not be restored: " + e), e);
    }
    if (!MethodType.methodType(type).wrap().returnType().isInstance(copy)) {
      throw new JUnitException(
          Messages.about(
                  spec,
                  "holds a "
                      + (copy == null ? "null" : copy.getClass().getName())
                      + ", which does not fit "
                      + target
                      + " of type "
                      + type.getName())
              + Messages.howToRecord(spec));
    }
    return copy;
  }

  @Override
  public void close() {
    if (snapshot != null) {
      snapshot.close();
    }
  }
}
