package org.codese.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.codese.ClassMismatchException;
import org.codese.format.SnapshotFile;

/**
 * The classes a caller admits beyond what {@code ObjectInputStream} would restore: classes that are
 * not {@code Serializable}, and shapes Java serialization never produces (allocation without any
 * constructor, default reads of declared instance fields). Immutable.
 *
 * <p>Patterns follow JEP 290's class patterns, without module names and negation:
 *
 * <ul>
 *   <li>{@code com.example.Foo} admits that class (a nested class is {@code
 *       com.example.Outer$Inner});
 *   <li>{@code com.example.*} admits every class of package {@code com.example}, not of its
 *       subpackages;
 *   <li>{@code com.example.**} admits every class of {@code com.example} and its subpackages;
 *   <li>{@code com.example.Foo*} admits every class whose name starts with {@code com.example.Foo};
 *   <li>{@code **} (or {@code *}) admits every class: the choice for snapshots from a trusted
 *       source only.
 * </ul>
 */
public final class AllowList {
  /** Admits nothing: the default, the surface of {@code ObjectInputStream}. */
  public static final AllowList NONE = new AllowList(List.of(), false, Map.of());

  /**
   * Admits every class and static constants: for snapshots captured in this JVM, which hold the
   * caller's own graph.
   */
  public static final AllowList ALL = new AllowList(List.of("**"), true, Map.of());

  private final List<String> patterns;

  /** Whether a snapshot may refer to static final fields ({@code Constant.StaticRef}). */
  private final boolean staticConstants;

  /** The objects a snapshot may refer to by name ({@code Constant.NamedRef}). */
  private final Map<String, Object> globals;

  private AllowList(List<String> patterns, boolean staticConstants, Map<String, Object> globals) {
    this.patterns = patterns;
    this.staticConstants = staticConstants;
    this.globals = globals;
  }

  /**
   * This allow-list, also admitting global references (snapshot format 5): the values of static
   * final fields if {@code staticConstants}, and the objects of {@code globals} by name.
   *
   * @param staticConstants whether a snapshot may refer to static final fields
   * @param globals the objects a snapshot may refer to by name (not copied: pass an unmodifiable
   *     map)
   * @return the allow-list
   */
  public AllowList withGlobals(boolean staticConstants, Map<String, Object> globals) {
    return new AllowList(patterns, staticConstants, globals);
  }

  /**
   * @return whether a snapshot may refer to the values of static final fields
   */
  public boolean staticConstants() {
    return staticConstants;
  }

  /**
   * @return the objects a snapshot may refer to by name
   */
  public Map<String, Object> globals() {
    return globals;
  }

  /**
   * @param patterns class patterns, one per element, as described in the class comment
   * @return the allow-list of those patterns
   * @throws IllegalArgumentException if a pattern is malformed (empty, with whitespace, {@code ;},
   *     {@code /}, {@code !}, or a {@code *} anywhere but at its end)
   * @throws NullPointerException if {@code patterns} or one of its elements is null
   */
  public static AllowList of(List<String> patterns) {
    List<String> out = new ArrayList<>(patterns.size());
    for (String p : patterns) {
      out.add(valid(p));
    }
    return out.isEmpty() ? NONE : new AllowList(List.copyOf(out), false, Map.of());
  }

  private static String valid(String p) {
    if (p.isEmpty()) {
      throw new IllegalArgumentException("an allowed-class pattern is empty");
    }
    int star = p.indexOf('*');
    boolean starsOnlyAtEnd =
        star < 0
            || p.substring(star).equals("*")
            || p.substring(star).equals("**") && (star == 0 || p.charAt(star - 1) == '.');
    for (int i = 0; i < p.length(); i++) {
      char c = p.charAt(i);
      if (Character.isWhitespace(c) || c == ';' || c == '/' || c == '!' || c == ',') {
        throw new IllegalArgumentException(
            "allowed-class pattern \""
                + p
                + "\" has '"
                + c
                + "'; give one pattern per argument, such as \"com.example.Foo\", \"com.example.*\""
                + " or \"com.example.**\"");
      }
    }
    if (!starsOnlyAtEnd) {
      throw new IllegalArgumentException(
          "allowed-class pattern \""
              + p
              + "\" has a '*' that is"
              + " not at its end; use \"com.example.Foo\", \"com.example.*\" or \"com.example.**\"");
    }
    return p;
  }

  /**
   * @return the patterns, in the order given
   */
  public List<String> patterns() {
    return patterns;
  }

