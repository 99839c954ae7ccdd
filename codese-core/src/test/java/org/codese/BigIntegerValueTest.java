package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.testkit.FilterAsked;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;

/**
 * {@code BigInteger}s that fit in a {@code long} made from data ({@link Grammar#STEP_VALUES} kind
 * {@code 'B'}, format {@link Grammar#BIG_INTEGER_VERSION}) instead of replaying their serial form:
 * restored as new objects with the JDK's sharing, larger ones still replayed, the filter asked
 * about the {@code BigInteger} class and its magnitude's {@code byte[]} with its length as the
 * JDK's reader asks, and the kind refused in snapshots of earlier formats.
 */
class BigIntegerValueTest {
  /** The JDK's cached {@code BigInteger.ONE}, twice; the edges of a long; larger values. */
  static List<Object> graph() {
    List<Object> root = new ArrayList<>();
    BigInteger one = BigInteger.valueOf(1);
    root.add(one);
    root.add(one);
    for (long v = -17; v <= 17; v++) {
      root.add(BigInteger.valueOf(v * 1_000_003L));
    }
    root.add(BigInteger.valueOf(Long.MIN_VALUE));
    root.add(BigInteger.valueOf(Long.MAX_VALUE));
    root.add(BigInteger.ONE.shiftLeft(63)); // one bit too many for a long
    root.add(BigInteger.TEN.pow(40).negate());
    root.add(BigDecimal.valueOf(314, 2)); // its unscaled value made when it is written
    root.add(new BigDecimal(BigInteger.TEN.pow(30), 7));
    return root;
  }

  @Test
  void bigIntegersRestoreAsTheJdkRestoresThem() {
    RoundTrip.of(graph())
        .check(
            o -> {
              List<?> l = (List<?>) o;
              assertSame(l.get(0), l.get(1), "one object referred to twice is one again");
              assertNotSame(BigInteger.ONE, l.get(0), "a new object, as readObject makes");
              assertEquals(BigInteger.valueOf(Long.MIN_VALUE), l.get(37));
              assertEquals(BigInteger.ONE.shiftLeft(63), l.get(39));
            })
        .run();
  }

