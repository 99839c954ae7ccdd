package org.codese.large;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.Deflater;
import org.codese.Codese;
import org.codese.CodeseOptions;
import org.codese.Snapshot;
import org.codese.format.Compression;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;

/**
 * What {@link CodeseOptions#withCompression} costs and saves, for the sample graphs: bytes of JDK
 * serialization, of the snapshot and of the compressed snapshot (also at DEFLATE levels 1 and 9,
 * for comparison with the default level Codese writes), and the medians, in one JVM, of capture
 * ({@code Codese.toBytes}) and load ({@code Codese.load}, checks and class definition, no restore)
 * without and with compression, alternating, and of compressing and inflating alone. Run: {@code
 * java -cp <test classpath> org.codese.large.CompressionCost [runs]}.
 */
public final class CompressionCost {
  private static final CodeseOptions COMPRESSED = CodeseOptions.defaults().withCompression(true);

  private CompressionCost() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 11;
    Map<String, Object> graphs = new LinkedHashMap<>();
    graphs.put("rbt-1000", RedBlackTree.random(1_000, 42));
    graphs.put("rbt-100000", RedBlackTree.random(100_000, 42));
    graphs.put("jdk-collections", SampleGraphs.jdkCollections());
    TreeMap<Integer, String> tree = new TreeMap<>();
    for (int i = 0; i < 100_000; i++) {
      tree.put(i, "value-" + i);
    }
    graphs.put("TreeMap<Integer,String> 100000", tree);
    HashMap<String, ArrayList<Integer>> lists = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      lists.put("key-" + i, new ArrayList<>(java.util.List.of(i, i * 2, i * 3)));
    }
    graphs.put("HashMap<String,ArrayList<Integer>> 10000", lists);
    System.out.println(
        "JDK " + System.getProperty("java.version") + ", medians of " + runs + " after 5 untimed");
    System.out.println(
        "| graph | JDK bytes | snapshot | compressed | level 1 | level 9 | compressed / JDK"
            + " | capture ms | +compression ms | compress alone ms | load ms | +compression ms"
            + " | inflate alone ms |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Map.Entry<String, Object> e : graphs.entrySet()) {
      measure(e.getKey(), e.getValue(), runs);
    }
  }

  private static void measure(String name, Object graph, int runs) throws Exception {
    byte[] jdk = jdk(graph);
    byte[] plain = Codese.toBytes(graph);
    byte[] packed = Codese.toBytes(graph, COMPRESSED);
    int level1 = deflated(plain, 1);
    int level6 = deflated(plain, 6);
    int level9 = deflated(plain, 9);
    double[] time1 = new double[runs];
    double[] time6 = new double[runs];
    double[] time9 = new double[runs];
    for (int i = -3; i < runs; i++) {
      long t0 = System.nanoTime();
      deflated(plain, 1);
      long t1 = System.nanoTime();
      deflated(plain, 6);
      long t2 = System.nanoTime();
      deflated(plain, 9);
      long t3 = System.nanoTime();
      if (i >= 0) {
        time1[i] = (t1 - t0) / 1e6;
        time6[i] = (t2 - t1) / 1e6;
        time9[i] = (t3 - t2) / 1e6;
      }
    }
    System.out.printf(
        java.util.Locale.ROOT,
        "  %s levels: 1: %,d B %.2f ms; 6: %,d B %.2f ms; 9: %,d B %.2f ms%n",
        name,
        level1 + Compression.HEADER,
        median(time1),
        level6 + Compression.HEADER,
        median(time6),
        level9 + Compression.HEADER,
        median(time9));
    double[] capture = new double[runs];
    double[] capturePacked = new double[runs];
    double[] compress = new double[runs];
    double[] load = new double[runs];
    double[] loadPacked = new double[runs];
    double[] inflate = new double[runs];
    for (int i = -5; i < runs; i++) {
      long t0 = System.nanoTime();
      byte[] a = Codese.toBytes(graph);
      long t1 = System.nanoTime();
      byte[] b = Codese.toBytes(graph, COMPRESSED);
      long t2 = System.nanoTime();
      byte[] c = Compression.compress(plain);
      long t3 = System.nanoTime();
      try (Snapshot s = Codese.load(plain)) {
        // load and check only
      }
      long t4 = System.nanoTime();
      try (Snapshot s = Codese.load(packed)) {
        // the same, inflating first
      }
      long t5 = System.nanoTime();
      byte[] d = Compression.inflate(packed, 0, Long.MAX_VALUE);
      long t6 = System.nanoTime();
      if (a.length + b.length + c.length + d.length == 0) {
        throw new AssertionError();
      }
      if (i >= 0) {
        capture[i] = (t1 - t0) / 1e6;
        capturePacked[i] = (t2 - t1) / 1e6;
        compress[i] = (t3 - t2) / 1e6;
        load[i] = (t4 - t3) / 1e6;
        loadPacked[i] = (t5 - t4) / 1e6;
        inflate[i] = (t6 - t5) / 1e6;
      }
    }
    System.out.printf(
        java.util.Locale.ROOT,
        "| %s | %,d | %,d | %,d | %,d | %,d | %.2f | %.2f | %+.2f | %.2f | %.2f | %+.2f | %.2f |%n",
        name,
        jdk.length,
        plain.length,
        packed.length,
        level1 + Compression.HEADER,
        level9 + Compression.HEADER,
        (double) packed.length / jdk.length,
        median(capture),
        median(capturePacked) - median(capture),
        median(compress),
        median(load),
        median(loadPacked) - median(load),
        median(inflate));
  }

  private static byte[] jdk(Object graph) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(graph);
    }
    return bytes.toByteArray();
  }

  private static int deflated(byte[] data, int level) {
    Deflater d = new Deflater(level);
    d.setInput(data);
    d.finish();
    byte[] buf = new byte[1 << 16];
    int n = 0;
    while (!d.finished()) {
      n += d.deflate(buf);
    }
    d.end();
    return n;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
