package org.codese.load;

import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.ClassMismatchException;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Jvm;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.codese.program.ClassEntry;

/**
 * Resolves a snapshot's class table against the live classes, loading each without initialising it,
 * and, once {@link Surface} and the serialization filter accepted every class, checks each
 * fingerprint ({@link #checkFields()}, {@link #checkSuids(boolean)}): the fields the snapshot
 * relies on must be serializable fields of the class with the same types, and a declared {@code
 * serialVersionUID} must be unchanged.
 *
 * <p>The fingerprint and hierarchy checks are {@link Fingerprints}'; what changed since capture and
 * is adapted to (removed fields, classes removed from a hierarchy, added {@code readObject}
 * methods) is recorded in {@link ClassChanges}, made only when something changed. This class
 * resolves the names, makes proxy classes, gives the classes and their slot views, and answers for
 * both.
 */
final class ClassTable {
  private final List<ClassEntry> entries;
  private final Class<?>[] classes;

  /**
   * The slot views made so far, by class-table index; {@code null} until the first is asked for: a
   * table whose snapshot replays no hook never loads the {@code Slot} class.
   */
  private Slot[] slots;

  /** Per class-table index, the interfaces of a proxy class, else null. */
  private final Class<?>[][] interfaces;

  /** The loader names are resolved with, and proxy classes made in. */
  private final ClassLoader loader;

  /** Whether a proxy class of the table is still to be made ({@link #makeProxies}). */
  private boolean unmade;

  /**
   * Per class-table index of an array class whose element class is a proxy class of the table: the
   * proxy entry's index, and the array's dimensions ({@link ProxyClasses#arrayOf}); null if none.
   */
  private Map<Integer, int[]> proxyArrays;

  private final AllowList allowed;

  /**
   * Per class-table index, the failure to find a class the loader does not have, kept until {@link
   * GoneClasses#check} decides whether the snapshot uses the class only as a removed superclass;
   * null if every class was found.
   */
  private ClassMismatchException[] notFound;

  /** The checks of the table's fingerprints ({@link #fingerprints()}); null until first used. */
  private Fingerprints fingerprints;

  /** What changed since capture ({@link #changes()}); null while nothing did. */
  private ClassChanges changes;

  /**
   * Loads every class the snapshot names, without initialising any.
   *
   * @param entries the snapshot's class table
   * @param loader the loader to resolve names with
   * @param allowed the classes admitted beyond {@code ObjectInputStream}'s surface
   * @throws ClassMismatchException if a class is not found
   */
  ClassTable(List<ClassEntry> entries, ClassLoader loader, AllowList allowed)
      throws ClassMismatchException {
    this(entries, loader, allowed, null);
  }

  /**
   * Loads every class the snapshot names, without initialising any, taking those of {@code
   * resolved} from there.
   *
   * @param entries the snapshot's class table
   * @param loader the loader to resolve the other names with
   * @param allowed the classes admitted beyond {@code ObjectInputStream}'s surface
   * @param resolved classes by name, as an object stream's {@code resolveClass} gave them, or
   *     {@code null}
   * @throws ClassMismatchException if a class is not found
   */
  ClassTable(
      List<ClassEntry> entries,
      ClassLoader loader,
      AllowList allowed,
      java.util.Map<String, Class<?>> resolved)
      throws ClassMismatchException {
    this.entries = entries;
    this.allowed = allowed;
    this.classes = new Class<?>[entries.size()];
    this.interfaces = new Class<?>[entries.size()][];
    this.loader = loader;
    Map<String, Integer> proxyNames = proxyNames(entries);
    for (int i = 0; i < classes.length; i++) {
      ClassEntry e = entries.get(i);
      if (e.isProxy()) {
        // a stream's resolveProxyClass made it already, as ObjectInputStream's; else makeProxies
        Class<?> c = resolved == null ? null : resolved.get(ProxyClasses.key(e.interfaces()));
        interfaces[i] = c != null ? c.getInterfaces() : ProxyClasses.interfaces(e, loader);
        classes[i] = c;
        unmade |= c == null;
        continue;
      }
      String name = e.name();
      Class<?> c = resolved == null ? null : resolved.get(name);
      int[] array = c == null && proxyNames != null ? ProxyClasses.arrayOf(name, proxyNames) : null;
      if (array != null) {
        // made from the proxy class it names, once that is made (makeProxies)
        if (proxyArrays == null) {
          proxyArrays = new HashMap<>();
        }
        proxyArrays.put(i, array);
        unmade = true;
        continue;
      }
      if (c == null && resolved != null && resolved.containsKey(name)) {
        classes[i] = refusedByHook(i, name); // never asked of the loader
        continue;
      }
      classes[i] = c != null ? c : resolveOrKeep(i, name, loader);
    }
    if (unmade && resolved != null && proxyNames != null) {
      ProxyClasses.elementsOfResolvedArrays(entries, classes, interfaces, proxyNames);
    }
  }

