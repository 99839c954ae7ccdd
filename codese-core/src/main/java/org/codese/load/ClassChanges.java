package org.codese.load;

import java.io.Serializable;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.ClassMismatchException;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Jvm;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;

/**
 * What changed since capture in the classes of a {@link ClassTable} that a restore adapts to, as
 * {@code ObjectInputStream} does (the specification's section 5.6.2): recorded fields removed from
 * their class ({@link #removed(int, String)}), classes removed from the hierarchy of the snapshot's
 * objects ({@link #detach}), {@code readObject} methods added ({@link #hookAdded()}), and {@code
 * Serializable} superclasses inserted ({@link #hierarchyChanged}).
 *
 * <p>One per class table, made on first use; {@link Fingerprints} records removed fields and added
 * {@code readObject} methods while the table's fingerprints are checked ({@link
 * ClassTable#checkFields()}), then {@link #detach} runs once; the queries hold from then on. Only
 * {@link #removed(int, ClassEntry.FieldEntry)} throws: a {@link ClassMismatchException} for a
 * removal that {@code ObjectInputStream} rejects too.
 */
final class ClassChanges {
  private final List<ClassEntry> entries;
  private final Class<?>[] classes;

  /** Per class-table index, the recorded fields removed since capture; null if none. */
  private Map<Integer, Set<String>> removed;

  /**
   * The class-table indices of classes whose fields the code sets directly although they declare
   * {@code readObject} now (added since capture); null if none.
   */
  private Set<Integer> hookAdded;

  /**
   * The classes removed since capture from the hierarchy of every object the snapshot allocates
   * ({@link #detach}); null if none.
   */
  private Set<Class<?>> detached;

  /**
   * @param entries the table's class entries
   * @param classes its classes, by class-table index (the table's own array, not copied)
   */
  ClassChanges(List<ClassEntry> entries, Class<?>[] classes) {
    this.entries = entries;
    this.classes = classes;
  }

  /**
   * Records field {@code f} of class {@code index} as removed since capture. A class that declares
   * no {@code serialVersionUID} and is not a record is rejected instead: {@code ObjectInputStream}
   * computes its value from the class's shape, which the removal changed, and rejects the data.
   */
  void removed(int index, ClassEntry.FieldEntry f) throws ClassMismatchException {
    Class<?> c = classes[index];
    if (!entries.get(index).hasSuid() && !c.isRecord()) {
      throw new ClassMismatchException(
          c.getName(),
          f.name(),
          "field "
              + f.name()
              + " existed at capture but is no longer a serializable field, and the class"
              + " declares no serialVersionUID: ObjectInputStream computes one from the class's"
              + " shape, which changed, and rejects the data too; declare serialVersionUID in"
              + " every version of a class that evolves, or capture the graph again");
    }
    markRemoved(index, f.name());
  }

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

