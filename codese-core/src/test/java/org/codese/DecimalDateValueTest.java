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
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.samples.SampleGraphs;
import org.codese.testkit.FilterAsked;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code BigDecimal}s whose unscaled value fits in a {@code long} and {@code java.util.Date}s made
 * from data ({@link Grammar#STEP_VALUES} kinds {@code 'N'} and {@code 'J'}, format {@link
 * Grammar#DECIMAL_VERSION}) instead of replaying their {@code readObject}: restored to the JDK's
 * bytes with the JDK's sharing (a {@code BigDecimal}'s {@code BigInteger} shared with the rest of
 * the graph stays one object), subclasses and larger values still replayed, the filter asked what
 * the JDK's reader asks, and hostile programs refused before anything runs.
 */
class DecimalDateValueTest {
  /** An object holding a decimal, in a cycle: {@code next} comes back to the first. */
  static final class Account implements Serializable {
    private static final long serialVersionUID = 1L;
    BigDecimal balance;
    BigInteger cents;
    Date opened;
    Account next;
  }

  /** Many scales, signs and magnitudes; compact and inflated forms; the JDK's cached instances. */
  static List<Object> decimals() {
    List<Object> root = new ArrayList<>();
    root.add(BigDecimal.ZERO);
    root.add(BigDecimal.ONE);
    root.add(BigDecimal.TEN);
    root.add(BigDecimal.ZERO.setScale(2));
    root.add(BigDecimal.valueOf(0, 5));
    root.add(BigDecimal.valueOf(-1, -3)); // negative scale
    root.add(BigDecimal.valueOf(7, Integer.MAX_VALUE));
    root.add(BigDecimal.valueOf(-7, Integer.MIN_VALUE));
    root.add(new BigDecimal("123.4500"));
    root.add(new BigDecimal("-0.000000000000000000001"));
    root.add(BigDecimal.valueOf(1.5));
    root.add(BigDecimal.valueOf(Long.MAX_VALUE, 3));
    root.add(BigDecimal.valueOf(Long.MIN_VALUE, -7));
    root.add(new BigDecimal(BigInteger.valueOf(-42), 9)); // made from a BigInteger: intVal set
    root.add(new BigDecimal("12345678901234567").multiply(BigDecimal.valueOf(3, 1)));
    root.add(new BigDecimal(BigInteger.TEN.pow(25), 2)); // no long: replayed
    root.add(new BigDecimal(BigInteger.ONE.shiftLeft(63).negate(), 0)); // Long.MIN_VALUE fits
    root.add(new BigDecimal(BigInteger.ONE.shiftLeft(63), 0)); // one bit too many
    for (int i = -20; i <= 20; i++) {
      root.add(BigDecimal.valueOf(i * 1_000_003L + i, i));
    }
    return root;
  }

  @Test
  void decimalsRestoreAsTheJdkRestoresThem() {
    List<Object> g = decimals();
    RoundTrip.of(g)
        .check(
            o -> {
              List<?> l = (List<?>) o;
              for (int i = 0; i < g.size(); i++) {
                assertEquals(g.get(i), l.get(i), "element " + i);
                assertEquals(
                    ((BigDecimal) g.get(i)).scale(), ((BigDecimal) l.get(i)).scale(), "scale " + i);
              }
              assertNotSame(BigDecimal.ZERO, l.get(0), "a new object, as readObject makes");
            })
        .run();
  }

  /**
   * A BigInteger that is a decimal's unscaled value and also referred to elsewhere, before and
   * after the decimal in the JDK's order; one decimal referred to twice; cached BigIntegers.
   */
  static List<Object> shared() {
    List<Object> root = new ArrayList<>();
    BigInteger before = BigInteger.valueOf(271_828);
    root.add(before);
    BigDecimal a = new BigDecimal(before, 5);
    root.add(a);
    BigInteger after = BigInteger.valueOf(-314_159);
    root.add(new BigDecimal(after, -2));
    root.add(after);
    root.add(a); // the same decimal again
    root.add(new BigDecimal(before, 1)); // another decimal of the same BigInteger
    root.add(BigInteger.ONE); // the JDK's cached instance, which BigDecimal.ONE holds
    root.add(BigDecimal.ONE);
    return root;
  }

  @Test
  void aBigIntegerSharedWithADecimalStaysOneObject() {
    RoundTrip.of(shared())
        .check(
            o -> {
              List<?> l = (List<?>) o;
              assertSame(l.get(0), ((BigDecimal) l.get(1)).unscaledValue());
              assertSame(l.get(3), ((BigDecimal) l.get(2)).unscaledValue());
              assertSame(l.get(1), l.get(4));
              assertSame(l.get(0), ((BigDecimal) l.get(5)).unscaledValue());
              assertSame(l.get(6), ((BigDecimal) l.get(7)).unscaledValue());
              assertNotSame(BigInteger.ONE, l.get(6));
            })
        .run();
  }

  /**
   * With static constants captured as themselves, a decimal whose BigInteger is such a constant
   * ({@code BigInteger.ZERO}, {@code BigInteger.TEN}) is replayed and refers to that constant, as
   * its {@code writeObject} finds it; a decimal that is one is itself; the others are values.
   */
  @Test
  void withStaticConstantsADecimalOfAConstantBigIntegerIsReplayed() throws IOException {
    CodeseOptions statics = CodeseOptions.defaults().withStaticConstants(true);
    List<Object> g = new ArrayList<>();
    g.add(BigDecimal.valueOf(0, 5)); // its unscaled value: BigInteger.ZERO
    g.add(new BigDecimal(BigInteger.TEN, 1));
    g.add(BigDecimal.ZERO);
    g.add(BigDecimal.valueOf(-987_654, 3));
    g.add(new Date(99));
    byte[] snapshot = Codese.toBytes(g, statics);
    List<?> back = (List<?>) Codese.fromBytes(snapshot, statics);
    assertEquals(g, back);
    assertSame(BigInteger.ZERO, ((BigDecimal) back.get(0)).unscaledValue());
    assertSame(BigInteger.TEN, ((BigDecimal) back.get(1)).unscaledValue());
    assertSame(BigDecimal.ZERO, back.get(2));
    assertEquals(2, hooks(snapshot), "the two decimals of constants are replayed");
  }

  /** Accounts in a ring, sharing decimals, BigIntegers and dates. */
  static Account ring(int n) {
    Account first = new Account();
    Account a = first;
    BigDecimal sharedBalance = new BigDecimal("99.95");
    for (int i = 0; i < n; i++) {
      a.cents = BigInteger.valueOf(i * 101L - 7);
      a.balance = i % 3 == 0 ? sharedBalance : new BigDecimal(a.cents, i % 4);
      a.opened = i % 2 == 0 ? new Date(1_000_000_000_000L + i) : first.opened;
      a.next = i == n - 1 ? first : new Account();
      a = a.next;
    }
    return first;
  }

  @Test
  void decimalsAndDatesInACycleRestoreAsTheJdkRestoresThem() {
    RoundTrip.of(ring(12))
        .check(
            o -> {
              Account a = (Account) o;
              assertSame(a.next.balance.unscaledValue(), a.next.cents);
              assertSame(a.balance, a.next.next.next.balance);
              assertSame(a.opened, a.next.opened);
              Account last = a;
              for (int i = 0; i < 11; i++) {
                last = last.next;
              }
              assertSame(a, last.next, "the ring is closed");
            })
        .run();
  }

  /** Dates of the edges of a long; a shared one; subclasses, which are replayed. */
  static List<Object> dates() {
    List<Object> root = new ArrayList<>();
    root.add(new Date(0));
    root.add(new Date(-1));
    root.add(new Date(Long.MIN_VALUE));
    root.add(new Date(Long.MAX_VALUE));
    Date shared = Date.from(java.time.Instant.ofEpochSecond(1_600_000_000L, 123_000_000));
    root.add(shared);
    root.add(shared);
    root.add(new TaggedDate(1_339_970_400_000L, "midsummer"));
    root.add(new TaggedDate(-86_400_000L, null));
    return root;
  }

  /**
   * A subclass of {@code Date} with state of its own, as {@code java.sql.Timestamp} (whose module
   * this one does not read): replayed, not a value.
   */
  static final class TaggedDate extends Date {
    private static final long serialVersionUID = 1L;
    final String tag;

    TaggedDate(long ms, String tag) {
      super(ms);
      this.tag = tag;
    }
  }

  @Test
  void datesRestoreAsTheJdkRestoresThem() {
    RoundTrip.of(dates())
        .check(
            o -> {
              List<?> l = (List<?>) o;
              assertSame(l.get(4), l.get(5));
              assertEquals(Date.class, l.get(3).getClass());
              assertEquals(TaggedDate.class, l.get(6).getClass());
              assertEquals("midsummer", ((TaggedDate) l.get(6)).tag);
              assertEquals(1_339_970_400_000L, ((Date) l.get(6)).getTime());
              assertEquals(Long.MIN_VALUE, ((Date) l.get(2)).getTime());
            })
        .run();
  }

  private static long hooks(byte[] snapshot) throws IOException {
    return SnapshotFile.parse(snapshot).constants().stream()
        .filter(c -> c instanceof Constant.Hook)
        .count();
  }

  @Test
  void theyAreDataNotReplayedHooksUnlessTooLargeOrSubclasses() throws IOException {
    List<Object> small = new ArrayList<>(shared());
    small.add(new Date(5));
    small.add(BigDecimal.valueOf(Long.MIN_VALUE, 3));
    byte[] snapshot = Codese.toBytes(small);
    assertTrue(SnapshotFile.parse(snapshot).version() >= Grammar.DECIMAL_VERSION);
    assertEquals(0, hooks(snapshot), "no replayed hook");
    assertEquals(
        1,
        hooks(Codese.toBytes(new ArrayList<>(List.of(new TaggedDate(5, "t"))))),
        "a subclass of Date is replayed");
    assertEquals(
        2,
        hooks(Codese.toBytes(new BigDecimal(BigInteger.ONE.shiftLeft(63), 2))),
        "a decimal of a BigInteger without a long is replayed, as that BigInteger");
  }

  /** Counts what a listing shows: the own methods run and how decimals and dates are made. */
  private static final class Listed implements ProgramListener {
    long hooks;
    final List<String> made = new ArrayList<>();

    @Override
    public void create(int object, String type, String expression) {
      if (type.equals("java.math.BigDecimal") || type.equals("java.util.Date")) {
        made.add(expression);
      }
    }

    @Override
    public void hook(int target, String type, String text, int refs, int prims) {
      boolean value = type.equals("java.math.BigDecimal") || type.equals("java.util.Date");
      hooks += text != null && value ? 1 : 0;
    }
  }

  /**
   * The jdk-collections sample graph's decimals are no longer replayed but one, whose unscaled
   * value has no long (of 123 {@code readObject} calls listed as {@code // as BigDecimal}, one is
   * left), 122 decimals listed as {@code new BigDecimal(o<slot>, scale)}.
   */
  @Test
  void theSampleGraphsDecimalsAreNoLongerReplayed() throws IOException {
    Object g = SampleGraphs.jdkCollections();
    Listed listed = new Listed();
    SnapshotContents.read(Codese.toBytes(g)).list(listed);
    assertEquals(1, listed.hooks, "decimals' readObject run");
    List<String> fromData = listed.made.stream().filter(e -> e.endsWith("from data */")).toList();
    assertEquals(122, fromData.size(), listed.made::toString);
    assertEquals(123, listed.made.size(), listed.made::toString);
    assertTrue(
        fromData.stream().allMatch(e -> e.matches("new BigDecimal\\(o\\d+, [239]\\) .*")),
        fromData::toString);
    Listed dates = new Listed();
    SnapshotContents.read(Codese.toBytes(new Date(1234))).list(dates);
    assertEquals(List.of("new Date(1234) /* from data */"), dates.made);
  }

  @Test
  void theFilterIsAskedAboutTheClassesAJdkStreamHolds() throws IOException {
    List<Object> g = new ArrayList<>(shared());
    g.add(new Date(77));
    List<String> jdk = FilterAsked.classes(g, false);
    List<String> codese = FilterAsked.classes(g, true);
    assertTrue(
        jdk.contains("java.math.BigDecimal") && jdk.contains("java.util.Date"), jdk.toString());
    assertEquals(
        jdk.stream().distinct().sorted().toList(), codese.stream().distinct().sorted().toList());
    ObjectInputFilter noDecimals =
        ObjectInputFilter.Config.createFilter("!java.math.BigDecimal;java.**");
    byte[] snapshot = Codese.toBytes(g);
    assertThrows(InvalidClassException.class, () -> FilterAsked.jdkRead(g, noDecimals));
    assertThrows(
        InvalidClassException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(noDecimals)));
  }

  /**
   * A depth limit refuses what the JDK's reader refuses, and nothing more; an array length limit
   * refuses at least what it refuses (Codese tells the filter its longest constant array, which may
   * be longer than any array of the JDK's stream: its program, its data).
   */
  @Test
  void theLimitsTheFilterIsToldAreTheJdks() throws IOException {
    List<Object> graphs =
        List.of(
            BigDecimal.valueOf(Long.MAX_VALUE, 2),
            new ArrayList<>(List.of(BigDecimal.valueOf(-99, 1))),
            new ArrayList<>(List.of(new Date(3))),
            ring(3));
    for (Object graph : graphs) {
      byte[] snapshot = Codese.toBytes(graph);
      for (String limit : List.of("maxdepth=", "maxarray=")) {
        for (int max = 1; max <= 9; max++) {
          ObjectInputFilter f = ObjectInputFilter.Config.createFilter(limit + max);
          boolean jdk = accepts(() -> FilterAsked.jdkRead(graph, f));
          boolean codese =
              accepts(
                  () ->
                      Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(f))
                          .restore());
          if (limit.equals("maxdepth=")) {
            assertEquals(jdk, codese, limit + max + " for " + graph);
          } else {
            assertTrue(jdk || !codese, limit + max + " for " + graph);
          }
        }
      }
    }
    Object magnitudeOfEight = BigDecimal.valueOf(Long.MAX_VALUE, 2);
    byte[] snapshot = Codese.toBytes(magnitudeOfEight);
    ObjectInputFilter seven = ObjectInputFilter.Config.createFilter("maxarray=7");
    assertThrows(InvalidClassException.class, () -> FilterAsked.jdkRead(magnitudeOfEight, seven));
    assertThrows(
        InvalidClassException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(seven)));
    ObjectInputFilter more = ObjectInputFilter.Config.createFilter("maxarray=64");
    assertEquals(
        magnitudeOfEight,
        Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(more)).restore());
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
  void anEarlierFormatMakesNoDecimalsNorDates() throws IOException {
    for (Object g : List.<Object>of(BigDecimal.valueOf(5, 1), new Date(5))) {
      SnapshotFile file = SnapshotFile.parse(Codese.toBytes(g));
      byte[] older = SnapshotEdit.relabel(file, Grammar.BIG_INTEGER_VERSION).bytes();
      String message =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(older)).getMessage();
      assertTrue(message.contains("which format 11 does not make"), message);
    }
  }

  /** A whole snapshot as a stream segment that makes decimals or dates from data is refused. */
  @Test
  void aStreamSegmentMakingThemIsRefused() throws IOException {
    for (Object g : List.<Object>of(BigDecimal.valueOf(5, 1), new Date(5))) {
      byte[] stream = SnapshotEdit.stream(Codese.toBytes(g));
      try (ObjectInputStream in = new CodeseInputStream(new ByteArrayInputStream(stream))) {
        UnsafeSnapshotException x = assertThrows(UnsafeSnapshotException.class, in::readObject);
        assertTrue(x.getMessage().contains("which streams do not make"), x.getMessage());
      }
    }
  }

  /** readObject runs of {@link Witness}: a refused snapshot runs none. */
  static final AtomicInteger READS = new AtomicInteger();

  /** Replayed: a side effect that must not happen when the snapshot is refused. */
  static final class Witness implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      READS.incrementAndGet();
    }
  }

  @Nested
  class Hostile {

    private List<Object> graph() {
      List<Object> root = new ArrayList<>();
      root.add(new Witness());
      root.add(BigInteger.valueOf(17));
      root.add(LocalDate.of(2020, 2, 29));
      root.add(new BigDecimal(BigInteger.valueOf(12_345), 2));
      root.add(new BigDecimal(BigInteger.valueOf(-6), 0));
      return root;
    }

    private SnapshotEdit edit() throws IOException {
      return SnapshotEdit.of(Codese.toBytes(graph()));
    }

    /** The index in program {@code p} of its step of kind {@code kind}. */
    private int step(int[] p, char kind) {
      for (int i = 0; i < p.length; i += 4 + 2 * p[i + 3]) {
        if (p[i + 1] == kind) {
          return i;
        }
      }
      throw new AssertionError("no values of kind " + kind);
    }

    /** The data of the decimals' step, and the values program. */
    private long[] decimalData(SnapshotEdit e, int[] p) {
      return (long[]) ((Constant.PrimArray) e.constant(p[step(p, 'N') + 2])).array();
    }

    /** Refused, with {@code part} in the message, and no readObject run. */
    private void assertRefused(SnapshotEdit e, String part) {
      int before = READS.get();
      String message =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes()).restore())
              .getMessage();
      assertTrue(message.contains(part), () -> "expected \"" + part + "\" in: " + message);
      assertEquals(before, READS.get(), "no own method ran");
    }

    /** Edits the first decimal's data: its slot and scale. */
    private SnapshotEdit withDecimal(long slot, long scale) throws IOException {
      SnapshotEdit e = edit();
      int[] p = e.program(e.programIndex(Grammar.STEP_VALUES));
      long[] data = decimalData(e, p).clone();
      data[0] = slot;
      data[1] = scale;
      e.setConstant(p[step(p, 'N') + 2], new Constant.PrimArray(data));
      return e;
    }

    /** The slot of the value of kind {@code kind} the program makes first. */
    private int slotOf(char kind) throws IOException {
      SnapshotEdit e = edit();
      int[] p = e.program(e.programIndex(Grammar.STEP_VALUES));
      return p[step(p, kind) + 4];
    }

    @Test
    void theUneditedSnapshotRestores() throws IOException {
      int before = READS.get();
      List<?> back = (List<?>) Codese.fromBytes(edit().bytes());
      assertEquals(new BigDecimal("123.45"), back.get(3));
      assertEquals(before + 1, READS.get());
    }

    @Test
    void aSlotOutsideTheTableIsRefused() throws IOException {
      assertRefused(withDecimal(1 << 20, 2), "from the BigInteger of slot 1048576, outside");
      assertRefused(withDecimal(-1, 2), "from the BigInteger of slot -1, outside");
      assertRefused(withDecimal(Long.MAX_VALUE, 2), "outside this snapshot's table slots");
      assertRefused(withDecimal(1L << 32, 2), "slot 4294967296, outside");
      int end = SnapshotFile.parse(edit().bytes()).tableSize(); // one past the last slot
      assertRefused(
          withDecimal(end, 2),
          "slot " + end + ", outside this snapshot's table slots 0 to " + (end - 1));
    }

    @Test
    void aSlotHoldingAnotherObjectIsRefused() throws IOException {
      assertRefused(withDecimal(slotOf('D'), 2), "which holds no BigInteger");
      assertRefused(withDecimal(0, 2), "which holds no BigInteger"); // the list
      assertRefused(withDecimal(slotOf('N'), 2), "which holds no BigInteger"); // itself
    }

    @Test
    void aSlotNotMadeYetIsRefused() throws IOException {
      // the decimals' step before the BigIntegers': their slots are not made yet
      SnapshotEdit e = edit();
      int k = e.programIndex(Grammar.STEP_VALUES);
      int[] p = e.program(k);
      int n = step(p, 'N');
      int b = step(p, 'B');
      int nSize = 4 + 2 * p[n + 3];
      int bSize = 4 + 2 * p[b + 3];
      assertTrue(b < n, "the BigIntegers come first");
      int[] swapped = p.clone();
      System.arraycopy(p, n, swapped, b, nSize);
      System.arraycopy(p, b, swapped, b + nSize, bSize);
      e.setConstant(k, new Constant.PrimArray(swapped));
      assertRefused(e, "(it holds nothing yet)");
    }

    @Test
    void aScaleOutsideAnIntIsRefused() throws IOException {
      assertRefused(withDecimal(slotOf('B'), 1L << 31), "with scale 2147483648, which is not");
    }

    @Test
    void aDecimalOfABigIntegerOfThatVeryProgramRestores() throws IOException {
      // the second decimal made from the first one's BigInteger: allowed, and shared
      List<?> back = (List<?>) Codese.fromBytes(withDecimal(slotOf('B'), -3).bytes());
      assertSame(back.get(1), ((BigDecimal) back.get(3)).unscaledValue());
      assertEquals(new BigDecimal(BigInteger.valueOf(17), -3), back.get(3));
    }

    @Test
    void dataOutOfRangeOfTheDecimalsStepIsRefused() throws IOException {
      SnapshotEdit e = edit();
      int k = e.programIndex(Grammar.STEP_VALUES);
      int[] p = e.program(k);
      long[] data = decimalData(e, p);
      p[step(p, 'N') + 4 + 1] = data.length - 1; // a decimal takes two longs
      e.setConstant(k, new Constant.PrimArray(p));
      assertRefused(e, "from offset " + (data.length - 1));
    }

    @Test
    void aDateOfAnyLongRestores() throws IOException {
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(new ArrayList<>(List.of(new Date(1)))));
      int data =
          e.constantIndex(c -> c instanceof Constant.PrimArray p && p.array() instanceof long[]);
      e.setConstant(data, new Constant.PrimArray(new long[] {Long.MIN_VALUE}));
      Object back = ((List<?>) Codese.fromBytes(e.bytes())).get(0);
      assertInstanceOf(Date.class, back);
      assertEquals(Long.MIN_VALUE, ((Date) back).getTime());
    }
  }
}
