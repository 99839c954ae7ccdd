package org.codese.load;

import java.io.InvalidObjectException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.program.Grammar;

/**
 * Runs {@link Grammar#STEP_IMMUTABLE} steps: makes the immutable collection {@code
 * java.util.CollSer.readResolve} would make of a tag and elements, with the same public factory
 * ({@code List.of}, {@code Set.of}; for maps {@code Map.of} of no pair or one, {@code
 * Map.ofEntries} of more, which make the classes {@code readResolve} makes), and stores it into its
 * slot. Runs where the {@code CollSer}'s {@code readResolve} would have run.
 *
 * <p>{@link FinishCheck} has checked the tag, an even count for maps, and that every reference is a
 * table slot; a {@code null} element or a duplicate fails as {@code readResolve} fails, with an
 * {@code InvalidObjectException("invalid object")} whose cause is the factory's exception.
 */
final class Immutables {
  private Immutables() {}

  /**
   * Runs the step at {@code i} of finish program {@code p}.
   *
   * @return where the next step starts
   * @throws InvalidObjectException as {@code CollSer.readResolve} throws it
   * @throws java.io.InvalidClassException if the filter rejects the collection, which {@code
   *     ObjectInputStream} asks it about as {@code readResolve}'s result
   */
  static int run(Object[] table, int[] p, int i) throws java.io.IOException {
    int tag = p[i + 2];
    int n = p[i + 4];
    Object[] a = new Object[n];
    for (int k = 0; k < n; k++) {
      a[k] = table[p[i + 5 + k]];
    }
    Object made;
    try {
      made = make(tag, a);
    } catch (NullPointerException | IllegalArgumentException e) {
      InvalidObjectException x = new InvalidObjectException("invalid object");
      x.initCause(e);
      throw x;
    }
    // as ObjectInputStream filters what readResolve returned; the depth, reference and byte
    // figures were checked for the whole snapshot at load
    Admission.checkReplacement(RestoreRun.current().filter(), made, 1, 1, 0);
    table[p[i + 3]] = made;
    return i + 5 + n;
  }

  private static Object make(int tag, Object[] a) throws InvalidObjectException {
    if (tag == Grammar.IMMUTABLE_LIST) {
      return List.of(a);
    } else if (tag == Grammar.IMMUTABLE_SET) {
      return Set.of(a);
    } else if (tag != Grammar.IMMUTABLE_MAP) {
      throw new InvalidObjectException("invalid flags 0x" + Integer.toHexString(tag));
    } else if (a.length == 0) {
      return Map.of();
    } else if (a.length == 2) {
      return Map.of(a[0], a[1]);
    }
    @SuppressWarnings("unchecked")
    Map.Entry<Object, Object>[] entries = new Map.Entry[a.length / 2];
    for (int k = 0; k < entries.length; k++) {
      entries[k] = Map.entry(a[2 * k], a[2 * k + 1]);
    }
    return Map.ofEntries(entries);
  }
}