  /**
   * @return whether this list admits nothing
   */
  public boolean isEmpty() {
    return patterns.isEmpty();
  }

  /**
   * @param c a class; arrays are judged by their element class
   * @return whether a pattern admits it
   */
  public boolean admits(Class<?> c) {
    Class<?> e = c;
    while (e.isArray()) {
      e = e.getComponentType();
    }
    return admits(e.getName());
  }

  /**
   * @param className a binary class name, such as {@code com.example.Outer$Inner}
   * @return whether a pattern admits it
   */
  public boolean admits(String className) {
    for (String p : patterns) {
      if (matches(p, className)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(String p, String name) {
    if (p.equals("**") || p.equals("*")) {
      return true;
    }
    if (p.endsWith(".**")) {
      return name.startsWith(p.substring(0, p.length() - 2));
    }
    if (p.endsWith(".*")) {
      String pkg = p.substring(0, p.length() - 1);
      return name.startsWith(pkg) && name.indexOf('.', pkg.length()) < 0;
    }
    if (p.endsWith("*")) {
      return name.startsWith(p.substring(0, p.length() - 1));
    }
    return p.equals(name);
  }

  /**
   * The allow-list that admits these patterns and the named classes, the classes sorted after the
   * patterns; a class a pattern admits already is not repeated.
   *
   * @param classNames binary class names
   * @return the combined patterns
   */
  public List<String> with(List<String> classNames) {
    List<String> out = new ArrayList<>(patterns);
    for (String c : new TreeSet<>(classNames)) {
      if (!admits(c)) {
        out.add(c);
      }
    }
    return List.copyOf(out);
  }

  /**
   * @param patterns allowed-class patterns
   * @return the Java expression that makes options admitting them, such as {@code
   *     CodeseOptions.defaults().withAllowedClasses("com.example.Foo")}
   */
  public static String optionsLine(List<String> patterns) {
    StringBuilder b = new StringBuilder("CodeseOptions.defaults().withAllowedClasses(");
    for (int i = 0; i < patterns.size(); i++) {
      b.append(i == 0 ? "" : ", ").append('"').append(patterns.get(i)).append('"');
    }
    return b.append(')').toString();
  }

  /**
   * The classes a snapshot needs admitted to load, computed without running or defining any of its
   * code and without initialising any class: those it instantiates or writes where {@code
   * ObjectInputStream} would refuse to (classes that are not {@code Serializable}, and {@code
   * Serializable} ones allocated with no constructor). Empty for a graph of {@code Serializable}
   * classes.
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @return binary class names, sorted, for {@link org.codese.CodeseOptions#withAllowedClasses}
   * @throws org.codese.ClassMismatchException if a class is missing, or takes a role no snapshot
   *     Codese writes gives it
   */
  public static List<String> neededBy(SnapshotFile file, ClassLoader loader)
      throws ClassMismatchException {
    ClassLoader l = loader != null ? loader : Thread.currentThread().getContextClassLoader();
    ClassTable table =
        new ClassTable(file.classes(), l != null ? l : AllowList.class.getClassLoader(), NONE);
    table.makeProxies();
    Class<?>[] classes = new Class<?>[table.size()];
    for (int i = 0; i < classes.length; i++) {
      classes[i] = table.get(i);
    }
    return neededBy(file, classes);
  }

  /**
   * As {@link #neededBy(SnapshotFile, ClassLoader)}, for classes the caller resolved.
   *
   * @param file a parsed snapshot
   * @param classes per class-table index its class, loaded without initialisation, or {@code null}
   *     for a class that was not found (left out of the answer)
   * @return binary class names, sorted
   * @throws org.codese.ClassMismatchException if a class takes a role no snapshot Codese writes
   *     gives it
   */
  public static List<String> neededBy(SnapshotFile file, Class<?>[] classes)
      throws ClassMismatchException {
    if (classes.length != file.classes().size()) {
      throw new IllegalArgumentException(
          "the snapshot names " + file.classes().size() + " classes, not " + classes.length);
    }
    return Surface.needed(file, classes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AllowList other
        && patterns.equals(other.patterns)
        && staticConstants == other.staticConstants
        && globals.equals(other.globals);
  }

  @Override
  public int hashCode() {
    return patterns.hashCode() * 31 + (staticConstants ? 1 : 0) + globals.keySet().hashCode();
  }

  @Override
  public String toString() {
    return String.join(";", patterns);
  }
}
