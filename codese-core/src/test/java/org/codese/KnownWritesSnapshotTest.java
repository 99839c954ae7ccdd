package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.codese.capture.Capturer;
import org.codese.jvm.HashFields;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Test;

/**
 * Whole graphs of the collections {@code capture.KnownWrites} captures without running their {@code
 * writeObject}: the same JDK bytes after the round trip as the JDK's own, and the same snapshot
 * bytes as a capture that runs every {@code writeObject} ({@link
 * Capturer#runningEveryWriteObject}).
 */
class KnownWritesSnapshotTest {
  /** A class of the user's that holds the collections, one of them twice. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Map<Object, Object> map;
    Set<Object> set;
    Set<Object> sameSet;
    List<Object> all = new ArrayList<>();
  }

  /**
   * Maps and sets whose JDK round trip is byte-stable (the JDK's {@code readObject} sizes a table
   * from the size and load factor, and resets the threshold of an empty map): default load factors,
   * filled by {@code put}, with {@code null} keys and values, shared values, a map that holds
   * itself, a set reached twice, linked ones in insertion and access order.
   */
  private static Holder stableGraph() {
    Holder h = new Holder();
    String shared = "shared";
    Map<Object, Object> grown = new HashMap<>();
    for (int i = 0; i < 200; i++) {
      grown.put(i % 50 == 0 ? null : Integer.valueOf(i * 7919), i % 3 == 0 ? shared : null);
    }
    grown.put("self", grown);
    h.map = grown;
    Set<Object> set = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      set.add(i % 33 == 0 ? null : "e" + i);
    }
    h.set = set;
    h.sameSet = set;
    LinkedHashMap<Object, Object> access = new LinkedHashMap<>(16, 0.75f, true);
    for (int i = 0; i < 60; i++) {
      access.put("k" + i, i % 2 == 0 ? shared : set);
    }
    access.get("k3");
    access.get("k0");
    Set<Object> linked = new LinkedHashSet<>();
    for (int i = 60; i > 0; i--) {
      linked.add(Integer.valueOf(i * 1000));
    }
    linked.add(shared);
    Map<String, Set<Object>> nested = new HashMap<>();
    nested.put("linked", linked);
    nested.put("set", set);
    TreeMap<String, Object> tree = new TreeMap<>();
    tree.put("access", access);
    tree.put("nested", nested);
    h.all.add(access);
    h.all.add(linked);
    h.all.add(nested);
    h.all.add(tree);
    h.all.add(grown);
    Map<Object, Object> inImmutable = new LinkedHashMap<>();
    inImmutable.put("one", 1);
    h.all.add(Set.of(inImmutable));
    return h;
  }

  /**
   * {@link #stableGraph()} and maps and sets the JDK's round trip changes: emptied after growth,
   * fresh of a given capacity, custom load factors.
   */
  private static Holder graph() {
    Holder h = stableGraph();
    Map<Object, Object> emptied = new HashMap<>();
    Set<Object> emptiedSet = new LinkedHashSet<>();
    for (int i = 0; i < 40; i++) {
      emptied.put(i, i);
      emptiedSet.add(i);
    }
    emptied.clear();
    emptiedSet.clear();
    Map<Object, Object> custom = new LinkedHashMap<>(3, 0.6f);
    Set<Object> customSet = new HashSet<>(5, 2.5f);
    for (int i = 0; i < 300; i++) {
      custom.put(i, h.all);
      customSet.add("c" + i);
    }
    h.all.addAll(
        List.of(
            emptied,
            emptiedSet,
            custom,
            customSet,
            new HashMap<>(1000),
            new HashSet<>(),
            new LinkedHashMap<>(7, 0.5f, true)));
    return h;
  }

  @Test
  void hashedCollectionsSurviveTheRoundTrip() {
    RoundTrip.of(stableGraph())
        .check(
            o -> {
              Holder h = (Holder) o;
              assertSame(h.set, h.sameSet);
              assertSame(h.map, h.map.get("self"));
              assertSame(h.set, ((Map<?, ?>) h.all.get(2)).get("set"));
            })
        .run();
  }

  /**
   * Where {@code HashMap}'s fields are readable (before JDK 24, or {@code java.util} opened), the
   * snapshot's maps and sets are captured from their state, else by their {@code writeObject}:
   * either way, the bytes are those of the capture that runs every {@code writeObject}.
   */
  @Test
  void theSnapshotIsThatOfRunningEveryWriteObject() throws Exception {
    Holder h = graph();
    byte[] known = Codese.toBytes(h);
    Capturer running = Capturer.runningEveryWriteObject(CodeseOptions.defaults());
    running.writeObject(h, false);
    byte[] ran = Pipeline.toFile(running.drain()).bytes();
    assertArrayEquals(
        ran,
        known,
        "snapshot of the capture that runs every writeObject, and of the one with known tapes"
            + " (HashMap fields readable: "
            + HashFields.readable()
            + ")");
  }
}
