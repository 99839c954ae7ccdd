package org.codese.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.ObjectStreamClass;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.codese.CorruptSnapshotException;
import org.codese.format.SnapshotFile;
import org.junit.jupiter.api.Test;

/**
 * Issue 15's structure-aware fuzzer as a Jazzer target, and the checks that keep it honest.
 *
 * <p>{@link #mutateAndRestore} decodes the fuzzer's bytes with {@link Choices} into structural
 * mutations of a seed snapshot ({@link StructureMutator}), and judges the result by the invariants
 * I1 to I5 ({@link StructureHarness}, {@link Canaries}). A plain build replays the inputs under
 * {@code src/test/resources/org/codese/fuzz/StructureFuzzTestInputs/mutateAndRestore} (all of them
 * clean on today's main); {@code JAZZER_FUZZ=1} fuzzes; {@link StructureCampaign} runs long
 * campaigns without Jazzer. Inputs are the same bytes for all three. Reproducers of what it found
 * on main are in {@link StructureFindingsTest}.
 */
class StructureFuzzTest {

  @FuzzTest(maxDuration = "5m")
  void mutateAndRestore(byte[] input) throws IOException {
    StructureHarness.Report r = StructureHarness.shared().runInput(input);
    if (!r.findings().isEmpty()) {
      Throwable cause = null;
      for (StructureHarness.Finding f : r.findings()) {
        if (f.error() != null) {
          cause = f.error();
          break;
        }
      }
      throw new AssertionError(r.describe(), cause);
    }
  }

  /** Seeds that must restore with no finding at all, unchanged, today. */
  @Test
  void serializableSeedsRestoreCleanly() throws IOException {
    StructureHarness h = StructureHarness.shared();
    for (StructureMutator.Seed s : h.mutator().seeds()) {
      if (s.name().equals("nonserial")) {
        continue; // not Serializable: issue 15 wants it rejected without an opt-in (I3)
      }
      StructureHarness.Report r = h.run(s.name(), List.of(), s.file().bytes());
      assertTrue(r.findings().isEmpty(), s.name() + ": " + r.describe());
      assertEquals("ok", r.passes().get(0).outcome(), s.name());
    }
  }

  @Test
  void mutantsAreDeterministicAndWellFramed() throws IOException {
    StructureMutator m = StructureHarness.shared().mutator();
    int framed = 0;
    for (long i = 0; i < 300; i++) {
      byte[] in = StructureCampaign.input(42, i);
      StructureMutator.Mutant a = m.mutate(new Choices(in));
      StructureMutator.Mutant b = m.mutate(new Choices(in));
      assertArrayEquals(a.bytes(), b.bytes(), "input " + i + " mutates differently twice");
      try {
        SnapshotFile.parse(a.bytes());
        framed++;
      } catch (CorruptSnapshotException e) {
        assertTrue(!e.getMessage().contains("checksum"), "input " + i + ": " + e.getMessage());
      }
    }
    assertTrue(framed > 200, "only " + framed + " of 300 mutants parse");
  }

  @Test
  void emptyInputIsTheFirstSeedUnchanged() throws IOException {
    StructureMutator m = StructureHarness.shared().mutator();
    StructureMutator.Mutant a = m.mutate(new Choices(new byte[0]));
    assertArrayEquals(m.seeds().get(0).file().bytes(), a.bytes());
    assertTrue(a.log().isEmpty());
  }

