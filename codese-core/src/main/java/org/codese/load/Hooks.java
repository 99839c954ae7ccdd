package org.codese.load;

import java.io.Externalizable;
import java.io.ObjectInputStream;
import org.codese.program.Constant.HookKind;

/**
 * The sanctioned hooks generated code may call: {@link #run} with a resolved {@link HookCall}. This
 * is the only method of Codese that generated code calls.
 */
final class Hooks {
  private Hooks() {}

  /**
   * Runs one hook.
   *
   * @param table the restore table
   * @param hook a {@link HookCall} from the class data
   * @throws Throwable whatever the class's own method throws
   */
  static void run(Object[] table, Object hook) throws Throwable {
    HookCall h = (HookCall) hook;
    RestoreRun run = RestoreRun.current();
    // an if-chain, not a switch over the enum, which would load a synthetic class per JVM
    HookKind k = h.kind();
    if (k == HookKind.SLOT) {
      Object obj = table[h.id()];
      ReplayStream in = new ReplayStream(table, h.tape(), obj, h.slot(), run, h.filter(),
          h.maxArrayLength());
      if (h.slot().readObject() != null) {
        h.slot().readObject().invokeExact(obj, (ObjectInputStream) in);
      } else {
        in.defaultReadObject();
      }
    } else if (k == HookKind.EXTERNAL) {
      Object obj = table[h.id()];
      ((Externalizable) obj).readExternal(new ReplayStream(table, h.tape(), obj, null, run,
          h.filter(), h.maxArrayLength()));
    } else if (k == HookKind.RECORD) {
      table[h.id()] = record(table, h);
    } else {
      table[h.id()] = (Object) h.resolve().invokeExact(table[h.id()]);
    }
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
    for (int i = 0; i < p.length; ) {
      switch (p[i]) {
        case org.codese.program.Grammar.STEP_HOOK -> {
          run(table, constants[p[i + 1]]);
          i += 2;
        }
        case org.codese.program.Grammar.STEP_FIELD -> {
          java.lang.reflect.Field f = (java.lang.reflect.Field) constants[p[i + 1]];
          Object target = table[p[i + 2]];
          f.set(target, fits(table[p[i + 3]], f.getType(), f.getDeclaringClass().getName() + "."
              + f.getName(), target));
          i += 4;
        }
        case org.codese.program.Grammar.STEP_ELEMENT -> {
          Object[] array = (Object[]) table[p[i + 1]];
          array[p[i + 2]] = fits(table[p[i + 3]], array.getClass().getComponentType(),
              "element " + p[i + 2], array);
          i += 4;
        }
        default -> throw new java.io.StreamCorruptedException("unknown finish step " + p[i]
            + " at " + i);
      }
    }
  }

  /**
   * Returns {@code value} if it may be stored where a {@code type} belongs. Only a {@code
   * readResolve} result can fail this (the load-time check types everything else), and then, as
   * with {@code ObjectInputStream}, with a {@code ClassCastException}.
   */
  private static Object fits(Object value, Class<?> type, String where, Object target) {
    if (value != null && !type.isInstance(value)) {
      throw new ClassCastException("cannot assign instance of " + value.getClass().getName()
          + " to " + where + " of type " + type.getName() + " in instance of "
          + target.getClass().getName());
    }
    return value;
  }

  private static Object record(Object[] table, HookCall h) throws Throwable {
    ReplayStream in = new ReplayStream(table, h.tape(), null, h.slot(), RestoreRun.current(),
        h.filter(), h.maxArrayLength());
    return h.record().make(in.nextFields());
  }

}
