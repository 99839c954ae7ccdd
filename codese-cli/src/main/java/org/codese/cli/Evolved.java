package org.codese.cli;

import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.SnapshotSegment;
import org.codese.SnapshotSegment.ClassInfo;

/**
 * What {@code codese verify} says of a class that changed since capture, field by field, as the
 * loader classifies it (serialization specification, section 5.6): a recorded field the class no
 * longer has as a serializable field was removed (skipped on restore; a problem if the class
 * declares no {@code serialVersionUID}, as {@code ObjectInputStream} then rejects the data too);
 * one whose type changed kind is a problem; a serializable field not recorded was added (its
 * default on restore); a serializable superclass the file does not name was inserted; one the
 * loader finds no object's hierarchy has now (or does not find at all) was removed. Reads
 * declarations only: initialises nothing.
 */
final class Evolved {
  private Evolved() {}

  static void fields(ClassInfo e, Class<?> c, List<String> problems, List<String> evolved) {
    if (e.fields().isEmpty() || !Serializable.class.isAssignableFrom(c)) {
      return;
    }
    Map<String, Field> live;
    try {
      live = serialFields(c);
    } catch (LinkageError x) {
      problems.add("fingerprint: class " + e.name() + " cannot be linked: " + x);
      return;
    }
    boolean persistent = live == null;
    for (SnapshotSegment.FieldInfo f : e.fields()) {
      if (!f.declared() || persistent) {
        continue; // serialPersistentFields: named by a static value, which verify does not read
      }
      Field now = live.remove(f.name());
      String was = f.name() + " (" + VerifyCommand.type(f.descriptor()) + ")";
      if (now == null) {
        String why = why(c, f.name());
        if (e.serialVersionUID().isEmpty() && !c.isRecord()) {
          problems.add(
              "fingerprint: class "
                  + e.name()
                  + ": field "
                  + was
                  + " existed at capture but "
                  + why
                  + ", and the class declares no serialVersionUID (ObjectInputStream rejects such"
                  + " data too: declare one in every version of a class that evolves)");
        } else {
          evolved.add(
              "class "
                  + e.name()
                  + ": field "
                  + was
                  + " removed since capture ("
                  + why
                  + "): skipped on restore");
        }
        continue;
      }
      String type = now.getType().descriptorString();
      boolean sameKind = f.isPrimitive() ? type.equals(f.descriptor()) : type.length() > 1;
      if (!sameKind) {
        problems.add(
            "fingerprint: class "
                + e.name()
                + ": field "
                + f.name()
                + " had type "
                + VerifyCommand.type(f.descriptor())
                + " at capture but has type "
                + VerifyCommand.type(type)
                + " now (incompatible types, which ObjectInputStream rejects too)");
      }
    }
    if (persistent) {
      return;
    }
    for (Field added : live.values()) {
      evolved.add(
          "class "
              + e.name()
              + ": field "
              + added.getName()
              + " ("
              + VerifyCommand.type(added.getType().descriptorString())
              + ") added since capture: restored with its default value");
    }
  }

  /**
   * Notes the {@code Serializable} classes of {@code e}'s hierarchy the file does not name:
   * inserted since capture, their {@code readObjectNoData} runs, if declared.
   */
  static void inserted(ClassInfo e, Class<?> c, Set<String> names, List<String> evolved) {
    if (e.fields().isEmpty() || c.getClassLoader() == null || c.isRecord() || c.isEnum()) {
      return;
    }
    for (Class<?> k = c.getSuperclass();
        k != null && Serializable.class.isAssignableFrom(k);
        k = k.getSuperclass()) {
      if (!names.contains(k.getName())) {
        evolved.add(
            "class "
                + k.getName()
                + " inserted into the hierarchy of "
                + e.name()
                + " since capture: its fields keep their defaults"
                + (declaresPrivate(k, "readObjectNoData", 0) ? ", its readObjectNoData runs" : ""));
      }
    }
  }

  /**
   * The line for a superclass removed since capture from the hierarchy of the file's objects
   * ({@link SnapshotSegment#removedSuperclasses}): its data is read and skipped on restore.
   */
  static String removedSuperclass(ClassInfo e, boolean found) {
    StringBuilder fields = new StringBuilder();
    for (SnapshotSegment.FieldInfo f : e.fields()) {
      fields.append(fields.length() == 0 ? "" : ", ").append(f.name());
    }
    return "class "
        + e.name()
        + " removed since capture from the hierarchy of the objects that extended it"
        + (found
            ? " (none of the file's objects is an instance of it now)"
            : ", and no longer on the class path")
        + ": its data ("
        + (fields.length() == 0 ? "no fields" : "fields " + fields)
        + ", and any writeObject data) is read and skipped on restore, as ObjectInputStream"
        + " skips it";
  }

  /**
   * The line for a superclass removed since capture from the hierarchy of some of the file's
   * objects while others are of the class itself, or that was made final ({@link
   * SnapshotSegment#check}): its data is skipped in the objects whose class no longer extends it.
   */
  static String removedPerObject(String name) {
    return "class "
        + name
        + " removed since capture from the hierarchy of some objects (the file also holds objects"
        + " of the class itself, or the class is final now): its data in the objects whose class"
        + " no longer extends it is skipped on restore, as ObjectInputStream skips it; its own"
        + " objects restore with theirs";
  }

  /**
   * The line for the objects of a class no longer on the class path that only skipped data refers
   * to ({@link SnapshotSegment#checkChanges}): they are not made on restore.
   */
  static String notMade(String name, int objects) {
    return "class "
        + name
        + " no longer on the class path: its "
        + objects
        + (objects == 1 ? " object, which" : " objects, which")
        + " only skipped data refers to (a removed field, the data of a superclass removed since"
        + " capture), "
        + (objects == 1 ? "is" : "are")
        + " not made on restore, and any data of it in other objects (as their superclass) is read"
        + " and skipped, as ObjectInputStream does";
  }

  private static String why(Class<?> c, String name) {
    try {
      int mods = c.getDeclaredField(name).getModifiers();
      return Modifier.isStatic(mods) ? "it is static now" : "it is transient now";
    } catch (NoSuchFieldException x) {
      return "it is gone now";
    }
  }

  /** Declared non-static, non-transient fields; {@code null} if the class names them otherwise. */
  private static Map<String, Field> serialFields(Class<?> c) {
    Map<String, Field> m = new HashMap<>();
    for (Field f : c.getDeclaredFields()) {
      if (f.getName().equals("serialPersistentFields") && Modifier.isStatic(f.getModifiers())) {
        return null;
      }
      if ((f.getModifiers() & (Modifier.STATIC | Modifier.TRANSIENT)) == 0) {
        m.put(f.getName(), f);
      }
    }
    return m;
  }

  private static boolean declaresPrivate(Class<?> c, String name, int parameters) {
    for (Method m : c.getDeclaredMethods()) {
      if (m.getName().equals(name)
          && m.getParameterCount() == parameters
          && Modifier.isPrivate(m.getModifiers())
          && !Modifier.isStatic(m.getModifiers())) {
        return true;
      }
    }
    return false;
  }
}
