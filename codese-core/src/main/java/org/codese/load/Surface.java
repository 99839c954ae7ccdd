package org.codese.load;

import java.io.Externalizable;
import java.io.InvalidClassException;
import java.io.Serializable;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.codese.ClassMismatchException;
import org.codese.ClassNotAllowedException;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Jvm;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Placement;

/**
 * Invariant I3, the default surface: with no classes admitted, a snapshot instantiates and writes
 * only what {@code ObjectInputStream} would for the same classes, through the constructors it would
 * run. Decided from the class table, the constants and the placements of the generated classes,
 * with reflection that loads but never initialises a class, so that it runs before the
 * serialization filter and before anything can initialise a class the snapshot names.
 *
 * <p>What each role of a class requires (a class that is not {@code Serializable} may take the
 * roles marked "admitted" only when the {@link AllowList} admits it):
 *
 * <ul>
 *   <li>allocated with the serialization constructor: {@code Serializable}, not {@code
 *       Externalizable}, an enum, a record, {@code String}, {@code Class} or {@code
 *       ObjectStreamClass}, and a valid constructor as the JDK defines it (the first
 *       non-serializable superclass's no-arg constructor, not private, and package-private only
 *       within the same package and loader, with every step of the serializable chain allowed to
 *       call its superclass's constructor);
 *   <li>allocated with no constructor at all: admitted only, never by default;
 *   <li>allocated with the public no-arg constructor: {@code Externalizable} with one;
 *   <li>default-read ({@code SLOT}) or written through a setter, {@code putfield} or a class
 *       entry's fields: {@code Serializable} and not {@code Externalizable}, or admitted; never an
 *       enum, a record, an interface or an array;
 *   <li>{@code readExternal}: {@code Externalizable}; a record's canonical constructor: a {@code
 *       Serializable} record, or an admitted one; {@code readResolve}: {@code Serializable}.
 * </ul>
 *
 * Which fields may be written is decided after the filter, when reading a field may initialise a
 * class: {@link ClassTable#checkFields()}, {@link ClassTable#writableField} for setters and,
 * through {@link ProgramCheck}, for {@code putfield}.
 */
final class Surface {
  private static final int ALLOC_SERIAL = 1;
  private static final int ALLOC_BARE = 1 << 1;
  private static final int ALLOC_EXTERNAL = 1 << 2;
  private static final int SLOT = 1 << 3;
  private static final int READ_EXTERNAL = 1 << 4;
  private static final int RECORD = 1 << 5;
  private static final int RESOLVE = 1 << 6;
  private static final int SETTER = 1 << 7;
  private static final int NEST = 1 << 8;
  private static final int FIELDS = 1 << 9;
  private static final int ALLOCATED = ALLOC_SERIAL | ALLOC_BARE | ALLOC_EXTERNAL;

  /** Roles that write an object's fields; a class entry's fields belong to them or to a record. */
  private static final int WRITTEN = SLOT | SETTER | NEST;

  private Surface() {}

  /**
   * Checks every class of a snapshot against the surface the allow-list admits, skipping a class
   * that took the same roles in an earlier segment of the stream {@code memo} belongs to, and
   * noting those it lets through.
   *
   * @param file the parsed segment
   * @param table its classes
   * @param memo the stream's memo, or {@code null}
   * @throws ClassNotAllowedException if a class needs admitting and is not admitted; the message
   *     names it and the option that admits every class the snapshot needs
   * @throws ClassMismatchException if a class takes a role no snapshot Codese writes gives it
   */
  static void check(SnapshotFile file, ClassTable table, SegmentMemo memo)
      throws ClassMismatchException, InvalidClassException {
    int[] roles = roles(file);
    AllowList allowed = table.allowed();
    List<String> needed = new ArrayList<>();
    String firstClass = null;
    String firstReason = null;
    for (int i = 0; i < roles.length; i++) {
      Class<?> c = table.get(i);
      if (c == null) {
        continue; // not found, a removed superclass's data only (GoneClasses): nothing to vet
      }
      if (memo != null && memo.surfacePassed(c, roles[i])) {
        continue;
      }
      boolean admitted = table.admitted(i);
      String reason = refusal(c, roles[i], admitted);
      if (reason == null && memo != null) {
        memo.notePassed(c, roles[i]);
      }
      if (reason != null) {
        needed.add(c.getName());
        if (!admitted && firstReason == null) {
          firstClass = c.getName();
          firstReason = reason;
        }
      }
    }
    if (firstReason != null) {
      throw Failures.notAllowed(allowed, needed, firstClass, firstReason);
    }
  }

