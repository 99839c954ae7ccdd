package org.codese.load;

import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.lang.reflect.Array;
import org.codese.CodeseLimits;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Values;

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
  static int checkLimits(
      SnapshotFile file, CodeseLimits limits, int longestInCode, long elementsInCode)
      throws InvalidObjectException {
    int longest = longestInCode;
    long elements = elementsInCode;
    long objects = (long) file.tableSize() - file.firstId();
    over("objects", objects, limits.maxObjects(), "withMaxObjects");
    over("classes", file.classes().size(), limits.maxClasses(), "withMaxClasses");
    over("depth", file.depth(), limits.maxDepth(), "withMaxDepth");
    for (Constant c : file.constants()) {
      // tags, not instanceof tests: those would load both record classes
      int tag = c.tag();
      long len =
          tag == Constant.PRIM_ARRAY
              ? Array.getLength(((Constant.PrimArray) c).array())
              : tag == Constant.TEXTS ? ((Constant.Texts) c).values().length : 0;
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
      throw new InvalidObjectException(
          "snapshot rejected: "
              + what
              + " "
              + value
              + " exceeds the limit of "
              + limit
              + "; raise it with CodeseLimits."
              + setter
              + " if the snapshot is trusted");
    }
  }

  /**
   * Asks the filter about every class the snapshot names other than array classes, then about its
   * object count and depth; before any of the classes is initialised. {@link #checkArrays} asks
   * about the array classes once the longest array the code creates is known.
   *
   * @param streamBytes what the filter is told as {@link ObjectInputFilter.FilterInfo#streamBytes}:
   *     for a segment of an object stream, the bytes read from the stream so far, this segment's
   *     included (a running total, as {@code ObjectInputStream} reports); {@link #SNAPSHOT_BYTES}
   *     for a snapshot on its own, whose length in bytes is then reported
   * @param refs what the filter is told as {@link ObjectInputFilter.FilterInfo#references}: {@link
   *     #references}
   */
  static void checkFilter(
      SnapshotFile file, ClassTable classes, ObjectInputFilter filter, long streamBytes, long refs)
      throws InvalidClassException {
    if (filter == null) {
      return;
    }
    long bytes = bytes(file, streamBytes);
    java.util.Set<Class<?>> asked = new java.util.HashSet<>();
    askClasses(classes, filter, false, -1, refs, bytes, asked);
    for (Constant k : file.constants()) {
      // a Class or ObjectStreamClass object: a JDK stream holds the class's descriptor, and so
      // those of its serializable superclasses (tags, not instanceof tests: see checkLimits)
      int tag = k.tag();
      int type =
          tag == Constant.TYPE_REF
              ? ((Constant.TypeRef) k).type()
              : tag == Constant.STREAM_CLASS_REF ? ((Constant.StreamClassRef) k).type() : -1;
      Class<?> c = type < 0 ? null : classes.get(type);
      if (c != null && !c.isArray()) {
        askSuperclasses(filter, c, refs, bytes, asked);
      }
    }
    ask(filter, new Info(null, -1, file.depth(), refs, bytes), "the snapshot as a whole");
  }

  /**
   * Asks the filter about the serializable superclasses of {@code c}, whose descriptors a JDK
   * stream holds wherever it holds {@code c}'s (its {@code ObjectStreamClass} chain): {@code
   * java.lang.Enum} for an enum class (and the enum class for a constant's body), {@code
   * java.lang.Number} for a box, a {@code LinkedHashMap}'s {@code HashMap}, an {@code
   * UnmodifiableList}'s {@code UnmodifiableCollection}, those of a class a {@code Class} object
   * names. Snapshots list most of them in their class table (an object's slots, and from format 13
   * a fill's or a factory-made object's superclasses), older ones not all.
   *
   * @param asked the classes asked about already, which are not asked again; {@code null} for none
   */
  private static void askSuperclasses(
      ObjectInputFilter filter, Class<?> c, long refs, long bytes, java.util.Set<Class<?>> asked)
      throws InvalidClassException {
    for (Class<?> s = c.getSuperclass();
        s != null && java.io.Serializable.class.isAssignableFrom(s);
        s = s.getSuperclass()) {
      if (asked == null || asked.add(s)) {
        ask(filter, new Info(s, -1, 1, refs, bytes), s.getName());
      }
    }
  }

  /**
   * Asks the filter about the box classes the snapshot's create phase makes ({@code
   * ProgramCheck.boxClasses}), and their serializable superclass {@code Number}: a JDK stream holds
   * their descriptors, where the snapshot's code boxes a primitive and its class table lists no
   * class. {@code streamBytes} and {@code refs} as for {@link #checkFilter}.
   *
   * @throws InvalidClassException if the filter rejects one
   */
  static void checkBoxes(
      SnapshotFile file,
      ObjectInputFilter filter,
      java.util.List<Class<?>> boxes,
      long streamBytes,
      long refs)
      throws InvalidClassException {
    if (filter == null || boxes.isEmpty()) {
      return;
    }
    long bytes = bytes(file, streamBytes);
    for (Class<?> c : boxes) {
      ask(filter, new Info(c, -1, 1, refs, bytes), c.getName());
      askSuperclasses(filter, c, refs, bytes, null);
    }
  }

  /**
   * The references a filter is told about for a snapshot or stream segment: its objects, plus, in
   * an object stream, the objects of every segment before it (resets included), a running total as
   * {@code ObjectInputStream}'s (which counts descriptors and back references too, so its figure is
   * higher for the same graph).
   *
   * @param file the snapshot or segment
   * @param before the objects of the stream's earlier segments; 0 for a snapshot
   * @return the count
   */
  static long references(SnapshotFile file, long before) {
    return before + file.tableSize() - file.firstId();
  }

  /**
   * Asks the filter about the interfaces of every dynamic proxy class the snapshot names, before
   * the classes are made ({@link ClassTable#makeProxies}): as {@code
   * ObjectInputStream.readProxyDesc} asks about each interface before the proxy class, which {@link
   * #checkFilter} asks about with the other classes; but before the class exists, where the JDK has
   * made it already.
   *
   * @param streamBytes as for {@link #checkFilter}
   * @param refs as for {@link #checkFilter}
   * @throws InvalidClassException if the filter rejects an interface
   */
  static void checkProxyInterfaces(
      SnapshotFile file, ClassTable classes, ObjectInputFilter filter, long streamBytes, long refs)
      throws InvalidClassException {
    if (filter == null) {
      return;
    }
    long bytes = bytes(file, streamBytes);
    for (int i = 0; i < classes.size(); i++) {
      Class<?>[] proxied = classes.proxyInterfaces(i);
      for (int k = 0; proxied != null && k < proxied.length; k++) {
        ask(filter, new Info(proxied[k], -1, 1, refs, bytes), proxied[k].getName());
      }
    }
  }

  /** Says that the filter is to be told the snapshot's own length as its stream bytes. */
  static final long SNAPSHOT_BYTES = -1;

  /**
   * The stream bytes to report: {@code streamBytes}, or for {@link #SNAPSHOT_BYTES} the snapshot's
   * length (its file form: the bytes it was parsed from, kept, or encoded once for a snapshot just
   * captured). A stream segment's bytes are never asked for: a decoded segment of stream format 3
   * has no file form of its own, and encoding one would cost a second encoding of the whole
   * segment.
   */
  private static long bytes(SnapshotFile file, long streamBytes) {
    return streamBytes == SNAPSHOT_BYTES ? file.bytes().length : streamBytes;
  }

  /**
   * Asks the filter about every array class the snapshot names, with the longest length the
   * snapshot may create; arrays have no initialiser, so this may follow the constants' resolution.
   * {@code streamBytes} and {@code refs} as for {@link #checkFilter}.
   */
  static void checkArrays(
      SnapshotFile file,
      ClassTable classes,
      ObjectInputFilter filter,
      int longestArray,
      long streamBytes,
      long refs)
      throws InvalidClassException {
    if (filter != null) {
      askClasses(classes, filter, true, longestArray, refs, bytes(file, streamBytes), null);
    }
  }

  /**
   * Checks the storage arrays of the JDK collections the snapshot fills ({@code
   * ProgramCheck.fillArrays}) as their {@code readObject} would have had {@code
   * ObjectInputStream.checkArray} check them: against {@code CodeseLimits.maxArrayLength}, and,
   * with a filter, by asking it about the longest of each array class.
   *
   * @throws InvalidObjectException if an array is longer than the limit
   * @throws InvalidClassException if the filter rejects one, as {@code ObjectInputStream} words it
   */
  static void checkFillArrays(
      SnapshotFile file,
      ObjectInputFilter filter,
      int maxArrayLength,
      java.util.Map<Class<?>, Integer> arrays,
      long streamBytes,
      long refs)
      throws InvalidObjectException, InvalidClassException {
    for (java.util.Map.Entry<Class<?>, Integer> e : arrays.entrySet()) {
      Class<?> c = e.getKey();
      int length = e.getValue();
      if (length > maxArrayLength) {
        throw new InvalidObjectException(
            "snapshot rejected: it fills a JDK collection whose "
                + c.getComponentType().getTypeName()
                + "[] storage holds "
                + length
                + " elements, beyond the limit of "
                + maxArrayLength
                + "; raise it with CodeseLimits.withMaxArrayLength if the snapshot is trusted");
      }
      if (filter != null
          && filter.checkInput(new Info(c, length, 1, refs, bytes(file, streamBytes)))
              == ObjectInputFilter.Status.REJECTED) {
        // word for word what ObjectInputStream.checkArray throws from the class's readObject
        throw new InvalidClassException("filter status: REJECTED");
      }
    }
  }

  /**
   * Asks the filter about the array classes, or about the other classes of the table and their
   * serializable superclasses (not those of a {@code java.time} value's class: a JDK stream holds
   * its stream class {@code java.time.Ser} instead, which the table lists), each once.
   *
   * @param asked receives the classes asked about, when not arrays
   */
  private static void askClasses(
      ClassTable classes,
      ObjectInputFilter filter,
      boolean arrays,
      long length,
      long refs,
      long bytes,
      java.util.Set<Class<?>> asked)
      throws InvalidClassException {
    for (int i = 0; i < classes.size(); i++) {
      Class<?> c = classes.get(i);
      if (c == null) {
        if (!arrays) {
          // a removed superclass not found: ObjectInputStream asks about its descriptor with
          // no class
          ask(filter, new Info(null, -1, 1, refs, bytes), classes.name(i));
        }
      } else if (arrays && c.isArray()) {
        ask(filter, new Info(c, length, 1, refs, bytes), c.getName());
      } else if (!arrays && !c.isArray()) {
        if (asked.add(c)) {
          ask(filter, new Info(c, length, 1, refs, bytes), c.getName());
        }
        if (!Values.streamedAsOther(c)) {
          askSuperclasses(filter, c, refs, bytes, asked);
        }
      }
    }
  }

  private static void ask(ObjectInputFilter filter, Info info, String what)
      throws InvalidClassException {
    ObjectInputFilter.Status status = filter.checkInput(info);
    if (status == ObjectInputFilter.Status.REJECTED) {
      throw new InvalidClassException(
          what,
          "rejected by the serialization filter "
              + filter
              + " (depth "
              + info.depth()
              + ", references "
              + info.references()
              + ", bytes "
              + info.streamBytes()
              + "); nothing was restored");
    }
  }

  /**
   * Asks the filter about the class of an object a stream's {@code resolveObject} returned in place
   * of one the segment created, as {@code ObjectInputStream.checkResolve} asks about it (with the
   * array's length for an array).
   *
   * @throws InvalidClassException if the filter rejects it
   */
  static void checkReplacement(
      ObjectInputFilter filter, Object rep, long depth, long references, long streamBytes)
      throws InvalidClassException {
    if (filter != null) {
      Class<?> c = rep.getClass();
      long length = c.isArray() ? Array.getLength(rep) : -1;
      ask(filter, new Info(c, length, depth, references, streamBytes), c.getName());
    }
  }

  /** What the filter is asked about. */
  private record Info(
      Class<?> serialClass, long arrayLength, long depth, long references, long streamBytes)
      implements ObjectInputFilter.FilterInfo {}
}
