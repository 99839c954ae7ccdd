package org.codese.load;

import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.lang.reflect.Array;
import org.codese.CodeseLimits;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;

/**
 * Decides whether a parsed snapshot may be loaded at all: its size against the {@link
 * CodeseLimits}, then its classes, arrays, object count and depth against the serialization filter,
 * all before any object is allocated or any generated class is defined.
 */
final class Admission {
  private Admission() {}

  /**
   * The limits that need only the parsed file and the arrays its code creates; returns the longest
   * array length the snapshot may create or carry. All arrays together may hold at most {@link
   * CodeseLimits#maxArrayLength()} elements, so that a small file cannot ask for many huge
   * zero-filled arrays.
   */
  static int checkLimits(SnapshotFile file, CodeseLimits limits, int longestInCode,
      long elementsInCode) throws InvalidObjectException {
    int longest = longestInCode;
    long elements = elementsInCode;
    long objects = (long) file.tableSize() - file.firstId();
    over("objects", objects, limits.maxObjects(), "withMaxObjects");
    over("classes", file.classes().size(), limits.maxClasses(), "withMaxClasses");
    over("depth", file.depth(), limits.maxDepth(), "withMaxDepth");
    for (Constant c : file.constants()) {
      long len = c instanceof Constant.PrimArray p ? Array.getLength(p.array())
          : c instanceof Constant.Texts t ? t.values().length : 0;
      longest = (int) Math.max(longest, len);
      elements += len;
    }
    over("array length", longest, limits.maxArrayLength(), "withMaxArrayLength");
    over("total array elements", elements, limits.maxArrayLength(), "withMaxArrayLength");
    return longest;
  }

  private static void over(String what, long value, long limit, String setter)
      throws InvalidObjectException {
    if (value > limit) {
      throw new InvalidObjectException("snapshot rejected: " + what + " " + value
          + " exceeds the limit of " + limit + "; raise it with CodeseLimits." + setter
          + " if the snapshot is trusted");
    }
  }

  /**
   * Asks the filter about every class the snapshot names other than array classes, then about its
   * object count and depth; before any of the classes is initialised. {@link #checkArrays} asks
   * about the array classes once the longest array the code creates is known.
   */
  static void checkFilter(SnapshotFile file, ClassTable classes, ObjectInputFilter filter)
      throws InvalidClassException {
    if (filter == null) {
      return;
    }
    askClasses(file, classes, filter, false, -1);
    ask(filter, new Info(null, -1, file.depth(), (long) file.tableSize() - file.firstId(),
        file.bytes().length), "the snapshot as a whole");
  }

  /**
   * Asks the filter about every array class the snapshot names, with the longest length the
   * snapshot may create; arrays have no initialiser, so this may follow the constants' resolution.
   */
  static void checkArrays(SnapshotFile file, ClassTable classes, ObjectInputFilter filter,
      int longestArray) throws InvalidClassException {
    if (filter != null) {
      askClasses(file, classes, filter, true, longestArray);
    }
  }

  /** Asks the filter about the array classes, or about the other classes, of the table. */
  private static void askClasses(SnapshotFile file, ClassTable classes,
      ObjectInputFilter filter, boolean arrays, long length) throws InvalidClassException {
    long refs = (long) file.tableSize() - file.firstId();
    for (int i = 0; i < classes.size(); i++) {
      Class<?> c = classes.get(i);
      if (c.isArray() == arrays) {
        ask(filter, new Info(c, length, 1, refs, file.bytes().length), c.getName());
      }
    }
  }

  private static void ask(ObjectInputFilter filter, Info info, String what)
      throws InvalidClassException {
    ObjectInputFilter.Status status = filter.checkInput(info);
    if (status == ObjectInputFilter.Status.REJECTED) {
      throw new InvalidClassException(what, "rejected by the serialization filter " + filter
          + " (depth " + info.depth() + ", references " + info.references() + ", bytes "
          + info.streamBytes() + "); nothing was restored");
    }
  }

  /** What the filter is asked about. */
  private record Info(Class<?> serialClass, long arrayLength, long depth, long references,
      long streamBytes) implements ObjectInputFilter.FilterInfo {}
}
