package org.codese.load;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.codese.ClassMismatchException;
import org.codese.CorruptSnapshotException;
import org.codese.RestoreException;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;
import org.codese.program.Tape;

/**
 * A snapshot whose classes are defined and whose constants are resolved, ready to run.
 *
 * <p>The generated classes are hidden classes (unloadable once this object is unreachable) that
 * share one class-data list holding the resolved constants. {@link #restoreInto} may be called
 * from many threads at once: every call works on its own table.
 */
public final class LoadedSnapshot {
  private static final MethodType CHUNK = MethodType.methodType(void.class, Object[].class);
  private static final ExecutorService WORKERS =
      Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "codese-restore");
        t.setDaemon(true);
        return t;
      });

  private final SnapshotFile file;
  private final MethodHandles.Lookup[] classes;
  private final MethodHandle[][] phases;
  private volatile MethodHandle[][] chunks;

  private LoadedSnapshot(SnapshotFile file, MethodHandles.Lookup[] classes, MethodHandle[][] p) {
    this.file = file;
    this.classes = classes;
    this.phases = p;
  }

  /**
   * Checks a snapshot against the live classes, resolves its constants and defines its classes.
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @return the loaded snapshot
   * @throws ClassMismatchException if a class is missing or changed
   * @throws CorruptSnapshotException if its code cannot be defined
   */
  public static LoadedSnapshot load(SnapshotFile file, ClassLoader loader) throws IOException {
    ClassLoader l = loader != null ? loader : Thread.currentThread().getContextClassLoader();
    if (l == null) {
      l = LoadedSnapshot.class.getClassLoader();
    }
    ClassTable table = new ClassTable(file.classes(), l);
    List<Object> data = Collections.unmodifiableList(
        Arrays.asList(Constants.resolve(file.constants(), table)));
    int n = file.classFiles().size();
    MethodHandles.Lookup[] defined = new MethodHandles.Lookup[n];
    MethodHandle[][] phases = new MethodHandle[3][n];
    MethodHandles.Lookup here = MethodHandles.lookup();
    for (int i = 0; i < n; i++) {
      try {
        defined[i] = here.defineHiddenClassWithClassData(file.classFiles().get(i), data, true);
        for (int p = 0; p < 3; p++) {
          phases[p][i] = defined[i].findStatic(defined[i].lookupClass(),
              String.valueOf(Grammar.PHASES.charAt(p)), CHUNK);
        }
      } catch (IllegalAccessException | NoSuchMethodException | LinkageError e) {
        throw new CorruptSnapshotException("code", 0, "generated class " + i
            + " cannot be defined: " + e);
      }
    }
    return new LoadedSnapshot(file, defined, phases);
  }

  /** @return the parsed snapshot */
  public SnapshotFile file() {
    return file;
  }

  /**
   * Restores into a new table and returns the first top-level object.
   *
   * @param threads threads for the create and set phases
   * @return the root
   * @throws RestoreException if restoring fails
   */
  public Object restoreRoot(int threads) throws IOException {
    Object[] table = restoreInto(new Object[file.tableSize()], threads);
    int[] items = file.items().items();
    for (int i = 0; i < items.length; i += 2) {
      if (items[i] == Tape.OBJECT) {
        return items[i + 1] < 0 ? null : table[items[i + 1]];
      }
    }
    return null;
  }

  /**
   * Runs the snapshot's code over {@code table}, which must hold the objects of earlier segments.
   *
   * @param table a table of at least {@link SnapshotFile#tableSize()} entries
   * @param threads threads for the create and set phases
   * @return {@code table}
   * @throws RestoreException if restoring fails; the table must then be discarded
   */
  public Object[] restoreInto(Object[] table, int threads) throws IOException {
    RestoreRun run = RestoreRun.begin();
    try {
      if (threads <= 1 || classes.length == 0) {
        runPhase(phases[0], table);
        runPhase(phases[1], table);
      } else {
        MethodHandle[][] c = chunks();
        parallel(c[0], table, threads);
        parallel(c[1], table, threads);
      }
      runPhase(phases[2], table);
      run.finish();
      return table;
    } catch (IOException e) {
      throw e;
    } catch (Throwable t) {
      throw new RestoreException("restore failed: " + t, t);
    } finally {
      run.abandon();
    }
  }

  private static void runPhase(MethodHandle[] entries, Object[] table) throws Throwable {
    for (MethodHandle h : entries) {
      h.invokeExact(table);
    }
  }

  private MethodHandle[][] chunks() throws ReflectiveOperationException {
    MethodHandle[][] c = chunks;
    if (c == null) {
      c = new MethodHandle[2][];
      for (int p = 0; p < 2; p++) {
        List<MethodHandle> list = new ArrayList<>();
        for (int i = 0; i < classes.length; i++) {
          for (int k = 0; k < file.chunks().get(i)[p]; k++) {
            list.add(classes[i].findStatic(classes[i].lookupClass(),
                Grammar.PHASES.charAt(p) + Integer.toString(k), CHUNK));
          }
        }
        c[p] = list.toArray(new MethodHandle[0]);
      }
      chunks = c;
    }
    return c;
  }

  private static void parallel(MethodHandle[] work, Object[] table, int threads)
      throws Throwable {
    int parts = Math.min(threads, work.length);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 1; t < parts; t++) {
      int from = work.length * t / parts;
      int to = work.length * (t + 1) / parts;
      futures.add(WORKERS.submit(() -> {
        runRange(work, table, from, to);
        return null;
      }));
    }
    Throwable failure = null;
    try {
      runRange(work, table, 0, work.length / Math.max(parts, 1));
    } catch (Throwable e) {
      failure = e;
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (ExecutionException e) {
        failure = failure != null ? failure : e.getCause();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static void runRange(MethodHandle[] work, Object[] table, int from, int to)
      throws Exception {
    try {
      for (int i = from; i < to; i++) {
        work[i].invokeExact(table);
      }
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }
}
