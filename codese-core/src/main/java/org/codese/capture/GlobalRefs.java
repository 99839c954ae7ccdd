package org.codese.capture;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.codese.CodeseOptions;
import org.codese.jvm.SerialClass;

/**
 * The global references of one capturer ({@link CodeseOptions#withGlobal}, {@link
 * CodeseOptions#withStaticConstants}): which objects are captured as references, not by their
 * contents. Static constants are found by scanning each class once, when an object of it (or of a
 * subclass) is first seen.
 */
final class GlobalRefs {
  /** The named objects, by identity; empty if none. */
  private final Map<Object, String> named = new IdentityHashMap<>();

  /** The values of the static final fields scanned so far, by identity; {@code null} if off. */
  private final Map<Object, Field> statics;

  private final Set<Class<?>> scanned = new HashSet<>();

  private GlobalRefs(CodeseOptions options) {
    for (Map.Entry<String, Object> e : options.globals().entrySet()) {
      named.put(e.getValue(), e.getKey());
    }
    statics = options.staticConstants() ? new IdentityHashMap<>() : null;
  }

  /**
   * @param options capture settings
   * @return the global references the options ask for, or {@code null} if none
   */
  static GlobalRefs of(CodeseOptions options) {
    return options.staticConstants() || !options.globals().isEmpty()
        ? new GlobalRefs(options)
        : null;
  }

  /**
   * Notes the static constants of {@code c} and its superclasses, those not scanned before.
   *
   * @param c the class of an object of the graph
   */
  void scan(Class<?> c) {
    if (statics == null) {
      return;
    }
    for (; c != null && !c.isArray() && scanned.add(c); c = c.getSuperclass()) {
      for (Field f : declaredFields(c)) {
        int m = f.getModifiers();
        if (Modifier.isStatic(m) && Modifier.isFinal(m) && !f.getType().isPrimitive()) {
          Object v = value(f);
          if (v != null && !ownHandling(v)) {
            statics.putIfAbsent(v, f);
          }
        }
      }
    }
  }

  private static Field[] declaredFields(Class<?> c) {
    try {
      return c.getDeclaredFields();
    } catch (RuntimeException | LinkageError e) {
      return new Field[0]; // a field's type cannot be loaded: none of its constants is known
    }
  }

  /** The field's value, or {@code null} where Codese may not read it. */
  private static Object value(Field f) {
    try {
      return f.trySetAccessible() ? f.get(null) : null;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /** Strings, boxes, enum constants and classes: restored as they always are. */
  private static boolean ownHandling(Object v) {
    SerialClass.Kind k = SerialClass.kindOf(v.getClass());
    return k == SerialClass.Kind.STRING
        || k == SerialClass.Kind.BOX
        || k == SerialClass.Kind.ENUM
        || k == SerialClass.Kind.CLASS;
  }

  /**
   * @param o an object of the graph
   * @return whether it is captured as a global reference, as far as the classes scanned so far say
   */
  boolean isGlobal(Object o) {
    return named.containsKey(o) || statics != null && statics.containsKey(o);
  }

  /**
   * @param id the object's id
   * @param o an object of the graph
   * @return its node as a global reference, or {@code null} if it is not one
   */
  Node.Global node(int id, Object o) {
    String name = named.get(o);
    if (name != null) {
      return new Node.Global(id, o, null, name);
    }
    Field f = statics == null ? null : statics.get(o);
    return f == null ? null : new Node.Global(id, o, f.getDeclaringClass(), f.getName());
  }
}
