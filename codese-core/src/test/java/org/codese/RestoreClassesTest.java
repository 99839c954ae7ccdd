package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deterministic guard on the cold restore path: a fresh JVM that restores a snapshot of plain
 * objects (no hooks, no records) from its file loads no class of ASM, of capture, planning or
 * emitting, and none that only hooks or records need, and makes no serialization constructor (the
 * JDK generates one per class, about a millisecond for the first in a fresh JVM), no regular
 * expression, formatter or string concatenation bootstrap, and, on JDKs that let it tell that no
 * serialization filter is in force (17 to 21), neither the filter configuration nor a logger nor a
 * spun lambda or method-handle form (setting them up costs a fresh JVM 15 to 25 ms). Every class
 * costs a fresh JVM about a quarter of a millisecond to load and verify (docs/DESIGN.md, Section
 * 5).
 */
class RestoreClassesTest {
  /**
   * Codese's own classes that a load of a plain, unsigned, uncompressed snapshot of the current
   * format does not need, and that were moved out of the classes it loads so that it does not load
   * them (each costs a cold load about a quarter of a millisecond): none may come back.
   */
  static final Set<String> MOVED_OUT =
      Set.of(
          "org.codese.Pipeline",
          "org.codese.AuthenticityException",
          "org.codese.ClassNotAllowedException",
          "org.codese.RestoreException",
          "org.codese.UnsafeSnapshotException",
          "org.codese.format.Signing",
          "org.codese.format.Compression",
          "org.codese.format.Encoding",
          "org.codese.format.Encoding$PackedBlock",
          "org.codese.format.Sectioned",
          "org.codese.format.ConstantWriter",
          "org.codese.load.GoneClasses",
          "org.codese.load.SuidWarmUp",
          "org.codese.load.ProxyClasses",
          "org.codese.load.Failures",
          "org.codese.load.HookFailure",
          "org.codese.load.Parallel",
          "org.codese.load.PhaseChoice",
          "org.codese.verify.Whitelist",
          "org.codese.jvm.Slot",
          "org.codese.load.HookRuns",
          // record classes of constants the ring's snapshot holds none of: the loader asks every
          // constant its tag, never instanceof
          "org.codese.program.Constant$Hook",
          "org.codese.program.Constant$Setter",
          "org.codese.program.Constant$Sized",
          "org.codese.program.Constant$Texts");

  /**
   * JDK classes of the runtime image that Codese's code referred to on the plain load path, through
   * a catch type, a class literal or a call the verifier or a load ran; none may come back.
   */
  static final Set<String> JDK_NOT_LOADED =
      Set.of(
          "java.io.ObjectInputStream",
          "java.lang.reflect.Proxy",
          "java.lang.reflect.InvocationTargetException",
          "java.nio.file.AtomicMoveNotSupportedException",
          "java.security.GeneralSecurityException",
          "java.security.Key",
          "java.util.zip.DataFormatException",
          "java.lang.ArrayIndexOutOfBoundsException",
          "java.io.FileNotFoundException");

