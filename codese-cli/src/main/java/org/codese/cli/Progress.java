package org.codese.cli;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error that appears only once a task has run for a second, so quick
 * runs print nothing. Callers update {@link #value} from the working thread; a daemon thread draws.
 */
final class Progress implements AutoCloseable {
  /** How long a task runs before its bar appears. */
  static final long DELAY_MILLIS = 1_000;

  final AtomicLong value = new AtomicLong();
  private final Thread painter;
  private volatile String task;
  private volatile long max;
  private volatile boolean done;

  /**
   * @param enabled whether to draw at all
   * @param err where to draw
   * @param task the first task's name
   * @param max the first task's size, or -1 if unknown
   */
  Progress(boolean enabled, PrintStream err, String task, long max) {
    this.task = task;
    this.max = max;
    if (!enabled) {
      painter = null;
      return;
    }
    painter = new Thread(() -> paint(err), "codese-progress");
    painter.setDaemon(true);
    painter.start();
  }

  /** Starts the next task: the bar's name and size change and its value restarts from 0. */
  void next(String name, long size) {
    value.set(0);
    this.max = size;
    this.task = name;
  }

  private void paint(PrintStream err) {
    long start = System.nanoTime();
    try {
      while (!done && System.nanoTime() - start < DELAY_MILLIS * 1_000_000) {
        Thread.sleep(50);
      }
      if (done) {
        return;
      }
      String shown = task;
      ProgressBar bar = bar(err, shown);
      try {
        while (!done) {
          if (!task.equals(shown)) {
            bar.close();
            shown = task;
            bar = bar(err, shown);
          }
          bar.maxHint(max);
          bar.stepTo(Math.max(0, value.get()));
          Thread.sleep(100);
        }
        bar.maxHint(max);
        bar.stepTo(max < 0 ? value.get() : max);
      } finally {
        bar.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private ProgressBar bar(PrintStream err, String name) {
    return new ProgressBarBuilder()
        .setTaskName(name)
        .setInitialMax(max)
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(100)
        .setConsumer(new ConsoleProgressBarConsumer(err))
        .build();
  }

  @Override
  public void close() {
    done = true;
    if (painter != null) {
      try {
        painter.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