  @Test
  void thoseThatFitInALongAreDataAndFromFormat13AllOthersToo() throws IOException {
    List<Object> small = new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.valueOf(-5)));
    small.add(BigInteger.valueOf(Long.MIN_VALUE));
    SnapshotFile file = SnapshotFile.parse(Codese.toBytes(small));
    assertTrue(file.version() >= Grammar.BIG_INTEGER_VERSION, "format " + file.version());
    assertEquals(0, hooks(file), "no replayed hook");
    small.add(BigInteger.ONE.shiftLeft(63));
    small.add(BigInteger.ONE.shiftLeft(64).negate());
    small.add(new BigInteger("-123456789012345678901234567890123456789012345678901234567890"));
    small.add(BigInteger.ONE.shiftLeft(10_000).subtract(BigInteger.TWO)); // 157 words
    assertEquals(0, hooks(SnapshotFile.parse(Codese.toBytes(small))), "nor of any size");
    RoundTrip.of(small).run();
  }

  @Test
  void aBigIntegerOfWordsIsCheckedAgainstItsData() throws IOException {
    // the word count of an 'M' value names more words than the data hold, or a negative count
    for (long words : new long[] {3, -1, Long.MAX_VALUE, 1L << 40}) {
      SnapshotEdit e =
          SnapshotEdit.of(Codese.toBytes(new ArrayList<>(List.of(BigInteger.ONE.shiftLeft(70)))));
      int at =
          e.constantIndex(c -> c instanceof Constant.PrimArray p && p.array() instanceof long[]);
      long[] d = ((long[]) ((Constant.PrimArray) e.constant(at)).array()).clone();
      d[1] = words;
      e.setConstant(at, new Constant.PrimArray(d));
      String m =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
      assertTrue(m.contains("makes a BigInteger of " + words + " words"), m);
    }
    // a signum that does not match the magnitude fails as BigInteger's constructor fails
    SnapshotEdit e =
        SnapshotEdit.of(Codese.toBytes(new ArrayList<>(List.of(BigInteger.ONE.shiftLeft(70)))));
    int at = e.constantIndex(c -> c instanceof Constant.PrimArray p && p.array() instanceof long[]);
    long[] d = ((long[]) ((Constant.PrimArray) e.constant(at)).array()).clone();
    d[0] = 0;
    e.setConstant(at, new Constant.PrimArray(d));
    Snapshot s = Codese.load(e.bytes());
    assertInstanceOf(
        NumberFormatException.class, assertThrows(RestoreException.class, s::restore).getCause());
  }

  private static long hooks(SnapshotFile file) {
    return file.constants().stream().filter(c -> c instanceof Constant.Hook).count();
  }

  @Test
  void theFilterIsAskedAboutTheClassesAJdkStreamHolds() throws IOException {
    Object graph = new ArrayList<>(List.of(BigInteger.valueOf(7), BigInteger.valueOf(-300)));
    List<String> jdk = FilterAsked.classes(graph, false);
    List<String> codese = FilterAsked.classes(graph, true);
    assertTrue(jdk.contains("[B") && jdk.contains("java.math.BigInteger"), jdk.toString());
    assertEquals(
        jdk.stream().distinct().sorted().toList(), codese.stream().distinct().sorted().toList());
  }

  @Test
  void theMagnitudesLengthCountsAsTheJdksReaderCountsIt() throws IOException {
    Object graph = BigInteger.valueOf(Long.MAX_VALUE); // a magnitude of 8 bytes
    ObjectInputFilter seven = ObjectInputFilter.Config.createFilter("maxarray=7");
    assertThrows(InvalidClassException.class, () -> FilterAsked.jdkRead(graph, seven));
    byte[] snapshot = Codese.toBytes(graph);
    assertThrows(
        InvalidClassException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(seven)));
    ObjectInputFilter noBytes =
        info ->
            info.serialClass() == byte[].class
                ? ObjectInputFilter.Status.REJECTED
                : ObjectInputFilter.Status.UNDECIDED;
    assertThrows(InvalidClassException.class, () -> FilterAsked.jdkRead(graph, noBytes));
    assertThrows(
        InvalidClassException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(noBytes)));
    ObjectInputFilter eight = ObjectInputFilter.Config.createFilter("maxarray=8");
    assertEquals(graph, FilterAsked.jdkRead(graph, eight));
    assertEquals(
        graph,
        Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(eight)).restore());
  }

  @Test
  void anEarlierFormatMakesNoBigIntegers() throws IOException {
    SnapshotFile file = SnapshotFile.parse(Codese.toBytes(new ArrayList<>(graph())));
    byte[] older = SnapshotEdit.relabel(file, Grammar.STORE_VERSION).bytes();
    String message =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(older)).getMessage();
    assertTrue(message.contains("which format 10 does not make"), message);
  }

  @Test
  void bigIntegerValuesWithoutTheirArrayClassAreRefused() throws IOException {
    SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(BigInteger.valueOf(12345)));
    e.rename(byte[].class, "[C");
    String message =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
    assertTrue(message.contains("without [B, whose descriptor"), message);
  }

  /** A JDK stream holds a BigInteger's magnitude one level below it: the depth counts it. */
  @Test
  void theDepthTheFilterIsToldCountsTheMagnitude() throws IOException {
    for (Object graph :
        List.of(BigInteger.valueOf(99), new ArrayList<>(List.of(BigInteger.valueOf(-99))))) {
      byte[] snapshot = Codese.toBytes(graph);
      int jdkDepth = 0;
      for (int max = 1; max <= 4 && jdkDepth == 0; max++) {
        ObjectInputFilter limit = ObjectInputFilter.Config.createFilter("maxdepth=" + max);
        boolean jdkAccepts = accepts(() -> FilterAsked.jdkRead(graph, limit));
        boolean codeseAccepts =
            accepts(
                () ->
                    Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(limit))
                        .restore());
        assertEquals(jdkAccepts, codeseAccepts, "maxdepth=" + max + " for " + graph);
        jdkDepth = jdkAccepts ? max : 0;
      }
      assertTrue(jdkDepth > 1, "the JDK's reader accepts the graph at some depth: " + graph);
    }
  }

  private interface Read {
    Object run() throws IOException;
  }

  private static boolean accepts(Read read) throws IOException {
    try {
      read.run();
      return true;
    } catch (InvalidClassException e) {
      return false;
    }
  }

  @Test
  void bigIntegerValuesWithoutNumberAreRefused() throws IOException {
    SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(BigInteger.valueOf(-77)));
    e.rename(Number.class, "java.lang.Integer");
    String message =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
    assertTrue(message.contains("without java/lang/Number"), message);
  }

  /**
   * A whole snapshot as a stream segment (stream format 2) that makes BigIntegers from data is
   * refused: a stream replays them, so that the stream's hooks see their magnitudes.
   */
  @Test
  void aStreamSegmentMakingBigIntegersIsRefused() throws IOException {
    byte[] stream = SnapshotEdit.stream(Codese.toBytes(BigInteger.valueOf(5)));
    try (CodeseInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
      UnsafeSnapshotException x = assertThrows(UnsafeSnapshotException.class, in::readObject);
      assertTrue(x.getMessage().contains("which streams do not make"), x.getMessage());
    }
  }
}
