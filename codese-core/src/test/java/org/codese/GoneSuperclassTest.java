package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A {@code Serializable} superclass removed from the hierarchy since capture whose class is gone
 * too (the specification's section 5.6.2, "removing classes", with the class deleted): {@code
 * ObjectInputStream} keeps the {@code ClassNotFoundException} of the superclass's descriptor on
 * that descriptor alone, reads and discards the class's data (fields, {@code writeObject} data and
 * the objects in them) and restores the subclass's objects; it throws the exception only for an
 * object whose own class is the gone one, or whose array class names it, where a live field reaches
 * it. Each case side by side with the JDK ({@link EvolutionHarness#compare}).
 */
class GoneSuperclassTest extends EvolutionHarness {
  private static final String THING = CompatibleChangesTest.THING;
  private static final String MAKE = CompatibleChangesTest.MAKE;
  private static final String EXTENDS = "public class Thing extends Base";

  private static final String BASE =
      """
      public class Base implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public int b = 4;
        public String label = "base";
        public Thing other;
        public final long big = 1L << 40;
      }
      """;

  private static String thing() {
    return THING.replace("public class Thing", EXTENDS);
  }

  @Test
  void aGoneSuperclassIsSkipped() throws Exception {
    String make = MAKE.replace("t.a = 7;", "t.a = 7; t.other = u; u.label = \"u\";");
    Object t = restored(compare(version(thing(), BASE, make), version(THING)));
    assertEquals(7, field(t, "a"));
  }

  @Test
  void aGoneSuperclassWithHooksAndCustomDataIsSkipped() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int b = 4;
          private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            out.defaultWriteObject();
            out.writeInt(b * 2);
            out.writeObject(new java.util.ArrayList<>(java.util.List.of("extra")));
          }
          private void readObject(java.io.ObjectInputStream in)
              throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
            b = in.readInt();
            in.readObject();
          }
        }
        """;
    restored(compare(version(thing(), base, MAKE), version(THING)));
  }

  @Test
  void twoGoneSuperclassesAreSkipped() throws Exception {
    String top =
        """
        public class Top implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int t = 1;
          public Object held = "top";
        }
        """;
    String base = BASE.replace("public class Base", "public class Base extends Top");
    restored(compare(version(thing(), base, top, MAKE), version(THING)));
  }

  /** The middle class is gone, the one above it is still a superclass: its data restores. */
  @Test
  void aGoneMiddleSuperclassIsSkippedAndTheOneAboveRestores() throws Exception {
    String top =
        """
        public class Top implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int t = 1;
        }
        """;
    String base = BASE.replace("public class Base", "public class Base extends Top");
    String make = MAKE.replace("t.a = 7;", "t.a = 7; t.t = 11;");
    Object t =
        restored(
            compare(
                version(thing(), base, top, make),
                version(
                    THING.replace("public class Thing", "public class Thing extends Top"), top)));
    assertEquals(11, CompatibleChangesTest.field2(t, "t"));
  }

  /** A gone superclass without a declared serialVersionUID: nothing left to compare it with. */
  @Test
  void aGoneSuperclassWithoutSerialVersionUidIsSkipped() throws Exception {
    String base = BASE.replace("private static final long serialVersionUID = 1L;", "");
    restored(compare(version(thing(), base, MAKE), version(THING)));
  }

  /** Several segments of a stream, each losing the same gone superclass, each as the JDK's. */
  @Test
  void everySegmentOfAStreamSkipsAGoneSuperclass() throws Exception {
    ClassLoader v1 = version(thing(), BASE, MAKE);
    ClassLoader v2 = version(THING);
    java.lang.reflect.Method make = Class.forName("evo.Make", true, v1).getMethod("make");
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
                return Class.forName(d.getName(), false, v2);
              }
            };
        CodeseInputStream c =
            new CodeseInputStream(
                new java.io.ByteArrayInputStream(codese.toByteArray()),
                CodeseOptions.defaults().withClassLoader(v2))) {
      for (int i = 0; i < 3; i++) {
        Object want = j.readObject();
        Object got = c.readObject();
        assertEquals(7, field(want, "a"));
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            org.codese.testkit.JdkBytes.serialize(want),
            org.codese.testkit.JdkBytes.serialize(got),
            "segment " + i);
      }
    }
  }

  /**
   * An object of the gone class itself, in a live field: the JDK throws the descriptor's {@code
   * ClassNotFoundException} for the object and every object that reaches it through a live field.
   * {@code CodeseInputStream} throws it too; {@code Codese.load} reports a class not found as a
   * {@link ClassMismatchException} with that cause, as for any class it does not find.
   */
  @Test
  void anObjectOfTheGoneClassInALiveFieldIsClassNotFound() throws Exception {
    String thing = THING.replace("public Thing next;", "public Thing next; public Object more;");
    String make = MAKE.replace("t.a = 7;", "t.a = 7; t.more = new Base();");
    Written w = write(version(thing.replace("public class Thing", EXTENDS), BASE, make));
    ClassLoader v2 = version(thing);
    rejected(jdk(w.jdk(), v2), ClassNotFoundException.class);
    ClassNotFoundException n =
        assertInstanceOf(ClassNotFoundException.class, stream(w.stream(), v2).error());
    assertTrue(n.getMessage().contains("evo.Base"), n.getMessage());
    ClassMismatchException e =
        assertInstanceOf(ClassMismatchException.class, snapshot(w.snapshot(), v2).error());
    assertEquals("evo.Base", e.classname);
    assertInstanceOf(ClassNotFoundException.class, e.getCause());
    assertTrue(e.getMessage().contains("not found"), e.getMessage());
  }

  /**
   * An object of the gone class held only in a field of the gone class: the JDK restores (an object
   * read for a field that has no local field marks no dependency, and the object is never made); so
   * does Codese, which does not make it either ({@link NotMadeTest} has the other cases).
   */
  @Test
  void anObjectOfTheGoneClassOnlyInItsOwnDataIsNotMade() throws Exception {
    String base = BASE.replace("public Thing other;", "public Object other;");
    String make = MAKE.replace("t.a = 7;", "t.a = 7; t.other = new Base();");
    restored(compare(version(thing(), base, make), version(THING)));
  }

  /**
   * Through a stream subclass whose {@code resolveClass} throws {@code ClassNotFoundException} for
   * the gone superclass: the JDK keeps the exception on that descriptor and restores; so does
   * Codese, asking the hook the same classes in the same order, and never asking its loader about
   * the class the hook refused.
   */
  @Test
  void aGoneSuperclassRefusedByResolveClassIsSkipped() throws Exception {
    Written w = write(version(thing(), BASE, MAKE));
    ClassLoader v2 = version(THING);
    java.util.List<String> jdkAsked = new java.util.ArrayList<>();
    java.util.List<String> codeseAsked = new java.util.ArrayList<>();
    Object want;
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(w.jdk())) {
          @Override
          protected Class<?> resolveClass(java.io.ObjectStreamClass d)
              throws java.io.IOException, ClassNotFoundException {
            jdkAsked.add(d.getName());
            return Class.forName(d.getName(), false, v2);
          }
        }) {
      want = in.readObject();
    }
    // the loader Codese would fall back on has the class: only the hook's answer may count
    ClassLoader fallback = version(thing(), BASE);
    Object got;
    try (CodeseInputStream in =
        new CodeseInputStream(
            new java.io.ByteArrayInputStream(w.stream()),
            CodeseOptions.defaults().withClassLoader(fallback)) {
          @Override
          protected Class<?> resolveClass(java.io.ObjectStreamClass d)
              throws java.io.IOException, ClassNotFoundException {
            codeseAsked.add(d.getName());
            return Class.forName(d.getName(), false, v2);
          }
        }) {
      got = in.readObject();
    }
    assertEquals(jdkAsked, codeseAsked);
    org.junit.jupiter.api.Assertions.assertArrayEquals(
        org.codese.testkit.JdkBytes.serialize(want), org.codese.testkit.JdkBytes.serialize(got));
  }

  /**
   * The serialization filter is asked about the gone superclass's descriptor once with no class, as
   * {@code readNonProxyDesc} asks after {@code resolveClass} failed: one such question more than
   * with the unchanged classes, for the JDK and for Codese (which asks about a back reference with
   * no class as the JDK does, so the counts are compared as differences).
   */
  @Test
  void theFilterIsAskedAboutTheGoneClassWithNoClass() throws Exception {
    Written w = write(version(thing(), BASE, MAKE));
    ClassLoader v1 = version(thing(), BASE);
    ClassLoader v2 = version(THING);
    int jdk = noClassAsks(w.jdk(), v2, true) - noClassAsks(w.jdk(), v1, true);
    int codese = noClassAsks(w.snapshot(), v2, false) - noClassAsks(w.snapshot(), v1, false);
    assertEquals(1, jdk);
    assertEquals(jdk, codese);
  }

  /** How often reading {@code bytes} asks the filter about no class and no array. */
  private static int noClassAsks(byte[] bytes, ClassLoader loader, boolean jdk) {
    int[] n = new int[1];
    java.io.ObjectInputFilter counting =
        new java.io.ObjectInputFilter() {
          @Override
          public Status checkInput(FilterInfo info) {
            n[0] += info.serialClass() == null && info.arrayLength() < 0 ? 1 : 0;
            return Status.UNDECIDED;
          }
        };
    assertEquals(null, filtered(bytes, loader, counting, jdk));
    return n[0];
  }

  /** What reading {@code bytes} with {@code filter} threw, or {@code null}. */
  private static Throwable filtered(
      byte[] bytes, ClassLoader v2, java.io.ObjectInputFilter filter, boolean jdk) {
    try {
      if (jdk) {
        try (java.io.ObjectInputStream in =
            new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes)) {
              @Override
              protected Class<?> resolveClass(java.io.ObjectStreamClass d)
                  throws java.io.IOException, ClassNotFoundException {
                return Class.forName(d.getName(), false, v2);
              }
            }) {
          in.setObjectInputFilter(filter);
          in.readObject();
        }
      } else {
        try (Snapshot s =
            Codese.load(
                bytes,
                CodeseOptions.defaults().withClassLoader(v2).withObjectInputFilter(filter))) {
          s.restore();
        }
      }
      return null;
    } catch (Exception e) {
      return e;
    }
  }
}
