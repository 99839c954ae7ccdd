package org.codese.bench.graphs;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.google.common.collect.HashBiMap;
import com.google.common.collect.HashMultimap;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.LinkedListMultimap;
import com.google.common.collect.TreeMultiset;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.commons.collections4.bidimap.TreeBidiMap;
import org.apache.commons.collections4.map.LinkedMap;
import org.apache.commons.collections4.multimap.ArrayListValuedHashMap;
import org.apache.commons.collections4.trie.PatriciaTrie;
import org.apache.commons.math3.analysis.polynomials.PolynomialFunction;
import org.apache.commons.math3.fitting.PolynomialCurveFitter;
import org.apache.commons.math3.fitting.WeightedObservedPoints;
import org.apache.commons.math3.random.EmpiricalDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;
import org.jgrapht.graph.DefaultDirectedWeightedGraph;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/** The benchmark graphs by name. Every builder is deterministic. */
public final class Graphs {
  private Graphs() {}

  /** The red-black tree sizes of the paper's Section 4.1. */
  public static final List<Integer> RBT_SIZES =
      List.of(10, 100, 1_000, 10_000, 100_000, 1_000_000, 4_000_000);

  /** The real graphs, each with the library that builds it. */
  public static final Map<String, String> REAL = new LinkedHashMap<>();

  static {
    REAL.put("jdk-collections", "codese-samples SampleGraphs.jdkCollections()");
    REAL.put("media-content", "jvm-serializers MediaContent (POJOs written from the schema)");
    REAL.put(
        "math3-fitted",
        "commons-math3 3.6.1: EmpiricalDistribution, DescriptiveStatistics,"
            + " SimpleRegression, fitted PolynomialFunction");
    REAL.put(
        "guava-collections",
        "Guava 33: HashMultimap, LinkedListMultimap, TreeMultiset,"
            + " HashBiMap, ImmutableSortedMap, ImmutableList");
    REAL.put(
        "cc4-collections",
        "commons-collections4 4.4: PatriciaTrie, TreeBidiMap, LinkedMap,"
            + " ArrayListValuedHashMap");
    REAL.put(
        "jgrapht-graph",
        "JGraphT 1.5.2: DefaultDirectedWeightedGraph, 1,000 vertices," + " 4,000 weighted edges");
    REAL.put(
        "map-of-lists", "JDK: HashMap<String, ArrayList<Integer>>, 10,000 keys, 0-9 Integers each");
    REAL.put("treemap-100000", "JDK: TreeMap<Integer, String>, 100,000 entries");
    REAL.put(
        "inverted-index",
        "a precomputed model: 8,000 terms with about 320,000 int[] postings, 3,000 records,"
            + " an enum, a TreeMap and an EnumMap");
    REAL.put("asm-classnode", "ASM tree API: ClassNode of commons-math3's BlockRealMatrix.class");
    REAL.put(
        "javaparser-ast",
        "JavaParser 3.26: CompilationUnit of codese-samples'" + " SampleGraphs.java");
  }

  /**
   * @return all graph names of the full run, in report order
   */
  public static List<String> all() {
    List<String> names = new ArrayList<>();
    for (int n : RBT_SIZES) {
      names.add("rbt-" + n);
    }
    names.addAll(REAL.keySet());
    return names;
  }

  /**
   * @param name a graph name
   * @return a one-line description of the graph
   */
  public static String describe(String name) {
    if (name.startsWith("rbt-")) {
      return "codese-samples RedBlackTree.random(" + name.substring(4) + ", 42)";
    }
    return REAL.getOrDefault(name, name);
  }

