package org.codese.load;

import java.io.ObjectStreamException;
import org.codese.UnsafeSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.verify.GrammarCheck;

/**
 * Runs {@link GrammarCheck#check} on a short-lived daemon thread while the loader resolves the
 * snapshot's classes, so that in a cold JVM the two overlap on a machine with more than one
 * processor (each does mostly class loading and interpreted work). The check only reads the parsed
 * file: it has no side effect to order against the loader's.
 *
 * <p>Use: {@link #start}, then {@link #result} exactly once, from the thread that started it. Where
 * no second processor or thread is available the check runs in {@link #start} itself.
 */
final class CodeCheck extends Thread {
  // The classes every load needs are linked from the start of the load, on the filter
  // configuration's thread (org.codese.LinkAhead); the ones below only where the snapshot needs
  // them.

  /** Classes a restore needs that allocates without constructors ({@link Constants}). */
  static final String[] BARE_CLASSES = {"org.codese.jvm.TheUnsafe"};

  /** Classes a restore that runs hooks needs (readObject replays, records, readResolve). */
  static final String[] HOOK_CLASSES = {
    "org.codese.load.HookRuns",
    "org.codese.load.ReplayStream",
    "org.codese.jvm.FieldValues",
    "org.codese.jvm.SlotFields",
    "org.codese.jvm.FieldTable"
  };

  /** Classes a restore that fills JDK collections needs ({@link CollectionFills}). */
  static final String[] FILL_CLASSES = {"org.codese.load.Hooks", "org.codese.load.CollectionFills"};

  /**
   * Snapshots with at least this many table slots get the program check's loops compiled first
   * ({@link CheckLoops#warmUp}); below it the interpreter checks them in about a millisecond.
   */
  static final int WARM_SLOTS = 20_000;

  private final SnapshotFile file;
  private final GrammarCheck.Checked[] known;

  /** Guards {@link #result}, {@link #failure} and {@link #done}. */
  private final Object lock = new Object();

  private GrammarCheck.Result result;
  private Throwable failure;
  private boolean done;
  private boolean started;

  private CodeCheck(SnapshotFile file, GrammarCheck.Checked[] known) {
    super("codese-code-check");
    setDaemon(true);
    this.file = file;
    this.known = known;
  }

  /**
   * Starts checking {@code file}'s code.
   *
   * @param file a parsed snapshot
   * @return the running (or, without a second processor, finished) check
   */
  static CodeCheck start(SnapshotFile file) {
    return start(file, new GrammarCheck.Checked[file.classFiles().size()], false);
  }

  /**
   * Starts checking {@code file}'s code, taking the outcome of the classes {@code known} holds (see
   * {@link GrammarCheck#check(SnapshotFile, GrammarCheck.Checked[])}); {@code known} is filled in
   * and may be read after {@link #result}.
   *
   * @param file a parsed snapshot
   * @param known per class file, the outcome of an earlier check of the same bytes, or null
   * @param inline whether to check on the caller's thread (see also {@link #checkHere})
   * @return the running (or finished) check
   */
  static CodeCheck start(SnapshotFile file, GrammarCheck.Checked[] known, boolean inline) {
    CodeCheck check = new CodeCheck(file, known);
    if (!inline && Runtime.getRuntime().availableProcessors() > 1) {
      check.started = true; // before start(), not after: the thread reads it
      try {
        check.start();
      } catch (RuntimeException | Error e) {
        check.started = false; // no thread allowed or available: run() below does the work here
      }
    }
    if (!check.started) {
      check.run();
    }
    return check;
  }

  /**
   * Checks {@code file}'s code on the caller's thread, at once, without a thread object.
   *
   * @param file a parsed snapshot
   * @param known as for {@link #start(SnapshotFile, GrammarCheck.Checked[], boolean)}
   * @return the check's result
   * @throws UnsafeSnapshotException if the code breaks the restore grammar
   */
  static GrammarCheck.Result checkHere(SnapshotFile file, GrammarCheck.Checked[] known)
      throws ObjectStreamException {
    GrammarCheck.Result r = GrammarCheck.check(file, known);
    if (!r.violations().isEmpty()) {
      throw Failures.unsafe(r.violations());
    }
    return r;
  }

  @Override
  public void run() {
    GrammarCheck.Result r = null;
    try {
      r = GrammarCheck.check(file, known);
    } catch (RuntimeException | Error e) {
      synchronized (lock) {
        failure = e;
      }
    }
    synchronized (lock) {
      result = r;
      done = true;
      lock.notifyAll();
    }
    if (started && r != null && r.violations().isEmpty()) {
      if (Constants.allocatesBare(file)) {
        preload(BARE_CLASSES);
      }
      if ((long) file.tableSize() - file.firstId() >= WARM_SLOTS) {
        CheckLoops.warmUp();
      }
      boolean hooks = false;
      boolean streams = false;
      boolean fills = false;
      for (Constant c : file.constants()) {
        int tag = c.tag(); // not instanceof tests, which would load the record classes
        if (tag == Constant.HOOK) {
          Constant.Hook h = (Constant.Hook) c;
          if (!hooks) {
            preload(HOOK_CLASSES);
            hooks = true;
          }
          if (!streams && h.kind() != Constant.HookKind.RESOLVE) {
            // what the first replay stream's ObjectInputStream constructor sets up (about 5 ms
            // cold on JDK 17): here, not on the loader's thread
            org.codese.jvm.Jvm.prepareFilterConfig();
            streams = true;
          }
        } else if (tag == Constant.SIZED && !fills) {
          preload(FILL_CLASSES);
          fills = true;
        }
      }
    }
  }

  /** Loads and initialises Codese's own {@code classes}, whose initialisers have no effect. */
  private static void preload(String[] classes) {
    ClassLoader own = CodeCheck.class.getClassLoader();
    for (String name : classes) {
      try {
        Class.forName(name, true, own);
      } catch (ClassNotFoundException | LinkageError e) {
        // only a warm-up: the loader's own thread loads the class, and reports any failure
      }
    }
  }

  /**
   * Waits for the check (not for the warm-up that follows it) and returns its outcome.
   *
   * @return the check's result
   * @throws UnsafeSnapshotException if the code breaks the restore grammar
   */
  GrammarCheck.Result result() throws ObjectStreamException {
    boolean interrupted = false;
    GrammarCheck.Result r;
    Throwable f;
    synchronized (lock) {
      while (!done) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      r = result;
      f = failure;
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (f instanceof RuntimeException e) {
      throw e;
    } else if (f instanceof Error e) {
      throw e;
    } else if (!r.violations().isEmpty()) {
      throw Failures.unsafe(r.violations());
    }
    return r;
  }
}
