package org.codese;

import java.io.ObjectStreamClass;

/**
 * Which subclass hooks a stream class overrides, found once per class: the streams skip the work of
 * a hook no subclass overrides (the default does nothing the stream needs), so that a plain {@link
 * CodeseInputStream} or {@link CodeseOutputStream} pays nothing for them.
 */
final class Overrides {
  /** {@code CodeseOutputStream.replaceObject}. */
  static final int REPLACE_OBJECT = 1;

  /** {@code CodeseOutputStream.annotateClass}. */
  static final int ANNOTATE_CLASS = 2;

  /** {@code CodeseOutputStream.writeClassDescriptor}. */
  static final int WRITE_CLASS_DESCRIPTOR = 4;

  /** {@code CodeseInputStream.resolveClass}. */
  static final int RESOLVE_CLASS = 8;

  /** {@code CodeseInputStream.readClassDescriptor}. */
  static final int READ_CLASS_DESCRIPTOR = 16;

  /** {@code CodeseInputStream.resolveObject}. */
  static final int RESOLVE_OBJECT = 32;

  /** {@code CodeseOutputStream.annotateProxyClass}. */
  static final int ANNOTATE_PROXY_CLASS = 64;

  /** {@code CodeseInputStream.resolveProxyClass}. */
  static final int RESOLVE_PROXY_CLASS = 128;

  private static final ClassValue<Integer> OF =
      new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
          return find(type);
        }
      };

  private Overrides() {}

  /**
   * @param type a subclass of {@link CodeseOutputStream} or {@link CodeseInputStream}
   * @return the bits of the hooks a class between {@code type} and the Codese stream declares
   */
  static int of(Class<?> type) {
    return OF.get(type);
  }

  private static int find(Class<?> type) {
    if (CodeseOutputStream.class.isAssignableFrom(type)) {
      return (declared(type, CodeseOutputStream.class, "replaceObject", Object.class)
              ? REPLACE_OBJECT
              : 0)
          | (declared(type, CodeseOutputStream.class, "annotateClass", Class.class)
              ? ANNOTATE_CLASS
              : 0)
          | (declared(
                  type, CodeseOutputStream.class, "writeClassDescriptor", ObjectStreamClass.class)
              ? WRITE_CLASS_DESCRIPTOR
              : 0)
          | (declared(type, CodeseOutputStream.class, "annotateProxyClass", Class.class)
              ? ANNOTATE_PROXY_CLASS
              : 0);
    }
    return (declared(type, CodeseInputStream.class, "resolveClass", ObjectStreamClass.class)
            ? RESOLVE_CLASS
            : 0)
        | (declared(type, CodeseInputStream.class, "readClassDescriptor")
            ? READ_CLASS_DESCRIPTOR
            : 0)
        | (declared(type, CodeseInputStream.class, "resolveObject", Object.class)
            ? RESOLVE_OBJECT
            : 0)
        | (declared(type, CodeseInputStream.class, "resolveProxyClass", String[].class)
            ? RESOLVE_PROXY_CLASS
            : 0);
  }

  /**
   * Whether a class from {@code type} up to, not including, {@code base} declares the method. Where
   * a security manager hides declared members, the hook counts as overridden (it is then called).
   */
  private static boolean declared(Class<?> type, Class<?> base, String name, Class<?>... params) {
    for (Class<?> c = type; c != null && c != base; c = c.getSuperclass()) {
      try {
        c.getDeclaredMethod(name, params);
        return true;
      } catch (NoSuchMethodException e) {
        // not here: look further up
      } catch (SecurityException e) {
        return true;
      }
    }
    return false;
  }
}
