package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A {@code Serializable} superclass removed from a hierarchy since capture (the specification's
 * section 5.6.2, "removing classes") while the graph also holds objects of that class itself:
 * {@code ObjectInputStream} skips the removed class's data in the subclass's objects and restores
 * the plain objects of the class with theirs. Codese drops the stores into the removed class's
 * fields per object, on the objects whose class no longer has it, and keeps them on the objects of
 * the class itself. Each case side by side with the JDK ({@link EvolutionHarness#compare}), through
 * {@link Codese#load} and {@link CodeseInputStream}.
 */
class RemovedSuperclassInGraphTest extends EvolutionHarness {
  private static final String THING = CompatibleChangesTest.THING;
  private static final String EXTENDS = "public class Thing extends Base";

  private static final String BASE =
      """
      public class Base implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public int b = 4;
        public String label = "base";
        public Object more;
      }
      """;

  /** {@code n} things and {@code n} plain bases, crossing references, in a list. */
  private static String make(int n) {
    return """
        public class Make {
          public static Object make() {
            java.util.List<Object> all = new java.util.ArrayList<>();
            Thing prev = null;
            for (int i = 0; i < N; i++) {
              Thing t = new Thing();
              t.a = i + 1; t.s = "t" + i; t.next = prev; t.b = 40 + i; t.label = "tl" + i;
              Base b = new Base();
              b.b = 100 + i; b.label = "b" + i; b.more = t;
              t.more = i % 2 == 0 ? b : new Base();
              all.add(t);
              all.add(b);
              prev = t;
            }
            return all;
          }
        }
        """
        .replace("N", Integer.toString(n));
  }

  @Test
  void oneObjectOfTheRemovedSuperclassRestoresWithItsData() throws Exception {
    Object got = restored(compare(version(thing(), BASE, make(1)), version(THING, BASE)));
    Object b = ((java.util.List<?>) got).get(1);
    assertEquals(100, field(b, "b"));
    assertEquals("b0", field(b, "label"));
  }

  /** Enough objects of each class that the code sets their fields in loops over them. */
  @Test
  void manyObjectsOfBothClassesRestoreAsTheJdk() throws Exception {
    restored(compare(version(thing(), BASE, make(40)), version(THING, BASE)));
  }

  /** The removed superclass made {@code final} since capture: no one's superclass any more. */
  @Test
  void aRemovedSuperclassMadeFinalRestoresAsTheJdk() throws Exception {
    String fin = BASE.replace("public class Base", "public final class Base");
    restored(compare(version(thing(), BASE, make(1)), version(THING, fin)));
    restored(compare(version(thing(), BASE, make(40)), version(THING, fin)));
  }

  /**
   * The removed superclass has {@code writeObject} and {@code readObject}: the JDK calls its {@code
   * readObject} on its own objects only, and skips its custom data in the subclass's.
   */
  @Test
  void theRemovedSuperclassHooksRunOnItsOwnObjectsOnly() throws Exception {
    String hooked =
        BASE.replace(
            "public Object more;",
            """
            public Object more;
            private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
              out.defaultWriteObject();
              out.writeInt(b * 2);
              out.writeObject(java.util.List.of(label));
            }
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              in.defaultReadObject();
              b = in.readInt();
              label = label + in.readObject();
            }
            """);
    restored(compare(version(thing(), hooked, make(1)), version(THING, hooked)));
    Object got = restored(compare(version(thing(), hooked, make(40)), version(THING, hooked)));
    assertEquals(200, field(((java.util.List<?>) got).get(1), "b"));
  }

  /** Two levels: the middle class removed, the top one kept above both. */
  @Test
  void aRemovedMiddleSuperclassInTheGraphRestoresAsTheJdk() throws Exception {
    String top =
        """
        public class Top implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int t = 1;
          public Object held;
        }
        """;
    String base = BASE.replace("public class Base", "public class Base extends Top");
    String make =
        make(40).replace("b.b = 100 + i;", "b.b = 100 + i; b.t = i; t.t = -i; t.held = b;");
    String thing2 = THING.replace("public class Thing", "public class Thing extends Top");
    restored(compare(version(thing(), base, top, make), version(thing2, base, top)));
    restored(
        compare(
            version(thing(), base, top, make.replace("< 40", "< 1")), version(thing2, base, top)));
  }

  /**
   * Late references in the removed class's fields (records, whose identity is known only once made,
   * stored by the finish program), and collections filled late.
   */
  @Test
  void lateReferencesInTheRemovedClassFieldsRestoreAsTheJdk() throws Exception {
    String point = "public record Point(int x, int y) implements java.io.Serializable {}";
    String make =
        make(40)
            .replace(
                "t.more = i % 2 == 0 ? b : new Base();",
                "t.more = new Point(i, -i); b.more = i % 3 == 0 ? new Point(i, i) : new"
                    + " java.util.HashMap<>(java.util.Map.of(\"k\", t));")
            // a field left null in every thing: a snapshot whose loops set every field of every
            // object, some of them to late objects, is refused even with unchanged classes (its
            // field stores exceed the objects' fields in the program check's count), a fault of
            // its own
            .replace("t.s = \"t\" + i;", "");
    restored(compare(version(thing(), BASE, point, make), version(THING, BASE, point)));
    restored(
        compare(
            version(thing(), BASE, point, make.replace("< 40", "< 1")),
            version(THING, BASE, point)));
  }

  /**
   * Several segments of a stream, each with objects of both classes, read side by side with the
   * JDK's stream: each segment decides its drops anew, its code shared with earlier segments only
   * where nothing is dropped.
   */
  @Test
  void everySegmentOfAStreamRestoresAsTheJdk() throws Exception {
    ClassLoader v1 = version(thing(), BASE, make(3));
    ClassLoader v2 = version(THING, BASE);
    java.lang.reflect.Method make = Class.forName("evo.Make", true, v1).getMethod("make");
    Object plainBase = Class.forName("evo.Base", true, v1).getConstructor().newInstance();
    java.io.ByteArrayOutputStream jdk = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream codese = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream j = new java.io.ObjectOutputStream(jdk);
        CodeseOutputStream c = new CodeseOutputStream(codese)) {
      for (int i = 0; i < 4; i++) {
        // a segment of both classes, then one of a plain base only, then one referring back
        Object o = i == 2 ? plainBase : make.invoke(null);
        j.writeObject(o);
        c.writeObject(o);
      }
      j.writeObject(plainBase);
      c.writeObject(plainBase);
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
      for (int i = 0; i < 5; i++) {
        Object want = j.readObject();
        Object got = c.readObject();
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            org.codese.testkit.JdkBytes.serialize(want),
            org.codese.testkit.JdkBytes.serialize(got),
            "segment " + i);
      }
    }
  }

  private static String thing() {
    return THING.replace("public class Thing", EXTENDS);
  }
}
