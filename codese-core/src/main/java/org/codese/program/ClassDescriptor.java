package org.codese.program;

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
 * @param annotation what {@code annotateClass} wrote, primitive data only; empty unless a subclass
 *     of the writer overrides it
 */
public record ClassDescriptor(byte[] form, byte[] annotation) {}
