package org.codese.load;

import java.io.InvalidObjectException;
import java.io.ObjectStreamException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.codese.ClassMismatchException;
import org.codese.ClassNotAllowedException;
import org.codese.UnsafeSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;

/**
 * Global references (snapshot format {@link Grammar#GLOBAL_VERSION}): {@link Constant.StaticRef},
 * the value of a static final field, and {@link Constant.NamedRef}, an object the load options
 * name. {@link #admit} decides, before the filter and before any class is initialised, whether the
 * options admit a snapshot's references; {@link #read} reads a static constant once the filter
 * accepted its class.
 */
final class Globals {
  private Globals() {}

  /**
   * Rejects a snapshot whose global references the allow-list does not admit, or that has one in a
   * file of a format before {@link Grammar#GLOBAL_VERSION}, or that names a global the options do
   * not give. Reflects on nothing and initialises no class.
   *
   * @param file the parsed snapshot
   * @param table its classes, loaded without initialisation
   * @throws ClassNotAllowedException if it refers to a static constant and the options do not admit
   *     static constants, or to a named global and the options name none
   * @throws InvalidObjectException if it refers to a name the options do not give
   * @throws UnsafeSnapshotException if a global reference is in a file of an earlier format
   */
  static void admit(SnapshotFile file, ClassTable table) throws ObjectStreamException {
    AllowList allowed = table.allowed();
    for (Constant k : file.constants()) {
      if (k instanceof Constant.StaticRef r) {
        tooOld(file);
        if (!allowed.staticConstants()) {
          String name = table.get(r.type()).getName();
          throw new ClassNotAllowedException(
              name,
              "the snapshot refers to the static final field "
                  + name
                  + "."
                  + r.field()
                  + " (a global reference: it restores as that field's value in this JVM, not as"
                  + " a copy), which a load with default options refuses, since reading it"
                  + " initialises the class and gives the restored graph a live object of this"
                  + " JVM. If the snapshot comes from a trusted source, load it with"
                  + " CodeseOptions.defaults().withStaticConstants(true)",
              allowed.patterns());
        }
      } else if (k instanceof Constant.NamedRef n) {
        tooOld(file);
        if (!allowed.globals().containsKey(n.name())) {
          String problem =
              "the snapshot refers to the global named \""
                  + n.name()
                  + "\", which the load options do not name; if the snapshot comes from a"
                  + " trusted source, give the object with CodeseOptions.withGlobal(\""
                  + n.name()
                  + "\", value)";
          if (allowed.globals().isEmpty()) {
            throw new ClassNotAllowedException(null, problem, allowed.patterns());
          }
          throw new InvalidObjectException(problem);
        }
      }
    }
  }

  private static void tooOld(SnapshotFile file) throws UnsafeSnapshotException {
    if (file.version() < Grammar.GLOBAL_VERSION) {
      throw new UnsafeSnapshotException(
          java.util.List.of(
              "snapshot rejected before it ran: it holds a global reference, which exists from"
                  + " format version "
                  + Grammar.GLOBAL_VERSION
                  + " on, in a file of version "
                  + file.version()));
    }
  }

  /**
   * The value of static constant {@code name} of {@code type}: it must be a static final field of
   * reference type declared by {@code type}, readable by Codese, and not {@code null}. Reading it
   * initialises {@code type}, as any use of the class would.
   *
   * @param type the class, accepted by the filter
   * @param name the field's name
   * @return its value
   * @throws ClassMismatchException if the field is missing, not a static final reference field, not
   *     readable, {@code null}, or the class's initialisation failed
   */
  static Object read(Class<?> type, String name) throws ClassMismatchException {
    Field f;
    try {
      f = type.getDeclaredField(name);
    } catch (NoSuchFieldException e) {
      throw changed(type, name, "has no field " + name + " now");
    }
    int m = f.getModifiers();
    if (!Modifier.isStatic(m) || !Modifier.isFinal(m) || f.getType().isPrimitive()) {
      throw changed(
          type,
          name,
          "field "
              + name
              + " is not a static final field of a reference type now (it is "
              + Modifier.toString(m)
              + " "
              + f.getType().getTypeName()
              + ")");
    }
    Object value;
    try {
      if (!f.trySetAccessible()) {
        throw changed(
            type,
            name,
            "field "
                + name
                + " cannot be read: module "
                + type.getModule().getName()
                + " does not open package "
                + type.getPackageName()
                + " to Codese");
      }
      value = f.get(null);
    } catch (IllegalAccessException | RuntimeException | LinkageError e) {
      // LinkageError: the class's initialiser failed, as it would for any use of the class
      throw changed(type, name, "reading field " + name + " failed: " + e);
    }
    if (value == null) {
      throw changed(type, name, "field " + name + " is null now");
    }
    return value;
  }

  private static ClassMismatchException changed(Class<?> type, String name, String problem) {
    return new ClassMismatchException(
        type.getName(),
        name,
        "the snapshot refers to its static constant "
            + name
            + ", but "
            + problem
            + "; the class changed, capture the graph again");
  }
}