  /** The canaries see each kind of damage and put the JVM back (sun.misc.Unsafe plays attacker). */
  @Test
  void canariesNoticeDamageAndRepairIt() throws Exception {
    Canaries c = StructureHarness.shared().canaries();
    sun.misc.Unsafe u = unsafe();
    Canaries.Before before = c.before();
    u.putBoolean(Boolean.TRUE, u.objectFieldOffset(Boolean.class.getDeclaredField("value")), false);
    u.putInt(
        Integer.valueOf(7), u.objectFieldOffset(Integer.class.getDeclaredField("value")), 1337);
    u.putInt("interned", u.objectFieldOffset(String.class.getDeclaredField("hash")), 5);
    u.putLong(TimeUnit.SECONDS, u.objectFieldOffset(TimeUnit.class.getDeclaredField("scale")), 1);
    Field code = StructureSeeds.CanaryEnum.class.getDeclaredField("code");
    u.putInt(StructureSeeds.CanaryEnum.A, u.objectFieldOffset(code), 99);
    ObjectStreamClass osc = ObjectStreamClass.lookupAny(StructureSeeds.NonSerial.class);
    u.putBoolean(
        osc, u.objectFieldOffset(ObjectStreamClass.class.getDeclaredField("serializable")), true);
    CanaryFlags.initRan(StructureSeeds.INIT_CANARY_PLAIN);
    CanaryFlags.codeRan("CtorCanary.<init>");
    System.setProperty("codese.fuzz.selftest", "x");
    Path file = c.home().resolve("java0.log");
    Files.writeString(file, "x");
    CountDownLatch release = new CountDownLatch(1);
    Thread t =
        new Thread(
            () -> {
              try {
                release.await();
              } catch (InterruptedException ignored) {
                // ends
              }
            },
            "selftest-thread");
    t.start();
    List<Canaries.Violation> v;
    try {
      v = c.check(before);
      c.repair(before, v);
    } finally {
      release.countDown();
      t.join();
    }
    List<String> keys = new ArrayList<>();
    for (Canaries.Violation x : v) {
      keys.add(x.key());
    }
    for (String expected :
        List.of(
            "I1 write into Boolean cache: field Boolean.value",
            "I1 Boolean.TRUE/FALSE value",
            "I1 write into Integer cache: field Integer.value",
            "I1 Integer.valueOf(7) value",
            "I1 write into interned literal: field String.hash",
            "I1 interned literal contents",
            "I1 TimeUnit.SECONDS.toNanos",
            "I1 write into application enum constant: field CanaryEnum.code",
            "I1 application enum constant fields",
            "I1 write into ObjectStreamClass descriptor: field ObjectStreamClass.serializable",
            "I2 static initialiser ran: " + StructureSeeds.INIT_CANARY_PLAIN,
            "I3 code of a non-Serializable class ran: CtorCanary.<init>",
            "I3 system property changed: codese.fuzz.selftest",
            "I3 non-daemon thread started: selftest-thread")) {
      assertTrue(keys.contains(expected), "missing " + expected + " in " + keys);
    }
    assertTrue(keys.stream().anyMatch(k -> k.startsWith("I3 file created:")), keys.toString());
    assertTrue(
        Boolean.TRUE.booleanValue()
            && Integer.valueOf(7) == 7
            && TimeUnit.SECONDS.toNanos(1) == 1_000_000_000L
            && StructureSeeds.CanaryEnum.A.code() == 1
            && "interned".hashCode() == new String("interned".toCharArray()).hashCode(),
        "not repaired");
    assertTrue(!Files.exists(file), "created file not removed");
    assertEquals(null, System.getProperty("codese.fuzz.selftest"));
    assertEquals(List.of(), c.check(c.before()), "canaries still broken after the repair");
  }

  @Test
  void canaryLoaderReportsRequestsWithoutInitialising() throws Exception {
    CanaryLoader l = new CanaryLoader(getClass().getClassLoader());
    Class<?> c = Class.forName(StructureSeeds.INIT_CANARY, false, l);
    assertEquals(Set.of(StructureSeeds.INIT_CANARY), l.drainRequested());
    assertEquals(List.of(), CanaryFlags.drain(), "loading ran the static initialiser");
    c.getDeclaredConstructor().newInstance();
    assertEquals(List.of("<clinit> of " + StructureSeeds.INIT_CANARY), CanaryFlags.drain());
  }

  /**
   * The Serializable canary initialised by the read of its {@code serialVersionUID}, after the
   * filter accepted it, is no finding (as {@code ObjectInputStream} initialises it there), also
   * when the suid then no longer matches; under the allow-list filter it is never initialised.
   */
  @Test
  void aCanaryInitialisedAfterTheFilterAcceptedItIsNoFinding() throws Exception {
    byte[] snapshot;
    try (java.io.InputStream in =
        getClass().getResourceAsStream("findings-issue15/i2-init-after-filter")) {
      snapshot = in.readAllBytes();
    }
    StructureHarness.Report r =
        StructureHarness.shared().run("i2-init-after-filter", List.of(), snapshot);
    assertEquals(List.of(), r.findings(), r.describe());
    assertEquals("rejected: ClassMismatchException", r.passes().get(0).outcome(), r.describe());
    assertEquals("rejected: InvalidClassException", r.passes().get(1).outcome(), r.describe());
  }

  @Test
  void aCanaryInitialisedOutsideTheAcceptedStepsIsNotExcused() {
    CanaryFlags.drainInitialisedAfterFilter();
    CanaryFlags.initRan(StructureSeeds.INIT_CANARY);
    assertEquals(Set.of(), CanaryFlags.drainInitialisedAfterFilter());
    assertEquals(List.of("<clinit> of " + StructureSeeds.INIT_CANARY), CanaryFlags.drain());
  }

  private static sun.misc.Unsafe unsafe() throws ReflectiveOperationException {
    Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
    f.setAccessible(true);
    return (sun.misc.Unsafe) f.get(null);
  }
}
