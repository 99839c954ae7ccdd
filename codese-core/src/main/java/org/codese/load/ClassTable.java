package org.codese.load;

import java.io.Externalizable;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
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
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.TypeNames;

/**
 * Resolves a snapshot's class table against the live classes, loading each without initialising it,
 * and, once {@link Surface} and the serialization filter accepted every class, checks each
 * fingerprint ({@link #checkFields()}, {@link #checkSuids(boolean)}): the fields the snapshot
 * relies on must be serializable fields of the class with the same types, and a declared {@code
 * serialVersionUID} must be unchanged.
 */
final class ClassTable {
  private static final MethodType READ_OBJECT =
      MethodType.methodType(void.class, Object.class, ObjectInputStream.class);

  private final List<ClassEntry> entries;
  private final Class<?>[] classes;
  private final Slot[] slots;

  /** Per class-table index, the interfaces of a proxy class, else null. */
  private final Class<?>[][] interfaces;

  /** The loader names are resolved with, and proxy classes made in. */
  private final ClassLoader loader;

  /** Whether a proxy class of the table is still to be made ({@link #makeProxies}). */
  private boolean unmade;

  /**
   * Per class-table index of an array class whose element class is a proxy class of the table: the
   * proxy entry's index, and the array's dimensions ({@link #proxyArray}); null if none.
   */
  private Map<Integer, int[]> proxyArrays;

  private final AllowList allowed;
  private final Map<Class<?>, Map<String, Class<?>>> serialFields = new HashMap<>();

  /** The classes whose serializable fields {@code serialPersistentFields} names. */
  private final Set<Class<?>> fromPersistentFields = new HashSet<>();

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
   * Per class-table index, the failure to find a class the loader does not have, kept until {@link
   * GoneClasses#check} decides whether the snapshot uses the class only as a removed superclass;
   * null if every class was found.
   */
  private ClassMismatchException[] notFound;

  /** Per class-table index, the fields {@link #writableField} allowed already. */
  private final Map<Integer, Map<String, Field>> writable = new HashMap<>();

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
    this.slots = new Slot[entries.size()];
    this.interfaces = new Class<?>[entries.size()][];
    this.loader = loader;
    Map<String, Integer> proxyNames = proxyNames(entries);
    for (int i = 0; i < classes.length; i++) {
      ClassEntry e = entries.get(i);
      if (e.isProxy()) {
        // a stream's resolveProxyClass made it already, as ObjectInputStream's; else makeProxies
        Class<?> c = resolved == null ? null : resolved.get(proxyKey(e.interfaces()));
        interfaces[i] = c != null ? c.getInterfaces() : ProxyClasses.interfaces(e, loader);
        classes[i] = c;
        unmade |= c == null;
        continue;
      }
      String name = e.name();
      Class<?> c = resolved == null ? null : resolved.get(name);
      int[] array = c == null && proxyNames != null ? proxyArray(name, proxyNames) : null;
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
      elementsOfResolvedArrays(proxyNames);
    }
  }

  /**
   * Takes each proxy class no hook made from an array class of it that a stream's {@code
   * resolveClass} gave (the array's descriptor is what {@code ObjectInputStream} asks about for an
   * empty {@code $Proxy5[]}; it never asks {@code resolveProxyClass}): its element class, if that
   * is a proxy class of the entry's interfaces.
   */
  private void elementsOfResolvedArrays(Map<String, Integer> proxyNames) {
    for (int i = 0; i < classes.length; i++) {
      Class<?> a = classes[i];
      if (a == null || !a.isArray() || entries.get(i).isProxy()) {
        continue;
      }
      int[] array = proxyArray(entries.get(i).name(), proxyNames);
      if (array == null || classes[array[0]] != null) {
        continue;
      }
      Class<?> element = a;
      while (element.isArray()) {
        element = element.getComponentType();
      }
      if (java.lang.reflect.Proxy.isProxyClass(element)
          && names(element.getInterfaces()).equals(entries.get(array[0]).interfaces())) {
        classes[array[0]] = element;
        interfaces[array[0]] = element.getInterfaces();
      }
    }
  }

