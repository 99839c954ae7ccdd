package org.codese.capture;

import java.io.IOException;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.codese.jvm.SerialClass;
import org.codese.program.ClassDescriptor;

/**
 * The class descriptors an object stream's capture writes, as {@code ObjectOutputStream} writes
 * them: each class once until a reset, before the first object that needs it, with its {@code
 * Serializable} superclasses; and those of the segment being captured, in order.
 *
 * <p>Contract: {@link #describe} per object taken; {@link #drain} when the segment is taken, {@link
 * #forgetSegment} when the write that captured it failed, {@link #reset} with the stream's reset.
 * Not thread-safe.
 */
final class ClassDescriptions {
  private final StreamHooks hooks;

  /** Classes whose descriptors were written since the last reset. */
  private final Map<Class<?>, Boolean> described = new IdentityHashMap<>();

  /** The kind of object whose classes were described last, since the last reset or rollback. */
  private SerialClass lastDescribed;

  /** The classes described by the segment being captured, and their descriptors, in order. */
  private final List<Class<?>> describedNow = new ArrayList<>();

  private final List<ClassDescriptor> descriptors = new ArrayList<>();

  /**
   * @param hooks the writer's hooks, which describe each class
   */
  ClassDescriptions(StreamHooks hooks) {
    this.hooks = hooks;
  }

  /**
   * Writes the class descriptors {@code ObjectOutputStream} writes before object {@code obj}'s
   * contents, those of them not written since the last reset: its class (for an enum constant, its
   * enum class; for a {@code Class} or {@code ObjectStreamClass}, the class it stands for; none for
   * a string), then its superclasses while they are {@code Serializable}.
   *
   * @throws IOException as the writer's hooks throw it
   */
  void describe(Object obj, SerialClass sc) throws IOException {
    if (sc == lastDescribed) {
      return; // the common case: many objects of one class in a row
    }
    Class<?> c;
    switch (sc.kind()) {
      case STRING -> c = null;
      case ENUM -> c = ((Enum<?>) obj).getDeclaringClass();
      case CLASS -> c = obj instanceof Class<?> k ? k : ((ObjectStreamClass) obj).forClass();
      default -> c = obj.getClass();
    }
    for (; c != null; c = serializableSuperclass(c)) {
      if (described.containsKey(c)) {
        break; // its superclasses were described with it
      }
      ClassDescriptor d = hooks.describe(c);
      described.put(c, Boolean.TRUE);
      describedNow.add(c);
      descriptors.add(d);
    }
    // a Class or ObjectStreamClass object stands for a class of its own: never skipped this way
    lastDescribed = sc.kind() == SerialClass.Kind.CLASS ? null : sc;
  }

  /** The superclass whose descriptor {@code ObjectStreamClass.getSuperDesc} gives, or null. */
  private static Class<?> serializableSuperclass(Class<?> c) {
    Class<?> s = c.getSuperclass();
    return s != null && Serializable.class.isAssignableFrom(s) ? s : null;
  }

  /**
   * @return the descriptors of the segment captured since the last drain, in order; the next
   *     segment starts with none
   */
  List<ClassDescriptor> drain() {
    List<ClassDescriptor> segment = List.copyOf(descriptors);
    descriptors.clear();
    describedNow.clear();
    return segment;
  }

  /**
   * Forgets what the segment being captured described: a stream drains every {@code writeObject},
   * so what a failed one described never reaches the reader.
   */
  void forgetSegment() {
    for (Class<?> c : describedNow) {
      described.remove(c);
    }
    lastDescribed = null;
    describedNow.clear();
    descriptors.clear();
  }

  /** Forgets every class described: after a reset, each is described again. */
  void reset() {
    described.clear();
    lastDescribed = null;
  }
}
