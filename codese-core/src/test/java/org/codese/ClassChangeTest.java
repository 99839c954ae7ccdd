package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot restored against classes that changed since capture: the same class name compiled in
 * several versions, each in its own class loader (the capture's, and the restore's through {@link
 * CodeseOptions#withClassLoader}).
 */
class ClassChangeTest {
  @TempDir Path tmp;

  private static final String V1 =
      """
      package evo;
      public class Thing implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public int a;
        public String s;
        public Thing next;
      }
      """;

  /** Compiles one version of {@code evo.Thing} and returns a loader for it. */
  private ClassLoader version(String name, String source) throws IOException {
    Path dir = tmp.resolve(name);
    Path src = dir.resolve("evo/Thing.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-d", dir.toString(), src.toString());
    assertEquals(0, rc, "javac failed for " + name);
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
  }

  private byte[] captureV1() throws Exception {
    ClassLoader l1 = version("v1", V1);
    Class<?> c = Class.forName("evo.Thing", true, l1);
    Object t = c.getConstructor().newInstance();
    Object u = c.getConstructor().newInstance();
    c.getField("a").setInt(t, 7);
    c.getField("s").set(t, "seven");
    c.getField("next").set(t, u);
    c.getField("next").set(u, t);
    return Codese.toBytes(t);
  }

  private static Object restoreWith(byte[] snapshot, ClassLoader loader) throws IOException {
    try (Snapshot s = Codese.load(snapshot, CodeseOptions.defaults().withClassLoader(loader))) {
      return s.restore();
    }
  }

  @Test
  void sameClassInAnotherLoaderRestores() throws Exception {
    byte[] snapshot = captureV1();
    ClassLoader again = version("v1-again", V1);
    Object copy = restoreWith(snapshot, again);
    Class<?> c = copy.getClass();
    assertEquals(again, c.getClassLoader(), "restored with the loader given in the options");
    assertEquals(7, c.getField("a").getInt(copy));
    Object next = c.getField("next").get(copy);
    assertNotSame(copy, next);
    assertEquals(copy, c.getField("next").get(next));
  }

  @Test
  void fieldTypeChangedIsAClassMismatch() throws Exception {
    byte[] snapshot = captureV1();
    ClassLoader v2 = version("v2", V1.replace("public int a;", "public long a;"));
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> restoreWith(snapshot, v2));
    assertEquals("evo.Thing", e.classname);
    assertEquals("a", e.fieldName());
  }

  /**
   * The message of a changed field type names the types as Java does ({@code int}, {@code long},
   * {@code java.lang.String[]}), not as descriptors ({@code I}, {@code J}, {@code
   * [Ljava/lang/String;}); {@code ObjectInputStream} throws the same type for the same change, an
   * {@code InvalidClassException}.
   */
  @Test
  void aChangedFieldTypeIsNamedAsJavaNamesIt() throws Exception {
    String v1 = V1.replace("public Thing next;", "public Thing next; public String[] names;");
    ClassLoader l1 = version("v1-names", v1);
    Object t = Class.forName("evo.Thing", true, l1).getConstructor().newInstance();
    t.getClass().getField("names").set(t, new String[] {"x"});
    byte[] snapshot = Codese.toBytes(t);
    byte[] jdk = org.codese.testkit.JdkBytes.serialize(t);
    String[][] changes = {
      {"public int a;", "public long a;", "field a had type int at capture but has type long now"},
      {
        "public String[] names;",
        "public int names;",
        "field names had type java.lang.String[] at capture but has type int now"
      }
    };
    for (String[] change : changes) {
      ClassLoader v2 = version("v2-" + change[1].hashCode(), v1.replace(change[0], change[1]));
      ClassMismatchException e =
          assertThrows(ClassMismatchException.class, () -> restoreWith(snapshot, v2));
      assertTrue(e.getMessage().contains(change[2]), e.getMessage());
      java.io.InvalidClassException jdkError =
          assertThrows(
              java.io.InvalidClassException.class,
              () ->
                  new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(jdk)) {
                    @Override
                    protected Class<?> resolveClass(java.io.ObjectStreamClass d)
                        throws IOException, ClassNotFoundException {
                      return Class.forName(d.getName(), false, v2);
                    }
                  }.readObject());
      assertTrue(jdkError.getMessage().contains("incompatible types"), jdkError.getMessage());
    }
  }

  /**
   * A field removed since capture is skipped, as {@code ObjectInputStream} skips it (serialization
   * specification, section 5.6.1: the JDK restores such data); this test expected a {@code
   * ClassMismatchException} before class evolution was supported. {@code CompatibleChangesTest}
   * compares this and the other changes with the JDK.
   */
  @Test
  void fieldRemovedIsSkipped() throws Exception {
    byte[] snapshot = captureV1();
    ClassLoader v2 = version("v2", V1.replace("public String s;", ""));
    Object copy = restoreWith(snapshot, v2);
    assertEquals(7, copy.getClass().getField("a").getInt(copy));
    Object next = copy.getClass().getField("next").get(copy);
    assertEquals(copy, copy.getClass().getField("next").get(next));
  }

  @Test
  void serialVersionUidChangedIsAClassMismatch() throws Exception {
    byte[] snapshot = captureV1();
    ClassLoader v2 = version("v2", V1.replace("= 1L;", "= 2L;"));
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> restoreWith(snapshot, v2));
    assertEquals("evo.Thing", e.classname);
  }

  @Test
  void addedFieldStaysDefault() throws Exception {
    byte[] snapshot = captureV1();
    ClassLoader v2 = version("v2", V1.replace("public int a;", "public int a; public long added;"));
    Object copy = restoreWith(snapshot, v2);
    assertEquals(7, copy.getClass().getField("a").getInt(copy));
    assertEquals(0L, copy.getClass().getField("added").getLong(copy));
  }

  @Test
  void missingClassIsAClassMismatch() throws Exception {
    byte[] snapshot = captureV1();
    ClassLoader none = new URLClassLoader(new URL[0], getClass().getClassLoader());
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> restoreWith(snapshot, none));
    assertTrue(e.getMessage().contains("evo.Thing"), e.getMessage());
    assertTrue(List.of("evo.Thing").contains(e.classname), e.classname);
  }
}
