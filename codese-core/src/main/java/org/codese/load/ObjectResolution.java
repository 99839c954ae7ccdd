package org.codese.load;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectStreamClass;
import java.lang.reflect.Field;
import java.util.IdentityHashMap;
import org.codese.jvm.SerialClass;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;

/**
 * {@code resolveObject} over one stream segment, as {@code ObjectInputStream.checkResolve} calls
 * it: once for every object the segment creates, in the order the JDK's reader completes them
 * (which is the order of their ids in stream format 5), after the object's own hooks ({@code
 * readObject}, {@code readResolve}), never for {@code Class} and {@code ObjectStreamClass} objects.
 * A replacement takes the object's place in the table, so that hooks that run later, stores the
 * finish program makes later, the top-level read and later segments get it; and fields and elements
 * the set phase stored the object into get it too, unless the object that holds them was read while
 * the replaced object was (a back reference from inside it, which keeps the object as with the
 * JDK). The finish program's steps run in between, each when the objects before its own are done.
 *
 * <p>Made per segment by a stream whose {@code resolveObject} is enabled and overridden; a restore
 * without one never gets here.
 */
final class ObjectResolution {
  private final ObjectResolver resolver;
  private final ObjectInputFilter filter;
  private final int first;
  private final int end;
  private final long depth;
  private final long streamBytes;
  private final long references;

  /** Objects the set phase may have stored, by the replacement {@code resolveObject} gave. */
  private IdentityHashMap<Object, Object> replaced;

  private boolean done;

  /** The ids of the objects not made ({@link #notMade(int[])}), ascending, or {@code null}. */
  private int[] notMade;

  /**
   * @param resolver the stream's {@code resolveObject}
   * @param filter the segment's filter, asked about each replacement's class, or {@code null}
   * @param first the segment's first id
   * @param end the id after its last
   * @param depth the depth the filter is told
   * @param streamBytes the stream bytes the filter is told
   * @param references the references the filter is told: the stream's running total ({@link
   *     Admission#references})
   */
  ObjectResolution(
      ObjectResolver resolver,
      ObjectInputFilter filter,
      int first,
      int end,
      long depth,
      long streamBytes,
      long references) {
    this.resolver = resolver;
    this.filter = filter;
    this.first = first;
    this.end = end;
    this.depth = depth;
    this.streamBytes = streamBytes;
    this.references = references;
  }

  /**
   * @return whether {@link #run} has yet to run
   */
  boolean pending() {
    return !done;
  }

  /**
   * Runs the finish program {@code program} (or none) with the objects resolved between its steps.
   *
   * @throws Throwable what the hooks and steps throw, as {@link Hooks#runSteps} lets it leave
   */
  void run(Object[] table, Object[] constants, int[] program, RestoreRun run) throws Throwable {
    done = true;
    int i = 0;
    int n = program == null ? 0 : program.length;
    for (int id = first; id < end; id++) {
      if (replaced != null) {
        try {
          patch(table[id]);
        } catch (ClassCastException | ArrayStoreException e) {
          throw new HookFailure(e); // as ObjectInputStream's, which sets the field or element
        }
      }
      while (i < n && Hooks.target(program, i, constants) <= id) {
        i = Hooks.step(table, constants, program, i);
      }
      resolve(table, id, run);
    }
    while (i < n) {
      i = Hooks.step(table, constants, program, i);
    }
  }

  /**
   * Skips the objects not made ({@link ProgramCheck#NOT_MADE}): {@code ObjectInputStream} does not
   * call {@code resolveObject} for an object whose handle holds a {@code ClassNotFoundException}.
   *
   * @param ids their table ids, ascending, or {@code null} if there are none
   */
  void notMade(int[] ids) {
    this.notMade = ids;
  }

  private void resolve(Object[] table, int id, RestoreRun run) throws IOException {
    Object obj = table[id];
    if (obj instanceof Class || obj instanceof ObjectStreamClass) {
      return; // ObjectInputStream reads classes and descriptors without checkResolve
    }
    if (obj == null && notMade != null && java.util.Arrays.binarySearch(notMade, id) >= 0) {
      return; // not made: the JDK's handle holds the exception, and checkResolve skips it
    }
    Object rep;
    try {
      rep = resolver.resolveObject(obj);
    } catch (IOException e) {
      throw e;
    } catch (Throwable t) {
      throw new HookFailure(t);
    }
    if (rep == obj) {
      return;
    }
    if (rep != null) {
      Admission.checkReplacement(filter, rep, depth, references, streamBytes);
    }
    table[id] = rep;
    run.replaced(id);
    if (obj != null) {
      if (replaced == null) {
        replaced = new IdentityHashMap<>();
      }
      replaced.put(obj, rep);
    }
  }

  /**
   * Gives object {@code p}'s fields and elements that the set phase stored a replaced object into
   * the replacement: all of them hold objects completed before {@code p}, which {@code
   * ObjectInputStream} would have read back after their {@code resolveObject}.
   */
  private void patch(Object p) throws IllegalAccessException {
    if (p instanceof Object[] a) {
      Class<?> component = a.getClass().getComponentType();
      for (int i = 0; i < a.length; i++) {
        Object v = a[i];
        if (v != null && replaced.containsKey(v)) {
          Object rep = replaced.get(v);
          if (rep != null && !component.isInstance(rep)) {
            // as ObjectInputStream.readArray's store into the array
            throw new ArrayStoreException(rep.getClass().getName());
          }
          a[i] = rep;
        }
      }
      return;
    }
    if (p == null || SerialClass.of(p.getClass()).kind() != SerialClass.Kind.INSTANCE) {
      return;
    }
    for (Slot s : SerialClass.of(p.getClass()).slots()) {
      if (!s.direct()) {
        continue; // set by a hook in the finish phase, from the table
      }
      for (int f = s.primitiveCount(); f < s.fields().size(); f++) {
        SerialField sf = s.fields().get(f);
        Field field = sf.field();
        Object v = field.get(p);
        if (v != null && replaced.containsKey(v)) {
          field.set(
              p,
              Hooks.fits(
                  replaced.get(v),
                  field.getType(),
                  "field " + field.getDeclaringClass().getName() + "." + field.getName(),
                  p));
        }
      }
    }
  }
}
