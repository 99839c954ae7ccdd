package org.codese.load;

import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.lang.invoke.MethodHandle;
import org.codese.program.Constant;

/**
 * Runs finish programs (hook calls and deferred reference stores): {@link #runSteps}, which the
 * code of format 3 and later reaches through {@code org.codese.runtime.Entry} and {@link
 * StepRunner} and the code of formats 1 and 2 calls directly (their runtime contract names this
 * class, which keeps its name and method for them); it runs each resolved {@link HookCall} with
 * {@link #run}.
 */
final class Hooks {
  /**
   * The field behind {@link Evolution#REMOVED}, the setter of fields removed since capture: never
   * set. A finish step whose setter is declared here is skipped.
   */
  @SuppressWarnings("unused")
  private static Object removedField;

  private Hooks() {}

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
  private static void run(Object[] table, Object hook) throws Throwable {
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

  /**
   * Runs a finish program: hook calls and deferred reference stores, in order.
   *
   * @param table the restore table
   * @param constants the resolved constants
   * @param program the index of the {@code int[]} program among the constants
   * @throws Throwable whatever a class's own method throws, or an exception for a malformed step
   */
  static void runSteps(Object[] table, Object[] constants, int program) throws Throwable {
    int[] p = (int[]) constants[program];
    if (p.length > 0 && p[0] == org.codese.program.Grammar.STEP_ARRAYS) {
      ArraySteps.run(table, constants, p); // a create program: arrays only, before any hook
      return;
    }
    if (p.length > 0 && p[0] == org.codese.program.Grammar.STEP_VALUES) {
      ValueSteps.run(table, constants, p); // a create program: values only, before any hook
      return;
    }
    RestoreRun run = RestoreRun.current();
    ObjectResolution resolution = run.resolution();
    if (resolution != null && resolution.pending()) {
      resolution.run(table, constants, p, run); // the stream's resolveObject between the steps
      return;
    }
    for (int i = 0; i < p.length; ) {
      i = step(table, constants, p, i);
    }
  }

  /**
   * Runs the step of finish program {@code p} at {@code i}.
   *
   * @return where the next step starts
   */
  static int step(Object[] table, Object[] constants, int[] p, int i) throws Throwable {
    switch (p[i]) {
      case org.codese.program.Grammar.STEP_HOOK -> {
        run(table, constants[p[i + 1]]);
        return i + 2;
      }
      case org.codese.program.Grammar.STEP_FIELD -> {
        Object setter = constants[p[i + 1]]; // a FieldStore from format 10 on, else a Field
        java.lang.reflect.Field f =
            setter instanceof org.codese.runtime.FieldStore s
                ? s.field()
                : (java.lang.reflect.Field) setter;
        if (f.getDeclaringClass() == Hooks.class) {
          return i + 4; // a field removed since capture: skipped, as ObjectInputStream skips it
        }
        Object target = table[p[i + 2]];
        Object value = table[p[i + 3]];
        if (value != null && !f.getType().isInstance(value)) {
          // as ObjectStreamClass.setObjFieldValues, which throws it out of readObject
          throw new HookFailure(
              mismatch(value, f.getDeclaringClass().getName() + "." + f.getName(), f, target));
        }
        if (setter instanceof org.codese.runtime.FieldStore s) {
          s.set(target, value);
        } else {
          f.set(target, value);
        }
        return i + 4;
      }
      case org.codese.program.Grammar.STEP_ELEMENT -> {
        // a value that does not fit (only a readResolve or resolveObject result can be one)
        // fails as in ObjectInputStream.readArray: with the array store's ArrayStoreException
        try {
          ((Object[]) table[p[i + 1]])[p[i + 2]] = table[p[i + 3]];
        } catch (ArrayStoreException e) {
          throw new HookFailure(e);
        }
        return i + 4;
      }
      case org.codese.program.Grammar.STEP_FILL -> {
        return CollectionFills.run(table, p, i);
      }
      case org.codese.program.Grammar.STEP_IMMUTABLE -> {
        return Immutables.run(table, p, i);
      }
      case org.codese.program.Grammar.STEP_FACTORY -> {
        return FactorySteps.run(table, p, i);
      }
      default ->
          throw new java.io.StreamCorruptedException("unknown finish step " + p[i] + " at " + i);
    }
  }

  /**
   * The table id of the object the step of finish program {@code p} at {@code i} acts on (the
   * object whose hook it runs, or whose field or element it sets), which the planner orders the
   * steps by; {@link Integer#MIN_VALUE} where the step names none.
   */
  static int target(int[] p, int i, Object[] constants) {
    if (p[i] == org.codese.program.Grammar.STEP_HOOK && i + 1 < p.length) {
      int k = p[i + 1];
      return k >= 0 && k < constants.length && constants[k] instanceof HookCall h
          ? h.id()
          : Integer.MIN_VALUE;
    } else if (p[i] == org.codese.program.Grammar.STEP_FIELD && i + 2 < p.length) {
      return p[i + 2];
    } else if ((p[i] == org.codese.program.Grammar.STEP_IMMUTABLE
            || p[i] == org.codese.program.Grammar.STEP_FACTORY)
        && i + 3 < p.length) {
      return p[i + 3];
    } else if ((p[i] == org.codese.program.Grammar.STEP_ELEMENT
            || p[i] == org.codese.program.Grammar.STEP_FILL)
        && i + 1 < p.length) {
      return p[i + 1];
    }
    return Integer.MIN_VALUE;
  }

  /**
   * Returns {@code value} if it may be stored where a {@code type} belongs. Only a {@code
   * readResolve} result can fail this (the load-time check types everything else), and then, as
   * with {@code ObjectInputStream}, with a {@code ClassCastException}.
   */
  static Object fits(Object value, Class<?> type, String where, Object target) {
    if (value != null && !type.isInstance(value)) {
      throw mismatch(value, where, type, target);
    }
    return value;
  }

  /**
   * The exception for {@link #fits}, built only when a value does not fit (the steps call it
   * directly, so that a store that fits builds no message).
   */
  private static ClassCastException mismatch(
      Object value, String where, Object type, Object target) {
    Class<?> t = type instanceof java.lang.reflect.Field f ? f.getType() : (Class<?>) type;
    // word for word ObjectStreamClass's message, binary names included
    return new ClassCastException(
        "cannot assign instance of "
            + value.getClass().getName()
            + " to "
            + where
            + " of type "
            + t.getName()
            + " in instance of "
            + target.getClass().getName());
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