  /**
   * The classes a snapshot needs admitted to load: those it instantiates or writes in a way {@code
   * ObjectInputStream} would refuse.
   *
   * @param file the parsed snapshot
   * @param classes its classes, loaded without initialisation; {@code null} for a class that is not
   *     known, which is left out
   * @return the binary names of the classes, sorted
   * @throws ClassMismatchException if a class takes a role no snapshot Codese writes gives it
   */
  static List<String> needed(SnapshotFile file, Class<?>[] classes) throws ClassMismatchException {
    int[] roles = roles(file);
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    for (int i = 0; i < roles.length; i++) {
      if (classes[i] != null && refusal(classes[i], roles[i], false) != null) {
        out.add(classes[i].getName());
      }
    }
    return List.copyOf(out);
  }

  /** Per class-table index, the roles the snapshot gives the class. */
  private static int[] roles(SnapshotFile file) {
    int[] roles = new int[file.classes().size()];
    for (Constant k : file.constants()) {
      // if chains, not switches on the enums: a switch costs a synthetic class to load; tags, not
      // instanceof tests, which would load the record classes the snapshot holds none of
      int tag = k.tag();
      if (tag == Constant.ALLOCATOR) {
        Constant.Allocator a = (Constant.Allocator) k;
        Constant.Mode m = a.mode();
        roles[a.type()] |=
            m == Constant.Mode.SERIAL
                ? ALLOC_SERIAL
                : m == Constant.Mode.BARE ? ALLOC_BARE : ALLOC_EXTERNAL;
      } else if (tag == Constant.HOOK) {
        Constant.Hook h = (Constant.Hook) k;
        Constant.HookKind kind = h.kind();
        roles[h.type()] |=
            kind == Constant.HookKind.SLOT
                ? SLOT
                : kind == Constant.HookKind.EXTERNAL
                    ? READ_EXTERNAL
                    : kind == Constant.HookKind.RECORD ? RECORD : RESOLVE;
      } else if (tag == Constant.SETTER) {
        roles[((Constant.Setter) k).type()] |= SETTER;
      }
    }
    for (Placement placement : file.placements()) {
      if (!placement.codeseHosted()) {
        roles[placement.host()] |= NEST;
      }
    }
    List<ClassEntry> entries = file.classes();
    for (int i = 0; i < roles.length; i++) {
      if (!entries.get(i).fields().isEmpty()) {
        roles[i] |= FIELDS;
      }
    }
    return roles;
  }

  /**
   * Why {@code ObjectInputStream} would refuse what the snapshot does with {@code c}, when
   * admitting {@code c} would let it load; {@code null} if nothing needs admitting.
   *
   * @throws ClassMismatchException if {@code c} takes a role that admitting it cannot allow
   */
  private static String refusal(Class<?> c, int roles, boolean admitted)
      throws ClassMismatchException {
    if (roles == 0) {
      return null;
    }
    shape(c, roles);
    boolean serializable = Serializable.class.isAssignableFrom(c);
    if ((roles & ALLOC_SERIAL) != 0) {
      serialAllocation(c, serializable, admitted);
    }
    if (!serializable && (roles & (ALLOCATED | WRITTEN | RECORD | FIELDS)) != 0) {
      return "not Serializable, so ObjectInputStream would refuse it, and this snapshot "
          + doing(roles)
          + " it";
    }
    if ((roles & ALLOC_BARE) != 0) {
      Class<?> init = Jvm.serialInitClass(c);
      // "no valid constructor" first, as ObjectInputStream words its InvalidClassException
      return init == null
          ? "no valid constructor: "
              + firstNonSerializable(c).getName()
              + " has no no-arg"
              + " constructor it may call, so ObjectInputStream would refuse it, and this"
              + " snapshot allocates it without running any constructor"
          : "Serializable, but this snapshot allocates it without running any constructor,"
              + " where ObjectInputStream would run the no-arg constructor of "
              + init.getName();
    }
    return null;
  }

  /**
   * Whether {@code c} is a dynamic proxy class, as {@code Proxy.isProxyClass} says; asked only of a
   * subclass of {@code Proxy}, found by name, so that a snapshot without proxy classes does not
   * load the {@code Proxy} class (of the runtime image, not of the class-data archive).
   */
  private static boolean proxyClass(Class<?> c) {
    Class<?> s = c.getSuperclass();
    return s != null
        && s.getName().equals("java.lang.reflect.Proxy")
        && java.lang.reflect.Proxy.isProxyClass(c);
  }

