package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Externalizable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Outcome;
import org.codese.testkit.SideBySide.Streams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream subclass hooks (issue 10, part 3), side by side with the JDK: subclasses of {@code
 * ObjectOutputStream}/{@code ObjectInputStream} and the same subclasses of {@code
 * CodeseOutputStream}/{@code CodeseInputStream} log every hook call ({@code replaceObject}, {@code
 * writeClassDescriptor}, {@code annotateClass}; {@code readClassDescriptor}, {@code resolveClass}
 * with what it reads of the annotation, {@code resolveObject}) into one log, and each program must
 * give the same log, the same restored graph and the same exception on both. The graphs have
 * sharing, cycles, nesting, arrays, enums, strings, boxes, records, {@code Externalizable}s,
 * classes with {@code writeObject}/{@code readObject}, JDK collections, several top-level objects
 * and resets.
 */
@Timeout(120)
class StreamHooksTest {
  /** A node of a graph: a name, a successor and a value. */
  static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    final String name;
    Node next;
    Object value;

    Node(String name) {
      this.name = name;
    }

    @Override
    public String toString() {
      return "Node " + name;
    }
  }

  /** A subclass of a serializable class, for the descriptor chain. */
  static class Shape implements Serializable {
    private static final long serialVersionUID = 1L;
    int sides = 3;

    @Override
    public String toString() {
      return getClass().getSimpleName() + " " + sides;
    }
  }

  static final class Square extends Shape {
    private static final long serialVersionUID = 1L;
    Node corner;

    Square(Node corner) {
      this.corner = corner;
      sides = 4;
    }
  }

  /** Writes extra primitives and objects after its fields. */
  static final class Custom implements Serializable {
    private static final long serialVersionUID = 1L;
    int n = 5;
    transient Node hidden;
    transient String tail;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(7);
      out.writeObject(hidden);
      out.writeObject("tail");
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      SideBySide.log("Custom.readObject int " + in.readInt());
      hidden = (Node) in.readObject();
      tail = (String) in.readObject();
      SideBySide.log("Custom.readObject hidden " + hidden + " tail " + tail);
    }

    @Override
    public String toString() {
      return "Custom";
    }
  }

  /** An {@code Externalizable} that writes an object and a number. */
  public static final class Ext implements Externalizable {
    private static final long serialVersionUID = 1L;
    Object held;
    int k;

    public Ext() {}

    Ext(Object held, int k) {
      this.held = held;
      this.k = k;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeInt(k);
      out.writeObject(held);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
      k = in.readInt();
      held = in.readObject();
    }

    @Override
    public String toString() {
      return "Ext " + k;
    }
  }

  /** A record with a reference and a primitive. */
  record Pair(Node left, String right, int n) implements Serializable {}

  /** An enum with a constant that has a body. */
  enum Color {
    RED,
    GREEN {
      @Override
      public String toString() {
        return "green";
      }
    }
  }

  /** Resolves to a canonical instance, as a singleton's {@code readResolve} does. */
  static final class Canon implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Canon ONE = new Canon();

    private Object readResolve() {
      return ONE;
    }

    @Override
    public String toString() {
      return "Canon";
    }
  }

  /** How objects are named in the log: the same object must read the same on both sides. */
  static String name(Object o) {
    if (o == null) {
      return "null";
    } else if (o instanceof String s) {
      return '"' + s + '"';
    } else if (o instanceof Class<?> c) {
      return "class " + c.getSimpleName();
    } else if (o instanceof Enum<?> e) {
      return e.getDeclaringClass().getSimpleName() + "." + e.name();
    } else if (o.getClass().isArray()) {
      return o.getClass().getComponentType().getSimpleName()
          + "["
          + java.lang.reflect.Array.getLength(o)
          + "]";
    } else if (o instanceof Collection<?> c) {
      return o.getClass().getSimpleName() + "(" + c.size() + ")";
    } else if (o instanceof Map<?, ?> m) {
      return o.getClass().getSimpleName() + "(" + m.size() + ")";
    } else if (o instanceof Number || o instanceof Character || o instanceof Boolean) {
      return o.getClass().getSimpleName() + " " + o;
    }
    return o.toString();
  }

  /** What the hooks of one run do besides logging. */
  static final class Config {
    Function<Object, Object> replace = o -> o;
    Function<Object, Object> resolve = o -> o;
    boolean annotate = true;
    boolean compactDescriptors;
    Set<String> allowed;
    ClassLoader loader;
    boolean enabled = true;
  }

  /** The config of the current run; the streams read it when they are made. */
  static Config config = new Config();

  /** The JDK's writer with every hook logged. */
  static final class JdkWriter extends ObjectOutputStream {
    private final Config c = config;

    JdkWriter(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(c.enabled);
    }

    @Override
    protected Object replaceObject(Object obj) {
      return Hooked.replace(c, obj);
    }

    @Override
    protected void annotateClass(Class<?> cl) throws IOException {
      Hooked.annotate(c, cl, this);
    }

    @Override
    protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
      if (!Hooked.writeDescriptor(c, desc, this)) {
        super.writeClassDescriptor(desc);
      }
    }
  }

  /** The same subclass of Codese's writer. */
  static final class CodeseWriter extends CodeseOutputStream {
    private final Config c = config;

    CodeseWriter(OutputStream out) throws IOException {
      super(out);
      enableReplaceObject(c.enabled);
    }

    @Override
    protected Object replaceObject(Object obj) {
      return Hooked.replace(c, obj);
    }

    @Override
    protected void annotateClass(Class<?> cl) throws IOException {
      Hooked.annotate(c, cl, this);
    }

    @Override
    protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
      if (!Hooked.writeDescriptor(c, desc, this)) {
        super.writeClassDescriptor(desc);
      }
    }
  }

  /** The JDK's reader with every hook logged. */
  static final class JdkReader extends ObjectInputStream {
    private final Config c = config;

    JdkReader(InputStream in) throws IOException {
      super(in);
      enableResolveObject(c.enabled);
    }

    @Override
    protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
      ObjectStreamClass d = Hooked.readDescriptor(c, this);
      return d != null ? d : logged(super.readClassDescriptor());
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      Class<?> k = Hooked.resolveClass(c, desc, this);
      return k != null ? k : super.resolveClass(desc);
    }

    @Override
    protected Object resolveObject(Object obj) {
      return Hooked.resolve(c, obj);
    }
  }

  /** The same subclass of Codese's reader. */
  static final class CodeseReader extends CodeseInputStream {
    private final Config c = config;

    CodeseReader(InputStream in) throws IOException {
      super(in);
      enableResolveObject(c.enabled);
    }

    @Override
    protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
      ObjectStreamClass d = Hooked.readDescriptor(c, this);
      return d != null ? d : logged(super.readClassDescriptor());
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      Class<?> k = Hooked.resolveClass(c, desc, this);
      return k != null ? k : super.resolveClass(desc);
    }

    @Override
    protected Object resolveObject(Object obj) {
      return Hooked.resolve(c, obj);
    }
  }

  static ObjectStreamClass logged(ObjectStreamClass d) {
    SideBySide.log(
        "readClassDescriptor "
            + d.getName()
            + " suid "
            + d.getSerialVersionUID()
            + " fields "
            + d.getFields().length);
    return d;
  }

  /** The hook bodies both sides share. */
  static final class Hooked {
    private Hooked() {}

    static Object replace(Config c, Object obj) {
      SideBySide.log("replaceObject " + name(obj));
      return c.replace.apply(obj);
    }

    static void annotate(Config c, Class<?> cl, ObjectOutputStream out) throws IOException {
      SideBySide.log("annotateClass " + cl.getName());
      if (c.annotate) {
        out.writeUTF("from " + cl.getSimpleName());
        out.writeInt(cl.getName().length());
      }
    }

    static boolean writeDescriptor(Config c, ObjectStreamClass desc, ObjectOutputStream out)
        throws IOException {
      SideBySide.log("writeClassDescriptor " + desc.getName());
      if (c.compactDescriptors) {
        out.writeUTF(desc.getName());
        return true;
      }
      return false;
    }

    static ObjectStreamClass readDescriptor(Config c, ObjectInputStream in)
        throws IOException, ClassNotFoundException {
      if (!c.compactDescriptors) {
        return null;
      }
      String n = in.readUTF();
      SideBySide.log("readClassDescriptor compact " + n);
      return ObjectStreamClass.lookupAny(
          Class.forName(n, false, StreamHooksTest.class.getClassLoader()));
    }

    static Class<?> resolveClass(Config c, ObjectStreamClass desc, ObjectInputStream in)
        throws IOException, ClassNotFoundException {
      StringBuilder s = new StringBuilder("resolveClass " + desc.getName());
      if (c.annotate) {
        s.append(" annotation ").append(in.readUTF()).append(' ').append(in.readInt());
        s.append(" then ").append(in.read());
      }
      SideBySide.log(s.toString());
      if (c.allowed != null && !c.allowed.contains(desc.getName())) {
        throw new InvalidClassException(desc.getName(), "not allowed");
      }
      if (c.loader != null) {
        try {
          return Class.forName(desc.getName(), false, c.loader);
        } catch (ClassNotFoundException e) {
          return null;
        }
      }
      return null;
    }

    static Object resolve(Config c, Object obj) {
      SideBySide.log("resolveObject " + name(obj));
      return c.resolve.apply(obj);
    }
  }

  /** Both kinds of hooked streams. */
  static final Streams JDK =
      new Streams() {
        @Override
        public ObjectOutputStream out(OutputStream o) throws IOException {
          return new JdkWriter(o);
        }

        @Override
        public ObjectInputStream in(InputStream i) throws IOException {
          return new JdkReader(i);
        }
      };

  static final Streams CODESE =
      new Streams() {
        @Override
        public ObjectOutputStream out(OutputStream o) throws IOException {
          return new CodeseWriter(o);
        }

        @Override
        public ObjectInputStream in(InputStream i) throws IOException {
          return new CodeseReader(i);
        }
      };

  /**
   * Runs a program on both, with {@code c}, and asserts the same outcome; returns the JDK's. The
   * hook calls must be the same in number and order, with two differences by design (README,
   * "Differences from the JDK streams"): Codese resolves every class of a top-level object before
   * it restores any of its objects, where the JDK resolves each class when it meets its first
   * object; and it completes the objects a class's own {@code readObject} reads (their hooks, their
   * {@code resolveObject}) before that {@code readObject} starts, where the JDK completes them
   * inside it. So, within the calls of one top-level read, the class hooks ({@code
   * readClassDescriptor}, {@code resolveClass}), the {@code resolveObject} calls and what the
   * classes' own {@code readObject} methods log are compared as three sequences, and on Codese's
   * side every class hook of a read comes before the others.
   */
  static Outcome same(Config c, SideBySide.Writer w, SideBySide.Reader r) throws Exception {
    config = c;
    try {
      Outcome jdk = SideBySide.run(JDK, w, r);
      Outcome codese = SideBySide.run(CODESE, w, r);
      assertEquals(jdk.thrown(), codese.thrown(), "exception");
      assertEquals(jdk.facts(), codese.facts(), "what the reader saw");
      assertEquals(families(jdk.log()), families(codese.log()), "hook calls");
      classesFirst(codese.log());
      return jdk;
    } finally {
      config = new Config();
    }
  }

  private static boolean classHook(String call) {
    return call.startsWith("resolveClass") || call.startsWith("readClassDescriptor");
  }

  private static boolean writerHook(String call) {
    return call.startsWith("replaceObject")
        || call.startsWith("writeClassDescriptor")
        || call.startsWith("annotateClass");
  }

  /**
   * The log as: writer calls; then per top-level read, its class calls, its {@code resolveObject}
   * calls and the other calls (the classes' own methods).
   */
  static String families(List<String> log) {
    StringBuilder writer = new StringBuilder();
    StringBuilder reads = new StringBuilder();
    StringBuilder[] read = {new StringBuilder(), new StringBuilder(), new StringBuilder()};
    for (String call : log) {
      if (writerHook(call)) {
        writer.append(call).append('\n');
      } else if (call.startsWith("-- ")) {
        for (StringBuilder f : read) {
          reads.append(f);
          f.setLength(0);
        }
        reads.append(call).append('\n');
      } else {
        int f = classHook(call) ? 0 : call.startsWith("resolveObject") ? 1 : 2;
        read[f].append("  ".repeat(f + 1)).append(call).append('\n');
      }
    }
    for (StringBuilder f : read) {
      reads.append(f);
    }
    return writer.append(reads).toString();
  }

  /** Asserts that within each top-level read no class hook follows an object hook. */
  static void classesFirst(List<String> log) {
    boolean objects = false;
    for (String call : log) {
      if (call.startsWith("-- ")) {
        objects = false;
      } else if (!writerHook(call) && !classHook(call)) {
        objects = true;
      } else if (classHook(call) && objects) {
        throw new AssertionError("a class hook after an object hook: " + call + " in " + log);
      }
    }
  }

  /** Reads {@code n} objects, recording each one's shape. */
  static SideBySide.Reader reads(int n) {
    return (in, facts) -> {
      List<Object> read = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        SideBySide.log("-- read " + i);
        Object o = in.readObject();
        read.add(o);
        facts.add(shape(o, read));
      }
    };
  }

  /**
   * The shape of a restored graph, through nodes, arrays, collections and the test classes: which
   * objects are the same instance (numbered in order of first visit) and their names.
   */
  static String shape(Object root, List<Object> earlier) {
    StringBuilder s = new StringBuilder();
    Map<Object, Integer> seen = new IdentityHashMap<>();
    for (Object e : earlier) {
      if (e != root) {
        seen.putIfAbsent(e, seen.size());
      }
    }
    walk(root, seen, s);
    return s.toString();
  }

  private static void walk(Object o, Map<Object, Integer> seen, StringBuilder s) {
    if (o == null || o instanceof Class<?> || o instanceof Enum<?>) {
      s.append(name(o));
      return;
    }
    Integer known = seen.get(o);
    if (known != null) {
      s.append('@').append(known);
      return;
    }
    seen.put(o, seen.size());
    s.append('#').append(seen.size() - 1).append(' ').append(name(o));
    if (o instanceof Node n) {
      s.append("{next ");
      walk(n.next, seen, s);
      s.append(", value ");
      walk(n.value, seen, s);
      s.append('}');
    } else if (o instanceof Object[] a) {
      s.append('{');
      for (Object e : a) {
        walk(e, seen, s);
        s.append(' ');
      }
      s.append('}');
    } else if (o instanceof Collection<?> c) {
      s.append('{');
      for (Object e : c) {
        walk(e, seen, s);
        s.append(' ');
      }
      s.append('}');
    } else if (o instanceof Map<?, ?> m) {
      s.append('{');
      for (Map.Entry<?, ?> e : m.entrySet()) {
        walk(e.getKey(), seen, s);
        s.append('=');
        walk(e.getValue(), seen, s);
        s.append(' ');
      }
      s.append('}');
    } else if (o instanceof Square q) {
      s.append("{sides ").append(q.sides).append(", corner ");
      walk(q.corner, seen, s);
      s.append('}');
    } else if (o instanceof Custom c) {
      s.append("{n ").append(c.n).append(", hidden ");
      walk(c.hidden, seen, s);
      s.append(", tail ");
      walk(c.tail, seen, s);
      s.append('}');
    } else if (o instanceof Ext e) {
      s.append("{held ");
      walk(e.held, seen, s);
      s.append('}');
    } else if (o instanceof Pair p) {
      s.append("{left ");
      walk(p.left(), seen, s);
      s.append(", right ");
      walk(p.right(), seen, s);
      s.append('}');
    }
  }

  /** A graph of every kind of object, with sharing and cycles. */
  static Object[] everything() {
    Node a = new Node("a");
    Node b = new Node("b");
    Node c = new Node("c");
    a.next = b;
    b.next = c;
    c.next = a; // a cycle
    b.value = b; // a self-reference
    a.value = new Object[] {"text", 42, 7L, 'x', true, new int[] {1, 2}, b, null, Color.GREEN};
    Custom custom = new Custom();
    custom.hidden = c;
    Square sq = new Square(b);
    Pair pair = new Pair(a, "right", 3);
    Ext ext = new Ext(sq, 9);
    ArrayList<Object> list = new ArrayList<>(List.of("l1", Color.RED, a));
    HashMap<String, Object> map = new HashMap<>();
    map.put("k", c);
    map.put("pair", pair);
    TreeMap<Integer, Object> tree = new TreeMap<>(Map.of(1, ext, 2, custom));
    return new Object[] {a, custom, sq, pair, ext, list, map, tree, Canon.ONE, String.class, b};
  }

  @Test
  void theHooksRunInTheJdksOrderOnAGraphOfEveryKind() throws Exception {
    Outcome jdk =
        same(
            new Config(),
            out -> {
              out.writeObject(everything());
            },
            reads(1));
    List<String> log = jdk.log();
    // the program exercises what it claims to: every hook, descriptor chains, nested objects
    assertTrue(log.contains("annotateClass " + Square.class.getName()), log.toString());
    assertTrue(log.contains("annotateClass " + Shape.class.getName()), log.toString());
    assertTrue(log.contains("annotateClass java.lang.Enum"), log.toString());
    assertTrue(log.contains("annotateClass java.lang.Number"), log.toString());
    assertTrue(log.contains("replaceObject Node c"), log.toString());
    assertTrue(log.contains("resolveObject Node c"), log.toString());
    assertTrue(log.contains("resolveObject \"tail\""), log.toString());
    assertTrue(log.stream().anyMatch(l -> l.startsWith("resolveClass " + Node.class.getName())));
    assertTrue(
        log.stream().anyMatch(l -> l.startsWith("readClassDescriptor " + Node.class.getName())));
    assertFalse(log.contains("replaceObject class String"), "no replaceObject for classes");
    assertFalse(log.contains("resolveObject class String"), "no resolveObject for classes");
  }

  /**
   * Snapshots make a {@code BigInteger} that fits in a {@code long} from data; a stream still
   * replays it, so that its magnitude array reaches {@code resolveClass} and {@code resolveObject}
   * as with the JDK.
   */
  @Test
  void bigIntegersReachTheHooksAsWithTheJdk() throws Exception {
    java.math.BigInteger shared = java.math.BigInteger.valueOf(-123_456_789L);
    Object graph =
        new ArrayList<>(
            List.of(
                shared,
                shared,
                java.math.BigInteger.ZERO,
                java.math.BigDecimal.valueOf(271_828, 5),
                java.math.BigInteger.TEN.pow(30)));
    Outcome jdk = same(new Config(), out -> out.writeObject(graph), reads(1));
    assertTrue(
        jdk.log().stream().anyMatch(l -> l.startsWith("resolveClass [B")), jdk.log().toString());
    assertTrue(jdk.log().contains("resolveObject byte[4]"), jdk.log().toString());
  }

  @Test
  void severalTopLevelObjectsWithBackReferencesAndResets() throws Exception {
    same(
        new Config(),
        out -> {
          Object[] g = everything();
          out.writeObject(g[0]);
          out.writeObject(g[2]);
          out.writeObject(g[0]); // a back reference: no hook calls
          out.writeUnshared(g[6]);
          out.writeInt(11);
          out.reset(); // descriptors are written again
          out.writeObject(g[0]);
          out.writeObject("top");
          out.writeObject(Color.RED);
          out.writeObject(new int[] {3});
          out.writeObject(7);
        },
        (in, facts) -> {
          List<Object> read = new ArrayList<>();
          for (int i = 0; i < 4; i++) {
            SideBySide.log("-- read " + i);
            Object o = i == 3 ? in.readUnshared() : in.readObject();
            read.add(o);
            facts.add(shape(o, read));
          }
          facts.add("int " + in.readInt());
          read.clear();
          for (int i = 0; i < 5; i++) {
            SideBySide.log("-- read after reset " + i);
            Object o = in.readObject();
            read.add(o);
            facts.add(shape(o, read));
          }
        });
  }

  @Test
  void replaceObjectReplacesWhatIsWritten() throws Exception {
    Config c = new Config();
    Map<Object, Object> done = new IdentityHashMap<>();
    c.replace =
        o -> {
          if (o instanceof Node n && n.name.equals("b")) {
            return done.computeIfAbsent(o, k -> new Node("b2"));
          } else if ("l1".equals(o)) {
            return "L1";
          } else if (o instanceof Node n && n.name.equals("c")) {
            return null;
          }
          return o;
        };
    Outcome jdk = same(c, out -> out.writeObject(everything()), reads(1));
    assertTrue(jdk.facts().get(0).contains("Node b2"), jdk.facts().toString());
    assertTrue(jdk.facts().get(0).contains("\"L1\""), jdk.facts().toString());
    assertFalse(jdk.facts().get(0).contains("Node c"), jdk.facts().toString());
  }

  @Test
  void resolveObjectReplacesObjectsInTheGraphAsTheJdkDoes() throws Exception {
    Config c = new Config();
    c.resolve =
        o -> {
          if (o instanceof Node n && (n.name.equals("b") || n.name.equals("a"))) {
            Node r = new Node(n.name.toUpperCase());
            r.next = n.next;
            return r;
          } else if ("text".equals(o)) {
            return "TEXT";
          } else if (o instanceof Integer i) {
            return i + 1;
          } else if (o instanceof Custom) {
            return "custom replaced";
          }
          return o;
        };
    Outcome jdk =
        same(
            c,
            out -> {
              Object[] g = everything();
              out.writeObject(g);
              out.writeObject(g[0]); // a back reference gets the replacement
              out.writeObject(g[1]);
            },
            reads(3));
    String first = jdk.facts().get(0);
    // the cycle a -> b -> c -> a keeps the original a in c (read while a was), fields after get A
    assertTrue(first.contains("Node A"), first);
    assertTrue(first.contains("Node B"), first);
    assertTrue(first.contains("\"TEXT\""), first);
    assertTrue(first.contains("\"custom replaced\""), first);
    assertTrue(jdk.facts().get(1).contains("Node A"), jdk.facts().toString());
  }

  @Test
  void resolveObjectOnArraysStringsEnumsAndRecords() throws Exception {
    Config c = new Config();
    c.resolve =
        o ->
            o instanceof int[]
                ? new int[] {9, 9, 9}
                : o == Color.RED ? Color.GREEN : o instanceof Pair p ? new Pair(null, "P", 0) : o;
    same(c, out -> out.writeObject(everything()), reads(1));
  }

  @Test
  void theAnnotationReachesResolveClassAndEndsAsTheJdksDoes() throws Exception {
    Outcome jdk =
        same(
            new Config(),
            out -> {
              out.writeObject(new Square(new Node("n")));
              out.writeObject(Color.GREEN);
            },
            reads(2));
    assertTrue(
        jdk.log()
            .contains(
                "resolveClass "
                    + Square.class.getName()
                    + " annotation from Square "
                    + Square.class.getName().length()
                    + " then -1"),
        jdk.log().toString());
  }

  /** Reads in {@code resolveClass} past the annotation, and an object where none was written. */
  @Test
  void readingPastTheAnnotationFailsAsWithTheJdk() throws Exception {
    for (int mode = 0; mode < 3; mode++) {
      int m = mode;
      Config c = new Config();
      c.annotate = false;
      SideBySide.Reader r =
          (in, facts) -> {
            facts.add(shape(in.readObject(), List.of()));
          };
      config = c;
      Streams jdk = reading(m, true);
      Streams codese = reading(m, false);
      Outcome a = SideBySide.run(jdk, out -> out.writeObject(new Node("x")), r);
      Outcome b = SideBySide.run(codese, out -> out.writeObject(new Node("x")), r);
      config = new Config();
      assertEquals(a.thrown(), b.thrown(), "mode " + m);
      assertEquals(a.log(), b.log(), "mode " + m);
      assertNotEquals("none", a.thrown(), "mode " + m);
    }
  }

  /** Streams whose reader's {@code resolveClass} reads an int, a byte, or an object. */
  private static Streams reading(int mode, boolean jdk) {
    return new Streams() {
      @Override
      public ObjectOutputStream out(OutputStream o) throws IOException {
        return jdk ? new ObjectOutputStream(o) : new CodeseOutputStream(o);
      }

      @Override
      public ObjectInputStream in(InputStream i) throws IOException {
        return jdk ? new JdkPastEnd(i, mode) : new CodesePastEnd(i, mode);
      }
    };
  }

  static Class<?> pastEnd(ObjectInputStream in, ObjectStreamClass desc, int mode)
      throws IOException, ClassNotFoundException {
    SideBySide.log("available " + in.available());
    if (mode == 0) {
      SideBySide.log("read " + in.read());
      in.readInt(); // EOFException
    } else if (mode == 1) {
      SideBySide.log("skipped " + in.skipBytes(3));
      in.readByte();
    } else {
      in.readObject(); // OptionalDataException
    }
    return null;
  }

  static final class JdkPastEnd extends ObjectInputStream {
    private final int mode;

    JdkPastEnd(InputStream in, int mode) throws IOException {
      super(in);
      this.mode = mode;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return pastEnd(this, desc, mode);
    }
  }

  static final class CodesePastEnd extends CodeseInputStream {
    private final int mode;

    CodesePastEnd(InputStream in, int mode) throws IOException {
      super(in);
      this.mode = mode;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return pastEnd(this, desc, mode);
    }
  }

  @Test
  void aWriterAndReaderOfTheirOwnDescriptorFormTalkToEachOther() throws Exception {
    Config c = new Config();
    c.compactDescriptors = true;
    Outcome jdk = same(c, out -> out.writeObject(everything()), reads(1));
    assertTrue(
        jdk.log().contains("readClassDescriptor compact " + Node.class.getName()),
        jdk.log().toString());
  }

  /**
   * An allow-list in {@code resolveClass} (as commons-io's {@code ValidatingObjectInputStream}):
   * the same classes are asked about in the same order until the first refused one, and the read
   * fails with the same exception; where the JDK has already created the objects of the classes it
   * met before, Codese has run nothing of the segment.
   */
  @Test
  void anAllowListInResolveClassStopsTheReadAsWithTheJdk() throws Exception {
    Config c = new Config();
    c.allowed = Set.of("[Ljava.lang.Object;", Node.class.getName(), "java.lang.Integer");
    SideBySide.Writer w =
        out -> {
          Node n = new Node("n");
          n.value = new Object[] {1, new Square(n)};
          out.writeObject(n);
        };
    config = c;
    Outcome jdk;
    Outcome codese;
    try {
      jdk = SideBySide.run(JDK, w, reads(1));
      codese = SideBySide.run(CODESE, w, reads(1));
    } finally {
      config = new Config();
    }
    assertTrue(jdk.thrown().startsWith("java.io.InvalidClassException"), jdk.thrown());
    assertEquals(jdk.thrown(), codese.thrown());
    assertEquals(classCalls(jdk.log()), classCalls(codese.log()));
    assertTrue(jdk.log().contains("resolveObject \"n\""), "the JDK resolved an object first");
    assertTrue(
        codese.log().stream().noneMatch(l -> l.startsWith("resolveObject")),
        "Codese ran nothing of the refused segment: " + codese.log());
  }

  private static List<String> classCalls(List<String> log) {
    return log.stream().filter(l -> writerHook(l) || classHook(l)).toList();
  }

  /**
   * With {@code useProtocolVersion(PROTOCOL_VERSION_1)} neither writer calls {@code
   * writeClassDescriptor} (the JDK writes its own form then); {@code annotateClass} still runs.
   */
  @Test
  void protocolVersion1WritesDescriptorsWithoutTheHook() throws Exception {
    Outcome jdk =
        same(
            new Config(),
            out -> {
              out.useProtocolVersion(java.io.ObjectStreamConstants.PROTOCOL_VERSION_1);
              out.writeObject(new Node("p"));
            },
            reads(1));
    assertTrue(jdk.log().stream().noneMatch(l -> l.startsWith("writeClassDescriptor")), "" + jdk);
    assertTrue(jdk.log().contains("annotateClass " + Node.class.getName()), "" + jdk.log());
  }

  /** Hooks overridden but not enabled: neither stream calls them. */
  @Test
  void replaceObjectAndResolveObjectAreCalledOnlyOnceEnabled() throws Exception {
    Config c = new Config();
    c.enabled = false;
    Outcome jdk = same(c, out -> out.writeObject(everything()), reads(1));
    assertTrue(jdk.log().stream().noneMatch(l -> l.startsWith("replaceObject")), jdk.log() + "");
    assertTrue(jdk.log().stream().noneMatch(l -> l.startsWith("resolveObject")), jdk.log() + "");
    assertTrue(jdk.log().stream().anyMatch(l -> l.startsWith("annotateClass")), jdk.log() + "");
  }

  /**
   * A replacement {@code resolveObject} returns is checked by the filter, and must fit where it is
   * stored: both refuse a rejected class ({@code InvalidClassException}) and a field of another
   * type ({@code ClassCastException}, the same message) or an array of another component type
   * ({@code ArrayStoreException}).
   */
  @Test
  void replacementsThatDoNotFitFailAsWithTheJdk() throws Exception {
    Config wrongField = new Config();
    wrongField.resolve = o -> o instanceof Node n && n.name.equals("b") ? "not a node" : o;
    Outcome jdk =
        same(
            wrongField,
            out -> {
              Node a = new Node("a");
              a.next = new Node("b");
              out.writeObject(a);
            },
            reads(1));
    assertTrue(jdk.thrown().startsWith("java.lang.ClassCastException"), jdk.thrown());

    Config wrongElement = new Config();
    wrongElement.resolve = o -> o instanceof Node n && n.name.equals("e") ? "not a node" : o;
    jdk = same(wrongElement, out -> out.writeObject(new Node[] {new Node("e")}), reads(1));
    assertTrue(jdk.thrown().startsWith("java.lang.ArrayStoreException"), jdk.thrown());

    Config rejected = new Config();
    rejected.resolve =
        o -> o instanceof Node ? new java.util.concurrent.atomic.AtomicInteger(1) : o;
    config = rejected;
    Outcome[] both = new Outcome[2];
    try {
      for (int k = 0; k < 2; k++) {
        Streams s = k == 0 ? JDK : CODESE;
        both[k] =
            SideBySide.run(
                new Streams() {
                  @Override
                  public ObjectOutputStream out(OutputStream o) throws IOException {
                    return s.out(o);
                  }

                  @Override
                  public ObjectInputStream in(InputStream i) throws IOException {
                    ObjectInputStream in = s.in(i);
                    in.setObjectInputFilter(
                        info ->
                            info.serialClass() == java.util.concurrent.atomic.AtomicInteger.class
                                ? java.io.ObjectInputFilter.Status.REJECTED
                                : java.io.ObjectInputFilter.Status.UNDECIDED);
                    return in;
                  }
                },
                out -> out.writeObject(new Node("r")),
                reads(1));
      }
    } finally {
      config = new Config();
    }
    assertTrue(both[0].thrown().startsWith("java.io.InvalidClassException"), both[0].thrown());
    assertTrue(both[1].thrown().startsWith("java.io.InvalidClassException"), both[1].thrown());
  }

  /**
   * Codese records only primitive data in {@code annotateClass}: an object written there is refused
   * with {@code InvalidClassException} naming the class, nothing is written, and the stream stays
   * usable (the class is described again by the next write).
   */
  @Test
  void anObjectWrittenInAnnotateClassIsRefusedAndTheStreamStaysUsable() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    boolean[] object = {true};
    try (CodeseOutputStream out =
        new CodeseOutputStream(bytes) {
          @Override
          protected void annotateClass(Class<?> cl) throws IOException {
            if (object[0]) {
              writeObject("codebase");
            }
            writeUTF("ok " + cl.getSimpleName());
          }
        }) {
      InvalidClassException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              InvalidClassException.class, () -> out.writeObject(new Node("n")));
      assertTrue(e.getMessage().contains(Node.class.getName()), e.getMessage());
      assertTrue(e.getMessage().contains("primitive data"), e.getMessage());
      object[0] = false;
      out.writeObject(new Node("m"));
    }
    List<String> annotations = new ArrayList<>();
    try (ObjectInputStream in =
        new CodeseInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())) {
          @Override
          protected Class<?> resolveClass(ObjectStreamClass desc)
              throws IOException, ClassNotFoundException {
            annotations.add(readUTF());
            return super.resolveClass(desc);
          }
        }) {
      assertEquals("Node m", in.readObject().toString());
    }
    assertEquals(List.of("ok Node"), annotations);
  }

  /**
   * Which hooks a stream class overrides is found once per class, and is nothing for the plain
   * streams.
   */
  @Test
  void thePlainStreamsOverrideNoHook() {
    assertEquals(0, Overrides.of(CodeseOutputStream.class));
    assertEquals(0, Overrides.of(CodeseInputStream.class));
    assertEquals(
        Overrides.REPLACE_OBJECT | Overrides.ANNOTATE_CLASS | Overrides.WRITE_CLASS_DESCRIPTOR,
        Overrides.of(CodeseWriter.class));
    assertEquals(
        Overrides.RESOLVE_CLASS | Overrides.READ_CLASS_DESCRIPTOR | Overrides.RESOLVE_OBJECT,
        Overrides.of(CodeseReader.class));
    assertEquals(Overrides.RESOLVE_CLASS, Overrides.of(CodesePastEnd.class));
    assertEquals(Overrides.RESOLVE_CLASS, Overrides.of(SubOfPastEnd.class), "inherited");
  }

  /** Overrides resolveClass; {@link SubOfPastEnd} inherits it. */
  static class OverridesResolveClass extends CodeseInputStream {
    OverridesResolveClass(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return super.resolveClass(desc);
    }
  }

  /** Overrides nothing itself. */
  static final class SubOfPastEnd extends OverridesResolveClass {
    SubOfPastEnd(InputStream in) throws IOException {
      super(in);
    }
  }
}