  /**
   * Builds a graph.
   *
   * @param name a graph name
   * @return the root of a new graph
   * @throws Exception if the graph cannot be built
   */
  public static Object build(String name) throws Exception {
    if (name.startsWith("rbt-")) {
      return RedBlackTree.random(Integer.parseInt(name.substring(4)), 42);
    }
    switch (name) {
      case "jdk-collections":
        return SampleGraphs.jdkCollections();
      case "media-content":
        return MediaContent.standard();
      case "math3-fitted":
        return math3();
      case "guava-collections":
        return guava();
      case "cc4-collections":
        return collections4();
      case "jgrapht-graph":
        return jgrapht();
      case "map-of-lists":
        return mapOfLists();
      case "treemap-100000":
        return treeMap();
      case "inverted-index":
        return invertedIndex();
      case "asm-classnode":
        return asm();
      case "javaparser-ast":
        return javaparser();
      default:
        throw new IllegalArgumentException("unknown graph " + name);
    }
  }

  private static String word(Random random) {
    StringBuilder b = new StringBuilder();
    for (int i = 3 + random.nextInt(7); i > 0; i--) {
      b.append((char) ('a' + random.nextInt(26)));
    }
    return b.toString();
  }

  private static Object math3() {
    Random random = new Random(7);
    double[] samples = new double[20_000];
    for (int i = 0; i < samples.length; i++) {
      samples[i] = random.nextGaussian() * 3 + (i % 3 == 0 ? 10 : 0);
    }
    EmpiricalDistribution empirical = new EmpiricalDistribution(200, new Well19937c(11));
    empirical.load(samples);
    DescriptiveStatistics stats = new DescriptiveStatistics();
    for (int i = 0; i < 5_000; i++) {
      stats.addValue(samples[i]);
    }
    SimpleRegression regression = new SimpleRegression();
    WeightedObservedPoints points = new WeightedObservedPoints();
    for (int i = 0; i < 2_000; i++) {
      double x = i / 100.0;
      double y = 1.5 - 0.3 * x + 0.02 * x * x + random.nextGaussian() * 0.1;
      regression.addData(x, y);
      points.add(x, y);
    }
    PolynomialFunction fitted =
        new PolynomialFunction(PolynomialCurveFitter.create(4).fit(points.toList()));
    List<Object> root = new ArrayList<>();
    root.add(empirical);
    root.add(stats);
    root.add(regression);
    root.add(fitted);
    root.add(new ArrayList<>(points.toList()));
    return root;
  }

  private static Object guava() {
    Random random = new Random(8);
    HashMultimap<String, Integer> byWord = HashMultimap.create();
    LinkedListMultimap<Integer, String> events = LinkedListMultimap.create();
    TreeMultiset<String> counts = TreeMultiset.create();
    HashBiMap<String, Integer> ids = HashBiMap.create();
    TreeMap<String, Integer> sorted = new TreeMap<>();
    for (int i = 0; i < 3_000; i++) {
      String w = word(random);
      byWord.put(w.substring(0, 2), i);
      events.put(random.nextInt(200), w);
      counts.add(w.substring(0, 3), 1 + random.nextInt(3));
      ids.forcePut(w, i);
      sorted.put(w, i);
    }
    List<Object> root = new ArrayList<>();
    root.add(byWord);
    root.add(events);
    root.add(counts);
    root.add(ids);
    root.add(ImmutableSortedMap.copyOf(sorted));
    root.add(ImmutableList.copyOf(sorted.keySet()));
    return root;
  }

  private static Object collections4() {
    Random random = new Random(9);
    PatriciaTrie<Integer> trie = new PatriciaTrie<>();
    TreeBidiMap<String, Integer> bidi = new TreeBidiMap<>();
    LinkedMap<Integer, String> linked = new LinkedMap<>();
    ArrayListValuedHashMap<String, String> multi = new ArrayListValuedHashMap<>();
    for (int i = 0; i < 3_000; i++) {
      String w = word(random);
      trie.put(w, i);
      bidi.put(w + i, i);
      linked.put(i, w);
      multi.put(w.substring(0, 2), w);
    }
    List<Object> root = new ArrayList<>();
    root.add(trie);
    root.add(bidi);
    root.add(linked);
    root.add(multi);
    return root;
  }

