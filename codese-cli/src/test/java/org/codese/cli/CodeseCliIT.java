package org.codese.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import org.codese.Codese;
import org.codese.CodeseInputStream;
import org.codese.CodeseOptions;
import org.codese.SnapshotContents;
import org.codese.cli.it.Plain;
import org.codese.cli.it.Point;
import org.codese.samples.RedBlackTree;
import org.codese.samples.SampleGraphs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * End-to-end tests: each runs the packaged {@code codese.jar} (or the {@code bin/codese} launcher)
 * as a separate process on real files, including damaged ones, and checks exit code and output.
 */
class CodeseCliIT {
  @TempDir static Path dir;

  static Path ser;
  static Path tree;
  static String cp;

  record Result(int code, String out, String err) {
    List<String> errLines() {
      return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
    }
  }

  @BeforeAll
  static void files() throws Exception {
    cp = location(RedBlackTree.class) + File.pathSeparator + location(Point.class);
    RedBlackTree t = RedBlackTree.random(200, 7);
    Object coll = SampleGraphs.jdkCollections();
    ser = dir.resolve("multi.ser");
    try (ObjectOutputStream o = new ObjectOutputStream(Files.newOutputStream(ser))) {
      o.writeObject(t);
      o.writeInt(42);
      o.writeUTF("between");
      o.write(new byte[3000]);
      o.writeObject(coll);
      o.writeObject(t);
      o.writeObject(new Point(3, 4, "p"));
      o.writeObject(null);
      o.writeLong(7L);
    }
    tree = dir.resolve("tree.cdse");
    Codese.write(t, tree);
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  static Result run(String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xss16m",
                "-jar",
                System.getProperty("codese.jar")));
    cmd.addAll(List.of(args));
    return exec(cmd);
  }

  static Result exec(List<String> cmd) throws Exception {
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread t1 = pump(p.getInputStream(), out);
    Thread t2 = pump(p.getErrorStream(), err);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + cmd);
    t1.join();
    t2.join();
    return new Result(
        p.exitValue(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Thread pump(InputStream in, OutputStream out) {
    Thread t =
        new Thread(
            () -> {
              try {
                in.transferTo(out);
              } catch (IOException e) {
                throw new RuntimeException(e);
              }
            });
    t.start();
    return t;
  }

  private static Path converted() throws Exception {
    Path out = dir.resolve("multi.cdse");
    if (!Files.exists(out)) {
      Result r = run("convert", ser.toString(), "-o", out.toString(), "--classpath", cp);
      assertEquals(0, r.code, r.err);
      assertEquals(
          String.format(
              Locale.ROOT,
              "converted %s (%,d bytes) to %s (%,d bytes): 5"
                  + " objects and 3,021 bytes of primitive data in 2 blocks, one segment per object%n",
              ser,
              Files.size(ser),
              out,
              Files.size(out)),
          r.out);
      assertEquals("", r.err);
    }
    return out;
  }

  private static byte[] jdk(Object o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }

  /** Reads the test stream's sequence from any ObjectInputStream. */
  private static List<Object> sequence(ObjectInputStream in) throws Exception {
    List<Object> got = new ArrayList<>();
    got.add(in.readObject());
    got.add(in.readInt());
    got.add(in.readUTF());
    byte[] zeros = new byte[3000];
    in.readFully(zeros);
    got.add(Arrays.equals(zeros, new byte[3000]));
    got.add(in.readObject());
    got.add(in.readObject());
    got.add(in.readObject());
    got.add(in.readObject());
    got.add(in.readLong());
    return got;
  }

  private static void assertSameSequence(List<Object> expected, List<Object> actual)
      throws IOException {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      Object e = expected.get(i);
      Object a = actual.get(i);
      if (e == null || e instanceof Number || e instanceof String || e instanceof Boolean) {
        assertEquals(e, a, "item " + i);
      } else {
        assertArrayEquals(jdk(e), jdk(a), "item " + i + " differs in its JDK serialization");
      }
    }
    assertSame(actual.get(0), actual.get(5), "the tree written twice must be one object");
    assertNotSame(expected.get(0), actual.get(0));
  }

  @Test
  void convertYieldsWhatObjectInputStreamYielded() throws Exception {
    Path out = converted();
    List<Object> expected;
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(ser))) {
      expected = sequence(in);
    }
    List<Object> actual;
    try (CodeseInputStream in = new CodeseInputStream(Files.newInputStream(out))) {
      actual = sequence(in);
    }
    assertSameSequence(expected, actual);
  }

  @Test
  void toSerRoundTrips() throws Exception {
    Path back = dir.resolve("back.ser");
    Result r = run("to-ser", converted().toString(), "-o", back.toString(), "-cp", cp);
    assertEquals(0, r.code, r.err);
    assertEquals("", r.out + r.err);
    List<Object> expected;
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(ser))) {
      expected = sequence(in);
    }
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(back))) {
      assertSameSequence(expected, sequence(in));
    }
  }

  @Test
  void toSerOfASingleSnapshot() throws Exception {
    Path back = dir.resolve("tree-back.ser");
    Result r = run("to-ser", tree.toString(), "-o", back.toString(), "-cp", cp);
    assertEquals(0, r.code, r.err);
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(back))) {
      RedBlackTree t = (RedBlackTree) in.readObject();
      assertEquals(200, t.size());
      assertTrue(t.isValid());
    }
  }

  /**
   * The object streams committed for the core's compatibility test, one per stream version since
   * the compact segments of version 3: each version's segments are decoded as that version wrote
   * them (versions 3 and 4 hold the depth as it is, 5 and later a descriptor flag with it).
   */
  @Test
  void inspectReadsEveryCommittedStreamVersion() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(root.resolve("codese-core"))) {
      root = root.getParent(); // the tests run in the module or its target directory
    }
    Path dir = root.resolve("codese-core/src/test/resources/org/codese/compat");
    int read = 0;
    for (int v = 3; v <= org.codese.load.StreamReader.STREAM_VERSION; v++) {
      Result r = run("inspect", dir.resolve("stream-v" + v + ".cdse").toString());
      assertEquals(0, r.code, "stream version " + v + ": " + r.err);
      assertTrue(r.out.contains("checksums:           ok"), r.out);
      read++;
    }
    assertTrue(read >= 3);
  }

  /**
   * A snapshot of format 6 that refers to a static constant (issue 10, part 5): inspect names it
   * and the option a load needs, show lists it where the program stores it.
   */
  @Test
  void inspectAndShowNameStaticConstants() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(root.resolve("codese-core"))) {
      root = root.getParent();
    }
    Path file = root.resolve("codese-core/src/test/resources/org/codese/compat/v6-statics.cdse");
    Result r = run("inspect", file.toString());
    assertEquals(0, r.code, r.err);
    assertTrue(
        r.out.contains(
            "global references:   1 (java.lang.String.CASE_INSENSITIVE_ORDER); loading needs"
                + " CodeseOptions.withStaticConstants(true)"),
        r.out);
    Result s = run("show", file.toString());
    assertEquals(0, s.code, s.err);
    assertTrue(s.out.contains("String.CASE_INSENSITIVE_ORDER /* static constant */"), s.out);
    Result refused = run("verify", file.toString());
    assertEquals(1, refused.code, refused.out);
    assertTrue(refused.out.contains("withStaticConstants(true)"), refused.out);
    Result admitted = run("verify", file.toString(), "--static-constants");
    assertEquals(0, admitted.code, admitted.out + admitted.err);
    assertTrue(admitted.out.contains("(with --static-constants)"), admitted.out);
  }

  @Test
  void inspectAndShowNameDynamicProxiesByTheirInterfaces() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(root.resolve("codese-core"))) {
      root = root.getParent();
    }
    Path file = root.resolve("codese-core/src/test/resources/org/codese/compat/v7-proxies.cdse");
    Result r = run("inspect", file.toString());
    assertEquals(0, r.code, r.err);
    assertTrue(
        r.out.matches(
            "(?s).*\\n\\s+1\\s+\\d+\\s+\\d+\\s+dynamic proxy of"
                + " org\\.codese\\.compat\\.CompatibilityTest\\.Named,"
                + " java\\.util\\.function\\.Supplier \\(\\S+\\)\\n.*"),
        r.out);
    assertTrue(r.out.contains("dynamic proxy of java.lang.Runnable ("), r.out);
    Result s = run("show", file.toString());
    assertEquals(0, s.code, s.err);
    assertTrue(s.out.contains(" = new Proxy[CompatibilityTest.Named, Supplier]();"), s.out);
    assertTrue(s.out.contains("\nProxy o"), s.out);
    assertTrue(s.out.contains("new Proxy[Runnable]()"), s.out);
  }

  @Test
  void inspectCountsWithoutTheClasses() throws Exception {
    Result r = run("inspect", tree.toString());
    assertEquals(0, r.code, r.err);
    assertEquals("", r.err);
    assertTrue(r.out.contains("checksums:           ok"), r.out);
    assertTrue(
        r.out.contains("format version:      " + org.codese.format.SnapshotFile.VERSION + "\n"),
        r.out);
    assertTrue(r.out.contains("captured on JDK:     " + System.getProperty("java.version")), r.out);
    assertTrue(
        r.out.matches(
            "(?s).*\\n\\s+200\\s+\\d+\\s+\\d+\\s+org\\.codese\\.samples\\."
                + "RedBlackTree\\.Node\\n.*"),
        r.out);
    assertTrue(r.out.matches("(?s).*\\n\\s+201\\s+\\d+\\s+\\d+\\s+total\\n"), r.out);
    Result s = run("inspect", converted().toString());
    assertEquals(0, s.code, s.err);
    // one segment per object, as ObjectOutputStream writes each object when it is written
    assertTrue(s.out.contains("object stream (5 segments)"), s.out);
    // a stream's segments do not record the capturing JDK: say so rather than print nothing
    assertTrue(s.out.contains("captured on JDK:     not recorded in the file\n"), s.out);
    assertTrue(
        s.out.contains("items:               7 (5 objects, 3021 bytes of primitive data)"), s.out);
    assertTrue(s.out.contains("org.codese.cli.it.Point"), s.out);
  }

  /**
   * A compressed snapshot (CodeseOptions.withCompression), signed or not: inspect says so with both
   * sizes and counts what the uncompressed file holds; show, verify and to-ser read it as they read
   * the uncompressed file; convert says it is already a Codese snapshot; damage is one line.
   */
  @Test
  void compressedSnapshotsWorkWithEveryCommand() throws Exception {
    RedBlackTree t = RedBlackTree.random(200, 7);
    Path packed = dir.resolve("tree-compressed.cdse");
    Codese.write(t, packed, CodeseOptions.defaults().withCompression(true));
    long uncompressed = SnapshotContents.read(Files.readAllBytes(packed)).snapshotSize();
    long size = Files.size(packed);
    assertTrue(size < uncompressed, size + " compressed, " + uncompressed + " uncompressed");

    Result plain = run("inspect", tree.toString());
    assertTrue(plain.out.contains("\ncompression:         none\n"), plain.out);
    Result r = run("inspect", packed.toString());
    assertEquals(0, r.code, r.err);
    assertEquals("", r.err);
    assertTrue(
        r.out.contains(
            "\ncompression:         DEFLATE, "
                + size
                + " bytes compressed, "
                + uncompressed
                + " bytes uncompressed ("
                + Math.round(100.0 * size / uncompressed)
                + "%)\n"),
        r.out);
    assertTrue(r.out.contains("kind:                snapshot\n"), r.out);
    assertTrue(r.out.contains("size:                " + size + " bytes\n"), r.out);
    // the same counts as the uncompressed file of the same tree
    assertEquals(
        plain.out.substring(plain.out.indexOf("objects:")),
        r.out.substring(r.out.indexOf("objects:")));

    Result show = run("show", packed.toString(), "--limit", "50");
    assertEquals(0, show.code, show.err);
    assertEquals(run("show", tree.toString(), "--limit", "50").out, show.out);

    Result v = run("verify", packed.toString(), "--classpath", cp);
    assertEquals(
        "verified "
            + packed
            + ": compressed snapshot, 201 objects, 2 classes; integrity, fingerprints,"
            + " grammar, allow-list and program checks passed\n",
        v.out);
    assertEquals(0, v.code);

    Path back = dir.resolve("tree-compressed-back.ser");
    Result toSer = run("to-ser", packed.toString(), "-o", back.toString(), "-cp", cp);
    assertEquals(0, toSer.code, toSer.err);
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(back))) {
      assertArrayEquals(jdk(t), jdk(in.readObject()));
    }

    Result convert = run("convert", packed.toString(), "-o", dir.resolve("x.cdss").toString());
    assertEquals(1, convert.code);
    assertTrue(convert.err.contains("already a Codese snapshot (.cdse"), convert.err);

    Path signed = dir.resolve("tree-signed-compressed.cdse");
    Codese.write(
        t,
        signed,
        CodeseOptions.defaults()
            .withCompression(true)
            .withSigningKey("0123456789abcdef-cli".getBytes(StandardCharsets.UTF_8)));
    Result s = run("inspect", signed.toString());
    assertEquals(0, s.code, s.err);
    assertTrue(
        s.out.contains("kind:                snapshot (signed; the signature is not checked here)"),
        s.out);
    assertTrue(
        s.out.contains("\ncompression:         DEFLATE, " + size + " bytes compressed"), s.out);
    Result sv = run("verify", signed.toString(), "--classpath", cp);
    assertEquals(0, sv.code, sv.out + sv.err);
    assertTrue(sv.out.endsWith("(the signature was not checked: verify takes no key)\n"), sv.out);

    byte[] cut = Files.readAllBytes(packed);
    Path damaged = dir.resolve("tree-compressed-cut.cdse");
    Files.write(damaged, Arrays.copyOf(cut, cut.length - 3));
    for (String cmd : List.of("inspect", "show")) {
      Result d = run(cmd, damaged.toString());
      assertEquals(1, d.code, cmd);
      assertEquals(1, d.errLines().size(), d.err);
      assertTrue(d.err.startsWith("codese " + cmd + ": " + damaged + ": corrupt snapshot:"), d.err);
      assertTrue(d.err.contains("section compression envelope"), d.err);
    }
    Result dv = run("verify", damaged.toString(), "-cp", cp);
    assertEquals(1, dv.code);
    assertTrue(dv.out.startsWith(damaged + ": integrity: corrupt snapshot:"), dv.out);
  }

  @Test
  void showListsStatements() throws Exception {
    Result r = run("show", tree.toString(), "--limit", "5");
    assertEquals(0, r.code, r.err);
    List<String> statements = r.out.lines().filter(l -> !l.startsWith("//")).toList();
    assertEquals(5, statements.size(), r.out);
    assertEquals("RedBlackTree o0 = new RedBlackTree();", statements.get(0));
    Result nodes = run("show", tree.toString(), "--class", "RedBlackTree.Node");
    assertEquals(0, nodes.code, nodes.err);
    assertEquals(
        200, nodes.out.lines().filter(l -> l.contains(" = new RedBlackTree.Node()")).count());
    assertTrue(nodes.out.lines().noneMatch(l -> l.startsWith("//") || l.startsWith("o0.")));
    assertTrue(nodes.out.lines().anyMatch(l -> l.matches("o\\d+\\.left = o\\d+;")), nodes.out);
    Result point = run("show", converted().toString(), "--class", "org.codese.cli.it.Point");
    assertTrue(point.out.contains(".label = o"), point.out);
    assertTrue(point.out.lines().anyMatch(l -> l.matches("o\\d+\\.x = 3;")), point.out);
  }

  /** A cut listing says how much it left out; a class the snapshot lacks is an error. */
  @Test
  void showSaysWhatItLeftOut() throws Exception {
    Result all = run("show", tree.toString());
    long total = all.out.lines().filter(l -> !l.startsWith("//")).count();
    Result r = run("show", tree.toString(), "--limit", "5");
    List<String> lines = r.out.lines().toList();
    assertEquals(
        "// \u2026 " + (total - 5) + " more statements (--limit 5)",
        lines.get(lines.size() - 1),
        r.out);
    Result nodes = run("show", tree.toString(), "--class", "RedBlackTree.Node", "--limit", "0");
    assertEquals(0, nodes.code, nodes.err);
    assertTrue(nodes.out.matches("// \u2026 \\d+ more statements \\(--limit 0\\)\n"), nodes.out);
    Result whole = run("show", tree.toString(), "--limit", String.valueOf(total));
    assertTrue(whole.out.lines().noneMatch(l -> l.contains("more statement")), whole.out);

    Result nope = run("show", tree.toString(), "--class", "Nope");
    assertEquals(1, nope.code, nope.out + nope.err);
    assertEquals("", nope.out);
    assertTrue(
        nope.err.startsWith(
            "codese show: "
                + tree
                + ": no object of class Nope in the"
                + " snapshot; it has objects of org.codese.samples.RedBlackTree,"
                + " org.codese.samples.RedBlackTree.Node"),
        nope.err);
  }

  @Test
  void verifySaysWhatItChecked() throws Exception {
    Result r = run("verify", converted().toString(), "--classpath", cp);
    assertEquals(0, r.code, r.out + r.err);
    assertEquals("", r.err);
    assertTrue(
        r.out.matches(
            "verified "
                + Pattern.quote(converted().toString())
                + ": object stream, 5 segments, [\\d,]+ objects, \\d+ classes; integrity, fingerprints,"
                + " grammar, allow-list and program checks passed\n"),
        r.out);
    Result single = run("verify", tree.toString(), "--classpath", cp, "--verbose");
    assertEquals(
        "verified "
            + tree
            + ": snapshot, 201 objects, 2 classes; integrity, fingerprints,"
            + " grammar, allow-list and program checks passed\n",
        single.out);
  }

  @Test
  void verifyNamesMissingClasses() throws Exception {
    Result r = run("verify", tree.toString());
    assertEquals(1, r.code);
    assertTrue(
        r.out.contains(
            tree
                + ": fingerprint: class org.codese.samples.RedBlackTree is not"
                + " on the class path"),
        r.out);
  }

  @Test
  void verifyNamesTheChangedField() throws Exception {
    Path snap = dir.resolve("point.cdse");
    Codese.write(new Point(1, 2, "a"), snap);
    Path changed = dir.resolve("changed");
    writePoint(
        changed,
        cw -> {
          cw.visitField(Opcodes.ACC_PUBLIC, "x", "I", null, null).visitEnd();
          cw.visitField(Opcodes.ACC_PUBLIC, "y", "J", null, null).visitEnd();
        });
    Result r = run("verify", snap.toString(), "--classpath", changed.toString());
    assertEquals(1, r.code, r.err);
    assertTrue(
        r.out.contains(
            "class org.codese.cli.it.Point: field y had type int at capture but"
                + " has type long now"),
        r.out);
    assertTrue(
        r.out.contains(
            ": evolved: class org.codese.cli.it.Point: field label (java.lang.String) removed"
                + " since capture (it is gone now): skipped on restore"),
        r.out);
    Result ok = run("verify", snap.toString(), "--classpath", location(Point.class));
    assertEquals(0, ok.code, ok.out + ok.err);
  }

  /**
   * A class that evolved compatibly (serialization specification 5.6: a field removed, one added,
   * one made transient) verifies, and verify says how each class evolved.
   */
  @Test
  void verifyNamesHowClassesEvolved() throws Exception {
    Path snap = dir.resolve("point-evolved.cdse");
    Codese.write(new Point(1, 2, "a"), snap);
    Path changed = dir.resolve("evolved");
    writePoint(
        changed,
        cw -> {
          cw.visitField(Opcodes.ACC_PUBLIC, "x", "I", null, null).visitEnd();
          cw.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_TRANSIENT, "y", "I", null, null)
              .visitEnd();
          cw.visitField(Opcodes.ACC_PUBLIC, "z", "D", null, null).visitEnd();
        });
    Result r = run("verify", snap.toString(), "--classpath", changed.toString());
    assertEquals(0, r.code, r.out + r.err);
    String p = snap + ": evolved: class org.codese.cli.it.Point: field ";
    assertTrue(
        r.out.contains(p + "label (java.lang.String) removed since capture (it is gone now)"),
        r.out);
    assertTrue(r.out.contains(p + "y (int) removed since capture (it is transient now)"), r.out);
    assertTrue(
        r.out.contains(p + "z (double) added since capture: restored with its default value"),
        r.out);
    assertTrue(r.out.contains("classes evolved since capture"), r.out);
  }

  /**
   * A superclass removed from the hierarchy since capture verifies and is named among the evolved
   * classes: when its class is still on the class path, and when it is gone from it too.
   */
  @Test
  void verifyNamesRemovedSuperclasses() throws Exception {
    Path snap = dir.resolve("tagged.cdse");
    Codese.write(new org.codese.cli.it.Tagged(), snap);
    Path gone = dir.resolve("tagged-gone");
    writeTagged(gone);
    String line =
        snap
            + ": evolved: class org.codese.cli.it.Labelled removed since capture from the"
            + " hierarchy of the objects that extended it";
    String data =
        ": its data (fields rank, label, and any writeObject data) is read and skipped on"
            + " restore, as ObjectInputStream skips it";
    Result r = run("verify", snap.toString(), "--classpath", gone.toString());
    assertEquals(0, r.code, r.out + r.err);
    assertTrue(r.out.contains(line + ", and no longer on the class path" + data), r.out);
    assertTrue(r.out.contains("classes evolved since capture"), r.out);

    Path kept = dir.resolve("tagged-kept");
    writeTagged(kept);
    Path base = kept.resolve("org/codese/cli/it/Labelled.class");
    Files.copy(
        Path.of(location(org.codese.cli.it.Labelled.class))
            .resolve("org/codese/cli/it/Labelled.class"),
        base);
    Result k = run("verify", snap.toString(), "--classpath", kept.toString());
    assertEquals(0, k.code, k.out + k.err);
    assertTrue(
        k.out.contains(line + " (none of the file's objects is an instance of it now)" + data),
        k.out);

    Result same = run("verify", snap.toString(), "--classpath", cp);
    assertEquals(0, same.code, same.out + same.err);
    assertTrue(!same.out.contains("evolved"), same.out);

    // the file also holds an object of the removed class itself: its data is skipped per object
    Path both = dir.resolve("tagged-and-labelled.cdse");
    Codese.write(
        new java.util.ArrayList<>(
            java.util.List.of(new org.codese.cli.it.Tagged(), new org.codese.cli.it.Labelled())),
        both);
    Result b = run("verify", both.toString(), "--classpath", kept.toString());
    assertEquals(0, b.code, b.out + b.err);
    assertTrue(
        b.out.contains(
            both
                + ": evolved: class org.codese.cli.it.Labelled removed since capture from the"
                + " hierarchy of some objects (the file also holds objects of the class itself,"),
        b.out);
    assertTrue(b.out.contains("classes evolved since capture"), b.out);
  }

  /**
   * An object of a class no longer on the class path that only a removed field refers to verifies:
   * verify says that a load does not make it, and names the removed field.
   */
  @Test
  void verifyNamesObjectsNotMade() throws Exception {
    Path snap = dir.resolve("boxed.cdse");
    Codese.write(new org.codese.cli.it.Boxed(), snap);
    Path gone = dir.resolve("boxed-gone");
    writeSerializable(gone, "org/codese/cli/it/Boxed", "size");
    Result r = run("verify", snap.toString(), "--classpath", gone.toString());
    assertEquals(0, r.code, r.out + r.err);
    assertTrue(
        r.out.contains(
            snap
                + ": evolved: class org.codese.cli.it.Labelled no longer on the class path: its 1"
                + " object, which only skipped data refers to"),
        r.out);
    assertTrue(!r.out.contains("hierarchy of the objects that extended it"), r.out);
    assertTrue(
        r.out.contains(
            ": evolved: class org.codese.cli.it.Boxed: field content (java.lang.Object) removed"),
        r.out);
  }

  /**
   * Writes into {@code root} {@code org.codese.cli.it.Tagged} as it is after its superclass was
   * removed: serializable itself, {@code serialVersionUID} 1 as before, field {@code tag}.
   */
  private static void writeTagged(Path root) throws IOException {
    writeSerializable(root, "org/codese/cli/it/Tagged", "tag");
  }

  /**
   * Writes into {@code root} a class file of class {@code internalName}: public, serializable, a
   * direct subclass of {@code Object}, {@code serialVersionUID} 1, and one public {@code int} field
   * {@code intField}.
   */
  private static void writeSerializable(Path root, String internalName, String intField)
      throws IOException {
    Path cls = root.resolve(internalName + ".class");
    Files.createDirectories(cls.getParent());
    ClassWriter cw = new ClassWriter(0);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC,
        internalName,
        null,
        "java/lang/Object",
        new String[] {"java/io/Serializable"});
    cw.visitField(
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL,
            "serialVersionUID",
            "J",
            null,
            1L)
        .visitEnd();
    cw.visitField(Opcodes.ACC_PUBLIC, intField, "I", null, null).visitEnd();
    cw.visitEnd();
    Files.write(cls, cw.toByteArray());
  }

  /**
   * Writes into {@code root} a class file of {@code org.codese.cli.it.Point} as it might have
   * changed since capture: serializable, {@code serialVersionUID} 1 as before, the fields {@code
   * fields} adds.
   */
  private static void writePoint(Path root, java.util.function.Consumer<ClassWriter> fields)
      throws IOException {
    Path cls = root.resolve("org/codese/cli/it/Point.class");
    Files.createDirectories(cls.getParent());
    ClassWriter cw = new ClassWriter(0);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL,
        "org/codese/cli/it/Point",
        null,
        "java/lang/Object",
        new String[] {"java/io/Serializable"});
    cw.visitField(
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL,
            "serialVersionUID",
            "J",
            null,
            1L)
        .visitEnd();
    fields.accept(cw);
    cw.visitEnd();
    Files.write(cls, cw.toByteArray());
  }

  @Test
  void damagedFilesFailWithOneLine() throws Exception {
    byte[] good = Files.readAllBytes(converted());
    byte[] flipped = good.clone();
    flipped[good.length / 2] ^= 0x40;
    Path bad = dir.resolve("flipped.cdse");
    Files.write(bad, flipped);
    for (String cmd : List.of("inspect", "show")) {
      Result r = run(cmd, bad.toString());
      assertEquals(1, r.code, cmd);
      assertEquals(1, r.errLines().size(), r.err);
      assertTrue(r.err.startsWith("codese " + cmd + ": " + bad + ": corrupt snapshot:"), r.err);
      assertEquals("", r.out);
    }
    Result v = run("verify", bad.toString(), "-cp", cp);
    assertEquals(1, v.code);
    assertTrue(v.out.startsWith(bad + ": integrity: corrupt snapshot:"), v.out);
    Result t = run("to-ser", bad.toString(), "-o", dir.resolve("x.ser").toString(), "-cp", cp);
    assertEquals(1, t.code);
    assertFalse(Files.exists(dir.resolve("x.ser")));

    Path cut = dir.resolve("cut.cdse");
    Files.write(cut, Arrays.copyOf(good, good.length - 4));
    Result c = run("inspect", cut.toString());
    assertEquals(1, c.code);
    assertTrue(c.err.contains("without its end mark"), c.err);

    Path single = dir.resolve("cut-single.cdse");
    byte[] t1 = Files.readAllBytes(tree);
    Files.write(single, Arrays.copyOf(t1, t1.length - 10));
    Result s = run("verify", single.toString());
    assertEquals(1, s.code);
    assertTrue(s.out.contains("checksum mismatch"), s.out);

    Path junk = dir.resolve("junk.cdse");
    Files.writeString(junk, "hello, world");
    Result j = run("inspect", junk.toString());
    assertEquals(1, j.code);
    assertTrue(j.err.contains("not a Codese snapshot"), j.err);

    Result s2 = run("inspect", ser.toString());
    assertEquals(1, s2.code);
    assertTrue(s2.err.contains("convert it first"), s2.err);

    Result verbose = run("inspect", bad.toString(), "--verbose");
    assertEquals(1, verbose.code);
    assertTrue(verbose.err.contains("\tat org.codese."), verbose.err);
  }

  @Test
  void convertReportsBadInput() throws Exception {
    byte[] good = Files.readAllBytes(ser);
    Path cut = dir.resolve("cut.ser");
    Files.write(cut, Arrays.copyOf(good, good.length / 2));
    Path out = dir.resolve("never.cdse");
    Result r = run("convert", cut.toString(), "-o", out.toString(), "-cp", cp);
    assertEquals(1, r.code);
    assertEquals(1, r.errLines().size(), r.err);
    assertTrue(r.err.contains(cut + ": truncated"), r.err);
    assertFalse(Files.exists(out));

    Result n = run("convert", ser.toString(), "-o", out.toString());
    assertEquals(1, n.code);
    assertTrue(
        n.err.contains(
            "class org.codese.samples.RedBlackTree is not on the class path;"
                + " add its jar or directory with --classpath"),
        n.err);

    Result m = run("convert", "missing.ser", "-o", out.toString());
    assertEquals(1, m.code);
    assertTrue(m.err.contains("missing.ser: no such file"), m.err);

    Path notSer = dir.resolve("text.ser");
    Files.writeString(notSer, "not serialized data");
    Result x = run("convert", notSer.toString(), "-o", out.toString());
    assertEquals(1, x.code);
    assertTrue(x.err.contains("not a valid JDK serialization stream"), x.err);

    Result again = run("convert", converted().toString(), "-o", out.toString(), "-cp", cp);
    assertEquals(1, again.code);
    assertTrue(again.err.contains("already a Codese object stream (.cdss"), again.err);
    Path snap = dir.resolve("numbers.cdse");
    org.codese.Codese.write(new java.util.ArrayList<>(List.of(1, 2)), snap);
    Result snapshot = run("convert", snap.toString(), "-o", out.toString());
    assertEquals(1, snapshot.code);
    assertTrue(snapshot.err.contains("already a Codese snapshot (.cdse"), snapshot.err);
    assertFalse(Files.exists(out));
  }

  /**
   * A snapshot of a class that is not Serializable: inspect and verify print the options line that
   * admits it, ready to paste; verify passes with --allow; a malformed pattern is a usage error.
   */
  @Test
  void allowListIsPrintedReadyToPaste() throws Exception {
    Path snap = dir.resolve("plain.cdse");
    Codese.write(new ArrayList<>(List.of(new Plain(1), new Point(1, 2, "p"))), snap);
    String line = "CodeseOptions.defaults().withAllowedClasses(\"org.codese.cli.it.Plain\")";
    Result i = run("inspect", snap.toString(), "--classpath", location(Plain.class));
    assertEquals(0, i.code, i.err);
    assertTrue(i.out.contains("allow-list:          " + line + "\n"), i.out);
    Result unknown = run("inspect", snap.toString());
    assertTrue(
        unknown.out.contains(
            "allow-list:          unknown: 2 classes are not on the"
                + " class path (pass --classpath)"),
        unknown.out);
    Result serializable = run("inspect", tree.toString(), "--classpath", cp);
    assertTrue(serializable.out.contains("allow-list:          none needed"), serializable.out);

    Result v = run("verify", snap.toString(), "--classpath", location(Plain.class));
    assertEquals(1, v.code, v.out + v.err);
    assertEquals(1, v.out.lines().count(), v.out);
    assertTrue(
        v.out.startsWith(snap + ": allow-list: 1 class that ObjectInputStream would" + " refuse"),
        v.out);
    assertTrue(v.out.contains("load it with " + line), v.out);
    Result ok =
        run(
            "verify",
            snap.toString(),
            "--classpath",
            location(Plain.class),
            "--allow",
            "org.codese.cli.it.*");
    assertEquals(0, ok.code, ok.out + ok.err);
    assertEquals("", ok.err);
    assertTrue(ok.out.startsWith("verified " + snap + ": snapshot, "), ok.out);
    assertTrue(ok.out.contains("allow-list (with --allow) and program checks passed"), ok.out);
    assertEquals(2, run("verify", snap.toString(), "--allow", "a.*.B").code);
  }

  @Test
  void usageErrorsExitTwo() throws Exception {
    assertEquals(2, run().code);
    assertEquals(2, run("frobnicate").code);
    Result r = run("convert", ser.toString());
    assertEquals(2, r.code);
    assertTrue(r.err.contains("--output"), r.err);
    assertEquals(1, r.errLines().size(), r.err);
    assertEquals(2, run("show", tree.toString(), "--limit", "many").code);
    assertEquals(2, run("inspect", tree.toString(), "--bogus").code);
  }

  @Test
  void helpAndVersionOnEveryCommand() throws Exception {
    for (String cmd : List.of("", "convert", "inspect", "show", "verify", "to-ser")) {
      List<String> base = cmd.isEmpty() ? List.of() : List.of(cmd);
      List<String> help = new ArrayList<>(base);
      help.add("--help");
      Result h = run(help.toArray(String[]::new));
      assertEquals(0, h.code, cmd);
      assertTrue(h.out.startsWith("Usage: codese"), h.out);
      List<String> version = new ArrayList<>(base);
      version.add("--version");
      Result v = run(version.toArray(String[]::new));
      assertEquals(0, v.code, cmd);
      assertTrue(v.out.startsWith("codese "), v.out);
    }
  }

  /** Each command's line in the top-level help is whole sentences, not a cut-off first line. */
  @Test
  void topLevelHelpListsEachCommandInASentence() throws Exception {
    String help = run("--help").out;
    String commands = help.substring(help.indexOf("Commands:\n") + 10);
    for (String entry : commands.split("\n(?=  \\S)")) {
      String text = entry.strip().replaceAll("\\s+", " ");
      assertTrue(text.endsWith("."), "ends mid-sentence: " + text);
    }
    assertTrue(commands.contains("verify"), help);
  }

  /** inspect speaks plain words: no internal terms, and its help explains every label. */
  @Test
  void inspectAvoidsJargon() throws Exception {
    Result r = run("inspect", converted().toString(), "--classpath", cp);
    assertEquals(0, r.code, r.err);
    for (String jargon : List.of("table objects", "chunk", "blob", "Figure 4", "hook", "#")) {
      assertFalse(r.out.contains(jargon), jargon + " in\n" + r.out);
    }
    assertTrue(r.out.contains("\n   objects   references   primitives  class\n"), r.out);
    String help = run("inspect", "--help").out.replaceAll("\\s+", " ");
    for (String label :
        r.out.lines().takeWhile(l -> !l.isEmpty()).map(l -> l.split(":")[0]).toList()) {
      if (!List.of("file", "kind", "format version", "captured on JDK", "checksums", "size")
          .contains(label)) {
        assertTrue(help.contains(" " + label + " "), "help does not explain '" + label + "'");
      }
    }
    assertTrue(help.contains("'references' and 'primitives' count"), help);
  }

  /** The version printed is the one the build gave the jar, from its manifest. */
  @Test
  void versionComesFromTheBuild() throws Exception {
    String expected = System.getProperty("codese.version");
    assertNotNull(expected);
    try (JarFile jar = new JarFile(System.getProperty("codese.jar"))) {
      assertEquals(
          expected, jar.getManifest().getMainAttributes().getValue("Implementation-Version"));
    }
    assertEquals("codese " + expected, run("--version").out.lines().findFirst().orElseThrow());
    Path launcher = Path.of(System.getProperty("codese.launcher"));
    Result r = exec(List.of(launcher.toString(), "--version"));
    assertEquals(0, r.code, r.err);
    assertEquals("codese " + expected, r.out.lines().findFirst().orElseThrow());
  }

  @Test
  void launcherScriptRuns() throws Exception {
    Path launcher = Path.of(System.getProperty("codese.launcher"));
    Result r = exec(List.of(launcher.toString(), "inspect", tree.toString()));
    assertEquals(0, r.code, r.err);
    assertTrue(r.out.contains("RedBlackTree"), r.out);
  }
}
