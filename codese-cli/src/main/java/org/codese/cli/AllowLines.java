package org.codese.cli;

import java.util.List;
import java.util.TreeSet;
import org.codese.ClassMismatchException;
import org.codese.jvm.Types;
import org.codese.load.AllowList;
import org.codese.program.ClassEntry;

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
    for (SnapshotSource.Segment s : src.segments) {
      List<ClassEntry> entries = s.file().classes();
      Class<?>[] classes = new Class<?>[entries.size()];
      for (int i = 0; i < classes.length; i++) {
        classes[i] = load(entries.get(i).name(), loader);
        if (classes[i] == null) {
          unknown.add(entries.get(i).name());
        }
      }
      try {
        needed.addAll(AllowList.neededBy(s.file(), classes));
      } catch (ClassMismatchException e) {
        return new Needs(List.copyOf(needed), List.copyOf(unknown), e.getMessage());
      }
    }
    return new Needs(List.copyOf(needed), List.copyOf(unknown), null);
  }

  private static Class<?> load(String name, ClassLoader loader) {
    Class<?> p = Types.primitiveNamed(name);
    if (p != null) {
      return p;
    }
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /**
   * @param patterns allowed-class patterns
   * @return the ready-to-paste Java expression of options that admit them
   */
  static String optionsLine(List<String> patterns) {
    return AllowList.optionsLine(patterns);
  }
}
