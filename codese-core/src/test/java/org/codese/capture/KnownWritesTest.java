package org.codese.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.codese.CodeseOptions;
import org.codese.jvm.HashFields;
import org.codese.jvm.SerialClass;
import org.codese.program.Tape;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The tapes {@link KnownWrites} makes without running {@code writeObject} are those running it on a
 * {@link CaptureStream} records, with the same ids in the same order.
 */
class KnownWritesTest {
  private static Tape known(Object obj) throws Exception {
    Tape t = KnownWrites.tape(new Capturer(CodeseOptions.defaults()), new ChildList(), 0, obj);
    assertNotNull(t, "a known class");
    return t;
  }

  private static Tape run(Object obj) throws Exception {
    CaptureStream out =
        new CaptureStream(
            new Capturer(CodeseOptions.defaults()),
            0,
            obj,
            SerialClass.of(obj.getClass()).slots().get(0),
            new ChildList());
    out.runWriteObject();
    return out.finish();
  }

  private static void same(Object obj) throws Exception {
    Tape run = run(obj);
    Tape known = known(obj);
    assertArrayEquals(run.data(), known.data(), "data of " + obj);
    assertArrayEquals(run.items(), known.items(), "items of " + obj);
  }

  /** {@link #same} for a map or set, named by its class and size, without printing it. */
  private static void sameHashed(Object obj) throws Exception {
    Tape run = run(obj);
    Tape known = known(obj);
    int size = obj instanceof Map<?, ?> m ? m.size() : ((Collection<?>) obj).size();
    String what = obj.getClass().getSimpleName() + " of size " + size;
    assertArrayEquals(run.data(), known.data(), "data of " + what);
    assertArrayEquals(run.items(), known.items(), "items of " + what);
  }

  private static void hashFieldsReadable() {
    Assumptions.assumeTrue(
        HashFields.readable(),
        "HashMap's table is not readable without warnings on this JDK: writeObject runs");
  }

  @Test
  void arrayListsAsTheirWriteObjectWritesThem() throws Exception {
    same(new ArrayList<>());
    same(new ArrayList<>(List.of("a")));
    String shared = "shared";
    ArrayList<Object> many = new ArrayList<>(1000);
    for (int i = 0; i < 300; i++) {
      many.add(i % 7 == 0 ? null : i % 5 == 0 ? shared : Integer.valueOf(i * 1000));
    }
    same(many);
  }

  @Test
  void naturalOrderTreeMapsAsTheirWriteObjectWritesThem() throws Exception {
    same(new TreeMap<>());
    TreeMap<Integer, Object> m = new TreeMap<>();
    String shared = "v";
    for (int i = 0; i < 300; i++) {
      m.put(i * 31 % 1000, i % 3 == 0 ? null : i % 2 == 0 ? shared : "v" + i);
    }
    same(m);
  }

  /** A fresh map, one grown and emptied, then one of each size in 1..1000. */
  private static void growingMaps(Map<Object, Object> fresh, Map<Object, Object> emptied)
      throws Exception {
    sameHashed(fresh);
    for (int i = 0; i < 100; i++) {
      emptied.put("k" + i, i);
    }
    emptied.clear();
    sameHashed(emptied);
    String shared = "shared";
    for (int i = 1; i <= 1000; i++) {
      fresh.put(i % 97 == 0 ? null : Integer.valueOf(i * 7919), i % 3 == 0 ? shared : "v" + i);
      sameHashed(fresh);
    }
  }

  @Test
  void hashMapsAsTheirWriteObjectWritesThem() throws Exception {
    hashFieldsReadable();
    growingMaps(new HashMap<>(), new HashMap<>());
    growingMaps(new HashMap<>(3, 0.6f), new HashMap<>(1000, 2.5f));
    growingMaps(new HashMap<>(0, 0.1f), new HashMap<>(1));
    Map<Object, Object> nulls = new HashMap<>();
    nulls.put(null, null);
    nulls.put("a", null);
    sameHashed(nulls);
    sameHashed(new HashMap<>(Map.of("x", 1, "y", 2)));
  }

