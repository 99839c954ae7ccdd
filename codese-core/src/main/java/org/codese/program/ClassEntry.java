package org.codese.program;

import java.util.List;
import java.util.Objects;

/**
 * A class a snapshot needs, with the fingerprint that is checked against the live class on load.
 *
 * <p>{@code equals} and {@code hashCode} are written out, here and in {@link FieldEntry}: a
 * record's own bootstrap method handles the first time each record class is hashed, which the first
 * {@code CodeseOutputStream.writeObject} in a JVM paid (its class dictionary is a map of entries),
 * as {@code Constant}'s records cost a first capture.
 *
 * @param name the binary name ({@code java.util.ArrayList}, {@code [I}, {@code int})
 * @param fields the serializable fields the snapshot relies on, in serialization order; empty for
 *     classes whose fields the snapshot does not touch
 * @param suid the declared {@code serialVersionUID} if {@code hasSuid}; otherwise the value {@code
 *     ObjectStreamClass} computed at capture for a {@code Serializable} class that declares none,
 *     compared on load as {@code ObjectInputStream} compares it, or 0 (not compared: classes whose
 *     value the JDK never compares, and snapshots written before Codese recorded it)
 * @param hasSuid whether the class declared a readable {@code serialVersionUID} at capture
 * @param interfaces for a dynamic proxy class (snapshot format {@link Grammar#PROXY_VERSION} on),
 *     the binary names of its interfaces in declaration order, from which the loader makes the
 *     proxy class again as {@code ObjectInputStream.resolveProxyClass} does; {@code null} for any
 *     other class. A proxy entry's {@code name} is the proxy class's name at capture, for messages
 *     only (a proxy class's name is made up by the JVM that defines it), and it has no fields and
 *     no {@code serialVersionUID}
 */
public record ClassEntry(
    String name, List<FieldEntry> fields, long suid, boolean hasSuid, List<String> interfaces) {
  /**
   * An entry of a class that is not a dynamic proxy class.
   *
   * @param name the binary name
   * @param fields the serializable fields the snapshot relies on
   * @param suid the declared {@code serialVersionUID}
   * @param hasSuid whether it was declared and readable
   */
  public ClassEntry(String name, List<FieldEntry> fields, long suid, boolean hasSuid) {
    this(name, fields, suid, hasSuid, null);
  }

  /**
   * The entry of a dynamic proxy class.
   *
   * @param name the proxy class's name at capture, for messages
   * @param interfaces the binary names of its interfaces, in declaration order
   * @return the entry
   */
  public static ClassEntry proxy(String name, List<String> interfaces) {
    return new ClassEntry(name, List.of(), 0, false, List.copyOf(interfaces));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClassEntry e
        && suid == e.suid
        && hasSuid == e.hasSuid
        && Objects.equals(name, e.name)
        && Objects.equals(fields, e.fields)
        && Objects.equals(interfaces, e.interfaces);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(name);
    h = 31 * h + Objects.hashCode(fields);
    h = 31 * h + Long.hashCode(suid);
    h = 31 * h + Boolean.hashCode(hasSuid);
    h = 31 * h + Objects.hashCode(interfaces);
    return h;
  }

  /**
   * @return whether this is the entry of a dynamic proxy class
   */
  public boolean isProxy() {
    return interfaces != null;
  }

  /**
   * One field of a class entry.
   *
   * @param name the field name
   * @param descriptor the JVM type descriptor; references are recorded as declared
   * @param real whether the field was declared in the class (false for a {@code
   *     serialPersistentFields} entry without a matching field)
   */
  public record FieldEntry(String name, String descriptor, boolean real) {
    @Override
    public boolean equals(Object o) {
      return o instanceof FieldEntry f
          && real == f.real
          && Objects.equals(name, f.name)
          && Objects.equals(descriptor, f.descriptor);
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(name);
      h = 31 * h + Objects.hashCode(descriptor);
      h = 31 * h + Boolean.hashCode(real);
      return h;
    }

    /**
     * @return whether the field is primitive
     */
    public boolean primitive() {
      return descriptor.length() == 1;
    }
  }
}
