package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.SideBySide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a user switching from the JDK's streams notices a difference (issue 10, part 6), each side
 * by side with {@code ObjectOutputStream}/{@code ObjectInputStream} where they have a counterpart:
 * the wrong kind of data given to a reader, capture errors on JDK-internal types, and a writer that
 * was never closed.
 */
class DropInMessagesTest {
  @TempDir Path tmp;

  record Point(int x, String label) implements Serializable {}

  /** A class that holds JDK objects that are not {@code Serializable}. */
  static final class Service implements Serializable {
    Optional<String> name = Optional.of("n");
  }

  static final class Logged implements Serializable {
    Logger log = Logger.getLogger("codese.test");
    int count = 3;
  }

  /** {@link Service} with the field marked transient, as the advice says. */
  static final class FixedService implements Serializable {
    transient Optional<String> name = Optional.of("n");
    int count = 3;
  }

  private static byte[] objectStream(Object o) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }

  /** Every way to hand {@code data} to the snapshot readers, each of which must throw. */
  private List<Executable> snapshotReaders(byte[] data) throws IOException {
    Path file = Files.write(tmp.resolve("data"), data);
    CodeseOptions signed = CodeseOptions.defaults().withSigningKey(new byte[32]);
    return List.of(
        () -> Codese.fromBytes(data),
        () -> Codese.load(data),
        () -> Codese.load(data, signed),
        () -> Codese.read(new ByteArrayInputStream(data)),
        () -> Codese.load(new ByteArrayInputStream(data)),
        () -> Codese.read(file),
        () -> Codese.load(file),
        () -> Codese.classesToAllow(data, CodeseOptions.defaults()));
  }

  /**
   * A Codese object stream (what {@code CodeseOutputStream} and {@code codese convert} write) given
   * to {@code Codese.load}/{@code read}/{@code fromBytes} says what it is and that {@code
   * CodeseInputStream} reads it; as {@code ObjectInputStream} given data that is not its own, it is
   * a {@code StreamCorruptedException}.
   */
  @Test
  void aCodeseObjectStreamGivenToTheSnapshotReadersSaysToUseCodeseInputStream() throws Exception {
    Point p = new Point(1, "a");
    byte[] stream = objectStream(p);
    for (Executable reader : snapshotReaders(stream)) {
      CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, reader);
      assertTrue(
          e.getMessage().startsWith("not a Codese snapshot but a Codese object stream (magic CDSS"),
          e.getMessage());
      assertTrue(e.getMessage().contains("read it with CodeseInputStream"), e.getMessage());
      assertTrue(e.getMessage().contains(".cdss"), e.getMessage());
      assertFalse(e.getMessage().contains("damaged"), e.getMessage());
    }
    assertThrows(
        StreamCorruptedException.class,
        () -> new ObjectInputStream(new ByteArrayInputStream(stream)));
    // and what the message advises reads it
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
      assertEquals(p, in.readObject());
    }
  }

  /**
   * JDK serialization data given to the snapshot readers says what it is and what reads it, also
   * when it holds no object at all (the stream header alone, shorter than any snapshot).
   */
  @Test
  void jdkSerializationDataGivenToTheSnapshotReadersSaysWhatReadsIt() throws Exception {
    Point p = new Point(2, "b");
    ByteArrayOutputStream empty = new ByteArrayOutputStream();
    new ObjectOutputStream(empty).close();
    for (byte[] jdk : List.of(JdkBytes.serialize(p), empty.toByteArray())) {
      for (Executable reader : snapshotReaders(jdk)) {
        CorruptSnapshotException e = assertThrows(CorruptSnapshotException.class, reader);
        assertTrue(
            e.getMessage()
                .startsWith("not a Codese snapshot but JDK serialization data (magic 0xACED"),
            e.getMessage());
        assertTrue(e.getMessage().contains("read it with CodeseInputStream"), e.getMessage());
        assertTrue(e.getMessage().contains("codese convert"), e.getMessage());
      }
    }
    try (CodeseInputStream in =
            new CodeseInputStream(new ByteArrayInputStream(JdkBytes.serialize(p)));
        ObjectInputStream jdk =
            new ObjectInputStream(new ByteArrayInputStream(JdkBytes.serialize(p)))) {
      assertEquals(jdk.readObject(), in.readObject());
    }
  }

  /**
   * A snapshot given to {@code CodeseInputStream} says to load it with {@code Codese.load}; {@code
   * ObjectInputStream} given it throws the same type, {@code StreamCorruptedException}, from its
   * constructor too.
   */
  @Test
  void aSnapshotGivenToCodeseInputStreamSaysToUseCodeseLoad() throws Exception {
    CodeseOptions key = CodeseOptions.defaults().withSigningKey(new byte[32]);
    for (byte[] snapshot :
        List.of(Codese.toBytes(new Point(3, "c")), Codese.toBytes(new Point(3, "c"), key))) {
      StreamCorruptedException jdk =
          assertThrows(
              StreamCorruptedException.class,
              () -> new ObjectInputStream(new ByteArrayInputStream(snapshot)));
      CorruptSnapshotException e =
          assertThrows(
              CorruptSnapshotException.class,
              () -> new CodeseInputStream(new ByteArrayInputStream(snapshot)).readObject());
      assertInstanceOf(jdk.getClass(), e);
      assertTrue(
          e.getMessage().startsWith("not a Codese object stream but a Codese snapshot (magic CDS"),
          e.getMessage());
      assertTrue(e.getMessage().contains("load it with Codese.load"), e.getMessage());
      assertTrue(e.getMessage().contains(".cdse"), e.getMessage());
    }
    assertEquals(new Point(3, "c"), Codese.fromBytes(Codese.toBytes(new Point(3, "c"))));
  }

  /** Data of no known kind is still damaged data. */
  @Test
  void dataOfNoKnownKindIsCorrupt() {
    byte[] junk = "just some text, long enough".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    CorruptSnapshotException e =
        assertThrows(CorruptSnapshotException.class, () -> Codese.fromBytes(junk));
    assertTrue(e.getMessage().contains("bad magic number"), e.getMessage());
    assertTrue(e.getMessage().contains("damaged or truncated"), e.getMessage());
  }

  /**
   * Capture errors on JDK-internal classes that are not {@code Serializable} first advise what
   * helps, a transient or static field or an object kept out of the graph, and only then the {@code
   * --add-opens} option; {@code ObjectOutputStream} and {@code CodeseOutputStream} refuse the same
   * graphs with {@code NotSerializableException}, and the advised change makes both serialize them.
   */
  @Test
  void captureErrorsOnJdkInternalClassesAdviseTransientBeforeAddOpens() throws Exception {
    for (Object graph : List.of(new Service(), new Logged())) {
      CaptureException e = assertThrows(CaptureException.class, () -> Codese.toBytes(graph));
      String m = e.getMessage();
      assertTrue(m.startsWith("cannot capture root."), m);
      assertTrue(m.contains("internal to the JDK"), m);
      int transientAt = m.indexOf("Mark the field that holds it transient (or make it static)");
      assertTrue(transientAt > 0, m);
      assertTrue(m.indexOf("keep the object out of the graph") > transientAt, m);
      assertTrue(m.indexOf("--add-opens") > transientAt, m);
      assertEquals(
          NotSerializableException.class,
          assertThrows(IOException.class, () -> JdkBytes.serialize(graph)).getClass());
      NotSerializableException s =
          assertThrows(
              NotSerializableException.class,
              () -> new CodeseOutputStream(new ByteArrayOutputStream()).writeObject(graph));
      assertTrue(
          s.getMessage().contains("mark the field that holds it transient (or make it static)"),
          s.getMessage());
      assertFalse(s.getMessage().contains("withRequireSerializable"), s.getMessage());
    }
    FixedService fixed = new FixedService();
    assertEquals(
        SideBySide.jdkForm(JdkBytes.deserialize(JdkBytes.serialize(fixed))),
        SideBySide.jdkForm(Codese.fromBytes(Codese.toBytes(fixed))));
  }

  /** What a reader of the bytes of a writer that was never closed (nor flushed) observes. */
  private static List<String> readUnclosed(SideBySide.Streams kind) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ObjectOutputStream out = kind.out(bytes);
    out.writeObject(new Point(1, "one"));
    out.writeInt(7);
    out.writeObject(new ArrayList<>(List.of("two", 2)));
    out.writeInt(8); // held in the block-data buffer: never reaches the bytes
    out.writeUTF("lost");
    List<String> seen = new ArrayList<>();
    InputStream data = new ByteArrayInputStream(bytes.toByteArray());
    ObjectInputStream in = kind.in(data);
    seen.add(SideBySide.jdkForm(in.readObject()));
    seen.add("int " + in.readInt());
    seen.add(SideBySide.jdkForm(in.readObject()));
    seen.add(outcome(() -> in.readInt()));
    seen.add(outcome(() -> in.readObject()));
    seen.add(outcome(() -> in.readUTF()));
    seen.add("read " + in.read());
    return seen;
  }

  private interface Read {
    Object run() throws Exception;
  }

  private static String outcome(Read r) {
    try {
      return "read " + r.run();
    } catch (Exception e) {
      return e.getClass().getName();
    }
  }

  /**
   * A writer that was never closed: the reader gets every object written and the primitive data
   * drained before them, then, where data the writer still held would be, {@code EOFException}, as
   * from {@code ObjectInputStream}.
   */
  @Test
  void anUnclosedWriterEndsWithEofExceptionAsTheJdks() throws Exception {
    List<String> jdk = readUnclosed(SideBySide.JDK);
    assertEquals(jdk, readUnclosed(SideBySide.CODESE));
    assertEquals(EOFException.class.getName(), jdk.get(3), jdk.toString());
    assertEquals(EOFException.class.getName(), jdk.get(4), jdk.toString());
  }
}