  /** Keys of one hash code: the map's bins become trees, iterated in their {@code next} order. */
  @Test
  void hashMapsWithTreeBinsAsTheirWriteObjectWritesThem() throws Exception {
    hashFieldsReadable();
    Map<Object, Object> m = new HashMap<>();
    for (int i = 0; i < 200; i++) {
      m.put(new SameHash(i), i % 2 == 0 ? null : "v");
      m.put("s" + i, i);
    }
    sameHashed(m);
    for (int i = 0; i < 200; i += 3) {
      m.remove(new SameHash(i));
    }
    sameHashed(m);
  }

  @Test
  void linkedHashMapsInInsertionAndAccessOrder() throws Exception {
    hashFieldsReadable();
    growingMaps(new LinkedHashMap<>(), new LinkedHashMap<>());
    growingMaps(new LinkedHashMap<>(3, 0.6f), new LinkedHashMap<>(5, 0.9f, true));
    LinkedHashMap<Object, Object> access = new LinkedHashMap<>(16, 0.75f, true);
    for (int i = 0; i < 300; i++) {
      access.put("k" + i, i % 4 == 0 ? null : i);
    }
    for (int i = 0; i < 300; i += 7) {
      access.get("k" + (i * 13 % 300));
    }
    sameHashed(access);
    growingMaps(new LinkedHashMap<>(3, 0.6f, true), new LinkedHashMap<>(2, 0.6f, true));
  }

  /** A fresh set, one grown and emptied, then one of each size in 1..1000. */
  private static void growingSets(Collection<Object> fresh, Collection<Object> emptied)
      throws Exception {
    sameHashed(fresh);
    for (int i = 0; i < 100; i++) {
      emptied.add("e" + i);
    }
    emptied.clear();
    sameHashed(emptied);
    for (int i = 1; i <= 1000; i++) {
      fresh.add(i % 101 == 0 ? null : Integer.valueOf(i * 7919));
      sameHashed(fresh);
    }
  }

  @Test
  void hashSetsAsTheirWriteObjectWritesThem() throws Exception {
    hashFieldsReadable();
    growingSets(new HashSet<>(), new HashSet<>());
    growingSets(new HashSet<>(3, 0.6f), new HashSet<>(1000, 2.5f));
    growingSets(new HashSet<>(List.of("a", "b", "c")), new HashSet<>(0, 0.1f));
  }

  @Test
  void linkedHashSetsAsTheirWriteObjectWritesThem() throws Exception {
    hashFieldsReadable();
    growingSets(new LinkedHashSet<>(), new LinkedHashSet<>());
    growingSets(new LinkedHashSet<>(3, 0.6f), new LinkedHashSet<>(1000, 2.5f));
  }

  /** Where the fields cannot be read without warnings, the maps and sets run their writeObject. */
  @Test
  void hashedClassesRunTheirWriteObjectWhereTheFieldsAreClosed() throws Exception {
    Assumptions.assumeFalse(HashFields.readable(), "the fields are readable on this JDK");
    Capturer c = new Capturer(CodeseOptions.defaults());
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new HashMap<>()));
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new LinkedHashSet<>()));
  }

  /** All instances hash alike; ordered by number, so a bin of them becomes a tree. */
  private record SameHash(int n) implements Comparable<SameHash>, java.io.Serializable {
    @Override
    public int hashCode() {
      return 42;
    }

    @Override
    public int compareTo(SameHash o) {
      return Integer.compare(n, o.n);
    }
  }

  @Test
  void otherClassesAndComparatorsRunTheirWriteObject() throws Exception {
    Capturer c = new Capturer(CodeseOptions.defaults());
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new LinkedList<>()));
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new ArrayList<>() {}));
    assertNull(
        KnownWrites.tape(
            c, new ChildList(), 0, new TreeMap<String, String>(Comparator.reverseOrder())));
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new HashMap<>() {}));
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new HashSet<>() {}));
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new LinkedHashMap<>() {}));
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new java.util.IdentityHashMap<>()));
  }
}
