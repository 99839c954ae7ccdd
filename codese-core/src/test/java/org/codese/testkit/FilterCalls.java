package org.codese.testkit;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.util.ArrayList;
import java.util.List;
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