  /**
   * Finds the {@code Serializable} classes removed since capture from the hierarchy of the objects
   * of the snapshot (the specification's section 5.6.2, "removing classes"): a {@code Serializable}
   * class of the table, not final, not an enum and not the JDK's, whose data (recorded fields or a
   * {@code readObject} replay) the snapshot carries, none of whose objects the snapshot allocates,
   * neither of it nor of a subclass of it now. Its recorded fields are all removed ({@link
   * #removed(int, String)}): the stores into them, which could only fail, are taken out of the
   * code, as {@code ObjectInputStream} reads and discards the data of a class its local class's
   * hierarchy lacks. Their kinds were compared with the live class's ({@link
   * ClassTable#checkFields()}), and the class's {@code serialVersionUID} is compared as any other's
   * ({@link ClassTable#checkSuids}), as the JDK still matches such a class's descriptor against the
   * local class of that name.
   *
   * <p>A snapshot that allocates an object of the class and stores into the class's fields on an
   * object that no longer is one is refused by {@link ProgramCheck} (not detached here). Run once
   * per class table, after {@link ClassTable#checkFields()}; a table with a detached class is not
   * shared with another segment, whose allocations may differ.
   *
   * @param file the snapshot whose allocations decide
   */
  void detach(SnapshotFile file) {
    Set<Class<?>> candidates = null;
    for (int i = 0; i < classes.length; i++) {
      Class<?> c = classes[i];
      if (c != null
          && !entries.get(i).isProxy()
          && !c.isArray()
          && !c.isInterface()
          && !Modifier.isFinal(c.getModifiers()) // a final class is no one's superclass
          && !Jvm.isJdkClass(c)
          && !Enum.class.isAssignableFrom(c) // restored by name, never a removed superclass
          && Serializable.class.isAssignableFrom(c)) {
        if (candidates == null) {
          candidates = new HashSet<>();
        }
        candidates.add(c);
      }
    }
    if (candidates == null) {
      return;
    }
    Set<Class<?>> seen = new HashSet<>();
    boolean[] replayed = new boolean[classes.length];
    for (Constant k : file.constants()) {
      if (k instanceof Constant.Hook h
          && h.kind() == Constant.HookKind.SLOT
          && h.type() >= 0
          && h.type() < classes.length) {
        replayed[h.type()] = true;
      } else if (k instanceof Constant.Allocator a && a.type() >= 0 && a.type() < classes.length) {
        // an allocated class and its superclasses are no candidates; unknown: none is
        Class<?> made = classes[a.type()];
        if (made == null) {
          return;
        }
        for (Class<?> s = made; s != null && seen.add(s); s = s.getSuperclass()) {
          candidates.remove(s);
        }
      }
    }
    for (int i = 0; i < classes.length && !candidates.isEmpty(); i++) {
      // a class whose data the snapshot does not carry (no recorded field, no readObject replay:
      // one named only as a type, an array's element class) has nothing a removal would change
      if (!candidates.contains(classes[i]) || entries.get(i).fields().isEmpty() && !replayed[i]) {
        continue;
      }
      if (detached == null) {
        detached = new HashSet<>();
      }
      detached.add(classes[i]);
      for (ClassEntry.FieldEntry f : entries.get(i).fields()) {
        markRemoved(i, f.name());
      }
    }
  }

  /**
   * @return whether class {@code c} was removed since capture from the hierarchy of every object
   *     the snapshot allocates ({@link #detach}): the code may cast an object to it only to store
   *     into its removed fields, which are taken out of the code
   */
  boolean detached(Class<?> c) {
    return detached != null && detached.contains(c);
  }

  /**
   * @return whether a class was removed from the hierarchy of the snapshot's objects ({@link
   *     #detach})
   */
  boolean anyDetached() {
    return detached != null;
  }

  /**
   * @return the classes removed from the hierarchy of the snapshot's objects ({@link #detach});
   *     empty if none
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
   * Whether a class the snapshot allocates through its serialization constructor has a {@code
   * Serializable} superclass the table does not list: capture lists every such class, so one was
   * inserted since capture ({@link AddedHooks}). Per allocated class, only {@code getSuperclass}:
   * most hierarchies end at a class that is not {@code Serializable} at once.
   *
   * @param file the snapshot
   * @param sameJdk whether it was captured on the running JDK's version, whose classes are skipped
   * @return whether some hierarchy gained a class
   */
  boolean hierarchyChanged(SnapshotFile file, boolean sameJdk) {
    Set<Class<?>> listed = null;
    for (Constant k : file.constants()) {
      if (!(k instanceof Constant.Allocator a) || a.mode() != Constant.Mode.SERIAL) {
        continue;
      }
      Class<?> c = classes[a.type()];
      Class<?> s = c.getSuperclass();
      if (s == null || !Serializable.class.isAssignableFrom(s) || (sameJdk && Jvm.isJdkClass(c))) {
        continue;
      }
      if (listed == null) {
        listed = new HashSet<>(Arrays.asList(classes));
      }
      for (; s != null && Serializable.class.isAssignableFrom(s); s = s.getSuperclass()) {
        if (!listed.contains(s)) {
          return true;
        }
      }
    }
    return false;
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
