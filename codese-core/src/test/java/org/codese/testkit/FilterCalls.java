package org.codese.testkit;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codese.Codese;
import org.codese.CodeseOptions;

/**
 * What a serialization filter is asked about arrays (and about classes whose name ends as given),
 * when {@code ObjectInputStream} reads a graph and when Codese restores its snapshot: entries
 * {@code "componentOrClassName[length"}, distinct, sorted, so that the two lists compare.
 */
public final class FilterCalls {
  private FilterCalls() {}

  /** The calls {@code ObjectInputStream} makes reading {@code graph}'s JDK bytes. */
  public static List<String> jdk(Object graph, String classSuffix) throws IOException {
    List<String> seen = new ArrayList<>();
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(JdkBytes.serialize(graph)))) {
      in.setObjectInputFilter(recording(seen, classSuffix));
      in.readObject();
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
    return seen;
  }

  /** The calls Codese makes restoring {@code graph}'s snapshot. */
  public static List<String> codese(Object graph, String classSuffix) throws IOException {
    List<String> seen = new ArrayList<>();
    Codese.fromBytes(
        Codese.toBytes(graph),
        CodeseOptions.defaults().withObjectInputFilter(recording(seen, classSuffix)));
    return seen;
  }

  /**
   * Every class {@code ObjectInputStream} asks the filter about reading {@code graph}'s JDK bytes,
   * each with the longest array length it was asked with (-1 for a class that is not an array).
   */
  public static Map<Class<?>, Long> jdkAsked(Object graph) throws IOException {
    Map<Class<?>, Long> asked = new LinkedHashMap<>();
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(JdkBytes.serialize(graph)))) {
      in.setObjectInputFilter(everyClass(asked));
      in.readObject();
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
    return asked;
  }

  /**
   * Every class Codese asks the filter about restoring {@code graph}'s snapshot ({@code
   * Codese.toBytes}, then {@code Codese.fromBytes} with {@code options} and the recording filter),
   * as {@link #jdkAsked}.
   */
  public static Map<Class<?>, Long> codeseAsked(Object graph, CodeseOptions options)
      throws IOException {
    Map<Class<?>, Long> asked = new LinkedHashMap<>();
    Codese.fromBytes(Codese.toBytes(graph), options.withObjectInputFilter(everyClass(asked)));
    return asked;
  }

  /**
   * Every class Codese asks the filter about restoring {@code snapshot} with {@code options} and
   * the recording filter, as {@link #jdkAsked}.
   */
  public static Map<Class<?>, Long> codeseAsked(byte[] snapshot, CodeseOptions options)
      throws IOException {
    Map<Class<?>, Long> asked = new LinkedHashMap<>();
    Codese.fromBytes(snapshot, options.withObjectInputFilter(everyClass(asked)));
    return asked;
  }

  /**
   * Every class a {@code CodeseInputStream} asks its filter about reading {@code graph} from what a
   * {@code CodeseOutputStream} wrote of it, as {@link #jdkAsked}.
   */
  public static Map<Class<?>, Long> streamAsked(Object graph, CodeseOptions options)
      throws IOException {
    return streamAsked(java.util.Collections.singletonList(graph), options);
  }

  /**
   * As {@link #streamAsked(Object, CodeseOptions)}, for {@code graphs} written one after the other
   * to one stream and read back.
   */
  public static Map<Class<?>, Long> streamAsked(List<?> graphs, CodeseOptions options)
      throws IOException {
    byte[] bytes = written(graphs, org.codese.CodeseOutputStream::new);
    return asked(
        new org.codese.CodeseInputStream(new ByteArrayInputStream(bytes), options), graphs.size());
  }

  /**
   * As {@link #jdkAsked}, for {@code graphs} written one after the other to one {@code
   * ObjectOutputStream} and read back.
   */
  public static Map<Class<?>, Long> jdkAskedStream(List<?> graphs) throws IOException {
    byte[] bytes = written(graphs, java.io.ObjectOutputStream::new);
    return asked(new ObjectInputStream(new ByteArrayInputStream(bytes)), graphs.size());
  }

  /** Opens an object stream over bytes. */
  private interface Writer {
    java.io.ObjectOutputStream open(java.io.OutputStream out) throws IOException;
  }

  /** {@code graphs} written one after the other to one stream {@code open} makes. */
  private static byte[] written(List<?> graphs, Writer open) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = open.open(bytes)) {
      for (Object g : graphs) {
        out.writeObject(g);
      }
    }
    return bytes.toByteArray();
  }

  /** What {@code in}'s filter is asked about while it reads {@code n} objects; closes it. */
  private static Map<Class<?>, Long> asked(ObjectInputStream in, int n) throws IOException {
    Map<Class<?>, Long> asked = new LinkedHashMap<>();
    try (in) {
      in.setObjectInputFilter(everyClass(asked));
      for (int i = 0; i < n; i++) {
        in.readObject();
      }
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
    return asked;
  }

  /**
   * What {@code jdk} holds that {@code codese} does not cover: a class Codese was not asked about,
   * or an array class Codese was asked about only with a shorter length; empty when Codese's filter
   * saw at least what the JDK's saw.
   */
  public static List<String> notCovered(Map<Class<?>, Long> jdk, Map<Class<?>, Long> codese) {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<Class<?>, Long> e : jdk.entrySet()) {
      Long ours = codese.get(e.getKey());
      if (ours == null) {
        missing.add(e.getKey().getName() + " not asked");
      } else if (ours < e.getValue()) {
        missing.add(
            e.getKey().getName()
                + " asked with length "
                + ours
                + " at most, the JDK asked "
                + e.getValue());
      }
    }
    return missing;
  }

  private static ObjectInputFilter everyClass(Map<Class<?>, Long> asked) {
    return info -> {
      Class<?> c = info.serialClass();
      if (c != null) {
        asked.merge(c, info.arrayLength(), Math::max);
      }
      return ObjectInputFilter.Status.UNDECIDED;
    };
  }

  private static ObjectInputFilter recording(List<String> seen, String classSuffix) {
    return info -> {
      Class<?> c = info.serialClass();
      if (c != null && (c.isArray() || c.getName().endsWith(classSuffix))) {
        String call =
            (c.isArray() ? c.getComponentType().getName() : c.getName()) + "[" + info.arrayLength();
        if (!seen.contains(call)) {
          seen.add(call);
          seen.sort(null);
        }
      }
      return ObjectInputFilter.Status.UNDECIDED;
    };
  }

  /**
   * Whether {@code ObjectInputStream} with {@code filter} rejects {@code graph}'s JDK bytes with
   * the filter's {@code InvalidClassException}.
   */
  public static boolean jdkRejects(Object graph, ObjectInputFilter filter) throws IOException {
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(JdkBytes.serialize(graph)))) {
      in.setObjectInputFilter(filter);
      in.readObject();
      return false;
    } catch (java.io.InvalidClassException e) {
      return true;
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Whether Codese, loading {@code graph}'s snapshot with {@code filter}, rejects it with the
   * filter's {@code InvalidClassException}.
   */
  public static boolean codeseRejects(Object graph, ObjectInputFilter filter) throws IOException {
    try {
      Codese.fromBytes(
          Codese.toBytes(graph), CodeseOptions.defaults().withObjectInputFilter(filter));
      return false;
    } catch (java.io.InvalidClassException e) {
      return true;
    }
  }

  /**
   * Checks that {@code filter} rejects {@code graph} with the JDK (so the case is a fair one) and
   * with Codese, restoring its snapshot and reading it from an object stream.
   *
   * @param what what the filter rejects, for messages
   */
  public static void assertBothReject(Object graph, ObjectInputFilter filter, String what)
      throws IOException {
    if (!jdkRejects(graph, filter)) {
      throw new AssertionError("the JDK does not reject " + what + ": not a fair case");
    }
    if (!codeseRejects(graph, filter)) {
      throw new AssertionError("Codese does not reject " + what + ", as the JDK does");
    }
    if (!streamRejects(graph, filter)) {
      throw new AssertionError("a CodeseInputStream does not reject " + what + ", as the JDK does");
    }
  }

  /**
   * Whether a {@code CodeseInputStream} with {@code filter} rejects {@code graph}, written by a
   * {@code CodeseOutputStream}, with the filter's {@code InvalidClassException}.
   */
  public static boolean streamRejects(Object graph, ObjectInputFilter filter) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (org.codese.CodeseOutputStream out = new org.codese.CodeseOutputStream(bytes)) {
      out.writeObject(graph);
    }
    try (org.codese.CodeseInputStream in =
        new org.codese.CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      in.setObjectInputFilter(filter);
      in.readObject();
      return false;
    } catch (java.io.InvalidClassException e) {
      return true;
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Checks that a filter rejecting exactly class {@code className} rejects {@code graph} with the
   * JDK (so the case is a fair one) and with Codese.
   */
  public static void assertBothReject(Object graph, String className) throws IOException {
    ObjectInputFilter filter = ObjectInputFilter.Config.createFilter("!" + className);
    if (!jdkRejects(graph, filter)) {
      throw new AssertionError("the JDK does not reject " + className + ": not a fair case");
    }
    if (!codeseRejects(graph, filter)) {
      throw new AssertionError("Codese does not reject " + className + ", as the JDK does");
    }
  }
}
