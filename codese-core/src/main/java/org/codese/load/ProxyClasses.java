package org.codese.load;

import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.List;
import org.codese.ClassMismatchException;
import org.codese.program.ClassEntry;

/**
 * Makes the dynamic proxy class of a class-table entry again, as {@code
 * ObjectInputStream.resolveProxyClass} does: each interface loaded by name without initialising it,
 * the proxy class defined in the loader of the non-public interfaces if there are any (they must
 * then share one loader), else in the snapshot's loader. Neither the interfaces nor the proxy class
 * are initialised here; the serialization filter is asked about both before any object is made
 * ({@link Admission}).
 */
final class ProxyClasses {
  private ProxyClasses() {}

  /**
   * Loads the interfaces of a proxy entry, without initialising any.
   *
   * @param entry a proxy class's entry
   * @param loader the loader to resolve the names with
   * @return the interfaces, in the entry's order
   * @throws ClassMismatchException if one is not found or is not an interface
   */
  static Class<?>[] interfaces(ClassEntry entry, ClassLoader loader) throws ClassMismatchException {
    List<String> names = entry.interfaces();
    Class<?>[] out = new Class<?>[names.size()];
    for (int i = 0; i < out.length; i++) {
      Class<?> c = ClassTable.resolve(names.get(i), loader);
      if (!c.isInterface()) {
        throw new ClassMismatchException(
            c.getName(),
            null,
            "the snapshot makes a dynamic proxy class implementing it, but it is not an interface;"
                + " the class changed, or the snapshot is damaged or crafted");
      }
      out[i] = c;
    }
    return out;
  }

  /**
   * The proxy class for {@code interfaces}, as {@code ObjectInputStream.resolveProxyClass} makes
   * it.
   *
   * @param entry the entry, for messages
   * @param interfaces its interfaces, loaded
   * @param loader the snapshot's loader
   * @return the proxy class, not initialised
   * @throws ClassMismatchException if non-public interfaces come from different loaders, or the JDK
   *     refuses to make the class (an interface not visible from the loader, too many methods)
   */
  static Class<?> make(ClassEntry entry, Class<?>[] interfaces, ClassLoader loader)
      throws ClassMismatchException {
    ClassLoader nonPublic = null;
    boolean hasNonPublic = false;
    for (Class<?> c : interfaces) {
      if (!Modifier.isPublic(c.getModifiers())) {
        if (hasNonPublic && nonPublic != c.getClassLoader()) {
          throw new ClassMismatchException(
              entry.name(),
              null,
              "its non-public interfaces come from different class loaders, so no proxy class can"
                  + " implement them all (ObjectInputStream fails the same way)");
        }
        nonPublic = c.getClassLoader();
        hasNonPublic = true;
      }
    }
    try {
      @SuppressWarnings("deprecation")
      Class<?> proxy = Proxy.getProxyClass(hasNonPublic ? nonPublic : loader, interfaces);
      return proxy;
    } catch (IllegalArgumentException e) {
      ClassMismatchException x =
          new ClassMismatchException(
              entry.name(),
              null,
              "no dynamic proxy class can be made for interfaces "
                  + entry.interfaces()
                  + ": "
                  + e.getMessage()
                  + "; put the interfaces where "
                  + loader
                  + " finds them, or pass their loader in CodeseOptions.withClassLoader");
      x.initCause(e);
      throw x;
    }
  }
}
