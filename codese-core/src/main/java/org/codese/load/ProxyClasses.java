package org.codese.load;

import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  /**
   * Takes each proxy class no hook made from an array class of it that a stream's {@code
   * resolveClass} gave (the array's descriptor is what {@code ObjectInputStream} asks about for an
   * empty {@code $Proxy5[]}; it never asks {@code resolveProxyClass}): its element class, if that
   * is a proxy class of the entry's interfaces: a class table's step, its arrays updated in place.
   */
  static void elementsOfResolvedArrays(
      List<ClassEntry> entries,
      Class<?>[] classes,
      Class<?>[][] interfaces,
      Map<String, Integer> proxyNames) {
    for (int i = 0; i < classes.length; i++) {
      Class<?> a = classes[i];
      if (a == null || !a.isArray() || entries.get(i).isProxy()) {
        continue;
      }
      int[] array = arrayOf(entries.get(i).name(), proxyNames);
      if (array == null || classes[array[0]] != null) {
        continue;
      }
      Class<?> element = a;
      while (element.isArray()) {
        element = element.getComponentType();
      }
      if (Proxy.isProxyClass(element)
          && names(element.getInterfaces()).equals(entries.get(array[0]).interfaces())) {
        classes[array[0]] = element;
        interfaces[array[0]] = element.getInterfaces();
      }
    }
  }

  private static List<String> names(Class<?>[] classes) {
    List<String> names = new ArrayList<>(classes.length);
    for (Class<?> c : classes) {
      names.add(c.getName());
    }
    return names;
  }

  /**
   * Whether {@code name} is an array class whose element class is one of the table's proxy classes,
   * by the proxy class's name at capture (which the loading JVM need not know: a proxy class's name
   * is made up by the JVM that defines it). Capture lists the element proxy class of every such
   * array ({@code plan.Tables}), so the array class is made from it.
   *
   * @return the proxy entry's index and the array's dimensions, or {@code null}
   */
  static int[] arrayOf(String name, Map<String, Integer> proxyNames) {
    int dims = 0;
    while (dims < name.length() && name.charAt(dims) == '[') {
      dims++;
    }
    if (dims == 0 || !name.endsWith(";") || name.charAt(dims) != 'L') {
      return null;
    }
    Integer proxy = proxyNames.get(name.substring(dims + 1, name.length() - 1));
    return proxy == null ? null : new int[] {proxy, dims};
  }

  /**
   * The key under which a stream's {@code resolveProxyClass} result for a proxy entry is passed in
   * the {@code resolved} map: its interface names, which no class name can equal.
   *
   * @param interfaces a proxy class's interface names
   * @return the key
   */
  static String key(List<String> interfaces) {
    return "proxy " + String.join(",", interfaces);
  }

  /**
   * Makes a class table's proxy classes that are still {@code null} in {@code classes}, and the
   * array classes of them that {@code proxyArrays} lists, in place ({@link
   * ClassTable#makeProxies}).
   *
   * @param entries the class table's entries
   * @param classes its classes, {@code null} where one is still to be made
   * @param interfaces per index, the interfaces of a proxy class, else {@code null}
   * @param proxyArrays per index of an array of a proxy class, the proxy's index and the array's
   *     dimensions; or {@code null}
   * @param loader the snapshot's loader
   * @throws ClassMismatchException if the JDK refuses to make one
   */
  static void makeAll(
      List<ClassEntry> entries,
      Class<?>[] classes,
      Class<?>[][] interfaces,
      Map<Integer, int[]> proxyArrays,
      ClassLoader loader)
      throws ClassMismatchException {
    for (int i = 0; i < classes.length; i++) {
      if (classes[i] == null && interfaces[i] != null) {
        classes[i] = make(entries.get(i), interfaces[i], loader);
      }
    }
    if (proxyArrays != null) {
      for (Map.Entry<Integer, int[]> a : proxyArrays.entrySet()) {
        Class<?> c = classes[a.getValue()[0]];
        for (int d = 0; d < a.getValue()[1]; d++) {
          c = c.arrayType();
        }
        classes[a.getKey()] = c;
      }
    }
  }
}
