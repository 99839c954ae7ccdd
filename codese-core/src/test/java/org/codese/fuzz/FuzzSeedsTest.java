package org.codese.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.codese.Codese;
import org.codese.CodeseOutputStream;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes the seed inputs of the fuzz tests, valid snapshots, streams and JDK {@code .ser} data made
 * from the sample graphs and small JDK collections, into the corpus directories that jazzer-junit
 * replays. Runs only when asked:
 *
 * <pre>
 * mvn -B -pl codese-core test -Dtest=FuzzSeedsTest \
 *     -Dcodese.fuzz.seeds=$PWD/codese-core/src/test/resources
 * </pre>
 *
 * <p>Seeds are named {@code seed-*}; inputs that Jazzer found are named {@code crash-*} or {@code
 * timeout-*}, and inputs added by hand {@code finding-*}.
 */
@EnabledIfSystemProperty(named = "codese.fuzz.seeds", matches = ".+")
class FuzzSeedsTest {
  /** A tiny serializable record and enum, for the small seeds. */
  record Pair(String name, int value) implements Serializable {}

  /** Small graphs: each reaches a different part of the format with few bytes. */
  static Map<String, Object> smallGraphs() {
    Map<String, Object> g = new LinkedHashMap<>();
    g.put("null", null);
    g.put("string", "h\u00e9llo");
    g.put("ints", new int[] {1, -2, Integer.MAX_VALUE});
    g.put("longs", new long[200]);
    g.put("strings", new String[] {"a", null, "a", ""});
    List<Object> list = new ArrayList<>(List.of(1, 2L, 3.5, 4.5f, (short) 5, (byte) 6, 'c', true));
    list.add(list);
    g.put("arraylist", list);
    g.put("hashmap", new HashMap<>(Map.of("a", 1, "b", 2)));
    g.put("treemap", new TreeMap<>(Map.of(2, "b", 1, "a")));
    g.put("linkedlist", new LinkedList<>(List.of("x", "y")));
    g.put("hashset", new HashSet<>(List.of(1, 2, 3, 4, 5, 6, 7)));
    g.put("deque", new ArrayDeque<>(List.of(1, 2)));
    EnumMap<TimeUnit, String> em = new EnumMap<>(TimeUnit.class);
    em.put(TimeUnit.SECONDS, "s");
    g.put("enummap", em);
    g.put("record", new Pair("p", 7));
    g.put("tree1", RedBlackTree.random(1, 1));
    g.put("tree12", RedBlackTree.random(12, 7));
    List<Object> many = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      many.add(i);
    }
    g.put("list300", many);
    g.put("tree100", RedBlackTree.random(100, 3));
    return g;
  }

  private static Path dir(String target) throws IOException {
    Path root = Path.of(System.getProperty("codese.fuzz.seeds"));
    Path d = root.resolve("org/codese/fuzz/" + target);
    Files.createDirectories(d);
    return d;
  }

  @Test
  void writeSnapshotSeeds() throws IOException {
    Path d = dir("SnapshotFuzzTestInputs/loadAndRestore");
    for (Map.Entry<String, Object> e : smallGraphs().entrySet()) {
      Files.write(d.resolve("seed-" + e.getKey()), Codese.toBytes(e.getValue()));
    }
    Files.write(d.resolve("seed-jdkcollections"), Codese.toBytes(SampleGraphs.jdkCollections()));
  }

  @Test
  void writeStreamSeeds() throws IOException {
    Path d = dir("StreamFuzzTestInputs/readStream");
    RedBlackTree tree = RedBlackTree.random(12, 7);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(b)) {
      out.writeObject(tree);
      out.writeInt(42);
      out.writeObject(tree);
      out.flush();
      out.writeUTF("between segments");
      out.write(new byte[1500]); // more than one 1024-byte data frame
      out.writeObject(new ArrayList<>(List.of(tree, "s")));
      out.writeUnshared(tree);
      out.reset();
      out.writeObject(new HashMap<>(Map.of("k", 1)));
    }
    Files.write(d.resolve("seed-shared-segments"), b.toByteArray());
    // a writer that flushed and never closed: no end mark
    b = new ByteArrayOutputStream();
    CodeseOutputStream open = new CodeseOutputStream(b);
    open.writeObject(tree);
    open.writeInt(3);
    open.flush();
    Files.write(d.resolve("seed-no-end-mark"), b.toByteArray());
    // many small objects, one segment each: shapes, dictionary references, a reset
    b = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(b)) {
      for (int k = 0; k < 12; k++) {
        out.writeObject(k % 4 == 3 ? new Pair("p" + k, k) : RedBlackTree.random(1, k));
        if (k == 6) {
          out.reset();
        }
      }
    }
    Files.write(d.resolve("seed-small-objects"), b.toByteArray());
    // seed-v1-shared-segments and seed-v2-shared-segments, written by stream format versions 1
    // and 2 (whole snapshots as segments), are kept as they are
    int i = 0;
    for (Map.Entry<String, Object> e : smallGraphs().entrySet()) {
      if (i++ % 3 != 0) {
        continue;
      }
      b = new ByteArrayOutputStream();
      try (CodeseOutputStream out = new CodeseOutputStream(b)) {
        out.writeObject(e.getValue());
        out.writeLong(7);
        out.flush();
        out.writeObject(e.getValue());
      }
      Files.write(d.resolve("seed-" + e.getKey()), b.toByteArray());
    }
    b = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(b)) {
      out.writeObject(SampleGraphs.jdkCollections());
    }
    Files.write(d.resolve("seed-jdkcollections"), b.toByteArray());
  }

  @Test
  void writeJdkSerSeeds() throws IOException {
    Path d = dir("JdkSerFuzzTestInputs/convertRoundTrip");
    String[] names = {
      "tree1",
      "tree12",
      "jdkcollections",
      "arraylist",
      "hashmap",
      "treemap",
      "linkedlist",
      "ints",
      "strings"
    };
    List<Object> graphs = JdkSerFuzzTest.seedGraphs();
    assertEquals(names.length, graphs.size());
    for (int i = 0; i < names.length; i++) {
      Files.write(d.resolve("seed-" + names[i]), JdkSerFuzzTest.jdkBytes(graphs.get(i)));
    }
  }
}
