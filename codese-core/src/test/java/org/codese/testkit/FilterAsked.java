package org.codese.testkit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.codese.Codese;
import org.codese.CodeseOptions;

/** What a serialization filter is asked while Codese or the JDK's reader restores a graph. */
public final class FilterAsked {
  private FilterAsked() {}

  /**
   * @param graph a serializable graph
   * @param codese whether Codese restores it (from {@code Codese.toBytes}), else the JDK's reader
   * @return the classes the filter was asked about, in order, by name
   * @throws IOException if the restore fails
   */
  public static List<String> classes(Object graph, boolean codese) throws IOException {
    List<String> classes = new ArrayList<>();
    ObjectInputFilter recording =
        info -> {
          if (info.serialClass() != null) {
            classes.add(info.serialClass().getName());
          }
          return ObjectInputFilter.Status.UNDECIDED;
        };
    if (codese) {
      Codese.load(Codese.toBytes(graph), CodeseOptions.defaults().withObjectInputFilter(recording))
          .restore();
    } else {
      jdkRead(graph, recording);
    }
    return classes;
  }

  /**
   * Writes {@code graph} with {@code ObjectOutputStream} and reads it back under {@code filter}.
   *
   * @param graph a serializable graph
   * @param filter the reader's filter
   * @return what the reader returned
   * @throws IOException what the reader threw, such as the filter's {@code InvalidClassException}
   */
  public static Object jdkRead(Object graph, ObjectInputFilter filter) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(graph);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      in.setObjectInputFilter(filter);
      return in.readObject();
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }
}
