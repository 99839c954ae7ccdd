package org.codese.fuzz;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;

/**
 * The seed graphs of the structure fuzzer and the classes they are made of: JDK collections, boxes,
 * strings, enums, records, classes with {@code readObject}/{@code writeObject}, an {@code
 * Externalizable}, a {@code readResolve}, and classes that are not {@code Serializable}, some of
 * them canaries whose code reports to {@link CanaryFlags} when it runs. Also the pools of class
 * names the mutator renames class entries to.
 */
final class StructureSeeds {
  private StructureSeeds() {}

  /** The package of the canary classes {@link CanaryLoader} defines (not on the class path). */
  static final String CANARY_PACKAGE = "org.codese.fuzz.canary.";

  /** A {@code Serializable} canary whose static initialiser reports; declares suid 42. */
  static final String INIT_CANARY = CANARY_PACKAGE + "InitCanary";

  /** A canary that is not {@code Serializable}, whose static initialiser reports; suid 43. */
  static final String INIT_CANARY_PLAIN = CANARY_PACKAGE + "InitCanaryPlain";

  /** An application enum whose constants the canaries watch (I1). */
  public enum CanaryEnum {
    A(1, "one"),
    B(2, "two");

    private final int code;
    private final String label;
    private int hits;

    CanaryEnum(int code, String label) {
      this.code = code;
      this.label = label;
    }

    int code() {
      return code;
    }

    String label() {
      return label;
    }

    int hits() {
      return hits;
    }
  }

  /** A plain serializable value class. */
  public static final class Point implements Serializable {
    private static final long serialVersionUID = 3L;
    int x;
    int y;

    Point(int x, int y) {
      this.x = x;
      this.y = y;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Point p && p.x == x && p.y == y;
    }

    @Override
    public int hashCode() {
      return 31 * x + y;
    }
  }

  /** A serializable comparator, for the priority-queue seed. */
  public static final class PointOrder implements Comparator<Point>, Serializable {
    private static final long serialVersionUID = 4L;

    @Override
    public int compare(Point a, Point b) {
      return Integer.compare(a.x, b.x);
    }
  }

  /** Not {@code Serializable}, with {@link Point}'s fields; its {@code hashCode} reports. */
  public static final class HashCanary {
    int x;
    int y;

    @Override
    public boolean equals(Object o) {
      return o == this;
    }

    @Override
    public int hashCode() {
      CanaryFlags.codeRan("HashCanary.hashCode");
      return 1;
    }
  }

  /** A comparator that is not {@code Serializable}; {@code compare} reports. */
  public static final class CompareCanary implements Comparator<Object> {
    @Override
    public int compare(Object a, Object b) {
      CanaryFlags.codeRan("CompareCanary.compare");
      return 0;
    }
  }

  /** Not {@code Serializable}, with {@link Point}'s fields; its constructor reports. */
  public static final class CtorCanary {
    int x;
    int y;

    public CtorCanary() {
      CanaryFlags.codeRan("CtorCanary.<init>");
    }
  }

  /** A record that is not {@code Serializable}; its canonical constructor reports. */
  public record NonSerRecord(String name, int value, Object ref) {
    public NonSerRecord {
      CanaryFlags.codeRan("NonSerRecord.<init>");
    }
  }

  /** A serializable record. */
  public record SerRecord(String name, int value, Object ref) implements Serializable {}

