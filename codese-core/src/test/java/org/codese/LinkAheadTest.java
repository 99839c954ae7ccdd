package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LinkAhead}'s lists hold only classes that the smallest load and restore, or the smallest
 * capture, loads anyway, so that linking them on another thread never adds work: checked against
 * the class-loading log of a fresh JVM in which linking ahead is turned off. And with it on, a
 * plain restore loads no class more than without.
 */
class LinkAheadTest {
  /** The child JVM's program: restores the ring in {@code args[0]} with nothing linked ahead. */
  static final class RestoreMain {
    public static void main(String[] args) throws Exception {
      LinkAhead.loadOff = true;
      RestoreClassesTest.main(args);
    }
  }

  /** The child JVM's program: captures a small ring with nothing linked ahead; prints its size. */
  static final class CaptureMain {
    public static void main(String[] args) throws Exception {
      LinkAhead.captureStarted = true;
      System.out.println(Codese.toBytes(RestoreClassesTest.ring(3)).length > 0 ? "captured" : "");
    }
  }

  @Test
  void everyClassLinkedAheadOfALoadIsOneTheLoadAndRestoreLoadAnyway(@TempDir Path dir)
      throws Exception {
    Path snapshot = dir.resolve("ring.cdse");
    Files.write(snapshot, Codese.toBytes(RestoreClassesTest.ring(10)));
    List<String> loaded = RestoreClassesTest.loadedByChild(dir, RestoreMain.class, snapshot, "10");
    assertEquals(List.of(), missing(LinkAhead.LOAD, loaded), "linked ahead but not needed");
  }

  @Test
  void everyClassLinkedAheadOfACaptureIsOneTheCaptureLoadsAnyway(@TempDir Path dir)
      throws Exception {
    List<String> loaded =
        RestoreClassesTest.loadedByChild(dir, CaptureMain.class, dir.resolve("none"), "captured");
    assertEquals(List.of(), missing(LinkAhead.CAPTURE, loaded), "linked ahead but not needed");
  }

  @Test
  void linkingAheadAddsNoClassToAPlainRestore(@TempDir Path dir) throws Exception {
    Path snapshot = dir.resolve("ring.cdse");
    Files.write(snapshot, Codese.toBytes(RestoreClassesTest.ring(10)));
    List<String> without =
        codese(RestoreClassesTest.loadedByChild(dir, RestoreMain.class, snapshot, "10"));
    List<String> with =
        codese(RestoreClassesTest.loadedByChild(dir, RestoreClassesTest.class, snapshot, "10"));
    assertTrue(with.containsAll(List.of(LinkAhead.LOAD)), "nothing was linked ahead: " + with);
    assertEquals(List.of(), missing(with.toArray(String[]::new), without), "loaded only ahead");
  }

  /** The names of {@code expected} that {@code loaded} lacks. */
  private static List<String> missing(String[] expected, List<String> loaded) {
    List<String> out = new ArrayList<>();
    for (String name : expected) {
      if (!loaded.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  /** Codese's own classes in {@code names}, but the tests'. */
  private static List<String> codese(List<String> names) {
    List<String> out = new ArrayList<>();
    for (String name : names) {
      // (the generated classes are hidden classes, named by address)
      if (name.startsWith("org.codese.")
          && !name.contains("/")
          && !name.startsWith("org.codese.RestoreClassesTest")
          && !name.startsWith("org.codese.LinkAheadTest")
          && !name.equals(LinkAhead.class.getName())) {
        out.add(name);
      }
    }
    return out;
  }
}
