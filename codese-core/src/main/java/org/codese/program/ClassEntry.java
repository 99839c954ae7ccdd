package org.codese.program;

import java.util.List;

/**
 * A class a snapshot needs, with the fingerprint that is checked against the live class on load.
 *
 * @param name the binary name ({@code java.util.ArrayList}, {@code [I}, {@code int})
 * @param fields the serializable fields the snapshot relies on, in serialization order; empty for
 *     classes whose fields the snapshot does not touch
 * @param suid the declared {@code serialVersionUID}, meaningful only if {@code hasSuid}
 * @param hasSuid whether the class declared a readable {@code serialVersionUID} at capture
 */
public record ClassEntry(String name, List<FieldEntry> fields, long suid, boolean hasSuid) {
  /**
   * One field of a class entry.
   *
   * @param name the field name
   * @param descriptor the JVM type descriptor; references are recorded as declared
   * @param real whether the field was declared in the class (false for a {@code
   *     serialPersistentFields} entry without a matching field)
   */
  public record FieldEntry(String name, String descriptor, boolean real) {
    /**
     * @return whether the field is primitive
     */
    public boolean primitive() {
      return descriptor.length() == 1;
    }
  }
}