  /** A class with its own {@code writeObject} and {@code readObject}. */
  public static final class Custom implements Serializable {
    private static final long serialVersionUID = 11L;
    int n;
    String s;
    transient Object extra;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeInt(n * 2);
      out.writeUTF("custom");
      out.writeObject(extra);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      int twice = in.readInt();
      if (twice != n * 2) {
        throw new java.io.InvalidObjectException("bad check value " + twice);
      }
      in.readUTF();
      extra = in.readObject();
      in.registerValidation(() -> {}, 1);
    }
  }

  /** An {@code Externalizable}. */
  public static final class External implements Externalizable {
    private static final long serialVersionUID = 12L;
    int a;
    Object b;

    public External() {}

    External(int a, Object b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
      out.writeInt(a);
      out.writeObject(b);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
      a = in.readInt();
      b = in.readObject();
    }
  }

  /** A class with {@code readResolve}. */
  public static final class Resolving implements Serializable {
    private static final long serialVersionUID = 13L;
    static final Resolving ZERO = new Resolving(0);
    int v;

    Resolving(int v) {
      this.v = v;
    }

    private Object readResolve() {
      return v == 0 ? ZERO : this;
    }
  }

  /**
   * Not {@code Serializable}. Declares a {@code serialVersionUID} equal to {@link SerialTwn}'s and
   * the same fields, so that a stream of a {@code SerialTwn} with the name patched names it: a
   * plain {@code ObjectInputStream} must reject that stream (the canaries check that it still
   * does).
   */
  public static final class NonSerial {
    private static final long serialVersionUID = 7L;
    int a = 1;
    String s = "ns";
    Object ref;
  }

  /** {@link NonSerial}'s serializable twin; the two simple names have the same length. */
  public static final class SerialTwn implements Serializable {
    private static final long serialVersionUID = 7L;
    int a = 1;
    String s = "ns";
    Object ref;
  }

  /** A non-serializable superclass with a no-arg constructor, as Java serialization allows. */
  public static class Base {
    int baseValue;

    public Base() {
      baseValue = 5;
    }
  }

  /** Serializable below a non-serializable superclass. */
  public static final class Derived extends Base implements Serializable {
    private static final long serialVersionUID = 14L;
    long d = 9;
    Object link;
  }

  /** A generic serializable holder. */
  public static final class Holder implements Serializable {
    private static final long serialVersionUID = 15L;
    Object a;
    Object b;
    int n;
    boolean flag;

    Holder(Object a, Object b, int n) {
      this.a = a;
      this.b = b;
      this.n = n;
    }
  }

  /**
   * The seed graphs, by name, in a fixed order. The first seed is what the empty input restores
   * unchanged. None depends on identity hash codes, so the seeds are the same in every JVM.
   */
  static Map<String, Object> graphs() {
    Map<String, Object> g = new LinkedHashMap<>();
    g.put(
        "boxes",
        new Object[] {
          Boolean.TRUE,
          Boolean.FALSE,
          7,
          7L,
          (short) 7,
          (byte) 7,
          'c',
          1.5f,
          2.5d,
          "interned",
          CanaryEnum.A,
          TimeUnit.SECONDS,
          new int[] {1, 2, 3},
          ObjectStreamClass.lookup(ArrayList.class),
          Integer.class,
          null
        });
    List<Object> list = new ArrayList<>(List.of(1, 2L, 3.5, "a", true, 'c'));
    list.add(list);
    g.put("arraylist", list);
    g.put("hashmap", new HashMap<>(Map.of("a", 1, "b", 2)));
    g.put("treemap", new TreeMap<>(Map.of(2, "b", 1, "a")));
    g.put("linkedlist", new LinkedList<>(List.of("x", "y")));
    g.put("hashset", new HashSet<>(List.of(1, 2, 3, 4, 5, 6, 7)));
    g.put("deque", new ArrayDeque<>(List.of(1, 2)));
    EnumMap<TimeUnit, String> em = new EnumMap<>(TimeUnit.class);
    em.put(TimeUnit.SECONDS, "s");
    em.put(TimeUnit.DAYS, "d");
    g.put("enummap", em);
    // the fills and immutable collections of snapshot format 12
    g.put("listof", List.of("a", 2, List.of(3L)));
    g.put("setof", java.util.Set.of("p", "q", "r"));
    g.put("mapof", Map.of("k", 1, "l", 2, "m", 3));
    g.put("vector", new java.util.Vector<>(List.of("v", "w")));
    g.put("hashtable", new java.util.Hashtable<>(Map.of("h", 1)));
    g.put("identity", new java.util.IdentityHashMap<>(Map.of("i", 1)));
    g.put("naturalqueue", new PriorityQueue<>(List.of(5, 1, 3)));
    g.put("bits", java.util.BitSet.valueOf(new long[] {5, 0, 9}));
    // the factory-made objects of snapshot format 13
    List<Object> shown = new ArrayList<>(List.of("u", 1));
    g.put("unmodifiable", java.util.Collections.unmodifiableList(shown));
    g.put("synchronized", java.util.Collections.synchronizedMap(new TreeMap<>(Map.of(1, "s"))));
    g.put("empty", java.util.Collections.emptySet());
    g.put("singleton", java.util.Collections.singletonMap("k", 2L));
    g.put("aslist", java.util.Arrays.asList("a", "b"));
    g.put("enumset", java.util.EnumSet.of(TimeUnit.SECONDS, TimeUnit.HOURS));
    g.put(
        "zoned",
        java.time.ZonedDateTime.of(
            java.time.LocalDateTime.of(2026, 3, 29, 2, 30), java.time.ZoneId.of("Europe/Paris")));
    g.put("period", java.time.Period.of(1, 2, 3));
    g.put("bigwords", java.math.BigInteger.ONE.shiftLeft(130).negate());
    g.put("concurrent", new java.util.concurrent.ConcurrentHashMap<>(Map.of("c", 1, "d", 2)));
    PriorityQueue<Point> pq = new PriorityQueue<>(new PointOrder());
    pq.add(new Point(3, 1));
    pq.add(new Point(1, 2));
    pq.add(new Point(2, 3));
    g.put("priorityqueue", pq);
    Map<Point, String> byPoint = new HashMap<>();
    byPoint.put(new Point(1, 1), "p");
    byPoint.put(new Point(2, 2), "q");
    g.put("pointmap", byPoint);
    g.put("tree12", RedBlackTree.random(12, 7));
    g.put("record", new SerRecord("r", 7, new Point(4, 5)));
    Custom custom = new Custom();
    custom.n = 21;
    custom.s = "c";
    custom.extra = new Point(6, 7);
    g.put("custom", custom);
    g.put("external", new External(5, "e"));
    g.put("resolve", new Object[] {new Resolving(0), new Resolving(3)});
    NonSerial ns = new NonSerial();
    ns.ref = new Point(8, 9);
    g.put("nonserial", ns);
    Derived d = new Derived();
    d.link = new Point(1, 0);
    g.put("derived", d);
    g.put(
        "enums",
        new Object[] {
          SampleGraphs.Category.BOOKS,
          SampleGraphs.Status.PAID,
          CanaryEnum.B,
          TimeUnit.DAYS,
          CanaryEnum.A
        });
    List<Object> loops = new ArrayList<>();
    Object[] points = new Object[40];
    for (int i = 0; i < 40; i++) {
      points[i] = new Point(i, -i);
      loops.add(new Holder("s" + i, points[i], i));
    }
    loops.add(points);
    g.put("loops", loops);
    @SuppressWarnings("unchecked")
    Map<String, Object> shop = (Map<String, Object>) SampleGraphs.jdkCollections();
    g.put("sample-times", shop.get("times"));
    g.put("sample-product", shop.get("firstProduct"));
    g.put("sample-nested", shop.get("nested"));
    g.put("tree1", RedBlackTree.random(1, 1));
    return g;
  }

  /** Names of classes the mutator renames class entries to, besides those of the seed itself. */
  static final List<String> CLASS_NAMES =
      List.of(
          "java.lang.Boolean",
          "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Character",
          "java.lang.String",
          "java.lang.Object",
          "java.util.concurrent.TimeUnit",
          "java.io.ObjectStreamClass",
          "java.io.ObjectStreamField",
          "java.lang.Runtime",
          "java.util.Timer",
          "java.util.logging.FileHandler",
          "java.lang.ProcessBuilder",
          "java.net.URLClassLoader",
          "sun.misc.Unsafe",
          "jdk.internal.misc.Unsafe",
          "java.lang.Thread",
          "java.util.ArrayList",
          "java.util.HashMap",
          "java.util.HashSet",
          "java.util.PriorityQueue",
          "java.util.TreeMap",
          "java.util.EnumMap",
          "java.lang.Enum",
          "java.lang.Record",
          "java.lang.Runnable",
          "java.util.AbstractList",
          "java.lang.Number",
          "java.lang.Class",
          "java.lang.StringBuilder",
          "java.util.concurrent.atomic.AtomicInteger",
          "int",
          "void",
          "long",
          "boolean",
          "[I",
          "[J",
          "[B",
          "[Ljava.lang.Object;",
          "[Ljava.lang.String;",
          "[[I",
          "java.time.Ser",
          "java.util.ImmutableCollections$ListN",
          "java.util.Collections$UnmodifiableList",
          "java.util.Collections$SynchronizedMap",
          "java.util.Collections$SingletonMap",
          "java.util.Arrays$ArrayList",
          "org.codese.load.Hooks",
          "org.codese.load.Allocation",
          "org.codese.load.HookCall",
          "org.codese.CodeseOptions",
          "org.codese.samples.RedBlackTree",
          "org.codese.samples.RedBlackTree$Node",
          "org.codese.samples.SampleGraphs$Category",
          "org.codese.samples.SampleGraphs$Money",
          name(CanaryEnum.class),
          name(Point.class),
          name(PointOrder.class),
          name(HashCanary.class),
          name(CompareCanary.class),
          name(CtorCanary.class),
          name(NonSerRecord.class),
          name(SerRecord.class),
          name(Custom.class),
          name(External.class),
          name(Resolving.class),
          name(NonSerial.class),
          name(SerialTwn.class),
          name(Base.class),
          name(Derived.class),
          name(Holder.class),
          INIT_CANARY,
          INIT_CANARY_PLAIN,
          "does.not.Exist");

  /**
   * Classes whose objects a restore reaches without allocating them, as the mutator's write
   * targets: boxes from the JVM's caches, interned literals, enum constants, class descriptors.
   */
  static final List<String> PREEXISTING =
      List.of(
          "java.lang.Boolean",
          "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Character",
          "java.lang.String",
          "java.util.concurrent.TimeUnit",
          name(CanaryEnum.class),
          "java.io.ObjectStreamClass",
          "java.lang.Class");

  /** Literals the mutator stores with {@code ldc}: interned, shared with the application. */
  static final List<String> LITERALS = List.of("interned", "a", "b", "x", "", "ns", "one");

  private static String name(Class<?> c) {
    return c.getName();
  }

  /**
   * @return the declared {@code serialVersionUID} of a class, read without the canaries
   */
  static Long declaredSuid(String name, ClassLoader loader) {
    if (name.startsWith(CANARY_PACKAGE)) {
      return name.equals(INIT_CANARY) ? 42L : 43L;
    }
    try {
      Class<?> c = Class.forName(name, false, loader);
      ObjectStreamClass osc = ObjectStreamClass.lookupAny(c);
      return osc == null ? null : osc.getSerialVersionUID();
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return null;
    }
  }
}
