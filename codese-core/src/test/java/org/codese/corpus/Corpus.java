package org.codese.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.Date;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.Stack;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.codese.corpus.Types.AllBoxes;
import org.codese.corpus.Types.AllPrimitives;
import org.codese.corpus.Types.Base;
import org.codese.corpus.Types.Big;
import org.codese.corpus.Types.Box;
import org.codese.corpus.Types.ByLengthThenReverse;
import org.codese.corpus.Types.Color;
import org.codese.corpus.Types.Counter;
import org.codese.corpus.Types.DNode;
import org.codese.corpus.Types.DefaultHooks;
import org.codese.corpus.Types.Derived;
import org.codese.corpus.Types.EnumHolder;
import org.codese.corpus.Types.Ext;
import org.codese.corpus.Types.ExtCounted;
import org.codese.corpus.Types.ExtraData;
import org.codese.corpus.Types.HookedSub;
import org.codese.corpus.Types.Key;
import org.codese.corpus.Types.KeyOrder;
import org.codese.corpus.Types.Line;
import org.codese.corpus.Types.Member;
import org.codese.corpus.Types.Mixed;
import org.codese.corpus.Types.Money;
import org.codese.corpus.Types.NoDefaultCtor;
import org.codese.corpus.Types.Node;
import org.codese.corpus.Types.Op;
import org.codese.corpus.Types.Outer;
import org.codese.corpus.Types.Pair;
import org.codese.corpus.Types.Persistent;
import org.codese.corpus.Types.Person;
import org.codese.corpus.Types.Plain;
import org.codese.corpus.Types.PlainBase;
import org.codese.corpus.Types.PlainRecord;
import org.codese.corpus.Types.PlainSub;
import org.codese.corpus.Types.Point;
import org.codese.corpus.Types.Polygon;
import org.codese.corpus.Types.Polymorphic;
import org.codese.corpus.Types.PrivateFinal;
import org.codese.corpus.Types.PutFields;
import org.codese.corpus.Types.Range;
import org.codese.corpus.Types.RebuiltLinks;
import org.codese.corpus.Types.SerSub;
import org.codese.corpus.Types.Shadow;
import org.codese.corpus.Types.Shadow2;
import org.codese.corpus.Types.Singleton;
import org.codese.corpus.Types.TreeNode;
import org.codese.corpus.Types.WithStatics;
import org.codese.corpus.Types.WithTransients;
import org.codese.corpus.Types.WritesNothing;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.RoundTrip.Jdk;

/** The named graphs every round trip is tried on. */
public final class Corpus {
  private Corpus() {}

