package org.codese.load;

import java.io.Externalizable;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.ClassMismatchException;
import org.codese.jvm.Jvm;
import org.codese.jvm.Types;
import org.codese.program.ClassEntry;
import org.codese.program.TypeNames;

/**
 * The checks of a {@link ClassTable}'s fingerprints against the live classes, as {@code
 * ObjectStreamClass} matches a stream's class descriptors: each recorded field is a serializable
 * field of the class with the same kind of type, or removed since capture ({@link #checkField});
 * each field the code sets is one {@code ObjectInputStream} would set ({@link #writableField}); a
 * declared {@code serialVersionUID} is unchanged ({@link #checkSuid}), and one computed at capture
 * equals the class's value now ({@link #checkComputedSuid}).
 *
 * <p>One per class table, made on first use, after {@link Surface} and the filter accepted every
 * class: {@link ClassTable#checkFields()} calls {@link #checkField} for each recorded field, the
 * program check and the constants call {@link #writableField}, and {@link ClassTable#checkSuids}
 * calls the static {@code serialVersionUID} checks last, since reading a declared value initialises
 * the class. Each check throws a {@link ClassMismatchException} that says what differs.
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
   * serialPersistentFields}) was removed since capture and is skipped ({@link
   * ClassChanges#removed(int, ClassEntry.FieldEntry)}). An entry without a declared field must be a
   * {@code serialPersistentFields} entry, as at capture.
   */
  void checkField(int index, ClassEntry.FieldEntry f) throws ClassMismatchException {
    Class<?> c = classes[index];
    Class<?> type = liveType(index, f);
    if (type == null) {
      table.changes().removed(index, f);
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