  /** The graph of issue 8's first table: a map of short lists of boxes. */
  private static Object mapOfLists() {
    Random random = new Random(12);
    java.util.HashMap<String, ArrayList<Integer>> map = new java.util.HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      ArrayList<Integer> list = new ArrayList<>();
      for (int k = random.nextInt(10); k > 0; k--) {
        list.add(random.nextInt(100_000));
      }
      map.put("key-" + i, list);
    }
    return map;
  }

  /** Where a term occurs in a document. */
  public enum Section {
    /** the title */
    TITLE,
    /** the body */
    BODY,
    /** the tags */
    TAGS
  }

  /**
   * A document of the index.
   *
   * @param id its number
   * @param title its title
   * @param section where it is mostly indexed
   * @param boost its weight
   */
  public record Doc(int id, String title, Section section, double boost)
      implements java.io.Serializable {}

  /**
   * Issue 8's "precomputed model": per term, postings of (document, positions...) as small int
   * arrays; the documents as records; document frequencies in a TreeMap; counts per section.
   */
  private static Object invertedIndex() {
    Random random = new Random(14);
    List<Doc> docs = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      docs.add(
          new Doc(
              i, word(random) + " " + word(random), Section.values()[i % 3], random.nextDouble()));
    }
    java.util.HashMap<String, List<int[]>> postings = new java.util.HashMap<>();
    TreeMap<String, Integer> frequency = new TreeMap<>();
    java.util.EnumMap<Section, Integer> perSection = new java.util.EnumMap<>(Section.class);
    for (int t = 0; t < 8_000; t++) {
      String term = word(random) + t;
      List<int[]> list = new ArrayList<>();
      for (int n = 1 + random.nextInt(80); n > 0; n--) {
        int[] posting = new int[2 + random.nextInt(4)];
        posting[0] = random.nextInt(docs.size());
        for (int k = 1; k < posting.length; k++) {
          posting[k] = random.nextInt(2_000);
        }
        list.add(posting);
      }
      postings.put(term, list);
      frequency.put(term, list.size());
      perSection.merge(Section.values()[t % 3], list.size(), Integer::sum);
    }
    List<Object> model = new ArrayList<>();
    model.add(docs);
    model.add(postings);
    model.add(frequency);
    model.add(perSection);
    return model;
  }

  private static Object treeMap() {
    Random random = new Random(13);
    TreeMap<Integer, String> map = new TreeMap<>();
    while (map.size() < 100_000) {
      map.put(random.nextInt(), word(random));
    }
    return map;
  }

  private static Object jgrapht() {
    Random random = new Random(10);
    DefaultDirectedWeightedGraph<String, DefaultWeightedEdge> g =
        new DefaultDirectedWeightedGraph<>(DefaultWeightedEdge.class);
    List<String> vertices = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      String v = "v" + i;
      g.addVertex(v);
      vertices.add(v);
    }
    while (g.edgeSet().size() < 4_000) {
      String a = vertices.get(random.nextInt(vertices.size()));
      String b = vertices.get(random.nextInt(vertices.size()));
      if (!a.equals(b)) {
        DefaultWeightedEdge e = g.addEdge(a, b);
        if (e != null) {
          g.setEdgeWeight(e, random.nextDouble());
        }
      }
    }
    return g;
  }

  private static byte[] resource(String path) throws IOException {
    try (InputStream in = Graphs.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IOException("missing resource " + path);
      }
      return in.readAllBytes();
    }
  }

  private static Object asm() throws IOException {
    ClassNode node = new ClassNode();
    new ClassReader(resource("org/apache/commons/math3/linear/BlockRealMatrix.class"))
        .accept(node, 0);
    return node;
  }

  private static Object javaparser() throws IOException {
    String source =
        new String(resource("org/codese/bench/source/SampleGraphs.java"), StandardCharsets.UTF_8);
    ParserConfiguration config =
        new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17);
    return new JavaParser(config).parse(source).getResult().orElseThrow();
  }
}
