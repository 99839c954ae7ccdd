package org.codese.load;

import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.List;
import org.codese.program.ClassEntry;

/**
 * Computes, on a daemon thread, the {@code serialVersionUID} of a class of Codese's own that
 * declares none, while the loader checks a snapshot whose class table holds values computed at
 * capture ({@link ClassTable#checkSuids}): the first such computation in a JVM sets up {@code
 * ObjectStreamClass} and the JDK's SHA-1 provider, which cost a fresh JVM about 15 ms on the
 * loading thread (a graph of two classes without a declared value: read, load and restore 29 ms
 * before the check existed, 45 ms with it). Only the JDK's machinery is warmed: the snapshot's own
 * classes are looked up on the loading thread, last, as before, since a lookup may initialise them.
 */
final class SuidWarmUp implements Runnable {
  private static volatile boolean started;

  private SuidWarmUp() {}

  /**
   * Starts the warm-up once per JVM if {@code entries} holds a computed value.
   *
   * @param entries a snapshot's class table
   */
  static void startIfNeeded(List<ClassEntry> entries) {
    if (started) {
      return;
    }
    for (ClassEntry e : entries) {
      if (!e.hasSuid() && e.suid() != 0) {
        started = true;
        try {
          Thread t = new Thread(new SuidWarmUp(), "codese-suid-compute");
          t.setDaemon(true);
          t.start();
        } catch (RuntimeException | Error x) {
          // no thread allowed or available: the check pays the cost itself
        }
        return;
      }
    }
  }

  @Override
  public void run() {
    try {
      ObjectStreamClass.lookup(Probe.class).getSerialVersionUID();
    } catch (RuntimeException | LinkageError e) {
      // the check computes the values it needs itself, and reports what goes wrong
    }
  }

  /** A serializable class without a declared {@code serialVersionUID}: its value is computed. */
  private static final class Probe implements Serializable {
    private int value;
  }
}
