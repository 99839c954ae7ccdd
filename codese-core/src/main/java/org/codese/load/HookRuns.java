package org.codese.load;

import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.lang.invoke.MethodHandle;
import org.codese.program.Constant;

/**
 * Runs the hook calls of finish programs ({@link Hooks#step}): a class's {@code readObject} or
 * default field reading over its replay stream, {@code readExternal}, a record's canonical
 * constructor, {@code readResolve}. Apart from {@link Hooks} so that a snapshot whose finish
 * programs only fill collections and store references does not load {@link ReplayStream} (an {@code
 * ObjectInputStream}, of the runtime image) and {@link HookFailure}, which the verifier of this
 * code loads.
 */
final class HookRuns {
  private HookRuns() {}

  /**
   * Runs one hook. What the class's own code throws leaves as {@code ObjectInputStream} lets it
   * leave ({@code ObjectStreamClass.invokeReadObject}, {@code invokeReadResolve}, {@code
   * ObjectInputStream.readRecord}): an {@code IOException} as it is, a {@code RuntimeException}, an
   * {@code Error} or a {@code ClassNotFoundException} inside a {@link HookFailure}, and from {@code
   * readObject} or {@code readResolve} any other checked exception as the cause of an {@code
   * IOException("unexpected exception type")}; a record constructor's exception becomes an {@code
   * InvalidObjectException} with its message and the exception as cause.
   *
   * @param table the restore table
   * @param hook a {@link HookCall} from the class data
   * @throws Throwable as described above
   */
  static void run(Object[] table, Object hook) throws Throwable {
    if (!(hook instanceof HookCall h)) {
      // Evolution.REMOVED: a hook of a class removed from the object's hierarchy since capture,
      // whose data ObjectInputStream discards without calling the class's methods
      return;
    }
    RestoreRun run = RestoreRun.current();
    // an if-chain, not a switch over the enum: a switch would load a synthetic class
    Constant.HookKind kind = h.kind();
    if (kind == Constant.HookKind.SLOT) {
      Object obj = table[h.id()];
      ReplayStream in = run.replay(table, h, obj, h.slot());
      if (h.slot().readObject() != null) {
        readObject(h.slot().readObject(), obj, in);
      } else {
        in.defaultReadObject();
      }
    } else if (kind == Constant.HookKind.EXTERNAL) {
      Object obj = table[h.id()];
      ReplayStream in = run.replay(table, h, obj, null);
      try {
        ((Externalizable) obj).readExternal(in);
      } catch (IOException e) {
        throw e;
      } catch (Throwable t) {
        // ObjectInputStream calls readExternal directly: everything else leaves as it is too
        throw new HookFailure(t);
      }
    } else if (kind == Constant.HookKind.RECORD) {
      table[h.id()] = record(table, h);
    } else {
      table[h.id()] = resolve(h, table[h.id()], run);
    }
  }

  static void readObject(MethodHandle readObject, Object obj, ReplayStream in) throws IOException {
    try {
      readObject.invokeExact(obj, (ObjectInputStream) in);
    } catch (IOException e) {
      throw e;
    } catch (ClassNotFoundException | RuntimeException | Error e) {
      throw new HookFailure(e);
    } catch (Throwable t) {
      throw new IOException("unexpected exception type", t);
    }
  }

  private static Object resolve(HookCall h, Object obj, RestoreRun run) throws IOException {
    Object rep;
    try {
      rep = (Object) h.resolve().invokeExact(obj);
    } catch (ObjectStreamException e) {
      throw e;
    } catch (RuntimeException | Error e) {
      throw new HookFailure(e);
    } catch (Throwable t) {
      // as ObjectStreamClass.invokeReadResolve: even an IOException that is not an
      // ObjectStreamException, or a ClassNotFoundException, is "unexpected" here
      throw new IOException("unexpected exception type", t);
    }
    if (rep != obj) {
      run.replaced(h.id());
      if (rep != null) {
        // as ObjectInputStream.readOrdinaryObject filters what readResolve returned; the depth,
        // reference and byte figures were checked for the whole snapshot at load
        Admission.checkReplacement(h.filter(), rep, 1, 1, 0);
      }
    }
    return rep;
  }

  private static Object record(Object[] table, HookCall h) throws Throwable {
    // the run's one replay stream, as for every other hook: an ObjectInputStream per record cost
    // more than the record's construction
    ReplayStream in = RestoreRun.current().replay(table, h, null, h.slot());
    Object[] args = h.record().arguments(in.nextFields());
    try {
      return h.record().construct(args);
    } catch (Exception e) {
      // ObjectInputStream.readRecord; the constructor taking a cause is JDK 19+
      InvalidObjectException x = new InvalidObjectException(e.getMessage());
      x.initCause(e);
      throw x;
    } catch (Error e) {
      throw new HookFailure(e);
    } catch (Throwable t) {
      InvalidObjectException x =
          new InvalidObjectException("ReflectiveOperationException during deserialization");
      x.initCause(t);
      throw x;
    }
  }
}
