package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.SerializablePermission;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Permission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Subclassing the streams as the JDK allows it, side by side with the same subclasses of {@code
 * ObjectOutputStream}/{@code ObjectInputStream}: the Java Object Serialization Specification,
 * section 2.1 ({@code ObjectOutputStream()} and {@code writeObjectOverride}, "for subclasses that
 * are completely reimplementing ObjectOutputStream") and section 3.1 ({@code ObjectInputStream()}
 * and {@code readObjectOverride}), with the {@code SerializablePermission
 * ("enableSubclassImplementation")} check of both constructors (section 1.8 of the JDK 17
 * specification, "Security"; there is no security manager on JDK 24 and later).
 */
@Timeout(120)
class SubclassConformanceTest {

  private interface Call {
    Object call() throws Exception;
  }

  private static String outcome(Call c) {
    try {
      return "returned " + c.call();
    } catch (Exception | Error e) {
      return e.getClass().getSimpleName();
    }
  }

  /** A JDK subclass that reimplements writing: logs the objects. */
  static final class JdkOwnWriter extends ObjectOutputStream {
    final List<Object> written = new ArrayList<>();

    JdkOwnWriter() throws IOException {
      super();
    }

    @Override
    protected void writeObjectOverride(Object obj) {
      written.add(obj);
    }
  }

  /** The same subclass of Codese's stream. */
  static final class CodeseOwnWriter extends CodeseOutputStream {
    final List<Object> written = new ArrayList<>();

    CodeseOwnWriter() throws IOException {
      super();
    }

    @Override
    protected void writeObjectOverride(Object obj) {
      written.add(obj);
    }
  }

  /** A JDK subclass made with the protected constructor that overrides nothing. */
  static final class JdkBare extends ObjectOutputStream {
    JdkBare() throws IOException {
      super();
    }
  }

  /** The same subclass of Codese's stream. */
  static final class CodeseBare extends CodeseOutputStream {
    CodeseBare() throws IOException {
      super();
    }
  }

  private static List<String> exercise(ObjectOutputStream out) {
    List<String> r = new ArrayList<>();
    r.add(
        outcome(
            () -> {
              out.writeObject("a");
              return null;
            }));
    r.add(
        outcome(
            () -> {
              out.writeObject(List.of(1));
              return null;
            }));
    for (Call c :
        List.<Call>of(
            () -> {
              out.writeUnshared("u");
              return null;
            },
            () -> {
              out.writeInt(1);
              return null;
            },
            () -> {
              out.write(new byte[2]);
              return null;
            },
            () -> {
              out.writeUTF("s");
              return null;
            },
            () -> {
              out.reset();
              return null;
            },
            () -> {
              out.flush();
              return null;
            },
            () -> {
              out.useProtocolVersion(ObjectOutputStream.PROTOCOL_VERSION_2);
              return null;
            },
            () -> {
              out.defaultWriteObject();
              return null;
            },
            out::putFields,
            () -> {
              out.writeFields();
              return null;
            },
            () -> {
              out.close();
              return null;
            })) {
      r.add(outcome(c));
    }
    return r;
  }

  /**
   * Section 2.1: "protected ObjectOutputStream() ... Provide a way for subclasses that are
   * completely reimplementing ObjectOutputStream to not have to allocate private data just used by
   * this implementation". {@code writeObject} calls the subclass's {@code writeObjectOverride} (a
   * no-op where not overridden); the methods the subclass did not reimplement fail as the JDK's do
   * ({@code NullPointerException}; {@code NotActiveException} outside {@code writeObject}), and
   * nothing is written anywhere.
   */
  @Test
  void outputSubclassesReimplementWritingAsWithTheJdk() throws Exception {
    JdkOwnWriter jdk = new JdkOwnWriter();
    CodeseOwnWriter codese = new CodeseOwnWriter();
    List<String> jdkSeen = exercise(jdk);
    assertEquals(jdkSeen, exercise(codese));
    assertEquals(jdk.written, codese.written);
    assertEquals(List.of("a", List.of(1)), codese.written);
    assertTrue(
        jdkSeen.contains("NullPointerException") && jdkSeen.contains("NotActiveException"),
        jdkSeen.toString());
    assertEquals(exercise(new JdkBare()), exercise(new CodeseBare()));
  }

  /** A JDK subclass that reimplements reading: hands out fixed objects. */
  static final class JdkOwnReader extends ObjectInputStream {
    private final List<Object> queue = new ArrayList<>(List.of("first", 2));

    JdkOwnReader() throws IOException {
      super();
    }

    @Override
    protected Object readObjectOverride() {
      return queue.isEmpty() ? null : queue.remove(0);
    }
  }

  /** The same subclass of Codese's stream. */
  static final class CodeseOwnReader extends CodeseInputStream {
    private final List<Object> queue = new ArrayList<>(List.of("first", 2));

    CodeseOwnReader() throws IOException {
      super();
    }

    @Override
    protected Object readObjectOverride() {
      return queue.isEmpty() ? null : queue.remove(0);
    }
  }

  /** A JDK subclass made with the protected constructor that overrides nothing. */
  static final class JdkBareReader extends ObjectInputStream {
    JdkBareReader() throws IOException {
      super();
    }
  }

  /** The same subclass of Codese's stream. */
  static final class CodeseBareReader extends CodeseInputStream {
    CodeseBareReader() throws IOException {
      super();
    }
  }

