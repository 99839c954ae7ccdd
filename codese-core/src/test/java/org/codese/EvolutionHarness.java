package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.io.TempDir;

/**
 * Class evolution as the Java Object Serialization Specification (chapter 5) defines it, compared
 * with {@code ObjectInputStream} change by change: a graph of version 1 of some classes is written
 * by {@code ObjectOutputStream}, by {@link Codese#toBytes} and by {@link CodeseOutputStream}, and
 * each is read back with version 2 of the classes, each version compiled into its own class loader.
 * Where the JDK restores, Codese must restore a graph whose JDK serialization (in version 2) has
 * the same bytes; where the JDK throws, Codese must throw an exception of the JDK's exception class
 * naming the same class.
 */
abstract class EvolutionHarness {
  @TempDir Path tmp;

  private int versions;

  /**
   * Compiles one version of some classes of package {@code evo}, each source naming its class as
   * {@code public [abstract|final] class|enum|interface|record Name}, into its own loader.
   */
  ClassLoader version(String... sources) throws IOException {
    Path dir = tmp.resolve("v" + versions++);
    List<String> args = new ArrayList<>(List.of("-d", dir.toString(), "-nowarn"));
    for (String source : sources) {
      String name = className(source);
      Path src = dir.resolve("src/evo/" + name + ".java");
      Files.createDirectories(src.getParent());
      Files.writeString(src, "package evo;\n" + source);
      args.add(src.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, args.toArray(String[]::new));
    assertEquals(0, rc, "javac failed");
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
  }

  private static String className(String source) {
    for (String kind : new String[] {"class ", "enum ", "interface ", "record "}) {
      int at = source.indexOf("public " + kind);
      for (String modifier : new String[] {"abstract ", "final "}) {
        if (at < 0) {
          at = source.indexOf("public " + modifier + kind);
          if (at >= 0) {
            at += modifier.length();
          }
        }
      }
      if (at >= 0) {
        String rest = source.substring(at + ("public " + kind).length());
        int end = 0;
        while (Character.isJavaIdentifierPart(rest.charAt(end))) {
          end++;
        }
        return rest.substring(0, end);
      }
    }
    throw new IllegalArgumentException("no public type in " + source);
  }

  /** What one reader made of the data: the object read, or what it threw. */
  record Outcome(Object value, Throwable error) {}

  /** The three forms of version 1's graph {@code evo.Make.make()}. */
  record Written(byte[] jdk, byte[] snapshot, byte[] stream) {}

  Written write(ClassLoader v1) throws Exception {
    Object root = Class.forName("evo.Make", true, v1).getMethod("make").invoke(null);
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(stream)) {
      out.writeObject(root);
    }
    return new Written(JdkBytes.serialize(root), Codese.toBytes(root), stream.toByteArray());
  }

  static Outcome jdk(byte[] bytes, ClassLoader v2) {
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes)) {
          @Override
          protected Class<?> resolveClass(ObjectStreamClass d)
              throws IOException, ClassNotFoundException {
            return Class.forName(d.getName(), false, v2);
          }
        }) {
      return new Outcome(in.readObject(), null);
    } catch (Exception | LinkageError e) {
      return new Outcome(null, e);
    }
  }

  static Outcome snapshot(byte[] bytes, ClassLoader v2) {
    try (Snapshot s = Codese.load(bytes, CodeseOptions.defaults().withClassLoader(v2))) {
      return new Outcome(s.restore(), null);
    } catch (Exception | LinkageError e) {
      return new Outcome(null, e);
    }
  }

  static Outcome stream(byte[] bytes, ClassLoader v2) {
    try (CodeseInputStream in =
        new CodeseInputStream(
            new ByteArrayInputStream(bytes), CodeseOptions.defaults().withClassLoader(v2))) {
      return new Outcome(in.readObject(), null);
    } catch (Exception | LinkageError e) {
      return new Outcome(null, e);
    }
  }

  /**
   * Writes version 1's graph three ways, reads each with version 2, and requires Codese's two
   * outcomes to match the JDK's.
   *
   * @return the JDK's outcome
   */
  Outcome compare(ClassLoader v1, ClassLoader v2) throws Exception {
    Written w = write(v1);
    Outcome expected = jdk(w.jdk(), v2);
    same(expected, snapshot(w.snapshot(), v2), "Codese.load");
    same(expected, stream(w.stream(), v2), "CodeseInputStream");
    return expected;
  }

  private static void same(Outcome expected, Outcome actual, String how) throws IOException {
    if (expected.error() != null) {
      Throwable e = expected.error();
      Throwable a = actual.error();
      assertNotNull(a, how + " restored where the JDK threw " + e);
      assertTrue(
          e.getClass().isInstance(a),
          how + " threw " + a + " where the JDK threw " + e + ": not the JDK's exception class");
      if (e instanceof InvalidClassException jdkError && jdkError.classname != null) {
        assertEquals(
            jdkError.classname, ((InvalidClassException) a).classname, how + ": " + a.getMessage());
      }
      return;
    }
    if (actual.error() != null) {
      throw new AssertionError(
          how + " threw where the JDK restored: " + actual.error(), actual.error());
    }
    byte[] want = JdkBytes.serialize(expected.value());
    byte[] got = JdkBytes.serialize(actual.value());
    assertArrayEquals(want, got, how + ": " + JdkBytes.explainDifference(want, got));
  }

  /** Requires the JDK to have restored (the change is compatible). */
  static Object restored(Outcome o) {
    assertNull(o.error(), () -> "the JDK did not restore: " + o.error());
    return o.value();
  }

  /** Requires the JDK to have thrown {@code type} (the change is incompatible). */
  static void rejected(Outcome o, Class<? extends Throwable> type) {
    assertNotNull(o.error(), "the JDK restored");
    assertTrue(type.isInstance(o.error()), () -> "the JDK threw " + o.error());
  }

  static Object field(Object o, String name) throws ReflectiveOperationException {
    java.lang.reflect.Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }
}
