package org.codese.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.codese.junit.Fixture;
import org.codese.samples.RedBlackTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Test fixtures (issue 11): a JUnit 5 test class of {@code TESTS} tests, each needing a fresh copy
 * of a 100,000-object fixture (the paper's red-black tree, {@code rbt-100000}) that it mutates.
 * Three ways to give each test its copy, each run by the JUnit launcher in a fresh JVM and timed
 * from the JVM's {@code main} to the last test's end:
 *
 * <ul>
 *   <li>{@code build}: {@code @BeforeEach} builds the tree by inserting its keys;
 *   <li>{@code jdk}: {@code @BeforeAll} reads the JDK-serialized bytes, {@code @BeforeEach}
 *       deserializes them with {@code ObjectInputStream};
 *   <li>{@code codese}: a {@code @Fixture} field of codese-junit (loaded once per class, one {@code
 *       restore()} per test).
 * </ul>
 */
public final class FixtureCase {
  /** The number of tests of a full run. */
  static final int TESTS = 1_000;

  /** The fixture's size, in nodes (plus the tree object). */
  static final int NODES = 100_000;

  /** The variants timed. */
  static final String[] VARIANTS = {"build", "jdk", "codese"};

  private static final String TESTS_KEY = "codese.bench.fixture.tests";
  private static final String SER_KEY = "codese.bench.fixture.ser";

  private FixtureCase() {}

  /**
   * @return the fixture, as the factory and {@code @BeforeEach} build it
   */
  public static RedBlackTree build() {
    return RedBlackTree.random(NODES, 42);
  }

  static IntStream tests() {
    return IntStream.range(0, Integer.getInteger(TESTS_KEY, TESTS));
  }

  /** What each test does with its copy: inserts a key of its own and checks the size. */
  static void use(RedBlackTree tree, int test) {
    assertEquals(NODES, tree.size(), "a copy another test changed");
    assertTrue(tree.put(-1 - test) || tree.put(Integer.MIN_VALUE + test));
    assertEquals(NODES + 1, tree.size());
  }

  /** {@code build}: a new tree before each test. */
  public static final class BuildTests {
    private RedBlackTree tree;

    @BeforeEach
    void setUp() {
      tree = build();
    }

    @ParameterizedTest
    @MethodSource("org.codese.bench.FixtureCase#tests")
    void test(int i) {
      use(tree, i);
    }
  }

  /** {@code jdk}: the serialized bytes read once, deserialized before each test. */
  public static final class JdkTests {
    private static byte[] bytes;
    private RedBlackTree tree;

    @BeforeAll
    static void read() throws Exception {
      bytes = Files.readAllBytes(Path.of(System.getProperty(SER_KEY)));
    }

    @BeforeEach
    void setUp() throws Exception {
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
        tree = (RedBlackTree) in.readObject();
      }
    }

    @ParameterizedTest
    @MethodSource("org.codese.bench.FixtureCase#tests")
    void test(int i) {
      use(tree, i);
    }
  }

  /** {@code codese}: a captured fixture, a fresh copy per test. */
  public static final class CodeseTests {
    @Fixture(value = "rbt-100000", factory = "org.codese.bench.FixtureCase#build")
    RedBlackTree tree;

    @ParameterizedTest
    @MethodSource("org.codese.bench.FixtureCase#tests")
    void test(int i) {
      use(tree, i);
    }
  }

  /**
   * Writes the JDK's bytes and records the Codese fixture (by running one Codese test), in {@code
   * dir}.
   *
   * @param dir the work directory
   * @throws Exception if writing or recording fails
   */
  static void prepare(Path dir) throws Exception {
    try (OutputStream o = Files.newOutputStream(dir.resolve("fixture.ser"));
        ObjectOutputStream out = new ObjectOutputStream(o)) {
      out.writeObject(build());
    }
    System.setProperty(TESTS_KEY, "1");
    run("codese", dir);
  }

  /**
   * Runs one variant's test class with the JUnit launcher.
   *
   * @param variant {@code build}, {@code jdk} or {@code codese}
   * @param dir the work directory {@link #prepare} filled
   * @return the tests that succeeded and those that failed
   */
  static long[] run(String variant, Path dir) {
    System.setProperty(SER_KEY, dir.resolve("fixture.ser").toString());
    Class<?> tests =
        variant.equals("build")
            ? BuildTests.class
            : variant.equals("jdk") ? JdkTests.class : CodeseTests.class;
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(DiscoverySelectors.selectClass(tests))
            .configurationParameter("codese.fixtures.dir", dir.resolve("fixtures").toString())
            .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, listener);
    TestExecutionSummary s = listener.getSummary();
    if (!s.getFailures().isEmpty()) {
      s.getFailures().get(0).getException().printStackTrace(System.out);
    }
    return new long[] {s.getTestsSucceededCount(), s.getTestsFailedCount()};
  }
}