  private static List<String> names(Class<?>[] classes) {
    List<String> names = new ArrayList<>(classes.length);
    for (Class<?> c : classes) {
      names.add(c.getName());
    }
    return names;
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
   * Whether {@code name} is an array class whose element class is one of the table's proxy classes,
   * by the proxy class's name at capture (which the loading JVM need not know: a proxy class's name
   * is made up by the JVM that defines it). Capture lists the element proxy class of every such
   * array ({@code plan.Tables}), so the array class is made from it.
   *
   * @return the proxy entry's index and the array's dimensions, or {@code null}
   */
  private static int[] proxyArray(String name, Map<String, Integer> proxyNames) {
    int dims = 0;
    while (dims < name.length() && name.charAt(dims) == '[') {
      dims++;
    }
    if (dims == 0 || !name.endsWith(";") || name.charAt(dims) != 'L') {
      return null;
    }
    Integer proxy = proxyNames.get(name.substring(dims + 1, name.length() - 1));
    return proxy == null ? null : new int[] {proxy, dims};
  }

  /**
   * The key under which a stream's {@code resolveProxyClass} result for a proxy entry is passed in
   * the {@code resolved} map: its interface names, which no class name can equal.
   *
   * @param interfaces a proxy class's interface names
   * @return the key
   */
  static String proxyKey(List<String> interfaces) {
    return "proxy " + String.join(",", interfaces);
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
    if (!unmade) {
      return;
    }
    for (int i = 0; i < classes.length; i++) {
      if (classes[i] == null && interfaces[i] != null) {
        classes[i] = ProxyClasses.make(entries.get(i), interfaces[i], loader);
      }
    }
    if (proxyArrays != null) {
      for (Map.Entry<Integer, int[]> a : proxyArrays.entrySet()) {
        Class<?> c = classes[a.getValue()[0]];
        for (int d = 0; d < a.getValue()[1]; d++) {
          c = c.arrayType();
        }
        classes[a.getKey()] = c;
      }
    }
    unmade = false;
  }

  /**
   * Checks the fields of every class's fingerprint: the fields the snapshot relies on must be
   * serializable fields of the class ({@link #writableField}). Initialises no class.
   *
   * @throws ClassMismatchException at the first field that differs
   */
  void checkFields() throws ClassMismatchException {
    for (int i = 0; i < classes.length; i++) {
      for (ClassEntry.FieldEntry f : entries.get(i).fields()) {
        if (gone(i)) {
          markRemoved(i, f.name()); // the JDK reads and discards a gone superclass's data
        } else {
          checkField(i, f);
        }
      }
    }
  }

  /**
   * Checks every declared {@code serialVersionUID} ({@link Jvm#declaredSuid}), and every value
   * computed at capture for a class that declared none ({@link #checkComputedSuid}). Reading one by
   * reflection initialises the class, so the loader runs this last, once {@link Surface}, the
   * filter and every other check accepted the snapshot, and never for a class that is not {@code
   * Serializable} and not admitted, as {@code ObjectStreamClass} never reads one there. The JDK's
   * own classes (of the boot and platform loaders) are skipped for a snapshot captured on the
   * running JDK's version, whose classes they are: the JDK fixes their values per release, and
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
        checkSuid(e, c);
      } else if (!e.hasSuid() && e.suid() != 0) {
        checkComputedSuid(e, c);
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
   * @return the binary name class {@code index} had at capture
   */
  String name(int index) {
    return entries.get(index).name();
  }

  Class<?> get(int index) {
    return classes[index];
  }

