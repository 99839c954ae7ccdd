package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The compatible changes of the serialization specification's section 5.6.2, and the changes of
 * section 5.6.1 that {@code ObjectInputStream} still restores (a deleted field, a field made static
 * or transient), each compared with the JDK by {@link EvolutionHarness#compare}.
 */
class CompatibleChangesTest extends EvolutionHarness {
  static final String THING =
      """
      public class Thing implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public int a;
        public String s;
        public Thing next;
      }
      """;

  static final String MAKE =
      """
      public class Make {
        public static Object make() {
          Thing t = new Thing();
          Thing u = new Thing();
          t.a = 7; t.s = "seven"; t.next = u;
          u.a = 8; u.s = "eight"; u.next = t;
          return t;
        }
      }
      """;

  /** Version 1's {@code Thing} with {@code readObject} and {@code writeObject} at the default. */
  static final String HOOKED =
      THING.replace(
          "public Thing next;",
          """
          public Thing next;
          private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            out.defaultWriteObject();
          }
          private void readObject(java.io.ObjectInputStream in)
              throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
          }
          """);

  @Test
  void anUnchangedClassWithoutSerialVersionUidRestores() throws Exception {
    String v1 = IncompatibleChangesTest.UNDECLARED;
    restored(compare(version(v1, MAKE), version(v1)));
  }

  @Test
  void aPrivateMethodAddedToAClassWithoutSerialVersionUidRestores() throws Exception {
    // the computed value leaves private methods out
    String v1 = IncompatibleChangesTest.UNDECLARED;
    String v2 =
        v1.replace("public Thing next;", "public Thing next; private int twice() { return 2; }");
    restored(compare(version(v1, MAKE), version(v2)));
  }

  @Test
  void aFieldAddedWithTheComputedValueDeclaredRestores() throws Exception {
    String v1 = IncompatibleChangesTest.UNDECLARED;
    ClassLoader one = version(v1, MAKE);
    long computed =
        java.io.ObjectStreamClass.lookup(Class.forName("evo.Thing", false, one))
            .getSerialVersionUID();
    String v2 =
        v1.replace(
            "public Thing next;",
            "public Thing next; public int added;"
                + " private static final long serialVersionUID = "
                + computed
                + "L;");
    Object t = restored(compare(one, version(v2)));
    assertEquals(0, field(t, "added"));
  }

  @Test
  void addedFieldsGetTheirDefaults() throws Exception {
    Object t =
        restored(
            compare(
                version(THING, MAKE),
                version(
                    THING.replace(
                        "public int a;",
                        "public int a; public long added = 5; public String note = \"x\";"))));
    assertEquals(0L, field(t, "added"));
    assertNull(field(t, "note"));
  }

  @Test
  void anAddedFieldIsDefaultedInGetField() throws Exception {
    String v2 =
        THING.replace(
            "public Thing next;",
            """
            public Thing next;
            public long added;
            public boolean wasDefaulted;
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              java.io.ObjectInputStream.GetField g = in.readFields();
              a = g.get("a", 0);
              s = (String) g.get("s", null);
              next = (Thing) g.get("next", null);
              wasDefaulted = g.defaulted("added") && !g.defaulted("a");
              added = g.get("added", 5L);
            }
            """);
    Object t = restored(compare(version(HOOKED, MAKE), version(v2)));
    assertEquals(true, field(t, "wasDefaulted"));
    assertEquals(5L, field(t, "added"));
  }

  @Test
  void aRemovedFieldIsSkipped() throws Exception {
    Object t =
        restored(compare(version(THING, MAKE), version(THING.replace("public String s;", ""))));
    assertEquals(7, field(t, "a"));
  }

  @Test
  void aRemovedReferenceFieldIsSkipped() throws Exception {
    Object t =
        restored(compare(version(THING, MAKE), version(THING.replace("public Thing next;", ""))));
    assertEquals(7, field(t, "a"));
  }

  @Test
  void aRemovedFieldIsSkippedByDefaultReadObject() throws Exception {
    restored(compare(version(HOOKED, MAKE), version(HOOKED.replace("public String s;", ""))));
  }

  @Test
  void aRemovedFieldIsStillReadThroughGetField() throws Exception {
    String v2 =
        THING.replace(
            "public String s;",
            """
            public String old;
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              java.io.ObjectInputStream.GetField g = in.readFields();
              a = g.get("a", 0);
              next = (Thing) g.get("next", null);
              old = g.defaulted("s") ? "defaulted" : (String) g.get("s", "none");
            }
            """);
    Object t = restored(compare(version(HOOKED, MAKE), version(v2)));
    assertEquals("seven", field(t, "old"));
  }

  @Test
  void aFieldMadeTransientIsSkipped() throws Exception {
    Object t =
        restored(
            compare(
                version(THING, MAKE),
                version(THING.replace("public String s;", "public transient String s;"))));
    assertNull(field(t, "s"));
  }

  @Test
  void aFieldMadeStaticIsSkippedAndTheStaticUntouched() throws Exception {
    ClassLoader v2 = version(THING.replace("public String s;", "public static String s;"));
    Object t = restored(compare(version(THING, MAKE), v2));
    assertNull(t.getClass().getField("s").get(null));
  }

  @Test
  void aTransientFieldMadeSerializableGetsItsDefault() throws Exception {
    Object t =
        restored(
            compare(
                version(THING.replace("public String s;", "public transient String s;"), MAKE),
                version(THING)));
    assertNull(field(t, "s"));
  }

  @Test
  void aChangedAccessModifierRestores() throws Exception {
    restored(
        compare(
            version(THING, MAKE), version(THING.replace("public String s;", "private String s;"))));
  }

  @Test
  void anInsertedSuperclassGetsReadObjectNoData() throws Exception {
    String mid =
        """
        public class Mid implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int m = 3;
          private void readObjectNoData() { m = 99; }
        }
        """;
    Object t =
        restored(
            compare(
                version(THING, MAKE),
                version(
                    THING.replace("public class Thing", "public class Thing extends Mid"), mid)));
    assertEquals(99, field2(t, "m"));
  }

  @Test
  void anAddedSerializableInterfaceIsAnInsertedClass() throws Exception {
    String base = "public class Base { public int b = 4; }";
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    Object t =
        restored(
            compare(
                version(thing, base, MAKE),
                version(
                    thing,
                    base.replace(
                        "public class Base",
                        "public class Base implements java.io.Serializable"))));
    assertEquals(0, field2(t, "b"));
  }

  @Test
  void aRemovedSuperclassIsSkipped() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int b = 4;
        }
        """;
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    Object t = restored(compare(version(thing, base, MAKE), version(THING, base)));
    assertEquals(7, field(t, "a"));
  }

  /** A removed superclass with reference fields, whose objects still restore elsewhere. */
  @Test
  void aRemovedSuperclassWithReferencesIsSkipped() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public String label = "base";
          public Thing other;
          public long big = 1L << 40;
        }
        """;
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    String make = MAKE.replace("t.a = 7;", "t.a = 7; t.other = u; u.label = \"u\";");
    Object t = restored(compare(version(thing, base, make), version(THING, base)));
    assertEquals(7, field(t, "a"));
  }

  /** A removed superclass without a declared serialVersionUID, its shape unchanged. */
  @Test
  void aRemovedSuperclassWithoutSerialVersionUidIsSkipped() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          public int b = 4;
        }
        """;
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    restored(compare(version(thing, base, MAKE), version(THING, base)));
  }

  /** Two levels of removed superclasses, one with a removed field of its own. */
  @Test
  void twoRemovedSuperclassesAreSkipped() throws Exception {
    String top =
        """
        public class Top implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int t = 1;
        }
        """;
    String base =
        """
        public class Base extends Top {
          private static final long serialVersionUID = 1L;
          public int b = 4;
        }
        """;
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    restored(compare(version(thing, base, top, MAKE), version(THING, base, top)));
  }

  /**
   * A removed superclass that had readObject and writeObject: the JDK skips its data, custom data
   * and all, and never calls its readObject on the subclass's objects.
   */
  @Test
  void aRemovedSuperclassWithHooksAsTheJdk() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int b = 4;
          private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            out.defaultWriteObject();
            out.writeInt(b * 2);
          }
          private void readObject(java.io.ObjectInputStream in)
              throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
            b = in.readInt();
          }
        }
        """;
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    compare(version(thing, base, MAKE), version(THING, base));
  }

  /**
   * The graph holds objects of the removed superclass itself too: the JDK restores both, the
   * subclass's objects without the superclass's data; so does Codese, dropping the stores into the
   * superclass's fields per object ({@link RemovedSuperclassInGraphTest} has more).
   */
  @Test
  void aRemovedSuperclassThatIsAlsoInTheGraphRestoresAsTheJdk() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int b = 4;
          public Object more;
        }
        """;
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    String make = MAKE.replace("t.a = 7;", "t.a = 7; t.more = new Base(); t.b = 5;");
    Object t = restored(compare(version(thing, base, make), version(THING, base)));
    assertEquals(7, field(t, "a"));
  }

  @Test
  void anAddedReadObjectRuns() throws Exception {
    String v2 =
        THING.replace(
            "public Thing next;",
            """
            public Thing next;
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              in.defaultReadObject();
              a = a * 2;
            }
            """);
    Object t = restored(compare(version(THING, MAKE), version(v2)));
    assertEquals(14, field(t, "a"));
  }

  @Test
  void anAddedReadObjectReadsFieldsThroughGetField() throws Exception {
    String v2 =
        THING.replace(
            "public Thing next;",
            """
            public Thing next;
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              java.io.ObjectInputStream.GetField g = in.readFields();
              a = g.get("a", 0) + 100;
              s = "got " + g.get("s", null);
              next = (Thing) g.get("next", null);
            }
            """);
    Object t = restored(compare(version(THING, MAKE), version(v2)));
    assertEquals(107, field(t, "a"));
  }

  @Test
  void anAddedReadObjectFindsNoOptionalData() throws Exception {
    String v2 =
        THING.replace(
            "public Thing next;",
            """
            public Thing next;
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              in.defaultReadObject();
              a = in.read(); // -1: the data of a class without writeObject ends after its fields
            }
            """);
    Object t = restored(compare(version(THING, MAKE), version(v2)));
    assertEquals(-1, field(t, "a"));
  }

  @Test
  void anAddedReadObjectThatReadsPastTheDataFailsAsTheJdks() throws Exception {
    String v2 =
        THING.replace(
            "public Thing next;",
            """
            public Thing next;
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              in.defaultReadObject();
              a = in.readInt();
            }
            """);
    rejected(compare(version(THING, MAKE), version(v2)), java.io.IOException.class);
  }

  @Test
  void aRemovedReadObjectReadsTheDefaultFieldsAndDropsTheRest() throws Exception {
    String v1 =
        THING.replace(
            "public Thing next;",
            """
            public Thing next;
            private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
              out.defaultWriteObject();
              out.writeInt(42);
              out.writeObject("extra");
            }
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              in.defaultReadObject();
              in.readInt();
              in.readObject();
            }
            """);
    Object t = restored(compare(version(v1, MAKE), version(THING)));
    assertEquals(7, field(t, "a"));
  }

  /**
   * A stream of several segments of evolved classes (segments after the first reuse the checked
   * class table and code of the first): each object read equals the JDK's, for a removed field, an
   * added readObject and an inserted superclass at once.
   */
  @Test
  void everySegmentOfAStreamEvolves() throws Exception {
    String mid =
        """
        public class Mid implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int m;
          private void readObjectNoData() { m = 99; }
        }
        """;
    String v2 =
        THING
            .replace("public class Thing", "public class Thing extends Mid")
            .replace("public String s;", "")
            .replace(
                "public Thing next;",
                """
                public Thing next;
                private void readObject(java.io.ObjectInputStream in)
                    throws java.io.IOException, ClassNotFoundException {
                  in.defaultReadObject();
                  a = a + m;
                }
                """);
    ClassLoader l1 = version(THING, MAKE);
    ClassLoader l2 = version(v2, mid);
    java.lang.reflect.Method make = Class.forName("evo.Make", true, l1).getMethod("make");
    java.io.ByteArrayOutputStream jdk = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream codese = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream j = new java.io.ObjectOutputStream(jdk);
        CodeseOutputStream c = new CodeseOutputStream(codese)) {
      for (int i = 0; i < 3; i++) {
        Object o = make.invoke(null);
        j.writeObject(o);
        c.writeObject(o);
      }
    }
    try (java.io.ObjectInputStream j =
            new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(jdk.toByteArray())) {
              @Override
              protected Class<?> resolveClass(java.io.ObjectStreamClass d)
                  throws java.io.IOException, ClassNotFoundException {
                return Class.forName(d.getName(), false, l2);
              }
            };
        CodeseInputStream c =
            new CodeseInputStream(
                new java.io.ByteArrayInputStream(codese.toByteArray()),
                CodeseOptions.defaults().withClassLoader(l2))) {
      for (int i = 0; i < 3; i++) {
        Object want = j.readObject();
        Object got = c.readObject();
        assertEquals(106, field(want, "a"));
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            org.codese.testkit.JdkBytes.serialize(want),
            org.codese.testkit.JdkBytes.serialize(got),
            "segment " + i);
      }
    }
  }

  /**
   * A stream of several segments whose objects lost a superclass: each segment decides anew (a
   * class table with a detached class is not shared), each object equals the JDK's.
   */
  @Test
  void everySegmentOfAStreamSkipsARemovedSuperclass() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int b = 4;
          public String label = "base";
        }
        """;
    String thing = THING.replace("public class Thing", "public class Thing extends Base");
    List<Object> jdk = new ArrayList<>();
    List<Object> codese = new ArrayList<>();
    readBoth(version(thing, base, MAKE), version(THING, base), 3, jdk, codese);
    for (int i = 0; i < 3; i++) {
      assertEquals(7, field(jdk.get(i), "a"));
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          org.codese.testkit.JdkBytes.serialize(jdk.get(i)),
          org.codese.testkit.JdkBytes.serialize(codese.get(i)),
          "segment " + i);
    }
  }

  /**
   * A class deleted since capture, read through streams whose loader lacks it: the JDK's {@code
   * readObject} throws {@code ClassNotFoundException} for each object of it and reads the other
   * objects; so does Codese's, the class not found by its loader (no {@code resolveClass}
   * override).
   */
  @Test
  void aDeletedClassLosesOnlyItsObjectsInAStream() throws Exception {
    String gone =
        """
        public class Gone implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int g = 5;
        }
        """;
    String make =
        """
        public class Make {
          static int n;
          public static Object make() {
            if (n++ % 2 == 0) {
              return new Gone();
            }
            Thing t = new Thing();
            t.a = 7; t.s = "seven"; t.next = t;
            return t;
          }
        }
        """;
    List<Object> jdk = new ArrayList<>();
    List<Object> codese = new ArrayList<>();
    readBoth(version(THING, gone, make), version(THING), 4, jdk, codese);
    for (int i = 0; i < 4; i++) {
      if (i % 2 == 0) {
        org.junit.jupiter.api.Assertions.assertInstanceOf(ClassNotFoundException.class, jdk.get(i));
        org.junit.jupiter.api.Assertions.assertInstanceOf(
            ClassNotFoundException.class, codese.get(i));
      } else {
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            org.codese.testkit.JdkBytes.serialize(jdk.get(i)),
            org.codese.testkit.JdkBytes.serialize(codese.get(i)),
            "object " + i);
      }
    }
  }

  /**
   * Writes {@code n} graphs of {@code evo.Make.make()} with version 1, through both kinds of
   * stream, and reads each back with version 2: each object read, or what {@code readObject} threw.
   */
  private static void readBoth(
      ClassLoader l1, ClassLoader l2, int n, List<Object> jdk, List<Object> codese)
      throws Exception {
    java.lang.reflect.Method make = Class.forName("evo.Make", true, l1).getMethod("make");
    java.io.ByteArrayOutputStream jdkBytes = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream codeseBytes = new java.io.ByteArrayOutputStream();
    List<Object> graphs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      graphs.add(make.invoke(null));
    }
    try (java.io.ObjectOutputStream j = new java.io.ObjectOutputStream(jdkBytes);
        CodeseOutputStream c = new CodeseOutputStream(codeseBytes)) {
      for (Object o : graphs) {
        j.writeObject(o);
        c.writeObject(o);
      }
    }
    try (java.io.ObjectInputStream j =
            new java.io.ObjectInputStream(
                new java.io.ByteArrayInputStream(jdkBytes.toByteArray())) {
              @Override
              protected Class<?> resolveClass(java.io.ObjectStreamClass d)
                  throws java.io.IOException, ClassNotFoundException {
                return Class.forName(d.getName(), false, l2);
              }
            };
        CodeseInputStream c =
            new CodeseInputStream(
                new java.io.ByteArrayInputStream(codeseBytes.toByteArray()),
                CodeseOptions.defaults().withClassLoader(l2))) {
      for (int i = 0; i < n; i++) {
        jdk.add(readOrThrown(j));
        codese.add(readOrThrown(c));
      }
    }
  }

  private static Object readOrThrown(java.io.ObjectInputStream in) {
    try {
      return in.readObject();
    } catch (Exception e) {
      return e;
    }
  }

  /** A field of {@code o}'s class or a superclass. */
  static Object field2(Object o, String name) throws ReflectiveOperationException {
    for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
      try {
        java.lang.reflect.Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
      } catch (NoSuchFieldException e) {
        // look further up
      }
    }
    throw new NoSuchFieldException(name);
  }
}
