package org.codese.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Runs one program against the JDK's object streams and against Codese's, and compares what the two
 * runs observed: the facts the reading side records, the hook calls the test classes log, and the
 * exception the program ended with (class and message of it and of every cause). Each stream writes
 * its own data, and each stream reads what its own kind wrote, so a test states no expectation the
 * JDK could not contradict.
 */
public final class SideBySide {
  private SideBySide() {}

  /** Hook calls of the test classes of the current run, in order. */
  private static final List<String> LOG = Collections.synchronizedList(new ArrayList<>());

  /** The writing half of a program. */
  public interface Writer {
    void write(ObjectOutputStream out) throws Exception;
  }

  /** The reading half of a program; {@code facts} collects what it observes. */
  public interface Reader {
    void read(ObjectInputStream in, List<String> facts) throws Exception;
  }

  /** Makes streams of one kind. */
  public interface Streams {
    ObjectOutputStream out(OutputStream o) throws IOException;

    ObjectInputStream in(InputStream i) throws IOException;
  }

  /** The JDK's {@code ObjectOutputStream} and {@code ObjectInputStream}. */
  public static final Streams JDK =
      new Streams() {
        @Override
        public ObjectOutputStream out(OutputStream o) throws IOException {
          return new ObjectOutputStream(o);
        }

        @Override
        public ObjectInputStream in(InputStream i) throws IOException {
          return new ObjectInputStream(i);
        }

        @Override
        public String toString() {
          return "JDK";
        }
      };

  /** {@code CodeseOutputStream} and {@code CodeseInputStream} with default options. */
  public static final Streams CODESE =
      new Streams() {
        @Override
        public ObjectOutputStream out(OutputStream o) throws IOException {
          return RoundTrip.CodeseStreams.newOutput(o);
        }

        @Override
        public ObjectInputStream in(InputStream i) throws IOException {
          return RoundTrip.CodeseStreams.newInput(i);
        }

        @Override
        public String toString() {
          return "Codese";
        }
      };

  /**
   * What one run observed.
   *
   * @param facts what the reader recorded
   * @param log the hook calls of the test classes, writing and reading
   * @param thrown the exception the reader ended with, described with its causes, or "none"
   */
  public record Outcome(List<String> facts, List<String> log, String thrown) {}

  /** Set while {@link #jdkForm} serializes, whose hook calls are not the program's. */
  private static volatile boolean muted;

  /** Logs a hook call of a test class. */
  public static void log(String call) {
    if (!muted) {
      LOG.add(call);
    }
  }

  /**
   * Runs the program on both kinds of streams and asserts that they observed the same.
   *
   * @return the JDK's outcome, for assertions that the program tests what it claims to
   */
  public static Outcome same(Writer w, Reader r) throws Exception {
    Outcome jdk = run(JDK, w, r);
    Outcome codese = run(CODESE, w, r);
    assertEquals(jdk, codese, "Codese's streams differ from the JDK's");
    return jdk;
  }

  /** Runs the program on one kind of streams. */
  public static Outcome run(Streams s, Writer w, Reader r) throws Exception {
    LOG.clear();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = s.out(bytes)) {
      w.write(out);
    }
    List<String> facts = new ArrayList<>();
    String thrown = "none";
    try (ObjectInputStream in = s.in(new ByteArrayInputStream(bytes.toByteArray()))) {
      r.read(in, facts);
    } catch (Exception | Error e) {
      thrown = describe(e);
    }
    List<String> log = List.copyOf(LOG);
    LOG.clear();
    return new Outcome(List.copyOf(facts), log, thrown);
  }

  /**
   * Runs the writing half alone on one kind of streams, for what {@code writeObject} itself throws.
   *
   * @return the class names of the exception the writer ended with and of its causes, or "none"
   */
  public static String writeFails(Streams s, Writer w) throws IOException {
    LOG.clear();
    try (ObjectOutputStream out = s.out(new ByteArrayOutputStream())) {
      w.write(out);
      return "none";
    } catch (Exception | Error e) {
      return types(e);
    }
  }

  /** The class names of {@code t} and of each of its causes. */
  public static String types(Throwable t) {
    StringBuilder s = new StringBuilder(t.getClass().getName());
    for (Throwable c = t.getCause(); c != null; c = c.getCause()) {
      s.append(" <- ").append(c.getClass().getName());
    }
    return s.toString();
  }

  /**
   * The JDK's serial form of {@code o}, in hex: a fact two restored graphs must agree on. The hooks
   * it runs are not logged.
   */
  public static String jdkForm(Object o) throws IOException {
    muted = true;
    try {
      return java.util.HexFormat.of().formatHex(JdkBytes.serialize(o));
    } finally {
      muted = false;
    }
  }

  /** The class and message of {@code t} and of each of its causes. */
  public static String describe(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c != t) {
        s.append(" <- caused by ");
      }
      s.append(c.getClass().getName()).append(": ").append(c.getMessage());
    }
    return s.toString();
  }
}