  /** The capture names of the table's proxy entries, with their indices; null if there are none. */
  private static Map<String, Integer> proxyNames(List<ClassEntry> entries) {
    Map<String, Integer> names = null;
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).isProxy()) {
        if (names == null) {
          names = new HashMap<>();
        }
        names.putIfAbsent(entries.get(i).name(), i);
      }
    }
    return names;
  }

  /**
   * @return the interfaces of class {@code index} if it is a dynamic proxy class, else {@code null}
   */
  Class<?>[] proxyInterfaces(int index) {
    return interfaces[index];
  }

  /**
   * @return whether the table names dynamic proxy classes: then {@link #makeProxies} must run
   *     before any other use of its classes, once the filter accepted their interfaces
   */
  boolean hasProxies() {
    for (Class<?>[] i : interfaces) {
      if (i != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes the proxy classes no stream's {@code resolveProxyClass} made, as {@code
   * ObjectInputStream.resolveProxyClass} makes them ({@link ProxyClasses}), and the array classes
   * of the table's proxy classes; initialises nothing. Until then {@link #get} gives {@code null}
   * for them.
   *
   * @throws ClassMismatchException if the JDK refuses to make one
   */
  void makeProxies() throws ClassMismatchException {
    if (unmade) {
      ProxyClasses.makeAll(entries, classes, interfaces, proxyArrays, loader);
      unmade = false;
    }
  }

  /**
   * Checks the fields of every class's fingerprint: the fields the snapshot relies on must be
   * serializable fields of the class ({@link Fingerprints#checkField}). Initialises no class.
   *
   * @throws ClassMismatchException at the first field that differs
   */
  void checkFields() throws ClassMismatchException {
    for (int i = 0; i < classes.length; i++) {
      for (ClassEntry.FieldEntry f : entries.get(i).fields()) {
        if (gone(i)) {
          changes().markRemoved(i, f.name()); // the JDK reads and discards a gone superclass's data
        } else {
          fingerprints().checkField(i, f);
        }
      }
    }
  }

  /**
   * Checks every declared {@code serialVersionUID} ({@link Jvm#declaredSuid}), and every value
   * computed at capture for a class that declared none ({@link Fingerprints#checkComputedSuid}).
   * Reading one by reflection initialises the class, so the loader runs this last, once {@link
   * Surface}, the filter and every other check accepted the snapshot, and never for a class that is
   * not {@code Serializable} and not admitted, as {@code ObjectStreamClass} never reads one there.
   * The JDK's own classes (of the boot and platform loaders) are skipped for a snapshot captured on
   * the running JDK's version, whose classes they are: the JDK fixes their values per release, and
   * reading one from a package the JDK does not open costs a read of its class file.
   *
   * @param sameJdk whether the snapshot was captured on the running JDK's version
   * @throws ClassMismatchException at the first class whose declared value changed
   */
  void checkSuids(boolean sameJdk) throws ClassMismatchException {
    for (int i = 0; i < classes.length; i++) {
      ClassEntry e = entries.get(i);
      Class<?> c = classes[i];
      if (c == null || sameJdk && Jvm.isJdkClass(c)) {
        // a gone class has nothing to compare with, as the JDK's unresolved descriptor
        continue;
      }
      if (e.hasSuid() && (admitted(i) || Serializable.class.isAssignableFrom(c))) {
        Fingerprints.checkSuid(e, c);
      } else if (!e.hasSuid() && e.suid() != 0) {
        Fingerprints.checkComputedSuid(e, c);
      }
    }
  }

  /**
   * @return the classes admitted beyond {@code ObjectInputStream}'s surface
   */
  AllowList allowed() {
    return allowed;
  }

  /**
   * @return whether the allow-list admits class {@code index}
   */
  boolean admitted(int index) {
    return !allowed.isEmpty() && allowed.admits(classes[index]);
  }

  int size() {
    return classes.length;
  }

  /**
   * @return the snapshot's class entries, by class-table index
   */
  List<ClassEntry> entries() {
    return entries;
  }

  /**
   * @return the binary name class {@code index} had at capture
   */
  String name(int index) {
    return entries.get(index).name();
  }

  Class<?> get(int index) {
    return classes[index];
  }

  /**
   * @return class {@code index}, or {@code null} if there is no such index or its class is {@link
   *     #gone}: for indices that come from data, not from the table's own checked constants
   */
  Class<?> found(int index) {
    return index >= 0 && index < classes.length && !gone(index) ? classes[index] : null;
  }

  /**
   * @return the slot view of class {@code index}, with the fields the snapshot recorded and its
   *     {@code readObject} adapted to {@code (Object, ObjectInputStream)void}, which {@link Hooks}
   *     calls exactly
   */
  Slot slot(int index) throws ClassMismatchException {
    if (slots == null) {
      slots = new Slot[classes.length];
    }
    if (slots[index] == null) {
      Class<?> c = classes[index];
      List<SerialField> fields = new ArrayList<>();
      boolean accessible = true;
      for (ClassEntry.FieldEntry f : entries.get(index).fields()) {
        Field field = f.real() && !removed(index, f.name()) ? Fingerprints.field(c, f) : null;
        if (field != null && !field.trySetAccessible()) {
          accessible = false;
        }
        fields.add(new SerialField(f.name(), typeOf(f.descriptor()), field));
      }
      // the same adapted handle for every load of the class (Jvm.readObjectExact)
      slots[index] = Slot.of(c, List.copyOf(fields), null, Jvm.readObjectExact(c), accessible);
    }
    return slots[index];
  }

  private static Class<?> typeOf(String descriptor) {
    if (descriptor.length() == 1) {
      return org.codese.jvm.Types.primitiveClass(descriptor.charAt(0));
    }
    return Object.class;
  }

  /**
   * Resolves class {@code index}, or keeps the failure and gives {@code null} for a class the
   * loader does not find (never for a primitive or an array class), for {@link GoneClasses#check}.
   */
  private Class<?> resolveOrKeep(int index, String name, ClassLoader loader)
      throws ClassMismatchException {
    try {
      return resolve(name, loader);
    } catch (ClassMismatchException e) {
      if (name.startsWith("[") || !(e.getCause() instanceof ClassNotFoundException)) {
        throw e;
      }
      return keepNotFound(index, e);
    }
  }

  /**
   * Keeps, as {@link #resolveOrKeep} does, a class an object stream's {@code resolveClass} did not
   * find (the stream read on only if the class is a removed superclass, {@code
   * StreamReader.resolveClasses}); an array class fails at once.
   */
  private Class<?> refusedByHook(int index, String name) throws ClassMismatchException {
    ClassMismatchException e =
        new ClassMismatchException(
            name,
            null,
            "the object stream's resolveClass did not find the class; return it from"
                + " resolveClass, or capture the graph without it");
    e.initCause(new ClassNotFoundException(name));
    if (name.startsWith("[")) {
      throw e;
    }
    return keepNotFound(index, e);
  }

  /** Keeps {@code e} as class {@code index}'s failure to be found ({@link #gone}); gives null. */
  private Class<?> keepNotFound(int index, ClassMismatchException e) {
    if (notFound == null) {
      notFound = new ClassMismatchException[classes.length];
    }
    notFound[index] = e;
    return null;
  }

  /**
   * @return whether class {@code index} was not found: a removed superclass whose class is gone
   *     ({@link GoneClasses}), of which {@link #get} gives {@code null}
   */
  boolean gone(int index) {
    return notFound != null && notFound[index] != null;
  }

  /**
   * @return whether some class of the table was not found ({@link #gone(int)})
   */
  boolean hasGone() {
    return notFound != null;
  }

  /**
   * @return the failure to find class {@code index}, which {@link #gone(int)}
   */
  ClassMismatchException notFound(int index) {
    return notFound[index];
  }

  static Class<?> resolve(String name, ClassLoader loader) throws ClassMismatchException {
    Class<?> p = Types.primitiveNamed(name);
    if (p != null) {
      return p;
    }
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      ClassMismatchException x =
          new ClassMismatchException(
              name,
              null,
              "the class is not found"
                  + " by "
                  + loader
                  + "; put it on the class path or pass its loader in"
                  + " CodeseOptions.withClassLoader");
      // CodeseInputStream throws a ClassNotFoundException itself, as ObjectInputStream does
      x.initCause(e);
      throw x;
    }
  }

  /**
   * @return the checks of the table's fingerprints, made on first use (after {@link Surface} and
   *     the filter accepted every class, so the code-check thread may have loaded the class)
   */
  private Fingerprints fingerprints() {
    if (fingerprints == null) {
      fingerprints = new Fingerprints(this, entries, classes);
    }
    return fingerprints;
  }

  /**
   * @return the record of what changed in the table's classes since capture, made when the first
   *     change is recorded (each query below answers "nothing changed" while there is none)
   */
  ClassChanges changes() {
    if (changes == null) {
      changes = new ClassChanges();
    }
    return changes;
  }

  /**
   * Finds the classes removed since capture from the hierarchy of the snapshot's objects, and
   * removes their recorded fields ({@link Fingerprints#detach}). Run once per class table, after
   * {@link #checkFields()}.
   *
   * @param file the snapshot whose allocations decide
   */
  void detach(SnapshotFile file) {
    fingerprints().detach(file);
  }

  /**
   * @return whether class {@code c} was removed since capture from the hierarchy of every object
   *     the snapshot allocates ({@link ClassChanges#detached})
   */
  boolean detached(Class<?> c) {
    return changes != null && changes.detached(c);
  }

  /**
   * @return whether the table has a class removed from the hierarchy of the snapshot's objects
   */
  boolean hasDetached() { // or not found (GoneClasses): stores are taken out the same way
    return (changes != null && changes.anyDetached()) || notFound != null;
  }

  /**
   * @return the classes removed from the hierarchy of the snapshot's objects ({@link #detach});
   *     empty if none
   */
  Set<Class<?>> detachedClasses() {
    return changes == null ? Set.of() : changes.detachedClasses();
  }

  /**
   * @return whether recorded field {@code name} of class {@code index} was removed since capture
   *     ({@link ClassChanges#removed(int, String)}): the snapshot's stores into it are skipped
   */
  boolean removed(int index, String name) {
    return changes != null && changes.removed(index, name);
  }

  /**
   * @return whether a recorded field was removed since capture ({@link #removedFields()})
   */
  boolean evolved() {
    return changes != null && changes.evolved();
  }

  /**
   * @param file the snapshot
   * @param sameJdk whether it was captured on the running JDK's version, whose classes are skipped
   * @return whether some hierarchy gained a {@code Serializable} class since capture ({@link
   *     Fingerprints#hierarchyChanged})
   */
  boolean hierarchyChanged(SnapshotFile file, boolean sameJdk) {
    return fingerprints().hierarchyChanged(file, sameJdk);
  }

  /**
   * @return the class-table indices of the classes that gained a {@code readObject} since capture,
   *     whose fields the code sets directly; empty if none
   */
  Set<Integer> hookAdded() {
    return changes == null ? Set.of() : changes.hookAdded();
  }

  /**
   * @return the recorded fields removed since capture, by class-table index; empty if none (the
   *     common case, where the generated code is defined as it is)
   */
  Map<Integer, Set<String>> removedFields() {
    return changes == null ? Map.of() : changes.removedFields();
  }

  /**
   * The field {@code name} of class {@code index} that generated code may set ({@link
   * Fingerprints#writableField}).
   *
   * @param index a class-table index
   * @param name the field's name
   * @return the field, not yet made accessible; {@code null} for a recorded field removed since
   *     capture ({@link #removed(int, String)}), whose stores are skipped
   * @throws ClassMismatchException if the field is not one the snapshot may set
   */
  Field writableField(int index, String name) throws ClassMismatchException {
    return fingerprints().writableField(index, name);
  }
}
