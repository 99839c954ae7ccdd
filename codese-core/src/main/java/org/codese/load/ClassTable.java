package org.codese.load;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.codese.ClassMismatchException;
import org.codese.jvm.Jvm;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.program.ClassEntry;

/**
 * Resolves a snapshot's class table against the live classes and checks each fingerprint: the
 * fields the snapshot relies on must still exist with the same types, and a declared {@code
 * serialVersionUID} must be unchanged.
 */
final class ClassTable {
  private static final Map<String, Class<?>> PRIMITIVES = Map.of(
      "int", int.class, "long", long.class, "boolean", boolean.class, "byte", byte.class,
      "char", char.class, "short", short.class, "float", float.class, "double", double.class,
      "void", void.class);

  private final List<ClassEntry> entries;
  private final Class<?>[] classes;
  private final Slot[] slots;

  ClassTable(List<ClassEntry> entries, ClassLoader loader) throws ClassMismatchException {
    this.entries = entries;
    this.classes = new Class<?>[entries.size()];
    this.slots = new Slot[entries.size()];
    for (int i = 0; i < classes.length; i++) {
      classes[i] = resolve(entries.get(i).name(), loader);
      check(entries.get(i), classes[i]);
    }
  }

  int size() {
    return classes.length;
  }

  Class<?> get(int index) {
    return classes[index];
  }

  /** @return the slot view of class {@code index}, with the fields the snapshot recorded */
  Slot slot(int index) throws ClassMismatchException {
    if (slots[index] == null) {
      Class<?> c = classes[index];
      List<SerialField> fields = new ArrayList<>();
      boolean accessible = true;
      for (ClassEntry.FieldEntry f : entries.get(index).fields()) {
        Field field = f.real() ? field(c, f) : null;
        if (field != null && !field.trySetAccessible()) {
          accessible = false;
        }
        fields.add(new SerialField(f.name(), typeOf(f.descriptor()), field));
      }
      slots[index] = new Slot(c, List.copyOf(fields), null, Jvm.readObject(c), accessible);
    }
    return slots[index];
  }

  private static Class<?> typeOf(String descriptor) {
    if (descriptor.length() == 1) {
      return org.codese.jvm.Types.primitiveClass(descriptor.charAt(0));
    }
    return Object.class;
  }

  private static Class<?> resolve(String name, ClassLoader loader) throws ClassMismatchException {
    Class<?> p = PRIMITIVES.get(name);
    if (p != null) {
      return p;
    }
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ClassMismatchException(name, null, "the class is not found by " + loader
          + "; put it on the class path or pass its loader in CodeseOptions.withClassLoader");
    }
  }

  private static void check(ClassEntry e, Class<?> c) throws ClassMismatchException {
    if (e.hasSuid()) {
      Long now = Jvm.declaredSuid(c);
      if (now == null || now != e.suid()) {
        throw new ClassMismatchException(e.name(), null, "serialVersionUID was " + e.suid()
            + " at capture but is " + now + " now; the class changed, capture the graph again");
      }
    }
    for (ClassEntry.FieldEntry f : e.fields()) {
      if (f.real()) {
        field(c, f);
      }
    }
  }

  private static Field field(Class<?> c, ClassEntry.FieldEntry f) throws ClassMismatchException {
    Field field;
    try {
      field = c.getDeclaredField(f.name());
    } catch (NoSuchFieldException e) {
      throw new ClassMismatchException(c.getName(), f.name(), "field " + f.name()
          + " existed at capture but is gone now; capture the graph again");
    }
    String now = org.codese.jvm.Types.descriptor(field.getType());
    boolean sameKind = f.primitive() ? now.equals(f.descriptor()) : now.length() > 1;
    if (!sameKind || Modifier.isStatic(field.getModifiers())) {
      throw new ClassMismatchException(c.getName(), f.name(), "field " + f.name() + " had type "
          + f.descriptor() + " at capture but has type " + now
          + (Modifier.isStatic(field.getModifiers()) ? " and is static" : "")
          + " now; capture the graph again");
    }
    return field;
  }
}