  @SuppressWarnings("deprecation")
  private static List<String> exercise(ObjectInputStream in) {
    List<String> r = new ArrayList<>();
    for (Call c :
        List.<Call>of(
            in::readObject,
            in::readObject,
            in::readObject,
            in::readUnshared,
            in::readInt,
            in::read,
            () -> in.read(new byte[2]),
            in::available,
            () -> in.skipBytes(1),
            in::readUTF,
            in::readLine,
            () -> {
              in.readFully(new byte[1]);
              return null;
            },
            () -> {
              in.defaultReadObject();
              return null;
            },
            in::readFields,
            () -> {
              in.registerValidation(() -> {}, 0);
              return null;
            },
            in::getObjectInputFilter,
            () -> {
              in.close();
              return null;
            })) {
      r.add(outcome(c));
    }
    return r;
  }

  /**
   * Section 3.1: "protected ObjectInputStream() ... Provide a way for subclasses that are
   * completely reimplementing ObjectInputStream". {@code readObject} calls the subclass's {@code
   * readObjectOverride} ({@code null} where not overridden); the other methods fail as the JDK's
   * do.
   */
  @Test
  void inputSubclassesReimplementReadingAsWithTheJdk() throws Exception {
    List<String> jdk = exercise(new JdkOwnReader());
    assertEquals(jdk, exercise(new CodeseOwnReader()));
    assertEquals("returned first", jdk.get(0));
    assertEquals(exercise(new JdkBareReader()), exercise(new CodeseBareReader()));
  }

  /** A JDK subclass whose override of writeUnshared makes its constructor ask the permission. */
  static final class JdkSensitiveWriter extends ObjectOutputStream {
    JdkSensitiveWriter(OutputStream out) throws IOException {
      super(out);
    }

    @Override
    public void writeUnshared(Object obj) throws IOException {
      super.writeUnshared(obj);
    }
  }

  /** A JDK subclass whose override of readUnshared makes its constructor ask the permission. */
  static final class JdkSensitiveReader extends ObjectInputStream {
    JdkSensitiveReader(InputStream in) throws IOException {
      super(in);
    }

    @Override
    public Object readUnshared() throws IOException, ClassNotFoundException {
      return super.readUnshared();
    }
  }

  /** Denies {@code enableSubclassImplementation} while {@link #deny} is set; allows all else. */
  static final class Guard extends SecurityManager {
    volatile boolean deny;

    @Override
    public void checkPermission(Permission p) {
      if (deny
          && p instanceof SerializablePermission
          && p.getName().equals("enableSubclassImplementation")) {
        throw new SecurityException("denied: " + p);
      }
    }

    @Override
    public void checkPermission(Permission p, Object context) {
      checkPermission(p);
    }
  }

  /**
   * @return "ok", or the simple name of what {@code c} throws
   */
  private static String kind(Call c) {
    String o = outcome(c);
    return o.startsWith("returned") ? "ok" : o;
  }

  /** The child JVM's program: each constructor, JDK's then Codese's, with and without the grant. */
  @SuppressWarnings("removal")
  public static void main(String[] args) throws Exception {
    Guard guard = new Guard();
    System.setSecurityManager(guard);
    byte[] jdkData = new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5};
    ByteArrayOutputStream codese = new ByteArrayOutputStream();
    new CodeseOutputStream(codese).close();
    List<String> lines = new ArrayList<>();
    for (boolean deny : new boolean[] {true, false}) {
      guard.deny = deny;
      lines.add(kind(JdkOwnWriter::new) + " " + kind(CodeseOwnWriter::new));
      lines.add(kind(JdkOwnReader::new) + " " + kind(CodeseOwnReader::new));
      lines.add(
          kind(() -> new JdkSensitiveWriter(new ByteArrayOutputStream()))
              + " "
              + kind(() -> new CodeseOutputStream(new ByteArrayOutputStream())));
      lines.add(
          kind(() -> new JdkSensitiveReader(new ByteArrayInputStream(jdkData)))
              + " "
              + kind(() -> new CodeseInputStream(new ByteArrayInputStream(codese.toByteArray()))));
    }
    guard.deny = false;
    System.setSecurityManager(null);
    System.out.println(String.join("\n", lines));
  }

  /**
   * JDK 17 with a security manager: the protected constructors of both streams, and the public ones
   * (Codese's streams are subclasses that override {@code writeUnshared}/{@code readUnshared}, for
   * which the JDK asks the same permission), throw {@code SecurityException} where {@code
   * enableSubclassImplementation} is denied, as the JDK's do, and succeed where it is granted.
   */
  @Test
  void constructorsCheckEnableSubclassImplementationUnderASecurityManager() throws Exception {
    assumeTrue(Runtime.version().feature() < 24, "no SecurityManager after JDK 23");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Djava.security.manager=allow",
                "-cp",
                System.getProperty("java.class.path"),
                SubclassConformanceTest.class.getName())
            .start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    String[] lines = out.split("\n");
    assertEquals(8, lines.length, out + "\n" + err);
    for (int i = 0; i < lines.length; i++) {
      String[] pair = lines[i].split(" ", 2);
      assertEquals(pair[0], pair[1], "line " + i + ": " + out);
      assertEquals(i < 4 ? "SecurityException" : "ok", pair[0], "line " + i + ": " + out);
    }
  }
}
