package org.codese.capture;

import java.io.IOException;
import org.codese.program.ClassDescriptor;

/**
 * The hooks of an object stream's writer ({@code CodeseOutputStream} and its subclasses) that a
 * {@link Capturer} calls, at the points {@code ObjectOutputStream} calls them for the same graph. A
 * capturer with hooks captures as a stream does: it visits objects in the JDK's order (each
 * reference when the JDK writes it, so {@code writeReplace}, {@code replaceObject} and the class
 * descriptors come in the JDK's order), records the class descriptors it writes, and numbers the
 * objects of each segment in the order the JDK's reader completes them.
 */
public interface StreamHooks {
  /**
   * @return whether {@link #replaceObject} is to be called: the writer enabled it and overrides it
   */
  boolean replacing();

  /**
   * {@code ObjectOutputStream.replaceObject}: called for each object written for the first time,
   * after its {@code writeReplace}, but not for {@code Class} and {@code ObjectStreamClass}
   * objects.
   *
   * @param obj the object
   * @return the object to write instead, or {@code obj}; {@code null} writes {@code null}
   * @throws IOException as the writer's method throws it
   */
  Object replaceObject(Object obj) throws IOException;

  /**
   * Writes the class descriptor of {@code c}: calls the writer's {@code writeClassDescriptor} and
   * {@code annotateClass}, and returns what they wrote.
   *
   * @param c the class
   * @return what was written
   * @throws IOException as the writer's methods throw it, or if they wrote an object
   */
  ClassDescriptor describe(Class<?> c) throws IOException;
}
