package org.codese.load;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What changed since capture in the classes of a {@link ClassTable} that a restore adapts to, as
 * {@code ObjectInputStream} does (the specification's section 5.6.2): recorded fields removed from
 * their class, classes removed from the hierarchy of the snapshot's objects, {@code readObject}
 * methods added. Only a record: {@link Fingerprints} decides, while it checks the table's
 * fingerprints ({@link ClassTable#checkFields()}) and hierarchies ({@link ClassTable#detach}), and
 * {@link ClassTable} answers the queries.
 *
 * <p>Made by the class table when the first change is recorded ({@link ClassTable#changes()}), so a
 * snapshot of unchanged classes never loads this class; nothing here throws.
 */
final class ClassChanges {
  /** Per class-table index, the recorded fields removed since capture; null if none. */
  private Map<Integer, Set<String>> removed;

  /**
   * The class-table indices of classes whose fields the code sets directly although they declare
   * {@code readObject} now (added since capture); null if none.
   */
  private Set<Integer> hookAdded;

  /**
   * The classes removed since capture from the hierarchy of every object the snapshot allocates
   * ({@link ClassTable#detach}); null if none.
   */
  private Set<Class<?>> detached;

  /** Records recorded field {@code name} of class {@code index} as removed since capture. */
  void markRemoved(int index, String name) {
    if (removed == null) {
      removed = new HashMap<>();
    }
    Set<String> names = removed.get(index);
    if (names == null) {
      names = new LinkedHashSet<>();
      removed.put(index, names);
    }
    names.add(name);
  }

  /**
   * Records that class {@code index} gained a {@code readObject} since capture, while the code sets
   * its fields directly ({@link Fingerprints#writableField}).
   */
  void markHookAdded(int index) {
    if (hookAdded == null) {
      hookAdded = new LinkedHashSet<>();
    }
    hookAdded.add(index);
  }

  /** Records class {@code c} as removed since capture from the hierarchy of the objects. */
  void markDetached(Class<?> c) {
    if (detached == null) {
      detached = new HashSet<>();
    }
    detached.add(c);
  }

  /**
   * @return whether class {@code c} was removed since capture from the hierarchy of every object
   *     the snapshot allocates ({@link ClassTable#detach}): the code may cast an object to it only
   *     to store into its removed fields, which are taken out of the code
   */
  boolean detached(Class<?> c) {
    return detached != null && detached.contains(c);
  }

  /**
   * @return whether a class was removed from the hierarchy of the snapshot's objects ({@link
   *     ClassTable#detach})
   */
  boolean anyDetached() {
    return detached != null;
  }

  /**
   * @return the classes removed from the hierarchy of the snapshot's objects ({@link
   *     ClassTable#detach}); empty if none
   */
  Set<Class<?>> detachedClasses() {
    return detached == null ? Set.of() : detached;
  }

  /**
   * @return whether recorded field {@code name} of class {@code index} was removed since capture
   *     (gone, or no longer a serializable field): the snapshot's stores into it are skipped
   */
  boolean removed(int index, String name) {
    if (removed == null) {
      return false;
    }
    Set<String> names = removed.get(index);
    return names != null && names.contains(name);
  }

  /**
   * @return whether a recorded field was removed since capture ({@link #removedFields()})
   */
  boolean evolved() {
    return removed != null;
  }

  /**
   * @return the class-table indices of the classes that gained a {@code readObject} since capture,
   *     whose fields the code sets directly; empty if none
   */
  Set<Integer> hookAdded() {
    return hookAdded == null ? Set.of() : hookAdded;
  }

  /**
   * @return the recorded fields removed since capture, by class-table index; empty if none (the
   *     common case, where the generated code is defined as it is)
   */
  Map<Integer, Set<String>> removedFields() {
    return removed == null ? Map.of() : removed;
  }
}
