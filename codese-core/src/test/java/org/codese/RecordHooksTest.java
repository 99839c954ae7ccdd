package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.codese.testkit.GraphWalker;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Records with {@code readResolve} and {@code writeReplace}, in every combination of what they
 * resolve or are replaced to, nested, shared and in cycles through plain objects, restored through
 * {@link Codese} and through the object streams as {@code ObjectInputStream} restores them. These
 * graphs are not idempotent under the JDK (a {@code readResolve} may change the value), so the
 * reference is the JDK's own round trip: the restored graphs must serialize to the same bytes as
 * the JDK-restored one, with the same sharing.
 */
class RecordHooksTest {
  enum Color {
    RED,
    GREEN
  }

  /** Resolves to a new record of its own class. */
  record Bump(int v) implements Serializable {
    private Object readResolve() {
      return new Bump(v + 1);
    }
  }

  /** Resolves to another record. */
  record ToOther(int a) implements Serializable {
    private Object readResolve() {
      return new Other(a * 10);
    }
  }

  record Other(int b) implements Serializable {}

  /** Resolves to a plain class. */
  record ToPlain(String s) implements Serializable {
    private Object readResolve() {
      return new Plain(s + "!");
    }
  }

  /** Resolves to an enum constant. */
  record ToEnum(String name) implements Serializable {
    private Object readResolve() {
      return Color.valueOf(name);
    }
  }

  /** Resolves to itself. */
  record Same(long x) implements Serializable {
    private Object readResolve() {
      return this;
    }
  }

  /** Travels as a proxy record that resolves back to it. */
  record Point(int x, int y) implements Serializable {
    private Object writeReplace() {
      return new PointProxy(x, y);
    }
  }

  record PointProxy(int a, int b) implements Serializable {
    private Object readResolve() {
      return new Point(a, b);
    }
  }

  /** Travels as a plain object that resolves back to it. */
  record Money(long cents) implements Serializable {
    private Object writeReplace() {
      return new MoneyForm(cents);
    }
  }

  static final class MoneyForm implements Serializable {
    private static final long serialVersionUID = 1L;
    final long cents;

    MoneyForm(long cents) {
      this.cents = cents;
    }

    private Object readResolve() {
      return new Money(cents);
    }
  }

  /** Travels as an enum constant. */
  record Flag(boolean on) implements Serializable {
    private Object writeReplace() {
      return on ? Color.GREEN : Color.RED;
    }
  }

  /** A record replaced by a record that resolves to a plain object. */
  record Chain(int n) implements Serializable {
    private Object writeReplace() {
      return new ToPlain("chain" + n);
    }
  }

  /** Nests hooked records in its components. */
  record Pair(Object left, Object right) implements Serializable {}

  /** A plain object, for sharing and cycles through records. */
  static final class Plain implements Serializable {
    private static final long serialVersionUID = 1L;
    String s;
    Object next;

    Plain(String s) {
      this.s = s;
    }
  }

  /** A record that refers back to the plain object holding it. */
  record Back(Plain owner, int tag) implements Serializable {
    private Object readResolve() {
      return new Back(owner, tag + 1);
    }
  }

  static Stream<Arguments> graphs() {
    List<Arguments> out = new ArrayList<>();
    out.add(Arguments.of("bump", new Bump(1)));
    out.add(Arguments.of("to other record", new ToOther(2)));
    out.add(Arguments.of("to plain", new ToPlain("p")));
    out.add(Arguments.of("to enum", new ToEnum("GREEN")));
    out.add(Arguments.of("to itself", new Same(7)));
    out.add(Arguments.of("proxy record", new Point(3, 4)));
    out.add(Arguments.of("plain proxy", new Money(250)));
    out.add(Arguments.of("replaced by enum", new Flag(true)));
    out.add(Arguments.of("replaced and resolved", new Chain(5)));
    out.add(
        Arguments.of(
            "nested",
            new Pair(
                new Pair(new Bump(1), new Point(1, 2)),
                new Pair(new Money(3), new ToEnum("RED")))));
    Bump bump = new Bump(9);
    Point point = new Point(5, 6);
    Money money = new Money(8);
    out.add(
        Arguments.of(
            "shared",
            new ArrayList<>(
                List.of(
                    bump,
                    bump,
                    point,
                    point,
                    money,
                    new Pair(money, bump),
                    new Pair(point, point)))));
    Plain a = new Plain("a");
    Plain b = new Plain("b");
    a.next = new Back(b, 1);
    b.next = new Pair(a, new Back(a, 2));
    out.add(Arguments.of("cycle through plain objects", a));
    Plain c = new Plain("c");
    c.next = new Pair(c, new Pair(new Bump(4), c));
    out.add(Arguments.of("record holding its holder", c));
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("graphs")
  void codeseRestoresAsTheJdk(String name, Object graph) throws Exception {
    Object jdk = JdkBytes.deserialize(JdkBytes.serialize(graph));
    assertSameAsJdk(jdk, Codese.fromBytes(Codese.toBytes(graph)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("graphs")
  void objectStreamsRestoreAsTheJdk(String name, Object graph) throws Exception {
    Object jdk = JdkBytes.deserialize(JdkBytes.serialize(graph));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(graph);
      out.writeObject(graph);
    }
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      Object first = in.readObject();
      assertSameAsJdk(jdk, first);
      assertSame(first, in.readObject(), "a second write of the same object is a back reference");
    }
  }

  private static void assertSameAsJdk(Object jdk, Object copy) throws IOException {
    assertArrayEquals(
        JdkBytes.serialize(jdk),
        JdkBytes.serialize(copy),
        "the restored graph differs from the JDK's: " + copy);
    GraphWalker.Result walk = GraphWalker.walk(jdk, copy, GraphWalker.Mode.JDK_REFERENCE, null);
    assertEquals(List.of(), walk.failures());
  }
}
