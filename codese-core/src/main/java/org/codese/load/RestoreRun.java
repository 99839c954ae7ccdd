package org.codese.load;

import java.io.InvalidObjectException;
import java.io.ObjectInputValidation;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * State of one restore on the thread that runs its finish phase: the validations registered by
 * {@code readObject} methods, which run, highest priority first, once the graph is complete; and,
 * for a segment of an object stream, the stream's unshared objects and the objects this restore
 * replaced with a {@code readResolve} result.
 */
final class RestoreRun {
  private static final ThreadLocal<RestoreRun> CURRENT = new ThreadLocal<>();

  private record Entry(ObjectInputValidation validation, int priority, int order) {}

  private final List<Entry> validations = new ArrayList<>();
  /** The object stream's ids read with {@code readUnshared}, or {@code null} outside a stream. */
  private final BitSet unshared;
  /** Ids whose {@code readResolve} returned another object; {@code null} until one did. */
  private BitSet replaced;

  /** A restore outside an object stream. */
  RestoreRun() {
    this(null);
  }

  /**
   * A restore of one object stream segment.
   *
   * @param unshared the stream's ids read with {@code readUnshared}, or {@code null}
   */
  RestoreRun(BitSet unshared) {
    this.unshared = unshared;
  }

  static RestoreRun current() {
    RestoreRun r = CURRENT.get();
    return r != null ? r : new RestoreRun();
  }

  static RestoreRun begin(RestoreRun r) {
    CURRENT.set(r);
    return r;
  }

  void addValidation(ObjectInputValidation v, int priority) {
    validations.add(new Entry(v, priority, validations.size()));
  }

  /** @return the object stream's ids read with {@code readUnshared}, or {@code null} */
  BitSet unshared() {
    return unshared;
  }

  /** Records that the {@code readResolve} of object {@code id} returned another object. */
  void replaced(int id) {
    if (unshared == null) {
      return; // only readUnshared asks
    }
    if (replaced == null) {
      replaced = new BitSet();
    }
    replaced.set(id);
  }

  /** @return whether the {@code readResolve} of object {@code id} returned another object */
  boolean wasReplaced(int id) {
    return replaced != null && replaced.get(id);
  }

  /**
   * Runs the registered validations. An {@code InvalidObjectException} leaves as it is, anything
   * else inside a {@link HookFailure}, as {@code ObjectInputStream} lets it through.
   */
  void finish() throws InvalidObjectException {
    CURRENT.remove();
    if (validations.isEmpty()) {
      return;
    }
    validations.sort(Comparator.comparingInt((Entry e) -> -e.priority())
        .thenComparingInt(Entry::order));
    for (Entry e : validations) {
      try {
        e.validation().validateObject();
      } catch (InvalidObjectException x) {
        throw x;
      } catch (Throwable t) {
        throw new HookFailure(t);
      }
    }
  }

  void abandon() {
    CURRENT.remove();
  }
}
