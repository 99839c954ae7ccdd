package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.samples.SampleGraphs;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Test;

/**
 * Large groups of like objects restore through counted loops over data: fields set by {@code
 * putfield} in the class's nest, final fields and classes of other loaders through {@code Field},
 * references to late objects (records, {@code readResolve}) deferred to the finish program.
 */
class LoopShapesTest {
  /** A record: restored late, through its canonical constructor. */
  record Money(long cents, String currency) implements Serializable {}

  /** Final and non-final fields of every kind, holding late objects too. */
  static final class Item implements Serializable {
    private static final long serialVersionUID = 1L;
    final int id;
    final String name;
    final Money price;
    final LocalDate added;
    double weight;
    boolean active;
    char grade;
    Item next;
    transient int cache;

    Item(int id, Money price, LocalDate added) {
      this.id = id;
      this.name = "item " + id;
      this.price = price;
      this.added = added;
      this.weight = id * 0.5;
      this.active = id % 3 == 0;
      this.grade = (char) ('A' + id % 5);
      this.cache = id;
    }
  }

  static List<Item> items(int n) {
    List<Item> items = new ArrayList<>();
    Money shared = new Money(100, "EUR");
    for (int i = 0; i < n; i++) {
      Item it =
          new Item(
              i,
              i % 4 == 0 ? shared : new Money(i, "USD"),
              LocalDate.of(2026, 1 + i % 12, 1 + i % 28));
      if (i > 0) {
        items.get(i - 1).next = it;
      }
      items.add(it);
    }
    return items;
  }

  @Test
  void finalFieldsAndLateReferencesInClusterLoops() throws Exception {
    RoundTrip.of(new ArrayList<>(items(300))).name("items-300").run();
  }

  @Test
  void sampleJdkCollectionsGraph() throws Exception {
    RoundTrip.of(SampleGraphs.jdkCollections()).name("jdk-collections").run();
  }

  /**
   * {@code n} boxes of every kind, from the JDK's caches and made anew, a shared one and a NaN with
   * a payload among them.
   */
  static ArrayList<Object> boxes(int n) {
    ArrayList<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Integer.valueOf(i % 100));
      out.add(Integer.valueOf(100_000 + i));
      out.add(Long.valueOf(i % 50));
      out.add(Long.valueOf((1L << 40) + i));
      out.add(Boolean.valueOf(i % 3 == 0));
      out.add(Byte.valueOf((byte) i));
      out.add(Character.valueOf((char) ('a' + i % 26)));
      out.add(Character.valueOf((char) (1000 + i)));
      out.add(Short.valueOf((short) (i % 100)));
      out.add(Short.valueOf((short) (1000 + i)));
      out.add(Float.valueOf(i * 0.25f));
      out.add(Double.valueOf(i * 0.5));
    }
    out.add(Float.intBitsToFloat(0x7fc0_0001));
    Object shared = Integer.valueOf(123_456);
    out.add(shared);
    out.add(shared);
    return out;
  }

  @Test
  void boxesOfEveryKindInLoops() throws Exception {
    ArrayList<Object> original = boxes(200);
    RoundTrip.of(original).name("boxes-200").run();
    @SuppressWarnings("unchecked")
    List<Object> copy = (List<Object>) Codese.fromBytes(Codese.toBytes(original));
    for (int i = 0; i < original.size(); i++) {
      Object o = original.get(i);
      Object c = copy.get(i);
      boolean cached = o == cachedBox(o);
      assertEquals(cached, c == cachedBox(c), "box " + i + " " + o);
    }
    assertEquals(0x7fc0_0001, Float.floatToRawIntBits((Float) copy.get(copy.size() - 3)));
  }

  /** The JDK's cached box for {@code box}'s value, or a new box where it caches none. */
  private static Object cachedBox(Object box) {
    if (box instanceof Integer i) {
      return Integer.valueOf(i);
    } else if (box instanceof Long l) {
      return Long.valueOf(l);
    } else if (box instanceof Boolean b) {
      return Boolean.valueOf(b);
    } else if (box instanceof Byte b) {
      return Byte.valueOf(b);
    } else if (box instanceof Character c) {
      return Character.valueOf(c);
    } else if (box instanceof Short s) {
      return Short.valueOf(s);
    }
    return null;
  }

  /** Boxes restore through loops over data: the generated code does not grow with their number. */
  @Test
  void codeForBoxesDoesNotGrowWithTheirNumber() throws Exception {
    int few = codeBytes(boxes(50));
    int many = codeBytes(boxes(5_000));
    assertTrue(many - few < 100, "code bytes for 50 rows " + few + ", for 5,000 rows " + many);
  }

  private static int codeBytes(Object graph) throws Exception {
    int n = 0;
    for (byte[] c : SnapshotFile.parse(Codese.toBytes(graph)).classFiles()) {
      n += c.length;
    }
    return n;
  }

  /** A class that Codese may not join the nest of: loaded by another class loader. */
  public static final class Far {
    public int a;
    public final String b;
    public Far next;

    public Far() {
      this.b = "far";
    }
  }

  @Test
  void classesOfAnotherLoaderAreSetThroughFields() throws Exception {
    URL classes = Far.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader other = new URLClassLoader(new URL[] {classes}, null)) {
      Class<?> far = other.loadClass(Far.class.getName());
      assertEquals(false, far == Far.class);
      Field a = far.getField("a");
      Field next = far.getField("next");
      List<Object> list = new ArrayList<>();
      Object prev = null;
      for (int i = 0; i < 100; i++) {
        Object o = far.getConstructor().newInstance();
        a.setInt(o, i + 1);
        if (prev != null) {
          next.set(prev, o);
        }
        list.add(o);
        prev = o;
      }
      CodeseOptions options =
          CodeseOptions.defaults().withClassLoader(other).withAllowedClasses(Far.class.getName());
      byte[] snapshot = Codese.toBytes(list);
      try (Snapshot s = Codese.load(snapshot, options)) {
        @SuppressWarnings("unchecked")
        List<Object> copy = (List<Object>) s.restore();
        assertEquals(100, copy.size());
        for (int i = 0; i < 100; i++) {
          Object o = copy.get(i);
          assertSame(far, o.getClass());
          assertEquals(i + 1, a.getInt(o));
          assertEquals("far", far.getField("b").get(o));
          assertSame(i < 99 ? copy.get(i + 1) : null, next.get(o));
        }
      }
    }
  }
}