  /** A plain graph: a ring of nodes, each with a primitive and a shared label. */
  static final class Node implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
    String label;
    Node next;
  }

  static Node ring(int n) {
    Node first = new Node();
    Node at = first;
    for (int i = 1; i < n; i++) {
      at.value = i;
      at.label = "shared";
      at.next = new Node();
      at = at.next;
    }
    at.next = first;
    return first;
  }

  /**
   * The child JVM's program: restores the snapshot in the file {@code args[0]}, as {@code
   * Codese.load(file)} and {@code restore()} do, and prints its size.
   */
  public static void main(String[] args) throws Exception {
    Node first = (Node) Codese.read(Path.of(args[0]));
    int n = 1;
    for (Node at = first.next; at != first; at = at.next) {
      n++;
    }
    System.out.println(n);
  }

  /** A graph of JDK collections without hooks: their finish programs only fill them. */
  static ArrayList<Object> fills() {
    ArrayList<Object> list = new ArrayList<>();
    java.util.HashMap<String, Node> map = new java.util.HashMap<>();
    for (int i = 0; i < 50; i++) {
      Node n = new Node();
      n.value = i;
      n.label = "node " + i;
      map.put(n.label, n);
      list.add(n);
    }
    list.add(map);
    return list;
  }

  /** The child JVM's program for a list ({@link #fills}, ...): restores it and prints its size. */
  static final class ListMain {
    public static void main(String[] args) throws Exception {
      System.out.println(((List<?>) Codese.read(Path.of(args[0]))).size());
    }
  }

  /**
   * Restores {@code snapshot} in a fresh JVM with {@code main}, requires it to print {@code
   * printed}, and returns the classes the JVM loaded, in order.
   */
  static List<String> loadedByChild(Path dir, Class<?> main, Path snapshot, String printed)
      throws Exception {
    Path log = dir.resolve("classes.log");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Xlog:class+load=info:file=" + log,
                "-cp",
                System.getProperty("java.class.path"),
                main.getName(),
                snapshot.toString())
            .redirectErrorStream(true)
            .start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertEquals(printed, out, "the child JVM did not restore the graph");
    List<String> names = new ArrayList<>();
    String tag = "[class,load] ";
    for (String line : Files.readAllLines(log)) {
      int at = line.indexOf(tag);
      if (at >= 0) {
        names.add(line.substring(at + tag.length()).split(" ")[0]);
      }
    }
    return names;
  }

  /** An {@code ArrayList} subclass: restored by replaying {@code ArrayList.readObject}. */
  static final class Bag extends ArrayList<Object> {
    private static final long serialVersionUID = 1L;
  }

  /**
   * A restore that replays hooks of classes that did not change since capture loads none of the
   * classes of class evolution: their checks are asked only where a class is not in an object's
   * hierarchy.
   */
  @Test
  void replayingHooksOfUnchangedClassesLoadsNoEvolutionClasses(@TempDir Path dir) throws Exception {
    ArrayList<Bag> bags = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Bag b = new Bag();
      b.add("item " + i);
      bags.add(b);
    }
    Path snapshot = dir.resolve("bags.cdse");
    Files.write(snapshot, Codese.toBytes(bags));
    List<String> names = loadedByChild(dir, ListMain.class, snapshot, "20");
    assertTrue(names.contains("org.codese.load.ReplayStream"), "no hook was replayed: " + names);
    assertLoadsNone(
        names,
        List.of(
            "org.codese.load.ObjectDrops",
            "org.codese.load.Evolution",
            "org.codese.load.GoneClasses"),
        "classes a restore of unchanged classes should not load");
  }

  /**
   * A restore whose finish programs only fill JDK collections runs no hook: it loads neither the
   * hook runner nor the replay stream, nor, for the verifier, {@code ObjectInputStream}.
   */
  @Test
  void fillingCollectionsLoadsNoReplayStream(@TempDir Path dir) throws Exception {
    Path snapshot = dir.resolve("fills.cdse");
    Files.write(snapshot, Codese.toBytes(fills()));
    List<String> names = loadedByChild(dir, ListMain.class, snapshot, "51");
    assertTrue(names.contains("org.codese.load.Hooks"), "the finish program ran: " + names);
    assertLoadsNone(
        names,
        List.of(
            "org.codese.load.HookRuns",
            "org.codese.load.HookFailure",
            "org.codese.load.ReplayStream",
            "java.io.ObjectInputStream"),
        "classes a restore of filled collections should not load");
  }

  /** Requires that {@code loaded} holds none of {@code unwanted}. */
  private static void assertLoadsNone(List<String> loaded, List<String> unwanted, String message) {
    List<String> found = new ArrayList<>();
    for (String name : unwanted) {
      if (loaded.contains(name)) {
        found.add(name);
      }
    }
    assertEquals(List.of(), found, message);
  }

  @Test
  void aPlainRestoreLoadsNeitherCaptureNorHookClasses(@TempDir Path dir) throws Exception {
    Path snapshot = dir.resolve("ring.cdse");
    Files.write(snapshot, Codese.toBytes(ring(500)));
    List<String> codese = new ArrayList<>();
    List<String> unwanted = new ArrayList<>();
    boolean started = false;
    for (String name : loadedByChild(dir, RestoreClassesTest.class, snapshot, "500")) {
      // the JDK's own classes count from the test's main class on: JVM start-up loads some itself
      started |= name.equals(RestoreClassesTest.class.getName());
      if (name.startsWith("org.codese.") && !name.startsWith("org.codese.RestoreClassesTest")) {
        codese.add(name);
      }
      if (name.startsWith("org.objectweb.asm.")
          || name.startsWith("org.codese.capture.")
          || name.startsWith("org.codese.plan.")
          || name.startsWith("org.codese.emit.")
          || name.equals("org.codese.load.RecordMaker")
          // global references: only a snapshot that holds one loads their checks
          || name.equals("org.codese.load.Globals")
          || name.startsWith("org.codese.program.Constant$StaticRef")
          || name.startsWith("org.codese.program.Constant$NamedRef")
          || name.equals("org.codese.load.Hooks")
          || name.equals("org.codese.load.ReplayStream")
          || name.startsWith("org.codese.tools.")
          // moved out of the classes a load runs (issue 8): the writer halves of the format, the
          // older file forms, the envelopes of a signed or compressed file, capture's file write,
          // proxy classes, the failure paths and their exception classes, parallel restores, the
          // grammar's instruction whitelist and the checks of classes not found or changed
          || MOVED_OUT.contains(name)
          // anonymous classes and javac's switch maps: a cost of their own on every cold restore
          || name.startsWith("org.codese.") && name.matches(".*\\$[0-9]+")) {
        unwanted.add(name);
      }
      // JDK classes of the runtime image (not of the class-data archive) that only a snapshot
      // with proxy classes, hooks, a signature or a failure needs
      if (started && JDK_NOT_LOADED.contains(name)) {
        unwanted.add(name);
      }
      // the JDK's text formatting, regular expressions and string concatenation bootstrap
      if (started
          && (name.startsWith("java.util.regex.")
              || name.startsWith("java.util.Formatter")
              || name.startsWith("java.lang.invoke.StringConcatFactory"))) {
        unwanted.add(name);
      }
      // the JVM-wide filter configuration, its logger and its lambda, where the JDK lets Codese
      // tell that no filter is in force without setting the configuration up (JDK 21 and earlier)
      if (started
          && Runtime.version().feature() <= 21
          && (name.startsWith("java.io.ObjectInputFilter$Config$")
              || name.startsWith("jdk.internal.logger.")
              || name.startsWith("sun.util.logging.")
              || name.startsWith("java.util.logging.")
              || name.startsWith("java.lang.invoke.LambdaMetafactory")
              || name.startsWith("java.lang.invoke.InnerClassLambdaMetafactory")
              || name.startsWith("java.lang.invoke.LambdaForm$MH/")
              || name.startsWith("java.lang.invoke.LambdaForm$DMH/"))) {
        unwanted.add(name);
      }
      // a serialization constructor, which JDK 17 generates as a class per allocated class (JDK 22
      // and later make method handles, whose classes other uses load too)
      if (name.startsWith("jdk.internal.reflect.GeneratedSerializationConstructorAccessor")
          || name.equals("jdk.internal.reflect.MethodAccessorGenerator")) {
        unwanted.add(name);
      }
    }
    assertTrue(codese.size() > 20, "the log names the core's classes: " + codese);
    assertEquals(List.of(), unwanted, "classes a plain restore should not load");
  }
}