  /** One named graph: how to build it, and what else to check on every copy. */
  public record Case(
      String name,
      Supplier<Object> graph,
      Jdk jdk,
      List<Consumer<Object>> checks,
      IntSupplier sideEffects,
      List<String> allowed) {

    Case(
        String name,
        Supplier<Object> graph,
        Jdk jdk,
        List<Consumer<Object>> checks,
        IntSupplier sideEffects) {
      this(name, graph, jdk, checks, sideEffects, List.of());
    }

    Case check(Consumer<Object> c) {
      List<Consumer<Object>> all = new ArrayList<>(checks);
      all.add(c);
      return new Case(name, graph, jdk, all, sideEffects, allowed);
    }

    Case counting(IntSupplier counter) {
      return new Case(name, graph, jdk, checks, counter, allowed);
    }

    /** The classes the graph's snapshots need admitted, as a program restoring them gives them. */
    Case allowing(Class<?>... classes) {
      List<String> names = new ArrayList<>(allowed);
      for (Class<?> c : classes) {
        names.add(c.getName());
      }
      return new Case(name, graph, jdk, checks, sideEffects, List.copyOf(names));
    }

    /**
     * @return a configured round trip over a freshly built graph
     */
    public RoundTrip roundTrip() {
      RoundTrip rt =
          RoundTrip.of(graph.get()).name(name).jdk(jdk).allow(allowed.toArray(String[]::new));
      for (Consumer<Object> c : checks) {
        rt.check(c);
      }
      if (sideEffects != null) {
        rt.sideEffects(sideEffects);
      }
      return rt;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<Case> CASES = new ArrayList<>();

  private static Case ser(String name, Supplier<Object> graph) {
    Case c = new Case(name, graph, Jdk.SERIALIZABLE, List.of(), null);
    return c;
  }

  private static Case plain(String name, Supplier<Object> graph) {
    return new Case(name, graph, Jdk.NOT_SERIALIZABLE, List.of(), null);
  }

  private static void add(Case c) {
    for (Case other : CASES) {
      if (other.name.equals(c.name)) {
        throw new IllegalStateException("duplicate corpus name " + c.name);
      }
    }
    CASES.add(c);
  }

  /**
   * @return every case, in a fixed order
   */
  public static List<Case> all() {
    return Collections.unmodifiableList(CASES);
  }

  @SuppressWarnings("removal")
  private static Integer newInteger(int v) {
    return new Integer(v);
  }

  @SuppressWarnings("removal")
  private static Boolean newBoolean(boolean v) {
    return new Boolean(v);
  }

  @SuppressWarnings("removal")
  private static Long newLong(long v) {
    return new Long(v);
  }

  @SuppressWarnings("removal")
  private static Character newCharacter(char v) {
    return new Character(v);
  }

  /**
   * JDK's hashed collections made by copy constructors have another capacity than the one their
   * readObject picks, so JDK's own round trip is not byte-stable for them. One JDK round trip makes
   * the graph a fixed point, so that it can serve in the byte comparison.
   */
  private static Object jdkFixedPoint(Object graph) {
    try {
      return org.codese.testkit.JdkBytes.deserialize(org.codese.testkit.JdkBytes.serialize(graph));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object[] arr(Object... xs) {
    return xs;
  }

  static {
    // ---------------------------------------------------------------- primitives and boxes
    add(
        ser(
            "primitives-all-types",
            () ->
                new AllPrimitives(
                    (byte) -7,
                    (short) 30000,
                    123456789,
                    -9_876_543_210L,
                    3.25f,
                    -1e300,
                    '\u20ac',
                    true)));
    add(
        ser(
            "primitives-extremes",
            () ->
                arr(
                    new AllPrimitives(
                        Byte.MIN_VALUE,
                        Short.MIN_VALUE,
                        Integer.MIN_VALUE,
                        Long.MIN_VALUE,
                        Float.MIN_VALUE,
                        Double.MIN_VALUE,
                        Character.MIN_VALUE,
                        false),
                    new AllPrimitives(
                        Byte.MAX_VALUE,
                        Short.MAX_VALUE,
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        Float.MAX_VALUE,
                        Double.MAX_VALUE,
                        Character.MAX_VALUE,
                        true),
                    new AllPrimitives((byte) 0, (short) 0, 0, 0, -0.0f, -0.0, '\0', false),
                    new AllPrimitives(
                        (byte) 1, (short) 1, 1, 1, Float.NaN, Double.NaN, '\uD800', true),
                    new AllPrimitives(
                        (byte) 2,
                        (short) 2,
                        2,
                        2,
                        Float.NEGATIVE_INFINITY,
                        Double.POSITIVE_INFINITY,
                        '\uFFFF',
                        true))));
    add(ser("box-int-cached-root", () -> Integer.valueOf(5)));
    add(ser("box-int-uncached-root", () -> Integer.valueOf(100_000)));
    add(ser("box-int-new-5-not-cached", () -> newInteger(5)));
    add(
        ser(
            "boxes-every-type-cached",
            () ->
                arr(
                    Byte.valueOf((byte) 1),
                    Short.valueOf((short) 2),
                    Integer.valueOf(3),
                    Long.valueOf(4),
                    Character.valueOf('a'),
                    Boolean.TRUE,
                    Boolean.FALSE,
                    Float.valueOf(1.5f),
                    Double.valueOf(2.5))));
    add(
        ser(
            "boxes-every-type-uncached",
            () ->
                arr(
                    Short.valueOf((short) 1000),
                    Integer.valueOf(-129),
                    Long.valueOf(1L << 40),
                    Character.valueOf('\u4e2d'),
                    Float.valueOf(Float.NaN),
                    Double.valueOf(-0.0),
                    newBoolean(true),
                    newLong(3),
                    newCharacter('x'))));
    add(
        ser(
            "boxes-distinct-equal",
            () ->
                arr(
                    Integer.valueOf(1000),
                    Integer.valueOf(1000),
                    newInteger(5),
                    Integer.valueOf(5),
                    newInteger(5),
                    Boolean.TRUE,
                    newBoolean(true),
                    Double.valueOf(1.0),
                    Double.valueOf(1.0))));
    add(
        ser(
            "boxes-shared",
            () -> {
              Integer big = 123_456;
              Double d = 0.1;
              return arr(big, big, d, d, List.of(big, d));
            }));
    add(
        ser(
            "boxes-in-typed-fields",
            () -> {
              AllBoxes b = new AllBoxes();
              b.b = 1;
              b.s = 2000;
              b.i = newInteger(7);
              b.l = 7L;
              b.f = 0.5f;
              b.d = Double.NaN;
              b.c = 'q';
              b.z = newBoolean(false);
              b.n = b.i;
              b.o = Integer.valueOf(7);
              return b;
            }));
    add(ser("boxes-null-fields", AllBoxes::new));

    // ---------------------------------------------------------------- strings
    add(ser("string-empty", () -> new String("")));
    add(ser("string-ascii", () -> new String("hello, world")));
    add(
        ser(
            "string-non-bmp",
            () -> "clef \uD834\uDD1E emoji \uD83D\uDE00 cjk \u4e2d\u6587 nul \0 end"));
    add(
        ser(
            "string-unpaired-surrogates",
            () -> arr("\uD800", "\uDC00x", "a\uDBFFb\uDFFF", "\uDC00\uD800")));
    add(ser("string-over-65535-utf8-bytes", () -> "\u00e9\u4e2d".repeat(14_000) + "x"));
    add(ser("string-ascii-65535-and-65536", () -> arr("a".repeat(65_535), "b".repeat(65_536))));
    add(
        ser(
            "strings-distinct-equal",
            () ->
                arr(
                    new String("same"),
                    new String("same"),
                    "same",
                    new String("\u00e9"),
                    new String("\u00e9"))));
    // JDK deserialization itself merges empty strings (it returns the "" literal), so it cannot be
    // the oracle here: the walker alone checks that the two stay distinct.
    add(
        new Case(
            "strings-distinct-empty",
            () -> arr(new String(""), new String(""), ""),
            Jdk.SKIP,
            List.of(),
            null));
    add(
        ser(
            "strings-shared",
            () -> {
              String s = new String("shared");
              return arr(s, s, List.of(s), new Pair(s, s));
            }));
    add(
        ser(
            "strings-many",
            () -> {
              List<String> l = new ArrayList<>();
              for (int i = 0; i < 2000; i++) {
                l.add("s" + i + (i % 7 == 0 ? "\u00e9" : ""));
              }
              return l;
            }));

    // ---------------------------------------------------------------- enums
    add(ser("enum-root", () -> Color.GREEN));
    add(ser("enum-constant-body", () -> arr(Op.PLUS, Op.TIMES, Op.PLUS)));
    add(
        ser(
            "enum-fields-and-arrays",
            () -> {
              EnumHolder h = new EnumHolder();
              h.color = Color.BLUE;
              h.op = Op.TIMES;
              h.counter = Counter.TWO;
              h.any = Op.PLUS;
              h.colors = Color.values();
              return h;
            }));
    add(
        ser(
                "enum-with-mutable-state",
                () -> {
                  Counter.ONE.hits = 17;
                  return arr(Counter.ONE, Counter.TWO);
                })
            .check(c -> assertEquals(17, Counter.ONE.hits, "restore must not touch enum state")));

    // ---------------------------------------------------------------- Class objects
    add(
        ser(
            "class-objects",
            () ->
                arr(
                    String.class,
                    int.class,
                    int[].class,
                    String[][].class,
                    void.class,
                    Node.class,
                    Map.Entry.class,
                    Color.class,
                    Op.PLUS.getClass(),
                    long[][].class,
                    Point.class)));

    // ---------------------------------------------------------------- null and arrays
    add(ser("null-root", () -> null));
    add(ser("array-of-nulls", () -> new Object[5]));
    add(ser("array-byte", () -> new byte[] {0, 1, -1, Byte.MIN_VALUE, Byte.MAX_VALUE}));
    add(ser("array-short", () -> new short[] {0, 1, -1, Short.MIN_VALUE, Short.MAX_VALUE}));
    add(ser("array-int", () -> new int[] {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}));
    add(ser("array-long", () -> new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE}));
    add(
        ser(
            "array-float",
            () ->
                new float[] {
                  0, -0.0f, Float.NaN, Float.MIN_VALUE, Float.NEGATIVE_INFINITY, 1e-40f
                }));
    add(
        ser(
            "array-double",
            () ->
                new double[] {
                  0, -0.0, Double.NaN, Double.MIN_VALUE, Double.POSITIVE_INFINITY, Math.PI
                }));
    add(ser("array-char", () -> new char[] {'a', '\0', '\uD800', '\uFFFF', '\u00e9'}));
    add(ser("array-boolean", () -> new boolean[] {true, false, false, true}));
    add(
        ser(
            "array-empty-primitive-and-object",
            () -> arr(new int[0], new Object[0], new String[0], new long[0][0], new int[0][5])));
    add(
        ser(
            "array-int-large-random",
            () -> {
              int[] a = new int[200_000];
              Random r = new Random(1);
              for (int i = 0; i < a.length; i++) {
                a[i] = r.nextInt();
              }
              return a;
            }));
    add(
        ser(
            "array-double-large",
            () -> {
              double[] a = new double[50_000];
              for (int i = 0; i < a.length; i++) {
                a[i] = i / 7.0;
              }
              return a;
            }));
    add(
        ser(
            "array-object-mixed",
            () -> arr(1, "two", 3.0, Color.RED, null, new int[] {4}, new Point(5, 6), List.of(7))));
    add(ser("array-string-typed", () -> new String[] {"a", null, "c", new String("a")}));
    add(ser("array-interface-typed", () -> new Comparable<?>[] {"x", 1, 2L, Color.RED}));
    add(
        ser(
            "array-multidim-int",
            () -> {
              int[][] a = new int[3][4];
              for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 4; j++) {
                  a[i][j] = i * 10 + j;
                }
              }
              return a;
            }));
    add(
        ser(
            "array-jagged-shared-rows",
            () -> {
              int[] row = {1, 2, 3};
              return new int[][] {row, null, row, new int[0], {9}};
            }));
    add(
        ser(
            "array-3d-object",
            () -> {
              Object[][][] a = new Object[2][3][];
              a[0][1] = new Object[] {"x", a};
              a[1][2] = new String[] {"y"};
              return a;
            }));
    add(
        ser(
            "array-contains-itself",
            () -> {
              Object[] a = new Object[3];
              a[0] = a;
              a[2] = a;
              return a;
            }));
    add(
        ser(
            "arrays-contain-each-other",
            () -> {
              Object[] a = new Object[2];
              Object[] b = new Object[] {a, null};
              a[0] = b;
              a[1] = a;
              b[1] = b;
              return new Object[] {a, b};
            }));
    add(
        ser(
            "array-of-user-objects-shared",
            () -> {
              Point p = new Point(1, 2);
              return new Point[] {p, new Point(1, 2), p, null};
            }));

    // ---------------------------------------------------------------- fields
    add(
        ser(
            "fields-inherited",
            () -> {
              Derived d = new Derived();
              d.a = 1;
              d.name = "base-name";
              d.b = 2;
              d.shared = "s";
              d.extra = d.shared;
              return d;
            }));
    add(
        ser(
                "fields-shadowed",
                () -> {
                  Shadow s = new Shadow();
                  s.a = 10;
                  s.name = "sub";
                  ((Base) s).a = 20;
                  ((Base) s).name = "base";
                  return s;
                })
            .check(
                c -> {
                  Shadow s = (Shadow) c;
                  assertEquals(10, s.a);
                  assertEquals(20, ((Base) s).a);
                  assertEquals("sub", s.name);
                  assertEquals("base", ((Base) s).name);
                }));
    add(
        ser(
            "fields-shadowed-three-levels",
            () -> {
              Shadow2 s = new Shadow2();
              s.a = 3_000_000_000L;
              s.name = List.of("level2");
              ((Shadow) s).a = 2;
              ((Shadow) s).name = "level1";
              ((Base) s).a = 1;
              ((Base) s).name = "level0";
              return s;
            }));
    add(
        ser(
                "fields-transient-come-back-default",
                () -> {
                  WithTransients w = new WithTransients();
                  w.kept = 1;
                  w.ti = 2;
                  w.tl = 3;
                  w.tz = true;
                  w.ts = "gone";
                  w.to = new int[1];
                  w.keptRef = "kept";
                  return w;
                })
            .check(
                c -> {
                  WithTransients w = (WithTransients) c;
                  assertEquals(0, w.ti);
                  assertEquals(0L, w.tl);
                  assertEquals(false, w.tz);
                  assertNull(w.ts);
                  assertNull(w.to);
                  assertEquals(1, w.kept);
                  assertEquals("kept", w.keptRef);
                }));
    add(
        ser(
                "fields-static-untouched",
                () -> {
                  WithStatics w = new WithStatics();
                  w.instance = 5;
                  WithStatics.staticCounter = 99;
                  return w;
                })
            .check(c -> assertEquals(99, WithStatics.staticCounter)));
    add(
        ser(
            "fields-private-final",
            () -> new PrivateFinal(7, "seven", new ArrayList<>(List.of("a", "b")))));
    add(
        ser(
            "no-noarg-constructor",
            () -> {
              NoDefaultCtor n = new NoDefaultCtor(3, 4);
              n.self = n;
              return n;
            }));
    add(
        ser(
                "serializable-sub-of-nonserializable-base-ctor-side-effect",
                () -> {
                  List<Object> l = new ArrayList<>();
                  for (int i = 0; i < 3; i++) {
                    l.add(new SerSub(i + 100));
                  }
                  l.add(l.get(0));
                  return l;
                })
            .counting(Types.BASE_CTOR_RUNS::get)
            .check(
                c -> {
                  SerSub s = (SerSub) ((List<?>) c).get(0);
                  assertEquals(
                      42, s.baseValue, "NonSerBase() must run as JDK deserialization runs it");
                  assertEquals("set by NonSerBase()", s.baseName);
                  assertNull(s.baseRef);
                  assertEquals(101, s.own);
                }));
    add(
        ser(
            "polymorphic-fields",
            () -> {
              Polymorphic p = new Polymorphic();
              p.anything = new int[] {1};
              p.comparable = "cmp";
              p.chars = new StringBuilder("sb");
              p.number = new BigDecimal("1.50");
              p.ser = Color.RED;
              p.list = new LinkedList<>(List.of(1, 2));
              p.objects = new String[] {"covariant"};
              p.array = new long[][] {{1}, {2, 3}};
              return p;
            }));
    add(
        ser(
            "generic-box",
            () -> {
              Box<Object> b = new Box<>(new Box<>("inner"));
              b.more = List.of(b.value, 3);
              return b;
            }));
    add(
        ser(
                "inner-class-with-outer-this",
                () -> {
                  Outer o = new Outer();
                  o.inner = o.newInner(5);
                  return List.of(o.inner, o);
                })
            .check(
                c -> {
                  Outer.Inner in = (Outer.Inner) ((List<?>) c).get(0);
                  assertSame(((List<?>) c).get(1), in.outer());
                }));

    // ---------------------------------------------------------------- non-serializable classes
    add(
        plain(
                "plain-objects",
                () -> {
                  Plain a = new Plain(1, "a");
                  Plain b = new Plain(2, "b");
                  a.next = b;
                  b.any = new Object[] {a, "x", 3};
                  a.notSaved = 9;
                  return a;
                })
            .allowing(Plain.class));
    add(
        plain(
                "plain-cycle",
                () -> {
                  Plain a = new Plain(1, "a");
                  Plain b = new Plain(2, "b");
                  a.next = b;
                  b.next = a;
                  a.any = a;
                  return b;
                })
            .allowing(Plain.class));
    add(
        plain(
                "plain-no-noarg-constructor-hierarchy",
                () -> {
                  PlainSub a = new PlainSub("left", 1, 2, 3);
                  PlainSub b = new PlainSub("right");
                  a.partner(b);
                  b.partner(a);
                  return arr(a, b);
                })
            .allowing(PlainSub.class, PlainBase.class));
    add(
        plain(
                "plain-in-jdk-collections",
                () -> {
                  Plain p = new Plain(7, "in-list");
                  Map<String, Object> m = new HashMap<>();
                  m.put("p", p);
                  m.put("list", new ArrayList<>(List.of(p, p)));
                  return m;
                })
            .allowing(Plain.class));
    add(
        plain(
                "plain-record",
                () -> new PlainRecord(1, "rec", new ArrayList<>(List.of(new Plain(2, "x"), "y"))))
            .allowing(PlainRecord.class, Plain.class));
    add(
        plain(
                "plain-mixed-with-serializable",
                () -> {
                  Plain p = new Plain(3, "mixed");
                  p.any = new Point(1, 1);
                  return new Pair(p, RedBlackTree.random(20, 3));
                })
            .allowing(Plain.class));

    // ---------------------------------------------------------------- custom serialization
    add(
        ser(
            "hooks-default-write-read",
            () -> {
              DefaultHooks h = new DefaultHooks();
              h.x = 3;
              h.s = "s";
              h.ref = h;
              return h;
            }));
    add(
        ser(
            "hooks-put-fields-read-fields",
            () -> {
              PutFields p = new PutFields();
              p.count = 12;
              p.label = "lbl";
              p.ref = List.of(p.label);
              return arr(p, p.label);
            }));
    add(
        ser(
                "hooks-optional-data-after-fields",
                () -> {
                  ExtraData e = new ExtraData();
                  e.x = 1;
                  e.extraInts = new int[] {1, 2, 3};
                  e.extraUtf = "utf \u00e9";
                  e.extraLong = -5;
                  e.extraDouble = 2.5;
                  e.extraObject = new Point(8, 9);
                  return arr(e, e.extraObject);
                })
            .check(
                c -> {
                  ExtraData e = (ExtraData) ((Object[]) c)[0];
                  assertEquals(3, e.extraInts.length);
                  assertEquals("utf \u00e9", e.extraUtf);
                  assertSame(
                      ((Object[]) c)[1],
                      e.extraObject,
                      "object written as optional data is shared");
                }));
    add(
        ser(
                "hooks-rebuild-transient-links",
                () -> {
                  RebuiltLinks root = new RebuiltLinks("root");
                  RebuiltLinks a = root.add(new RebuiltLinks("a"));
                  a.add(new RebuiltLinks("a1"));
                  root.add(new RebuiltLinks("b"));
                  return root;
                })
            .check(
                c -> {
                  RebuiltLinks r = (RebuiltLinks) c;
                  assertSame(r, r.kids.get(0).parent);
                  assertSame(r.kids.get(0), r.kids.get(0).kids.get(0).parent);
                }));
    add(
        ser(
                "hooks-superclass-and-subclass",
                () -> {
                  HookedSub h = new HookedSub();
                  h.baseX = 1;
                  h.baseExtra = "base-extra";
                  h.subY = 2;
                  h.subExtra = 300;
                  return h;
                })
            .check(
                c -> {
                  assertEquals("base-extra", ((HookedSub) c).baseExtra);
                  assertEquals(300, ((HookedSub) c).subExtra);
                }));
    add(
        ser(
                "hooks-write-nothing",
                () -> {
                  WritesNothing w = new WritesNothing();
                  w.x = 77;
                  return w;
                })
            .check(c -> assertEquals(0, ((WritesNothing) c).x)));
    add(
        ser(
            "externalizable",
            () -> {
              Point shared = new Point(0, 0);
              return arr(new Ext(1, "one", shared), new Ext(2, "two", shared), shared);
            }));
    add(
        ser(
                "externalizable-public-ctor-runs",
                () -> {
                  ExtCounted a = new ExtCounted();
                  a.v = 5;
                  ExtCounted b = new ExtCounted();
                  b.v = 6;
                  return arr(a, b, a);
                })
            .counting(Types.EXT_CTOR_RUNS::get));
    add(
        ser(
                "write-replace-read-resolve",
                () -> {
                  Money m = new Money(1999, "EUR");
                  return arr(m, m, new Money(5, "USD"));
                })
            .check(c -> assertSame(((Object[]) c)[0], ((Object[]) c)[1])));
    add(
        ser(
                "read-resolve-singleton",
                () ->
                    arr(
                        Singleton.INSTANCE,
                        List.of(Singleton.INSTANCE),
                        new Pair(Singleton.INSTANCE, null)))
            .check(c -> assertSame(Singleton.INSTANCE, ((Object[]) c)[0])));
    add(
        ser(
                "serial-persistent-fields",
                () -> {
                  Persistent p = new Persistent();
                  p.a = 1;
                  p.b = 2;
                  p.c = "c";
                  p.d = "d";
                  return p;
                })
            .check(
                c -> {
                  assertEquals(0, ((Persistent) c).b);
                  assertNull(((Persistent) c).d);
                }));

    // ---------------------------------------------------------------- records
    add(ser("record-simple", () -> new Point(3, -4)));
    add(
        ser(
            "record-nested-shared",
            () -> {
              Point p = new Point(1, 1);
              return new Line(p, p, "degenerate");
            }));
    add(
        ser(
            "record-holding-list",
            () ->
                new Polygon(
                    "tri",
                    new ArrayList<>(List.of(new Point(0, 0), new Point(1, 0), new Point(0, 1))))));
    add(ser("record-canonical-ctor-validates", () -> arr(new Range(1, 5), new Range(-3, -3))));
    add(
        ser(
            "record-all-component-kinds",
            () ->
                new Mixed(
                    (byte) 1,
                    '\u00e9',
                    0.25,
                    Long.MIN_VALUE,
                    true,
                    List.of("x"),
                    new int[] {1, 2},
                    Color.BLUE)));
    add(
        ser(
            "record-in-collections",
            () -> {
              Map<Point, Line> m = new HashMap<>();
              for (int i = 0; i < 20; i++) {
                Point p = new Point(i, i * i);
                m.put(p, new Line(p, new Point(-i, 0), "l" + i));
              }
              return m;
            }));

    // ---------------------------------------------------------------- cycles and sharing
    add(
        ser(
            "cycle-self-loop",
            () -> {
              Node n = new Node("self");
              n.next = n;
              n.value = n;
              return n;
            }));
    add(
        ser(
            "cycle-two-nodes",
            () -> {
              Node a = new Node("a");
              Node b = new Node("b");
              a.next = b;
              b.next = a;
              return a;
            }));
    add(
        ser(
            "cycle-long-1000",
            () -> {
              Node first = new Node(0);
              Node cur = first;
              for (int i = 1; i < 1000; i++) {
                cur.next = new Node(i);
                cur = cur.next;
              }
              cur.next = first;
              return first;
            }));
    add(
        ser(
            "cycle-doubly-linked-500",
            () -> {
              DNode first = new DNode(0);
              DNode cur = first;
              for (int i = 1; i < 500; i++) {
                DNode n = new DNode(i);
                cur.next = n;
                n.prev = cur;
                cur = n;
              }
              cur.next = first;
              first.prev = cur;
              return first;
            }));
    add(
        ser("rbt-paper-50", () -> RedBlackTree.random(50, 42))
            .check(c -> assertTrue(((RedBlackTree) c).isValid())));
    add(
        ser(
            "tree-with-parents-and-shared-payloads",
            () -> {
              TreeNode root = new TreeNode("root");
              String payload = new String("payload");
              for (int i = 0; i < 5; i++) {
                TreeNode child = root.add(new TreeNode("c" + i));
                for (int j = 0; j < 3; j++) {
                  child.add(new TreeNode("c" + i + j)).payload = payload;
                }
              }
              return root;
            }));
    add(
        ser(
            "sharing-diamond",
            () -> {
              Point shared = new Point(9, 9);
              Pair left = new Pair(shared, "l");
              Pair right = new Pair(shared, "r");
              return new Pair(left, right);
            }));
    add(
        ser(
            "sharing-across-containers",
            () -> {
              Person p = new Person("p", 30);
              List<Object> list = new ArrayList<>(List.of(p));
              Map<String, Object> map = new HashMap<>();
              map.put("p", p);
              Object[] array = {p, list, map};
              return arr(array, list, map, p);
            }));
    // JDK serialization recurses once per link; 2,000 stays well inside its stack. Longer chains
    // are in LargeGraphTest, without JDK serialization.
    add(
        ser(
            "deep-chain-2000",
            () -> {
              Node head = null;
              for (int i = 0; i < 2_000; i++) {
                Node n = new Node(i);
                n.next = head;
                head = n;
              }
              return head;
            }));

    // ---------------------------------------------------------------- JDK collections
    add(ser("arraylist", () -> new ArrayList<>(List.of("a", "b", "c"))));
    add(
        ser(
            "arraylist-with-spare-capacity-and-nulls",
            () -> {
              ArrayList<Object> l = new ArrayList<>(100);
              l.add(null);
              l.add("x");
              l.add(null);
              return l;
            }));
    add(ser("linkedlist", () -> new LinkedList<>(List.of(1, "two", 3.0))));
    add(
        ser(
            "hashmap-strings",
            () -> {
              Map<String, Integer> m = new HashMap<>();
              for (int i = 0; i < 10; i++) {
                m.put("k" + i, i * 1000);
              }
              return m;
            }));
    add(
        ser(
            "hashmap-1000-with-null-key-and-value",
            () -> {
              Map<Object, Object> m = new HashMap<>();
              for (int i = 0; i < 1000; i++) {
                m.put(i, "v" + i);
              }
              m.put(null, "null-key");
              m.put("null-value", null);
              return m;
            }));
    add(
        ser(
                "hashmap-user-keys-custom-hash",
                () -> {
                  Map<Key, Object> m = new HashMap<>();
                  for (int i = 0; i < 300; i++) {
                    m.put(new Key("id" + (i % 17), i), new Point(i, -i));
                  }
                  return m;
                })
            .check(
                c -> {
                  @SuppressWarnings("unchecked")
                  Map<Key, Object> m = (Map<Key, Object>) c;
                  assertEquals(new Point(5, -5), m.get(new Key("id5", 5)));
                }));
    add(
        ser(
                "hashset-user-elements-pointing-back",
                () -> {
                  Set<Member> s = new HashSet<>();
                  for (int i = 0; i < 50; i++) {
                    Member m = new Member(i);
                    m.owner = s;
                    s.add(m);
                  }
                  return s;
                })
            .check(c -> assertTrue(((Set<?>) c).contains(new Member(7)))));
    add(
        ser(
            "linkedhashmap-insertion-order",
            () -> {
              Map<String, Object> m = new LinkedHashMap<>();
              for (int i = 20; i > 0; i--) {
                m.put("k" + i, i);
              }
              return m;
            }));
    add(
        ser(
                "linkedhashmap-access-order",
                () -> {
                  LinkedHashMap<String, Integer> m = new LinkedHashMap<>(16, 0.75f, true);
                  for (int i = 0; i < 10; i++) {
                    m.put("k" + i, i);
                  }
                  m.get("k3");
                  m.get("k0");
                  return m;
                })
            .check(
                c -> {
                  @SuppressWarnings("unchecked")
                  Map<String, Integer> m = (Map<String, Integer>) c;
                  assertEquals("k0", List.copyOf(m.keySet()).get(9));
                  m.get("k5");
                  assertEquals(
                      "k5", List.copyOf(m.keySet()).get(9), "access order must survive restore");
                }));
    add(
        ser(
            "linkedhashset",
            () -> {
              Set<String> s = new LinkedHashSet<>(4);
              s.addAll(List.of("z", "a", "m"));
              return s;
            }));
    add(
        ser(
            "treemap-natural",
            () -> {
              TreeMap<String, Integer> m = new TreeMap<>();
              for (String s : List.of("pear", "apple", "fig", "kiwi")) {
                m.put(s, s.length());
              }
              return m;
            }));
    add(
        ser(
            "treemap-comparator",
            () -> {
              TreeMap<String, Integer> m = new TreeMap<>(new ByLengthThenReverse());
              for (String s : List.of("pear", "apple", "fig", "kiwi", "banana")) {
                m.put(s, s.length());
              }
              return m;
            }));
    add(
        ser(
            "treemap-user-keys-stateful-comparator",
            () -> {
              TreeMap<Key, String> m = new TreeMap<>(new KeyOrder(true));
              for (int i = 0; i < 40; i++) {
                m.put(new Key("k" + (i % 3), i), "v" + i);
              }
              return m;
            }));
    add(
        ser(
            "treemap-reverse-order-singleton-comparator",
            () -> {
              TreeMap<Integer, String> m = new TreeMap<>(Collections.reverseOrder());
              m.put(1, "a");
              m.put(2, "b");
              return m;
            }));
    add(
        ser(
            "treemap-case-insensitive",
            () -> {
              TreeMap<String, Integer> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
              m.put("B", 1);
              m.put("a", 2);
              return m;
            }));
    add(ser("treeset-natural", () -> new TreeSet<>(List.of(5, 1, 9, -3))));
    add(
        ser(
            "treeset-comparator",
            () -> {
              TreeSet<String> s = new TreeSet<>(new ByLengthThenReverse());
              s.addAll(List.of("ccc", "a", "bb", "b", "dddd"));
              return s;
            }));
    add(
        ser(
            "hashset",
            () -> {
              // capacity 8 is what HashSet.readObject picks for 4 elements, so JDK's round trip is
              // stable
              Set<String> s = new HashSet<>(8);
              s.addAll(List.of("x", "y", "z", "w"));
              return s;
            }));
    add(
        ser(
            "arraydeque-wrapped",
            () -> {
              ArrayDeque<Object> d = new ArrayDeque<>();
              for (int i = 0; i < 10; i++) {
                d.addLast(i);
              }
              for (int i = 0; i < 5; i++) {
                d.pollFirst();
                d.addFirst("f" + i);
              }
              return d;
            }));
    add(
        ser(
            "priorityqueue-natural",
            () -> {
              PriorityQueue<Integer> q = new PriorityQueue<>();
              for (int v : new int[] {5, 3, 8, 1, 9, 2}) {
                q.add(v);
              }
              return q;
            }));
    add(
        ser(
            "priorityqueue-comparator",
            () -> {
              PriorityQueue<String> q = new PriorityQueue<>(new ByLengthThenReverse());
              q.addAll(List.of("aaa", "b", "cc", "dddd", "e"));
              return q;
            }));
    add(
        ser(
            "concurrenthashmap",
            () -> {
              ConcurrentHashMap<String, Object> m = new ConcurrentHashMap<>();
              for (int i = 0; i < 30; i++) {
                m.put("k" + i, i % 2 == 0 ? i : List.of(i));
              }
              return m;
            }));
    add(
        ser(
            "enummap",
            () -> {
              EnumMap<Color, Object> m = new EnumMap<>(Color.class);
              m.put(Color.BLUE, "blue");
              m.put(Color.RED, 1);
              return m;
            }));
    add(ser("enummap-empty", () -> new EnumMap<>(Op.class)));
    add(ser("enumset-small", () -> EnumSet.of(Color.RED, Color.BLUE)));
    add(ser("enumset-constant-bodies", () -> EnumSet.of(Op.TIMES)));
    add(
        ser(
            "enumset-jumbo-70",
            () -> {
              EnumSet<Big> s = EnumSet.noneOf(Big.class);
              for (Big b : Big.values()) {
                if (b.ordinal() % 3 == 0 || b.ordinal() > 64) {
                  s.add(b);
                }
              }
              return s;
            }));
    add(
        ser(
            "bitset",
            () -> {
              BitSet b = new BitSet();
              b.set(0);
              b.set(63);
              b.set(64);
              b.set(1000, 1010);
              return b;
            }));
    add(
        ser(
            "immutable-list-of",
            () -> arr(List.of(), List.of("one"), List.of(1, 2), List.of(1, 2, 3, 4, 5))));
    add(
        ser(
            "immutable-set-of",
            () -> arr(Set.of(), Set.of("one"), Set.of(1, 2), Set.of("a", "b", "c", "d", "e"))));
    add(
        ser(
            "immutable-map-of",
            () ->
                arr(
                    Map.of(),
                    Map.of("k", 1),
                    Map.of("a", 1, "b", 2, "c", 3),
                    Map.ofEntries(Map.entry(1, "x"), Map.entry(2, "y")))));
    add(
        ser(
            "immutable-copy-of-with-user-objects",
            () -> {
              Point p = new Point(1, 2);
              return arr(List.copyOf(List.of(p, p)), Map.copyOf(Map.of("p", p)));
            }));
    add(
        ser(
            "collections-unmodifiable",
            () -> {
              List<Object> inner = new ArrayList<>(List.of(1, 2));
              return jdkFixedPoint(
                  arr(
                      Collections.unmodifiableList(inner),
                      Collections.unmodifiableSet(new HashSet<>(List.of("s"))),
                      Collections.unmodifiableMap(new HashMap<>(Map.of("k", "v"))),
                      Collections.unmodifiableSortedMap(new TreeMap<>(Map.of("a", 1))),
                      Collections.unmodifiableCollection(new ArrayDeque<>(List.of(3))),
                      inner));
            }));
    add(
        ser(
            "collections-synchronized",
            () ->
                jdkFixedPoint(
                    arr(
                        Collections.synchronizedList(new ArrayList<>(List.of(1))),
                        Collections.synchronizedMap(new HashMap<>(Map.of("k", 2))),
                        Collections.synchronizedSet(new HashSet<>(List.of(3)))))));
    add(
        ser(
            "collections-empty",
            () ->
                arr(
                    Collections.emptyList(),
                    Collections.emptySet(),
                    Collections.emptyMap(),
                    Collections.emptySortedSet(),
                    Collections.emptyNavigableMap())));
    add(
        ser(
            "collections-singleton",
            () ->
                arr(
                    Collections.singletonList("a"),
                    Collections.singleton(1),
                    Collections.singletonMap("k", new Point(1, 1)),
                    Collections.nCopies(3, "n"))));
    add(
        ser(
            "arrays-aslist",
            () -> {
              String[] backing = {"a", "b"};
              return arr(Arrays.asList(backing), Arrays.asList(1, 2, 3));
            }));
    add(
        ser(
            "legacy-vector-hashtable-stack",
            () -> {
              Vector<Object> v = new Vector<>(List.of(1, "v"));
              Hashtable<String, Object> h = new Hashtable<>(Map.of("k", v));
              Stack<Object> s = new Stack<>();
              s.push(h);
              s.push("top");
              return jdkFixedPoint(arr(v, h, s));
            }));
    add(
        ser(
            "nested-collections-of-user-objects",
            () -> {
              Person alice = new Person("alice", 30);
              Person bob = new Person("bob", 25);
              Person carol = new Person("carol", 41);
              alice.friends.add(bob);
              bob.friends.add(alice);
              carol.friends.addAll(List.of(alice, bob));
              carol.attributes = new TreeMap<>(Map.of("manager", alice, "tags", List.of("x")));
              Map<String, List<Person>> teams = new LinkedHashMap<>();
              teams.put("red", new ArrayList<>(List.of(alice, bob)));
              teams.put("blue", new LinkedList<>(List.of(carol, alice)));
              teams.put("empty", new ArrayList<>());
              return teams;
            }));
    add(
        ser(
            "map-values-are-maps-and-sets",
            () -> {
              Map<String, Map<Integer, Set<String>>> m = new TreeMap<>();
              for (int i = 0; i < 5; i++) {
                Map<Integer, Set<String>> inner = new HashMap<>();
                for (int j = 0; j < 4; j++) {
                  inner.put(j, new TreeSet<>(List.of("a" + i, "b" + j)));
                }
                m.put("m" + i, inner);
              }
              return m;
            }));

    // ---------------------------------------------------------------- other JDK values
    add(
        ser(
            "java-time",
            () ->
                arr(
                    Instant.ofEpochSecond(1_700_000_000L, 123_456_789),
                    LocalDate.of(2024, 2, 29),
                    LocalDateTime.of(2020, 1, 2, 3, 4, 5, 6),
                    LocalTime.of(23, 59, 59),
                    ZonedDateTime.of(2021, 3, 28, 2, 30, 0, 0, ZoneId.of("Europe/Berlin")),
                    OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(-5)),
                    Duration.ofNanos(-1),
                    Period.of(1, -2, 3),
                    ZoneId.of("America/New_York"),
                    ZoneOffset.UTC,
                    ZoneOffset.ofTotalSeconds(12345))));
    add(
        ser(
            "biginteger",
            () ->
                arr(
                    BigInteger.ZERO,
                    BigInteger.ONE.negate(),
                    new BigInteger("123456789012345678901234567890123456789"),
                    BigInteger.TWO.pow(1000).negate())));
    add(
        ser(
            "bigdecimal",
            () ->
                arr(
                    new BigDecimal("0.00"),
                    new BigDecimal("-1E+1000"),
                    new BigDecimal("3.14159265358979323846264338327950288419716939937510"),
                    BigDecimal.valueOf(1, -5))));
    add(ser("date", () -> arr(new Date(0), new Date(1_700_000_000_123L), new Date(-1))));
    add(ser("uuid", () -> arr(new UUID(1, 2), UUID.nameUUIDFromBytes(new byte[] {1}))));
    add(
        ser(
            "uri",
            () ->
                arr(
                    URI.create("https://example.org/a%20b?q=1#frag"),
                    URI.create("mailto:x@y"),
                    URI.create("relative/path"))));
    add(
        ser(
            "locale",
            () -> arr(Locale.US, Locale.forLanguageTag("de-CH-u-ca-gregory"), Locale.ROOT)));
    add(
        ser(
            "atomics",
            () -> {
              AtomicReference<Object> r = new AtomicReference<>();
              Object[] holder = {r};
              r.set(holder);
              return arr(
                  new AtomicInteger(-5), new AtomicLong(1L << 50), new AtomicBoolean(true), r);
            }));
    add(
        ser(
            "stringbuilder-stringbuffer",
            () ->
                arr(
                    new StringBuilder("sb \u00e9 \uD83D\uDE00"),
                    new StringBuffer("buf"),
                    new StringBuilder())));
    add(
        ser(
            "exception-with-cause",
            () -> {
              IllegalStateException e =
                  new IllegalStateException("outer", new java.io.IOException("inner"));
              e.addSuppressed(new RuntimeException("suppressed"));
              return e;
            }));

    // ---------------------------------------------------------------- mixed, larger
    add(
        ser(
            "rbt-1000-in-map-with-others",
            () -> {
              Map<String, Object> m = new TreeMap<>();
              m.put("tree", RedBlackTree.random(1000, 7));
              m.put("points", List.of(new Point(1, 2), new Point(3, 4)));
              m.put("color", Color.RED);
              return m;
            }));
    add(
        ser(
            "many-small-objects-10000",
            () -> {
              List<Object> l = new ArrayList<>();
              Random r = new Random(5);
              for (int i = 0; i < 10_000; i++) {
                switch (r.nextInt(5)) {
                  case 0 -> l.add(new Point(r.nextInt(), r.nextInt()));
                  case 1 -> l.add("s" + r.nextInt(100));
                  case 2 -> l.add(r.nextInt(300) - 150);
                  case 3 -> l.add(l.isEmpty() ? null : l.get(r.nextInt(l.size())));
                  default -> l.add(new int[] {i});
                }
              }
              return l;
            }));
  }

  /** A check that is handy for tests outside this class. */
  static void nothing(Object ignored) {}
}
