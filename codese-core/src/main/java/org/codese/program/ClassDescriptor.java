package org.codese.program;

import java.util.List;

/**
 * What an object stream's writer wrote for one class the first time it described it (stream format
 * 5), in the order {@code ObjectOutputStream} writes class descriptors: the class of each new
 * object when the object is written, then its serializable superclasses, each once per stream until
 * a reset. The reader's {@code readClassDescriptor} reads {@code form}, its {@code resolveClass}
 * may read {@code annotation}, as with the JDK's streams.
 *
 * @param form what {@code writeClassDescriptor} wrote: by default the JDK's own form of the
 *     descriptor ({@code ObjectStreamClass.writeNonProxy}: name, {@code serialVersionUID}, flags,
 *     fields), as the first descriptor of a JDK stream holds it
 * @param annotation what {@code annotateClass} (for a proxy class {@code annotateProxyClass})
 *     wrote, primitive data only; empty unless a subclass of the writer overrides it
 * @param interfaces for a dynamic proxy class (stream format 10 on), the names of its interfaces,
 *     which the reader's {@code resolveProxyClass} gets, and {@code form} is empty: as {@code
 *     ObjectOutputStream.writeProxyDesc}, no {@code writeClassDescriptor}; {@code null} for any
 *     other class
 */
public record ClassDescriptor(byte[] form, byte[] annotation, List<String> interfaces) {
  /**
   * The descriptor of a class that is not a dynamic proxy class.
   *
   * @param form what {@code writeClassDescriptor} wrote
   * @param annotation what {@code annotateClass} wrote
   */
  public ClassDescriptor(byte[] form, byte[] annotation) {
    this(form, annotation, null);
  }

  /**
   * The descriptor of a dynamic proxy class.
   *
   * @param interfaces the names of its interfaces, in order
   * @param annotation what {@code annotateProxyClass} wrote
   * @return the descriptor
   */
  public static ClassDescriptor proxy(List<String> interfaces, byte[] annotation) {
    return new ClassDescriptor(new byte[0], annotation, List.copyOf(interfaces));
  }

  /**
   * @return whether this describes a dynamic proxy class
   */
  public boolean isProxy() {
    return interfaces != null;
  }
}
