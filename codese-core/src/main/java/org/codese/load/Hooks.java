package org.codese.load;

import java.io.Externalizable;
import java.io.ObjectInputStream;
import java.util.List;
import org.codese.jvm.FieldValues;
import org.codese.jvm.SerialField;

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
    switch (h.kind()) {
      case SLOT -> {
        Object obj = table[h.id()];
        ReplayStream in = new ReplayStream(table, h.tape(), obj, h.slot(), run, h.filter(),
            h.maxArrayLength());
        if (h.slot().readObject() != null) {
          h.slot().readObject().invoke(obj, (ObjectInputStream) in);
        } else {
          in.defaultReadObject();
        }
      }
      case EXTERNAL -> {
        Object obj = table[h.id()];
        ((Externalizable) obj).readExternal(new ReplayStream(table, h.tape(), obj, null, run,
            h.filter(), h.maxArrayLength()));
      }
      case RECORD -> table[h.id()] = record(table, h);
      case RESOLVE -> table[h.id()] = h.handle().invoke(table[h.id()]);
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
    FieldValues values = in.nextFields();
    List<SerialField> fields = h.slot().fields();
    java.lang.reflect.RecordComponent[] comps = h.type().getRecordComponents();
    Object[] args = new Object[comps.length];
    int nPrims = values.prims().length;
    for (int c = 0; c < comps.length; c++) {
      for (int f = 0; f < fields.size(); f++) {
        if (fields.get(f).name().equals(comps[c].getName())) {
          args[c] = f < nPrims
              ? org.codese.jvm.Types.box(
                  org.codese.jvm.Types.primitiveCode(fields.get(f).type()), values.prims()[f])
              : values.refs()[f - nPrims];
        }
      }
      args[c] = component(args[c], comps[c]);
    }
    return h.handle().invokeWithArguments(args);
  }

  /**
   * A record component's argument: a missing primitive is zero, as for a field missing from a
   * JDK stream; a value of the wrong class is an {@code InvalidObjectException}, as the JDK's
   * record deserialization reports it, before the constructor is called.
   */
  private static Object component(Object arg, java.lang.reflect.RecordComponent comp)
      throws java.io.InvalidObjectException {
    Class<?> type = comp.getType();
    if (arg == null) {
      return type.isPrimitive() ? org.codese.jvm.Types.box(
          org.codese.jvm.Types.primitiveCode(type), 0) : null;
    }
    Class<?> boxed = type.isPrimitive()
        ? org.codese.jvm.Types.box(org.codese.jvm.Types.primitiveCode(type), 0).getClass() : type;
    if (!boxed.isInstance(arg)) {
      throw new java.io.InvalidObjectException("cannot assign instance of "
          + arg.getClass().getName() + " to record component " + comp.getName() + " of type "
          + type.getName() + " in " + comp.getDeclaringRecord().getName());
    }
    return arg;
  }

}
