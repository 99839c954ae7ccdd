package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OptionalDataException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.codese.corpus.Types.Node;
import org.codese.corpus.Types.Pair;
import org.codese.corpus.Types.Point;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Streams;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code CodeseOutputStream}/{@code CodeseInputStream} as drop-in replacements for the JDK's object
 * streams. Every scenario runs on the JDK's streams too, as the reference: what the JDK does,
 * Codese's streams must do.
 */
class ObjectStreamsTest {

  private static final Streams JDK = SideBySide.JDK;
  private static final Streams CODESE = SideBySide.CODESE;

  static Stream<Streams> both() {
    return Stream.of(JDK, CODESE);
  }

  private Streams current;

  @BeforeEach
  void reset() {
    current = null;
  }

  private void use(Streams s) {
    if (s == CODESE) {
      assumeTrue(
          RoundTrip.CODESE_STREAMS,
          "CodeseOutputStream/CodeseInputStream not enabled yet (RoundTrip.CODESE_STREAMS)");
    }
    current = s;
  }

  private interface Writer {
    void write(ObjectOutputStream out) throws IOException;
  }

  private byte[] write(Writer w) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = current.out(bytes)) {
      w.write(out);
    }
    return bytes.toByteArray();
  }

  private ObjectInputStream read(byte[] bytes) throws IOException {
    return current.in(new ByteArrayInputStream(bytes));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void objectsAndPrimitivesInterleaved(Streams s) throws Exception {
    use(s);
    Point p = new Point(1, 2);
    byte[] bytes =
        write(
            out -> {
              out.writeInt(42);
              out.writeObject(p);
              out.writeUTF("between \u00e9");
              out.writeLong(-1L);
              out.writeObject(List.of("a", "b"));
              out.writeDouble(2.5);
              out.writeBoolean(true);
              out.writeObject(null);
              out.writeByte(7);
              out.writeChar('\u20ac');
              out.writeShort(-3);
              out.writeFloat(1.25f);
              out.write(new byte[] {9, 8, 7});
            });
    try (ObjectInputStream in = read(bytes)) {
      assertEquals(42, in.readInt());
      assertEquals(p, in.readObject());
      assertEquals("between \u00e9", in.readUTF());
      assertEquals(-1L, in.readLong());
      assertEquals(List.of("a", "b"), in.readObject());
      assertEquals(2.5, in.readDouble());
      assertTrue(in.readBoolean());
      assertEquals(null, in.readObject());
      assertEquals(7, in.readByte());
      assertEquals('\u20ac', in.readChar());
      assertEquals(-3, in.readShort());
      assertEquals(1.25f, in.readFloat());
      byte[] three = new byte[3];
      in.readFully(three);
      assertArrayEquals(new byte[] {9, 8, 7}, three);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void identitySharedAcrossWriteObjectCalls(Streams s) throws Exception {
    use(s);
    Node shared = new Node("shared");
    Pair a = new Pair(shared, "a");
    Pair b = new Pair(shared, a);
    byte[] bytes =
        write(
            out -> {
              out.writeObject(a);
              out.writeInt(1);
              out.writeObject(b);
              out.writeObject(shared);
              out.writeObject(a);
            });
    try (ObjectInputStream in = read(bytes)) {
      Pair a2 = (Pair) in.readObject();
      assertEquals(1, in.readInt());
      Pair b2 = (Pair) in.readObject();
      Node shared2 = (Node) in.readObject();
      Pair again = (Pair) in.readObject();
      assertNotSame(a, a2);
      assertSame(a2.first, b2.first, "object shared between two writeObject calls");
      assertSame(a2, b2.second);
      assertSame(shared2, a2.first);
      assertSame(a2, again, "writing the same object twice reads one object");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void resetForgetsIdentity(Streams s) throws Exception {
    use(s);
    Node n = new Node("n");
    byte[] bytes =
        write(
            out -> {
              out.writeObject(n);
              out.reset();
              n.value = "changed";
              out.writeObject(n);
              out.writeObject(n);
            });
    try (ObjectInputStream in = read(bytes)) {
      Node first = (Node) in.readObject();
      Node second = (Node) in.readObject();
      Node third = (Node) in.readObject();
      assertNotSame(first, second, "after reset() the object is written anew");
      assertEquals("n", first.value);
      assertEquals("changed", second.value);
      assertSame(second, third);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void unsharedWritesAndReads(Streams s) throws Exception {
    use(s);
    Point p = new Point(3, 4);
    List<Object> list = new ArrayList<>(List.of(p));
    byte[] bytes =
        write(
            out -> {
              out.writeUnshared(list);
              out.writeObject(list);
              out.writeObject(p);
              out.writeUnshared(p);
            });
    try (ObjectInputStream in = read(bytes)) {
      Object l1 = in.readUnshared();
      Object l2 = in.readObject();
      Object p1 = in.readObject();
      Object p2 = in.readUnshared();
      assertNotSame(l1, l2, "writeUnshared makes a new object for the next writeObject");
      assertSame(((List<?>) l2).get(0), p1, "the element of a shared write is shared");
      assertNotSame(p1, p2);
      assertEquals(p, p2);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void readObjectWherePrimitivesWereWritten(Streams s) throws Exception {
    use(s);
    byte[] bytes =
        write(
            out -> {
              out.writeInt(5);
              out.writeObject("x");
            });
    try (ObjectInputStream in = read(bytes)) {
      OptionalDataException e = assertThrows(OptionalDataException.class, in::readObject);
      assertEquals(4, e.length, "bytes of primitive data ahead");
      assertEquals(5, in.readInt());
      assertEquals("x", in.readObject());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void readingPastTheEnd(Streams s) throws Exception {
    use(s);
    byte[] bytes = write(out -> out.writeObject("only"));
    try (ObjectInputStream in = read(bytes)) {
      assertEquals("only", in.readObject());
      assertThrows(EOFException.class, in::readObject);
    }
    byte[] prim = write(out -> out.writeShort(1));
    try (ObjectInputStream in = read(prim)) {
      assertThrows(EOFException.class, in::readInt);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void manyGraphsOnOneStreamMatchJdkBytes(Streams s) throws Exception {
    use(s);
    RedBlackTree t = RedBlackTree.random(200, 9);
    List<Object> parts = List.of(t, new Point(1, 1), "text", new int[] {1, 2});
    byte[] bytes =
        write(
            out -> {
              for (Object o : parts) {
                out.writeObject(o);
                out.writeInt(o.hashCode() == 0 ? 1 : 2);
              }
            });
    try (ObjectInputStream in = read(bytes)) {
      for (Object o : parts) {
        Object copy = in.readObject();
        in.readInt();
        assertArrayEquals(
            JdkBytes.serialize(o),
            JdkBytes.serialize(copy),
            "JDK bytes of " + o.getClass().getName());
      }
      assertTrue(((RedBlackTree) JdkBytes.deserialize(JdkBytes.serialize(t))).isValid());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("both")
  void uncapturableObjectFailsWithIOException(Streams s) throws Exception {
    use(s);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = current.out(bytes)) {
      out.writeObject("before");
      assertThrows(IOException.class, () -> out.writeObject(new Object[] {new Thread()}));
    }
  }
}