  /** Rejects roles no snapshot Codese writes gives a class of this kind, admitted or not. */
  private static void shape(Class<?> c, int roles) throws ClassMismatchException {
    if ((roles & ~(ALLOC_SERIAL | RESOLVE)) != 0 && proxyClass(c)) {
      // ObjectInputStream only allocates a proxy object and sets Proxy.h, a field of Proxy's slot
      crafted(
          c,
          "the snapshot "
              + doing(roles)
              + " a dynamic proxy class in a way neither ObjectInputStream nor a snapshot Codese"
              + " writes does (a proxy class has no fields, hooks or nest of its own)");
    }
    boolean instanceClass =
        !c.isPrimitive() && !c.isArray() && !c.isInterface() && !c.isEnum() && !c.isRecord();
    if ((roles & ALLOCATED) != 0
        && (!instanceClass
            || Modifier.isAbstract(c.getModifiers())
            || c == String.class
            || c == Class.class
            || c.getName().equals("java.io.ObjectStreamClass"))) {
      crafted(
          c,
          "the snapshot allocates an instance of it, which neither ObjectInputStream nor"
              + " a snapshot Codese writes does with a class of this kind");
    }
    boolean externalizable = Externalizable.class.isAssignableFrom(c);
    if ((roles & WRITTEN) != 0 && (!instanceClass || externalizable)) {
      crafted(
          c,
          "the snapshot sets fields of it, which neither ObjectInputStream nor a snapshot"
              + " Codese writes does with "
              + (externalizable ? "an Externalizable class" : "a class of this kind")
              + "; only readExternal or a record's constructor may");
    }
    if ((roles & (ALLOC_EXTERNAL | READ_EXTERNAL)) != 0 && (!externalizable || !instanceClass)) {
      crafted(c, "the snapshot restores it as Externalizable, which it is not");
    }
    if ((roles & ALLOC_EXTERNAL) != 0 && !hasPublicNoArgConstructor(c)) {
      crafted(c, "an Externalizable class needs a public no-arg constructor");
    }
    if ((roles & RECORD) != 0 && !c.isRecord()) {
      crafted(
          c,
          "the snapshot makes it with a record's canonical constructor, but it is not a"
              + " record");
    }
    if ((roles & RESOLVE) != 0 && (!Serializable.class.isAssignableFrom(c) || c.isEnum())) {
      crafted(
          c,
          "the snapshot calls its readResolve, which ObjectInputStream only calls on"
              + " Serializable classes that are not enums");
    }
  }

  /**
   * Allocation through the serialization constructor: {@code ObjectInputStream}'s way, for {@code
   * Serializable} classes with a valid constructor only. For a class that is not {@code
   * Serializable} it would run the class's own no-arg constructor, which neither {@code
   * ObjectInputStream} nor a snapshot Codese writes does (admitted classes are allocated with no
   * constructor at all).
   */
  private static void serialAllocation(Class<?> c, boolean serializable, boolean admitted)
      throws ClassMismatchException {
    if (!serializable) {
      if (admitted) {
        crafted(
            c,
            "the snapshot allocates it by running its own no-arg constructor, which"
                + " neither ObjectInputStream nor a snapshot Codese writes does");
      }
      return;
    }
    if (Externalizable.class.isAssignableFrom(c)) {
      crafted(
          c,
          "the snapshot allocates it with a serialization constructor, but it is"
              + " Externalizable: ObjectInputStream runs its public no-arg constructor");
    }
    if (Jvm.serialInitClass(c) == null) {
      crafted(
          c,
          "no valid constructor: "
              + firstNonSerializable(c).getName()
              + " has no no-arg"
              + " constructor ObjectInputStream may call, so it would refuse the class");
    }
  }

  private static String doing(int roles) {
    if ((roles & ALLOCATED) != 0) {
      return "allocates";
    }
    if ((roles & RECORD) != 0) {
      return "makes a record of";
    }
    return "sets fields of";
  }

  private static void crafted(Class<?> c, String problem) throws ClassMismatchException {
    throw new ClassMismatchException(
        c.getName(),
        null,
        problem
            + "; the class changed since capture in a way ObjectInputStream rejects too (made an"
            + " enum, Externalizable or a record), or the snapshot is"
            + " damaged or crafted");
  }

  private static boolean hasPublicNoArgConstructor(Class<?> c) {
    try {
      return Modifier.isPublic(c.getDeclaredConstructor().getModifiers());
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static Class<?> firstNonSerializable(Class<?> c) {
    Class<?> init = c;
    while (init != null && Serializable.class.isAssignableFrom(init)) {
      init = init.getSuperclass();
    }
    return init == null ? Object.class : init;
  }
}
