package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.testkit.FilterAsked;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Dates, times and UUIDs made from data by a create program ({@link Grammar#STEP_VALUES}) instead
 * of replaying their serial form: restored as the JDK restores them (sharing included), the
 * serialization filter asked about the class a JDK stream holds, hostile programs rejected before
 * anything runs, and data out of range failing as the JDK's own deserialization fails.
 */
class ValueDataTest {
  /** An object holding values in fields, as application classes do. */
  static final class Event implements Serializable {
    private static final long serialVersionUID = 1L;
    UUID id;
    LocalDateTime at;
    Duration took;
    Object any;
  }

  static List<Object> values(int n) {
    List<Object> root = new ArrayList<>();
    LocalDate shared = LocalDate.of(2012, 6, 18);
    for (int i = 0; i < n; i++) {
      Event e = new Event();
      e.id = new UUID(i * 31L, -i);
      e.at = LocalDateTime.of(2020, 1 + i % 12, 1 + i % 28, i % 24, i % 60, i % 60, i * 1000);
      e.took = Duration.ofSeconds(i, i % 1_000_000_000);
      e.any = i % 2 == 0 ? shared : Instant.ofEpochSecond(1_600_000_000L + i, i);
      root.add(e);
      root.add(LocalTime.ofNanoOfDay(i * 1_000_003L));
      root.add(shared.plusDays(i));
    }
    root.add(shared);
    root.add(LocalTime.MIDNIGHT);
    root.add(LocalDate.MIN);
    root.add(LocalDate.MAX);
    root.add(Instant.MIN);
    root.add(Instant.MAX);
    root.add(Duration.ofSeconds(Long.MIN_VALUE));
    return root;
  }

  @Test
  void valuesRestoreAsTheJdkRestoresThem() {
    RoundTrip.of(values(50))
        .check(
            o -> {
              List<?> l = (List<?>) o;
              // one LocalDate, referred to from several places, is one object again
              assertSame(((Event) l.get(0)).any, l.get(l.size() - 7));
              assertSame(LocalTime.MIDNIGHT, l.get(l.size() - 6), "LocalTime's cached hours");
            })
        .run();
  }

  @Test
  void valuesAreDataNotReplayedHooks() throws IOException {
    SnapshotFile file = SnapshotFile.parse(Codese.toBytes(values(200)));
    assertTrue(file.version() >= Grammar.VALUE_VERSION, "format " + file.version());
    boolean program = false;
    for (Constant c : file.constants()) {
      assertTrue(!(c instanceof Constant.Hook), "no hook: " + c);
      program |=
          c instanceof Constant.PrimArray p
              && p.array() instanceof int[] a
              && a.length > 0
              && a[0] == Grammar.STEP_VALUES;
    }
    assertTrue(program, "a create program of values");
  }

  @Test
  void theFilterIsAskedAboutTheClassesAJdkStreamHolds() throws IOException {
    List<String> jdk = FilterAsked.classes(values(3), false);
    List<String> codese = FilterAsked.classes(values(3), true);
    assertTrue(jdk.contains("java.time.Ser") && jdk.contains("java.util.UUID"), jdk.toString());
    assertEquals(
        jdk.stream().filter(c -> c.startsWith("java.")).distinct().sorted().toList(),
        codese.stream().filter(c -> c.startsWith("java.")).distinct().sorted().toList());
    ObjectInputFilter noTime =
        ObjectInputFilter.Config.createFilter("!java.time.Ser;java.**;org.codese.**");
    byte[] snapshot = Codese.toBytes(values(3));
    assertThrows(
        InvalidClassException.class,
        () -> Codese.load(snapshot, CodeseOptions.defaults().withObjectInputFilter(noTime)));
  }

  @Nested
  class Hostile {
    private SnapshotEdit edit() throws IOException {
      return SnapshotEdit.of(Codese.toBytes(values(5)));
    }

    private int program(SnapshotEdit e) {
      return e.programIndex(Grammar.STEP_VALUES);
    }

    /** The index in the program of the step of kind {@code kind}. */
    private int first(int[] p, char kind) {
      for (int i = 0; i < p.length; i += 4 + 2 * p[i + 3]) {
        if (p[i + 1] == kind) {
          return i;
        }
      }
      throw new AssertionError("no values of kind " + kind);
    }

    private String edited(java.util.function.Consumer<int[]> change) throws IOException {
      SnapshotEdit e = edit();
      int k = program(e);
      int[] p = e.program(k);
      change.accept(p);
      e.setConstant(k, new Constant.PrimArray(p));
      return assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage();
    }

    @Test
    void theUneditedSnapshotRestores() throws IOException {
      List<?> back = (List<?>) Codese.fromBytes(edit().bytes());
      assertEquals(new UUID(31, -1), ((Event) back.get(3)).id);
      assertEquals(LocalDate.MAX, back.get(back.size() - 4));
    }

    @Test
    void dataIsReadOnlyFromInsideALongArray() throws IOException {
      assertMentions(edited(p -> p[first(p, 'U') + 4 + 1] = 1 << 20), "from offset 1048576");
      assertMentions(edited(p -> p[first(p, 'U') + 4 + 1] = -1), "from offset -1");
      SnapshotEdit e = edit();
      int k = program(e);
      int[] p = e.program(k);
      p[first(p, 'U') + 2] = k; // the program itself: an int[]
      e.setConstant(k, new Constant.PrimArray(p));
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
          "which is not a long[]");
    }

    /** The index of the last step of program {@code p}. */
    private int last(int[] p) {
      int i = 0;
      while (i + 4 + 2 * p[i + 3] < p.length) {
        i += 4 + 2 * p[i + 3];
      }
      return i;
    }

    @Test
    void everyValueIsCheckedUpToTheLastByte() throws IOException {
      // the last value of a step, and a value that would end one long past the data
      assertMentions(
          edited(
              p -> {
                int i = last(p);
                p[i + 4 + 2 * (p[i + 3] - 1) + 1] = 1 << 20;
              }),
          "from offset 1048576");
      SnapshotEdit e = edit();
      int k = program(e);
      int[] p = e.program(k);
      int i = first(p, 'L');
      long[] data = (long[]) ((Constant.PrimArray) e.constant(p[i + 2])).array();
      p[i + 4 + 1] = data.length - 1; // LocalDateTime takes two longs
      e.setConstant(k, new Constant.PrimArray(p));
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
          "from offset " + (data.length - 1));
    }

    @Test
    void aProgramCutShortIsRejectedAndAnEmptyStepIsNot() throws IOException {
      assertMentions(edited(p -> p[last(p) + 3] += 1), "is cut short");
      SnapshotEdit e = edit();
      int k = program(e);
      int[] p = e.program(k);
      int[] cut = java.util.Arrays.copyOf(p, p.length + 2); // a step of two ints at the end
      cut[p.length] = Grammar.STEP_VALUES;
      cut[p.length + 1] = 'U';
      e.setConstant(k, new Constant.PrimArray(cut));
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
          "is unknown or cut short");
      // a step of no values is harmless
      int[] withEmpty = java.util.Arrays.copyOf(p, p.length + 4);
      System.arraycopy(p, 0, withEmpty, p.length, 3);
      SnapshotEdit f = edit();
      f.setConstant(k, new Constant.PrimArray(withEmpty));
      assertEquals(
          LocalDate.MAX, ((List<?>) Codese.fromBytes(f.bytes())).get(values(5).size() - 4));
    }

    @Test
    void aSlotIsFilledOnce() throws IOException {
      assertMentions(
          edited(
              p -> {
                int i = first(p, 'D');
                p[i + 4 + 2] = p[i + 4];
              }),
          "a second time");
    }

    @Test
    void anUnknownKindOrACutProgramIsRejected() throws IOException {
      assertMentions(edited(p -> p[first(p, 'D') + 1] = 'Q'), "unknown kind");
      assertMentions(edited(p -> p[3] = 1 << 24), "is cut short");
    }

    @Test
    void aValueWhoseStreamClassTheTableDoesNotListIsRejected() throws IOException {
      List<Object> uuids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        uuids.add(new UUID(i, i));
      }
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(uuids));
      int k = program(e);
      int[] p = e.program(k);
      p[1] = 'D';
      e.setConstant(k, new Constant.PrimArray(p));
      assertMentions(
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(e.bytes())).getMessage(),
          "without that class and its stream class java/time/Ser");
    }

    @Test
    void dataOutOfRangeFailsAsTheJdksDeserializationFails() throws IOException {
      SnapshotEdit e = SnapshotEdit.of(Codese.toBytes(new ArrayList<>(List.of(LocalDate.MAX))));
      int data =
          e.constantIndex(c -> c instanceof Constant.PrimArray p && p.array() instanceof long[]);
      e.setConstant(data, new Constant.PrimArray(new long[] {Long.MAX_VALUE}));
      Snapshot s = Codese.load(e.bytes());
      RestoreException x = assertThrows(RestoreException.class, s::restore);
      assertInstanceOf(DateTimeException.class, x.getCause());
    }
  }
}
