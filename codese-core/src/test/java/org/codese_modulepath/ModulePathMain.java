package org.codese_modulepath;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.CaptureException;
import org.codese.Codese;
import org.codese.CodeseInputStream;
import org.codese.CodeseOutputStream;
import org.codese.ProgramListener;
import org.codese.SnapshotContents;

/**
 * The child JVM's program of {@link ModulePathIT}: checks that Codese runs as the named module
 * {@code org.codese}, then restores a graph with a cycle, JDK collections, a record and a class
 * with {@code readObject}, through a snapshot and an object stream, and compares each with the
 * original by their JDK serialization bytes. Prints one line per check.
 */
public final class ModulePathMain {
  /** What the program prints when every check holds. */
  static final List<String> EXPECTED =
      List.of(
          "module org.codese",
          "snapshot true",
          "stream true",
          "advice --add-opens java.base/java.util.zip=org.codese",
          "contents 1 true");

  private ModulePathMain() {}

  /** A user class in a cycle. */
  static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    String name;
    Node next;
    Map<String, Object> data = new HashMap<>();
  }

  /** A record. */
  record Point(int x, String label) implements Serializable {}

  /** A class with its own {@code readObject}, which rebuilds a transient field. */
  static final class Counted implements Serializable {
    private static final long serialVersionUID = 1L;
    private final List<String> items = new ArrayList<>();
    private transient int size;

    Counted(String... items) {
      this.items.addAll(Arrays.asList(items));
      this.size = items.length;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      size = items.size();
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(size);
    }
  }

  static Object graph() {
    Node a = new Node();
    Node b = new Node();
    a.name = "a";
    b.name = "b";
    a.next = b;
    b.next = a;
    a.data.put("point", new Point(3, "three"));
    a.data.put("counted", new Counted("x", "y"));
    List<Object> list = new ArrayList<>(List.of(1, 2L, "s"));
    list.add(a);
    b.data.put("list", list);
    return a;
  }

  /**
   * Runs the checks.
   *
   * @param args not used
   * @throws Exception if a check cannot run
   */
  public static void main(String[] args) throws Exception {
    Module m = Codese.class.getModule();
    System.out.println(m.isNamed() ? "module " + m.getName() : "unnamed module");
    Object original = graph();
    byte[] reference = jdk(original);
    byte[] snapshot = Codese.toBytes(original);
    System.out.println("snapshot " + Arrays.equals(reference, jdk(Codese.fromBytes(snapshot))));
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(buffer)) {
      out.writeObject(original);
    }
    Object streamed;
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(buffer.toByteArray()))) {
      streamed = in.readObject();
    }
    System.out.println("stream " + Arrays.equals(reference, jdk(streamed)));
    System.out.println("advice " + advice());
    SnapshotContents contents = SnapshotContents.read(snapshot);
    boolean[] created = new boolean[1];
    contents.list(
        new ProgramListener() {
          @Override
          public void create(int object, String type, String expression) {
            created[0] |= type.equals(Point.class.getName());
          }
        });
    System.out.println("contents " + contents.segments().size() + " " + created[0]);
  }

  /** The {@code --add-opens} option the message names for state closed to reflection. */
  private static String advice() throws IOException {
    try {
      Codese.toBytes(new java.util.zip.CRC32());
      return "none: captured";
    } catch (CaptureException e) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("--add-opens \\S+").matcher(e.getMessage());
      return m.find() ? m.group() : "none: " + e.getMessage();
    }
  }

  private static byte[] jdk(Object o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }
}
