package org.codese.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.codese.ClassMismatchException;
import org.codese.SnapshotSegment;

/**
 * The allowed-class list a snapshot file needs, as {@code inspect} and {@code verify} print it: the
 * classes its segments instantiate or write where {@code ObjectInputStream} would refuse to,
 * computed without running or defining any of its code and without initialising any class.
 */
final class AllowLines {
  /**
   * What was found.
   *
   * @param needed the classes to admit, sorted
   * @param unknown the classes that could not be loaded, and so were not judged, sorted
   * @param problem why the list cannot be computed (a class in a role no snapshot Codese writes
   *     gives it), or {@code null}
   */
  record Needs(List<String> needed, List<String> unknown, String problem) {}

  private AllowLines() {}

  /**
   * @param src the file's segments
   * @param loader the loader to find their classes with
   * @return the classes to admit, and those not judged
   */
  static Needs of(SnapshotSource src, ClassLoader loader) {
    TreeSet<String> needed = new TreeSet<>();
    TreeSet<String> unknown = new TreeSet<>();
    for (SnapshotSegment s : src.segments) {
      for (SnapshotSegment.ClassInfo c : s.classes()) {
        for (String name : c.isProxy() ? c.proxyInterfaces() : List.of(c.name())) {
          if (!c.isPrimitive() && !found(name, loader)) {
            unknown.add(name);
          }
        }
      }
      try {
        needed.addAll(s.classesToAllow(loader));
      } catch (ClassMismatchException e) {
        return new Needs(List.copyOf(needed), List.copyOf(unknown), e.getMessage());
      }
    }
    return new Needs(List.copyOf(needed), List.copyOf(unknown), null);
  }

  private static boolean found(String name, ClassLoader loader) {
    try {
      Class.forName(name, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * @param patterns allowed-class patterns
   * @return the ready-to-paste Java expression of options that admit them
   */
  static String optionsLine(List<String> patterns) {
    StringBuilder b = new StringBuilder("CodeseOptions.defaults().withAllowedClasses(");
    for (int i = 0; i < patterns.size(); i++) {
      b.append(i == 0 ? "" : ", ").append('"').append(patterns.get(i)).append('"');
    }
    return b.append(')').toString();
  }

  /**
   * The patterns given and then, sorted, the named classes none of them admits.
   *
   * @param patterns allowed-class patterns, valid
   * @param classNames binary class names
   * @return the combined patterns
   */
  static List<String> with(List<String> patterns, List<String> classNames) {
    List<String> out = new ArrayList<>(patterns);
    for (String c : new TreeSet<>(classNames)) {
      if (!admits(patterns, c)) {
        out.add(c);
      }
    }
    return List.copyOf(out);
  }

  /** Whether a pattern admits the class, as {@code CodeseOptions.withAllowedClasses} explains. */
  private static boolean admits(List<String> patterns, String name) {
    for (String p : patterns) {
      if (p.equals("**") || p.equals("*")) {
        return true;
      } else if (p.endsWith(".**")) {
        if (name.startsWith(p.substring(0, p.length() - 2))) {
          return true;
        }
      } else if (p.endsWith(".*")) {
        String pkg = p.substring(0, p.length() - 1);
        if (name.startsWith(pkg) && name.indexOf('.', pkg.length()) < 0) {
          return true;
        }
      } else if (p.endsWith("*")
          ? name.startsWith(p.substring(0, p.length() - 1))
          : p.equals(name)) {
        return true;
      }
    }
    return false;
  }
}