  /**
   * @return the slot view of class {@code index}, with the fields the snapshot recorded and its
   *     {@code readObject} adapted to {@code (Object, ObjectInputStream)void}, which {@link Hooks}
   *     calls exactly
   */
  Slot slot(int index) throws ClassMismatchException {
    if (slots[index] == null) {
      Class<?> c = classes[index];
      List<SerialField> fields = new ArrayList<>();
      boolean accessible = true;
      for (ClassEntry.FieldEntry f : entries.get(index).fields()) {
        Field field = f.real() && !removed(index, f.name()) ? field(c, f) : null;
        if (field != null && !field.trySetAccessible()) {
          accessible = false;
        }
        fields.add(new SerialField(f.name(), typeOf(f.descriptor()), field));
      }
      MethodHandle readObject = Jvm.readObject(c);
      slots[index] =
          Slot.of(
              c,
              List.copyOf(fields),
              null,
              readObject == null ? null : readObject.asType(READ_OBJECT),
              accessible);
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
   * Compares the {@code serialVersionUID} computed at capture for a class that declared none
   * ({@code plan.Tables}) with the class's value now, declared or computed, as {@code
   * ObjectStreamClass.initNonProxy} compares a stream's value with the local class's: a field or a
   * non-private method added or removed changes a computed value. Not for the classes whose value
   * the JDK does not compare (not {@code Serializable} now, arrays, enums, records: a class made
   * one of those since capture is rejected elsewhere, as by the JDK). Snapshots written before
   * Codese recorded the computed value hold 0 there and are not compared.
   */
  private static void checkComputedSuid(ClassEntry e, Class<?> c) throws ClassMismatchException {
    if (!Serializable.class.isAssignableFrom(c) || c.isArray() || c.isEnum() || c.isRecord()) {
      return;
    }
    long now;
    try {
      now = ObjectStreamClass.lookup(c).getSerialVersionUID(); // not null: c is Serializable
    } catch (RuntimeException | LinkageError x) {
      ClassMismatchException m =
          new ClassMismatchException(
              e.name(),
              null,
              "its serialVersionUID, which the class does not declare, cannot be computed here ("
                  + x
                  + "), so it cannot be compared with the value at capture, "
                  + e.suid()
                  + "; put the classes its members name on the class path");
      m.initCause(x);
      throw m;
    }
    if (now != e.suid()) {
      throw new ClassMismatchException(
          e.name(),
          null,
          "local class incompatible: stream classdesc serialVersionUID = "
              + e.suid()
              + ", local class serialVersionUID = "
              + now
              + " (the class declared no serialVersionUID at capture, and the value computed from"
              + " its fields and methods changed, which ObjectInputStream rejects too); declare"
              + " private static final long serialVersionUID = "
              + e.suid()
              + "L in the class to read such data, or capture the graph again");
    }
  }

  private static void checkSuid(ClassEntry e, Class<?> c) throws ClassMismatchException {
    Long now;
    try {
      now = Jvm.declaredSuid(c);
    } catch (IllegalStateException x) {
      throw new ClassMismatchException(
          e.name(),
          null,
          "its serialVersionUID cannot be read in this JVM ("
              + x.getMessage()
              + "); start it with --add-opens "
              + c.getModule().getName()
              + "/"
              + c.getPackageName()
              + "="
              + Jvm.openTarget());
    }
    if (now == null) {
      throw new ClassMismatchException(
          e.name(),
          null,
          "serialVersionUID was "
              + e.suid()
              + " at capture, but the class declares none now; the class changed, capture the"
              + " graph again");
    }
    if (now != e.suid()) {
      throw new ClassMismatchException(
          e.name(),
          null,
          "serialVersionUID was "
              + e.suid()
              + " at capture but is "
              + now
              + " now; the class changed, capture the graph again");
    }
  }

  /**
   * A field of a class entry, classified as {@code ObjectStreamClass.matchFields} classifies a
   * stream field against the local class: one the class still has as a serializable field (for an
   * admitted class: as a declared instance field) must have the same kind of type, else the change
   * is incompatible; one it no longer has (gone, static or transient now, or left out of {@code
   * serialPersistentFields}) was removed since capture and is skipped ({@link #removed}). An entry
   * without a declared field must be a {@code serialPersistentFields} entry, as at capture.
   */
  private void checkField(int index, ClassEntry.FieldEntry f) throws ClassMismatchException {
    Class<?> c = classes[index];
    Class<?> type = liveType(index, f);
    if (type == null) {
      removed(index, f);
      return;
    }
    if (!f.real() && !fromPersistentFields.contains(c)) {
      // only serialPersistentFields name fields that no declared field backs
      throw new ClassMismatchException(
          c.getName(),
          f.name(),
          "the snapshot relies on field "
              + f.name()
              + " as a serialPersistentFields entry without a declared field, but the class"
              + " declares it and names no serialPersistentFields; the snapshot is damaged or"
              + " crafted");
    }
    boolean sameKind =
        f.primitive()
            ? type.isPrimitive() && Types.descriptor(type).equals(f.descriptor())
            : !type.isPrimitive();
    if (!sameKind) {
      throw new ClassMismatchException(
          c.getName(),
          f.name(),
          "incompatible types for field "
              + f.name()
              + ": field "
              + f.name()
              + " had type "
              + TypeNames.javaName(f.descriptor())
              + " at capture but has type "
              + type.getTypeName()
              + " now, a change ObjectInputStream rejects too; capture the graph again");
    }
  }

  /**
   * The live type of a recorded field, or {@code null} if the class no longer has it as a field the
   * snapshot may restore.
   */
  private Class<?> liveType(int index, ClassEntry.FieldEntry f) {
    Class<?> c = classes[index];
    if (f.real() && admitted(index)) {
      Field field = declared(c, f.name());
      return field == null || Modifier.isStatic(field.getModifiers()) ? null : field.getType();
    }
    return serialFields(c).get(f.name());
  }

  /**
   * Records field {@code f} of class {@code index} as removed since capture. A class that declares
   * no {@code serialVersionUID} and is not a record is rejected instead: {@code ObjectInputStream}
   * computes its value from the class's shape, which the removal changed, and rejects the data.
   */
  private void removed(int index, ClassEntry.FieldEntry f) throws ClassMismatchException {
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

  private void markRemoved(int index, String name) {
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
   * Finds the {@code Serializable} classes removed since capture from the hierarchy of the objects
   * of the snapshot (the specification's section 5.6.2, "removing classes"): a {@code Serializable}
   * class of the table, not final, not an enum and not the JDK's, whose data (recorded fields or a
   * {@code readObject} replay) the snapshot carries, none of whose objects the snapshot allocates,
   * neither of it nor of a subclass of it now. Its recorded fields are all removed ({@link
   * #removed(int, String)}): the stores into them, which could only fail, are taken out of the
   * code, as {@code ObjectInputStream} reads and discards the data of a class its local class's
   * hierarchy lacks. Their kinds were compared with the live class's ({@link #checkFields()}), and
   * the class's {@code serialVersionUID} is compared as any other's ({@link #checkSuids}), as the
   * JDK still matches such a class's descriptor against the local class of that name.
   *
   * <p>A snapshot that allocates an object of the class and stores into the class's fields on an
   * object that no longer is one is refused by {@link ProgramCheck} (not detached here). Run once
   * per class table, after {@link #checkFields()}; a table with a detached class is not shared with
   * another segment, whose allocations may differ.
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
   * @return whether the table has a class removed from the hierarchy of the snapshot's objects
   */
  boolean hasDetached() { // or not found (GoneClasses): stores are taken out the same way
    return detached != null || notFound != null;
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

  /**
   * The field {@code name} of class {@code index} that generated code may set, through a setter or
   * {@code putfield}: for an admitted class any declared instance field; otherwise a serializable
   * field of a class that has no {@code readObject} (whose fields {@code ObjectInputStream} writes
   * only through that method) and is not {@code Externalizable}.
   *
   * @param index a class-table index
   * @param name the field's name
   * @return the field, not yet made accessible; {@code null} for a recorded field removed since
   *     capture ({@link #removed(int, String)}), whose stores are skipped
   * @throws ClassMismatchException if the field is not one the snapshot may set
   */
  Field writableField(int index, String name) throws ClassMismatchException {
    if (removed(index, name)) {
      return null;
    }
    if (gone(index)) {
      throw new ClassMismatchException(
          entries.get(index).name(),
          name,
          "the snapshot sets field "
              + name
              + " of a class the loader does not find, which its class entry does not record;"
              + " the snapshot is damaged or crafted");
    }
    Map<String, Field> known = writable.get(index);
    if (known == null) {
      known = new HashMap<>();
      writable.put(index, known);
    }
    Field f = known.get(name);
    if (f == null) {
      f = checkWritable(index, name);
      known.put(name, f);
    }
    return f;
  }

  private Field checkWritable(int index, String name) throws ClassMismatchException {
    Class<?> c = classes[index];
    Field f;
    try {
      f = c.getDeclaredField(name);
    } catch (NoSuchFieldException | RuntimeException | LinkageError e) {
      throw new ClassMismatchException(
          c.getName(), name, "field " + name + " cannot be set: it is not declared by the class");
    }
    if (Modifier.isStatic(f.getModifiers())) {
      throw new ClassMismatchException(
          c.getName(), name, "field " + name + " is static; snapshots only set instance fields");
    }
    if (admitted(index)) {
      return f;
    }
    Class<?> type = serialFields(c).get(name);
    if (type == null
        || type.isPrimitive() != f.getType().isPrimitive()
        || type.isPrimitive() && type != f.getType()) {
      throw new ClassMismatchException(
          c.getName(),
          name,
          "field "
              + name
              + " is not a"
              + " serializable field of the class, so ObjectInputStream never sets it; the snapshot"
              + " is damaged or crafted");
    }
    boolean readObject = Jvm.declaresReadObject(c);
    boolean external = Externalizable.class.isAssignableFrom(c);
    if (readObject && !external && !Jvm.isJdkClass(c)) {
      // readObject added since capture (5.6.2): the loader runs it on every object of the class
      // over the values set here, reset to their defaults first (AddedHooks), so it is not bypassed
      if (hookAdded == null) {
        hookAdded = new LinkedHashSet<>();
      }
      hookAdded.add(index);
      return f;
    }
    if (readObject || external) {
      throw new ClassMismatchException(
          c.getName(),
          name,
          "field "
              + name
              + " is set directly,"
              + " but ObjectInputStream sets the fields of this class only through its "
              + (readObject ? "readObject" : "readExternal")
              + "; the snapshot is damaged or crafted");
    }
    return f;
  }

  /**
   * The serializable fields of {@code c} by name, with their types, as {@code ObjectStreamClass}
   * finds them: the declared non-static, non-transient fields, or those {@code
   * serialPersistentFields} names where the class declares it (reading it initialises the class).
   * None for classes that are not {@code Serializable}, and for enums.
   */
  private Map<String, Class<?>> serialFields(Class<?> c) {
    Map<String, Class<?>> m = serialFields.get(c);
    if (m != null) {
      return m;
    }
    m = new HashMap<>();
    serialFields.put(c, m);
    if (!Serializable.class.isAssignableFrom(c) || c.isEnum()) {
      return m;
    }
    Field[] declared = c.getDeclaredFields();
    Field persistent = c.isRecord() ? null : persistentFields(declared);
    ObjectStreamField[] named =
        persistent == null ? null : Jvm.serialPersistentFields(c, persistent);
    if (named != null) {
      fromPersistentFields.add(c);
      for (ObjectStreamField f : named) {
        m.put(f.getName(), f.getType());
      }
      return m;
    }
    for (Field f : declared) {
      if ((f.getModifiers() & (Modifier.STATIC | Modifier.TRANSIENT)) == 0) {
        m.put(f.getName(), f.getType());
      }
    }
    return m;
  }

  /** The {@code private static final ObjectStreamField[] serialPersistentFields}, or null. */
  private static Field persistentFields(Field[] declared) {
    int mask = Modifier.PRIVATE | Modifier.STATIC | Modifier.FINAL;
    for (Field f : declared) {
      if (f.getName().equals("serialPersistentFields")
          && (f.getModifiers() & mask) == mask
          && f.getType() == ObjectStreamField[].class) {
        return f;
      }
    }
    return null;
  }

  /** The declared field {@code name} of {@code c}, or {@code null}. */
  private static Field declared(Class<?> c, String name) {
    try {
      return c.getDeclaredField(name);
    } catch (NoSuchFieldException e) {
      return null;
    }
  }

  private static Field field(Class<?> c, ClassEntry.FieldEntry f) throws ClassMismatchException {
    Field field;
    try {
      field = c.getDeclaredField(f.name());
    } catch (NoSuchFieldException e) {
      throw new ClassMismatchException(
          c.getName(),
          f.name(),
          "field " + f.name() + " existed at capture but is gone now; capture the graph again");
    }
    String now = org.codese.jvm.Types.descriptor(field.getType());
    boolean sameKind = f.primitive() ? now.equals(f.descriptor()) : now.length() > 1;
    if (!sameKind || Modifier.isStatic(field.getModifiers())) {
      throw new ClassMismatchException(
          c.getName(),
          f.name(),
          "field "
              + f.name()
              + " had type "
              + TypeNames.javaName(f.descriptor())
              + " at capture but has type "
              + field.getType().getTypeName()
              + (Modifier.isStatic(field.getModifiers()) ? " and is static" : "")
              + " now; capture the graph again");
    }
    return field;
  }
}
