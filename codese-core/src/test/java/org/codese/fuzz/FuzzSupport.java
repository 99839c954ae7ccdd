package org.codese.fuzz;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.codese.testkit.Checksums;

/**
 * What the fuzz tests share: running one input under a time limit, the rule for what may escape (an
 * {@link IOException} and nothing else), and re-framing of mutated inputs so that they pass the
 * checksums and reach the deeper checks.
 *
 * <p>The checksum fixing only uses the file layout documented in {@code
 * org.codese.format.SnapshotFile}: magic (4), version (2), five sections of tag (1), length (4),
 * CRC-32C of the payload (4) and payload, then a CRC-32C of everything before it; and the stream
 * layout of {@code org.codese.load.StreamReader}: magic (4), version (2), then frames: a positive
 * length (4) and a snapshot, a negative length and that much primitive data, a reset ({@code
 * 0x80000000}), and at last a zero length.
 */
final class FuzzSupport {
  /** Longest time one input may take to load and restore before it counts as a hang. */
  static final long TIME_LIMIT_SECONDS = Long.getLong("codese.fuzz.timeLimitSeconds", 10);

  private static ExecutorService worker = newWorker();

  private FuzzSupport() {}

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, "codese-fuzz-trial");
          t.setDaemon(true);
          return t;
        });
  }

  /** A finding: the input took longer than the time limit. */
  static final class HangFinding extends AssertionError {
    private static final long serialVersionUID = 1L;

    HangFinding(String what, StackTraceElement[] where) {
      super(what + ": no answer within " + TIME_LIMIT_SECONDS + " s (hang); the worker was at:");
      setStackTrace(where);
    }
  }

  /**
   * Runs {@code trial} on a worker thread under the time limit. Returns normally when it returns or
   * throws an {@link IOException} (a typed rejection); rethrows, unchanged, anything else it throws
   * (a finding), throws an AssertionError for an IOException caused by a {@link
   * VirtualMachineError} (an {@code OutOfMemoryError} caught and wrapped is still a finding), and
   * throws a {@link HangFinding} when it runs out of time.
   *
   * @param what names the target, for the hang message
   * @param trial the work
   * @return what the trial returned, or {@code null} if it threw an IOException
   */
  static synchronized <T> T run(String what, Callable<T> trial) {
    Thread[] running = new Thread[1];
    Future<T> f =
        worker.submit(
            () -> {
              running[0] = Thread.currentThread();
              return trial.call();
            });
    try {
      return f.get(TIME_LIMIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        for (Throwable c = cause.getCause(); c != null; c = c.getCause()) {
          if (c instanceof VirtualMachineError) {
            // an OutOfMemoryError or StackOverflowError happened, even if it was then reported
            // as an IOException: the JVM was in trouble, and other threads may have failed
            throw new AssertionError(
                what + ": " + c + " reported as " + cause.getClass().getName(), cause);
          }
        }
        return null;
      }
      throw FuzzSupport.<RuntimeException>sneaky(cause);
    } catch (TimeoutException e) {
      StackTraceElement[] where =
          running[0] == null ? new StackTraceElement[0] : running[0].getStackTrace();
      f.cancel(true);
      worker.shutdownNow();
      worker = newWorker();
      throw new HangFinding(what, where);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable t) throws E {
    throw (E) t;
  }

  /** As {@link Checksums#fix}. */
  static void fixSnapshot(byte[] b, int start, int end) {
    Checksums.fix(b, start, end);
  }

  /**
   * @return a copy of a snapshot with its checksums fixed
   */
  static byte[] fixedSnapshot(byte[] data) {
    return Checksums.fixed(data);
  }

  /** As {@link Checksums#fixedStream}. */
  static byte[] fixedStream(byte[] data) {
    return Checksums.fixedStream(data);
  }
}
