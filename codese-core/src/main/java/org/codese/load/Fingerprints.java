package org.codese.load;

import java.io.Externalizable;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.ClassMismatchException;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Jvm;
import org.codese.jvm.Types;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.TypeNames;

/**
 * The checks of a {@link ClassTable}'s fingerprints against the live classes, as {@code
 * ObjectStreamClass} matches a stream's class descriptors: each recorded field is a serializable
 * field of the class with the same kind of type, or removed since capture ({@link #checkField});
 * each field the code sets is one {@code ObjectInputStream} would set ({@link #writableField}); a
 * declared {@code serialVersionUID} is unchanged ({@link #checkSuid}), and one computed at capture
 * equals the class's value now ({@link #checkComputedSuid}). It also compares the hierarchies: the
 * classes removed since capture from the hierarchy of the snapshot's objects ({@link #detach}), and
 * whether a {@code Serializable} superclass was inserted ({@link #hierarchyChanged}). What changed
 * and is adapted to is recorded in {@link ClassChanges}.
 *
 * <p>One per class table, made on first use, after {@link Surface} and the filter accepted every
 * class: {@link ClassTable#checkFields()} calls {@link #checkField} for each recorded field, the
 * program check and the constants call {@link #writableField}, and {@link ClassTable#checkSuids}
 * calls the static {@code serialVersionUID} checks last, since reading a declared value initialises
 * the class; {@link ClassTable#detach} calls {@link #detach} once, after {@link
 * ClassTable#checkFields()}. Each check throws a {@link ClassMismatchException} that says what
 * differs; {@link #detach} and {@link #hierarchyChanged} throw nothing.
 */
final class Fingerprints {
  private final ClassTable table;
  private final List<ClassEntry> entries;
  private final Class<?>[] classes;

  private final Map<Class<?>, Map<String, Class<?>>> serialFields = new HashMap<>();

  /** The classes whose serializable fields {@code serialPersistentFields} names. */
  private final Set<Class<?>> fromPersistentFields = new HashSet<>();

  /** Per class-table index, the fields {@link #writableField} allowed already. */
  private final Map<Integer, Map<String, Field>> writable = new HashMap<>();

  /**
   * @param table the class table whose fingerprints are checked
   * @param entries its class entries
   * @param classes its classes, by class-table index (the table's own array, not copied)
   */
  Fingerprints(ClassTable table, List<ClassEntry> entries, Class<?>[] classes) {
    this.table = table;
    this.entries = entries;
    this.classes = classes;
  }

  /**
   * A field of a class entry, classified as {@code ObjectStreamClass.matchFields} classifies a
   * stream field against the local class: one the class still has as a serializable field (for an
   * admitted class: as a declared instance field) must have the same kind of type, else the change
   * is incompatible; one it no longer has (gone, static or transient now, or left out of {@code
   * serialPersistentFields}) was removed since capture and is skipped ({@link #removed(int,
   * ClassEntry.FieldEntry)}). An entry without a declared field must be a {@code
   * serialPersistentFields} entry, as at capture.
   */
  void checkField(int index, ClassEntry.FieldEntry f) throws ClassMismatchException {
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
    table.changes().markRemoved(index, f.name());
  }

  /**
   * The live type of a recorded field, or {@code null} if the class no longer has it as a field the
   * snapshot may restore.
   */
  private Class<?> liveType(int index, ClassEntry.FieldEntry f) {
    Class<?> c = classes[index];
    if (f.real() && table.admitted(index)) {
      Field field = declared(c, f.name());
      return field == null || Modifier.isStatic(field.getModifiers()) ? null : field.getType();
    }
    return serialFields(c).get(f.name());
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
   *     capture ({@link ClassTable#removed(int, String)}), whose stores are skipped
   * @throws ClassMismatchException if the field is not one the snapshot may set
   */
  Field writableField(int index, String name) throws ClassMismatchException {
    if (table.removed(index, name)) {
      return null;
    }
    if (table.gone(index)) {
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
    if (table.admitted(index)) {
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
      table.changes().markHookAdded(index);
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

  static Field field(Class<?> c, ClassEntry.FieldEntry f) throws ClassMismatchException {
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

  /**
   * Finds the {@code Serializable} classes removed since capture from the hierarchy of the objects
   * of the snapshot (the specification's section 5.6.2, "removing classes"): a {@code Serializable}
   * class of the table, not final, not an enum and not the JDK's, whose data (recorded fields or a
   * {@code readObject} replay) the snapshot carries, none of whose objects the snapshot allocates,
   * neither of it nor of a subclass of it now. Its recorded fields are all removed ({@link
   * ClassTable#removed(int, String)}): the stores into them, which could only fail, are taken out
   * of the code, as {@code ObjectInputStream} reads and discards the data of a class its local
   * class's hierarchy lacks. Their kinds were compared with the live class's ({@link
   * ClassTable#checkFields()}), and the class's {@code serialVersionUID} is compared as any other's
   * ({@link ClassTable#checkSuids}), as the JDK still matches such a class's descriptor against the
   * local class of that name.
   *
   * <p>A snapshot that allocates an object of the class and stores into the class's fields on an
   * object that no longer is one is refused by {@link ProgramCheck} (not detached here). What it
   * finds is recorded in {@link ClassChanges}. Run once per class table, after {@link
   * ClassTable#checkFields()}; a table with a detached class is not shared with another segment,
   * whose allocations may differ.
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
      int tag = k.tag(); // not instanceof tests, which would load the record classes
      if (tag == Constant.HOOK) {
        Constant.Hook h = (Constant.Hook) k;
        if (h.kind() == Constant.HookKind.SLOT && h.type() >= 0 && h.type() < classes.length) {
          replayed[h.type()] = true;
        }
      } else if (tag == Constant.ALLOCATOR) {
        Constant.Allocator a = (Constant.Allocator) k;
        if (a.type() < 0 || a.type() >= classes.length) {
          continue;
        }
        // an allocated class and its superclasses are no candidates; unknown: none is
        Class<?> made = classes[a.type()];
        if (made == null && table.gone(a.type())) {
          continue; // a class not found: its objects are not made (ProgramCheck.NOT_MADE)
        }
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
      ClassChanges changes = table.changes();
      changes.markDetached(classes[i]);
      for (ClassEntry.FieldEntry f : entries.get(i).fields()) {
        changes.markRemoved(i, f.name());
      }
    }
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
      if (c == null) {
        continue; // a class not found: its objects are not made (ProgramCheck.NOT_MADE)
      }
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
   * Compares the {@code serialVersionUID} computed at capture for a class that declared none
   * ({@code plan.Tables}) with the class's value now, declared or computed, as {@code
   * ObjectStreamClass.initNonProxy} compares a stream's value with the local class's: a field or a
   * non-private method added or removed changes a computed value. Not for the classes whose value
   * the JDK does not compare (not {@code Serializable} now, arrays, enums, records: a class made
   * one of those since capture is rejected elsewhere, as by the JDK). Snapshots written before
   * Codese recorded the computed value hold 0 there and are not compared.
   */
  static void checkComputedSuid(ClassEntry e, Class<?> c) throws ClassMismatchException {
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

  static void checkSuid(ClassEntry e, Class<?> c) throws ClassMismatchException {
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
}
