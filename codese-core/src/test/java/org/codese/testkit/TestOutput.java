package org.codese.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Keeps the default build's output to what a reader needs: the tests' own detail (timings, memory
 * figures) and the fuzzer's notices print only with {@code -Dcodese.test.verbose=true}.
 *
 * <p>Registered as a {@link LauncherSessionListener} (in {@code META-INF/services}), so that it
 * runs before any test: unless verbose, it puts a {@link NoiseFilter} in front of {@code
 * System.err}, where Jazzer's agent writes an {@code INFO:} line for every hook it loads and every
 * class it instruments once a fuzz test has started it (hundreds per build). Everything else passes
 * unchanged, Jazzer's warnings and findings included.
 */
public final class TestOutput implements LauncherSessionListener {
  /** The system property that turns the detail on. */
  public static final String VERBOSE_PROPERTY = "codese.test.verbose";

  /** Jazzer's per-class and per-hook notices, whole lines. */
  static final List<Pattern> NOISE =
      List.of(
          Pattern.compile("INFO: Instrumented \\S+ (with custom hooks only )?\\(took .*"),
          Pattern.compile("INFO: Loaded \\d+ hooks from \\S+"));

  /** Whether this JVM's tests print their detail. */
  public static boolean verbose() {
    return Boolean.getBoolean(VERBOSE_PROPERTY);
  }

  /**
   * Prints one line of detail (a timing, a measured size) to standard output, only when {@code
   * -Dcodese.test.verbose=true}.
   *
   * @param line the line
   */
  public static void detail(String line) {
    if (verbose()) {
      System.out.println(line);
    }
  }

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    quietStandardError();
  }

  /** Filters {@code System.err} unless verbose; does nothing if it is filtered already. */
  static synchronized void quietStandardError() {
    if (!verbose() && !(System.err instanceof Filtered)) {
      System.setErr(new Filtered(System.err));
    }
  }

  /** The filtered standard error stream: a marker so that it is installed once. */
  static final class Filtered extends PrintStream {
    Filtered(PrintStream err) {
      super(new NoiseFilter(err), true, StandardCharsets.UTF_8);
    }
  }

  /**
   * Passes whole lines on unless they are {@link #NOISE}. A partial line is passed on when flushed
   * unless it may still become noise (it starts like {@code "INFO: "}).
   */
  static final class NoiseFilter extends OutputStream {
    private static final byte[] PREFIX = "INFO: ".getBytes(StandardCharsets.US_ASCII);

    private final OutputStream out;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    NoiseFilter(OutputStream out) {
      this.out = out;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      line.write(b);
      if (b == '\n') {
        endLine();
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      for (int i = off; i < off + len; i++) {
        write(b[i]);
      }
    }

    private void endLine() throws IOException {
      String text = line.toString(StandardCharsets.ISO_8859_1).stripTrailing();
      if (NOISE.stream().noneMatch(p -> p.matcher(text).matches())) {
        line.writeTo(out);
      }
      line.reset();
    }

    @Override
    public synchronized void flush() throws IOException {
      if (line.size() > 0 && !mayBeNoise()) {
        line.writeTo(out);
        line.reset();
      }
      out.flush();
    }

    private boolean mayBeNoise() {
      byte[] start = line.toByteArray();
      for (int i = 0; i < Math.min(start.length, PREFIX.length); i++) {
        if (start[i] != PREFIX[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public synchronized void close() throws IOException {
      line.writeTo(out);
      line.reset();
      out.close();
    }
  }
}
