package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.Serializable;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code VirtualMachineError} ({@code OutOfMemoryError}, {@code StackOverflowError}) thrown while
 * restoring leaves every restore API as it is, as it leaves {@code ObjectInputStream}: it says the
 * JVM ran short, not that the snapshot is bad, so it is never wrapped in a {@link
 * RestoreException}. The classes throw the errors deliberately; nothing exhausts memory or stack.
 */
class VirtualMachineErrorsTest {
  /** The error the test classes throw while {@code armed}, made afresh by {@link #make}. */
  private static volatile String what;

  private static volatile Throwable thrown;

  private static Throwable make() {
    Throwable t =
        switch (what) {
          case "stack" -> new StackOverflowError("deliberate");
          case "memory" -> new OutOfMemoryError("deliberate");
          case "internal" -> new InternalError("deliberate");
          case "assertion" -> new AssertionError("deliberate");
          default -> null;
        };
    thrown = t;
    return t;
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  /** Throws from {@code readObject} while armed. */
  static final class ReadObjectThrows implements Serializable {
    private static final long serialVersionUID = 1L;
    int kept = 1;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      if (what != null) {
        throw VirtualMachineErrorsTest.<RuntimeException>sneaky(make());
      }
    }
  }

  /** Throws from {@code validateObject} while armed. */
  static final class ValidationThrows implements Serializable, ObjectInputValidation {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      in.registerValidation(this, 0);
    }

    @Override
    public void validateObject() {
      if (what != null) {
        throw VirtualMachineErrorsTest.<RuntimeException>sneaky(make());
      }
    }
  }

  /** Throws from {@code readResolve} while armed. */
  static final class ReadResolveThrows implements Serializable {
    private static final long serialVersionUID = 1L;

    private Object readResolve() {
      if (what != null) {
        throw VirtualMachineErrorsTest.<RuntimeException>sneaky(make());
      }
      return this;
    }
  }

  /** The first non-serializable superclass, whose constructor throws while armed. */
  static class ThrowingBase {
    ThrowingBase() {
      if (what != null) {
        throw VirtualMachineErrorsTest.<RuntimeException>sneaky(make());
      }
    }
  }

  static final class OnThrowingBase extends ThrowingBase implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** Restores {@code bytes} one way while armed with {@code error}; returns what it threw. */
  private interface Restore {
    void run() throws Exception;
  }

  /** Runs {@code r} armed with {@code error}; asserts that it threw the error made, as it is. */
  private static void leavesAsItIs(String error, Restore r, String where) {
    Throwable t = failure(error, r);
    assertInstanceOf(VirtualMachineError.class, t, where);
    assertSame(thrown, t, where);
  }

  private static Throwable failure(String error, Restore r) {
    what = error;
    thrown = null;
    try {
      r.run();
      return null;
    } catch (Throwable t) {
      return t;
    } finally {
      what = null;
    }
  }

  private static Object[] graphs() {
    return new Object[] {new ReadObjectThrows(), new ValidationThrows(), new ReadResolveThrows()};
  }

  /**
   * Thrown by {@code readObject}, {@code validateObject} or {@code readResolve}, a VM error leaves
   * {@code Codese.fromBytes}, {@code Snapshot.restore} (on one thread and on two) and {@code
   * CodeseInputStream} as the very object thrown, as it leaves {@code ObjectInputStream}.
   */
  @ParameterizedTest
  @ValueSource(strings = {"stack", "memory", "internal"})
  void aVirtualMachineErrorLeavesAsItIs(String error) throws Exception {
    for (Object graph : graphs()) {
      byte[] jdk = JdkBytes.serialize(graph);
      byte[] snapshot = Codese.toBytes(graph);
      java.io.ByteArrayOutputStream stream = new java.io.ByteArrayOutputStream();
      try (CodeseOutputStream out = new CodeseOutputStream(stream)) {
        out.writeObject(graph);
      }
      String where = graph.getClass().getSimpleName() + ", " + error;
      leavesAsItIs(error, () -> JdkBytes.deserialize(jdk), "JDK: " + where);
      leavesAsItIs(error, () -> Codese.fromBytes(snapshot), where);
      try (Snapshot s = Codese.load(snapshot)) {
        leavesAsItIs(error, () -> s.restore(1), where);
        leavesAsItIs(error, () -> s.restore(2), where);
      }
      leavesAsItIs(
          error,
          () -> {
            try (CodeseInputStream in =
                new CodeseInputStream(new ByteArrayInputStream(stream.toByteArray()))) {
              in.readObject();
            }
          },
          "stream: " + where);
    }
  }

  /** Any other {@code Error} of a class's own code still arrives inside a RestoreException. */
  @Test
  void otherErrorsAreStillWrapped() throws Exception {
    for (Object graph : graphs()) {
      byte[] snapshot = Codese.toBytes(graph);
      Throwable t = failure("assertion", () -> Codese.fromBytes(snapshot));
      assertInstanceOf(RestoreException.class, t, graph.getClass().getSimpleName());
      assertSame(thrown, t.getCause());
    }
  }

  /**
   * A VM error from the constructor {@code ObjectInputStream} runs to create an instance: the JDK
   * this runs on wraps it in an {@code InvalidClassException} (JDK 17 to 23) or lets it leave (JDK
   * 24 on); Codese throws the same type.
   */
  @ParameterizedTest
  @ValueSource(strings = {"stack", "memory"})
  void aConstructorsVirtualMachineErrorIsTheJdks(String error) throws Exception {
    byte[] jdk = JdkBytes.serialize(new OnThrowingBase());
    byte[] snapshot = Codese.toBytes(new OnThrowingBase());
    Throwable byJdk = failure(error, () -> JdkBytes.deserialize(jdk));
    Throwable byCodese = failure(error, () -> Codese.fromBytes(snapshot));
    assertEquals(byJdk.getClass(), byCodese.getClass(), String.valueOf(byCodese));
    if (byJdk instanceof VirtualMachineError) {
      assertSame(thrown, byCodese);
    }
  }
}
