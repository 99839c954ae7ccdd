package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Method;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;

/**
 * Objects of a class no longer on the class path that only skipped data refers to: the fields of a
 * deleted former superclass, a field removed since capture, the {@code writeObject} data of a
 * removed class. {@code ObjectInputStream} never makes such an object (it reads the data, keeps the
 * {@code ClassNotFoundException} on the object's handle, and throws it only where a live field or
 * the top level reaches the object) and restores; so does Codese, which leaves the object unmade.
 * Where a live field also refers to the object, the JDK throws {@code ClassNotFoundException}, as
 * does {@link CodeseInputStream}; {@link Codese#load} reports it as a {@link
 * ClassMismatchException} with that cause, as for any class it does not find. Each case side by
 * side with the JDK ({@link EvolutionHarness#compare}).
 */
class NotMadeTest extends EvolutionHarness {
  private static final String THING = CompatibleChangesTest.THING;
  private static final String MAKE = CompatibleChangesTest.MAKE;
  private static final String EXTENDS = "public class Thing extends Base";

  /** A class deleted since capture, holding data of its own and a reference into the graph. */
  private static final String GONE =
      """
      public class Gone implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public int g = 3;
        public String label = "gone";
        public Object back;
        public long[] longs = {1L, 2L};
      }
      """;

  /** A superclass deleted since capture, whose own field {@code held} refers to anything. */
  private static final String BASE =
      """
      public class Base implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public int b = 4;
        public Object held;
      }
      """;

  /**
   * Requires each reader to refuse {@code w} under {@code v2} for the deleted class {@code
   * evo.Gone}: the JDK and {@code CodeseInputStream} with its {@code ClassNotFoundException},
   * {@code Codese.load} with a {@code ClassMismatchException} naming it, which is returned.
   */
  private static ClassMismatchException goneForAll(Written w, ClassLoader v2) throws Exception {
    rejected(jdk(w.jdk(), v2), ClassNotFoundException.class);
    ClassNotFoundException n =
        assertInstanceOf(ClassNotFoundException.class, stream(w.stream(), v2).error());
    assertTrue(n.getMessage().contains("evo.Gone"), n.getMessage());
    ClassMismatchException e =
        assertInstanceOf(ClassMismatchException.class, snapshot(w.snapshot(), v2).error());
    assertEquals("evo.Gone", e.classname);
    return e;
  }

  private static String thing() {
    return THING.replace("public class Thing", EXTENDS);
  }

  private static String make(String statements) {
    return MAKE.replace("t.a = 7;", "t.a = 7; " + statements);
  }

  /** A deleted superclass's own field refers to an object of another deleted class. */
  @Test
  void anObjectOfADeletedClassInADeletedSuperclassesFieldIsNotMade() throws Exception {
    String make = make("Gone x = new Gone(); x.back = u; t.held = x;");
    Object t = restored(compare(version(thing(), BASE, GONE, make), version(THING)));
    assertEquals(7, field(t, "a"));
  }

  /** A deleted superclass's own field refers to an object of that very class. */
  @Test
  void anObjectOfTheDeletedSuperclassInItsOwnFieldIsNotMade() throws Exception {
    String make = make("Base x = new Base(); x.held = t; t.held = x;");
    restored(compare(version(thing(), BASE, make), version(THING)));
  }

  /**
   * The check {@code codese verify} runs ({@link SnapshotSegment#checkChanges}) counts the objects
   * a load leaves unmade, per class; none where the classes did not change.
   */
  @Test
  void theCheckCountsTheObjectsNotMade() throws Exception {
    String make = make("t.held = new Gone(); u.held = new Gone(); new Gone();");
    Written w = write(version(thing(), BASE, GONE, make));
    SnapshotSegment s = SnapshotContents.read(w.snapshot()).segments().get(0);
    SnapshotSegment.Changes now =
        s.checkChanges(CodeseOptions.defaults().withClassLoader(version(THING)));
    assertEquals(java.util.Map.of("evo.Gone", 2), now.notMade());
    SnapshotSegment.Changes before =
        s.checkChanges(CodeseOptions.defaults().withClassLoader(version(thing(), BASE, GONE)));
    assertEquals(java.util.Map.of(), before.notMade());
  }

  /** Many objects of the deleted class, each in a deleted superclass's field: loops over them. */
  @Test
  void manyObjectsOfADeletedClassAreNotMade() throws Exception {
    String make =
        MAKE.replace(
            "return t;",
            """
            Thing[] all = new Thing[40];
            for (int i = 0; i < all.length; i++) {
              all[i] = new Thing();
              all[i].a = i;
              Gone x = new Gone();
              x.g = i;
              x.back = i % 2 == 0 ? t : all[i];
              all[i].held = x;
              all[i].next = i > 0 ? all[i - 1] : t;
            }
            u.next = all[all.length - 1];
            return t;
            """);
    restored(compare(version(thing(), BASE, GONE, make), version(THING)));
  }

  /** A field removed since capture refers to an object of a deleted class. */
  @Test
  void anObjectOfADeletedClassInARemovedFieldIsNotMade() throws Exception {
    String before = THING.replace("public Thing next;", "public Thing next; public Object extra;");
    String make = make("Gone x = new Gone(); x.back = t; t.extra = x; u.extra = x;");
    Object t = restored(compare(version(before, GONE, make), version(THING)));
    assertSame(t, field(field(t, "next"), "next"));
  }

  /** The {@code writeObject} data of a deleted superclass holds an object of a deleted class. */
  @Test
  void anObjectOfADeletedClassInTheWriteObjectDataOfADeletedSuperclassIsNotMade() throws Exception {
    String base =
        """
        public class Base implements java.io.Serializable {
          private static final long serialVersionUID = 1L;
          public int b = 4;
          private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            out.defaultWriteObject();
            out.writeInt(b * 2);
            Gone x = new Gone();
            x.back = this;
            out.writeObject(x);
          }
          private void readObject(java.io.ObjectInputStream in)
              throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
            b = in.readInt();
            in.readObject();
          }
        }
        """;
    restored(compare(version(thing(), base, GONE, MAKE), version(THING)));
  }

  /**
   * The object only skipped data refers to is referred to by a live field as well: the JDK throws
   * the {@code ClassNotFoundException} of its class; {@code CodeseInputStream} throws it too, and
   * {@code Codese.load} reports the class not found as a {@link ClassMismatchException} with that
   * cause.
   */
  @Test
  void anObjectOfADeletedClassAlsoInALiveFieldIsClassNotFound() throws Exception {
    String now = THING.replace("public Thing next;", "public Thing next; public Object live;");
    String before = now.replace("public class Thing", EXTENDS);
    String make = make("Gone x = new Gone(); t.held = x; u.live = x;");
    Written w = write(version(before, BASE, GONE, make));
    ClassLoader v2 = version(now);
    ClassMismatchException e = goneForAll(w, v2);
    assertInstanceOf(ClassNotFoundException.class, e.getCause());
  }

  /** The same through a field removed since capture and a live one. */
  @Test
  void anObjectOfADeletedClassInARemovedAndALiveFieldIsClassNotFound() throws Exception {
    String now = THING.replace("public Thing next;", "public Thing next; public Object live;");
    String before = now.replace("public Object live;", "public Object live; public Object extra;");
    String make = make("Gone x = new Gone(); t.extra = x; u.live = x;");
    Written w = write(version(before, GONE, make));
    ClassLoader v2 = version(now);
    goneForAll(w, v2);
  }

  /**
   * The object is in the {@code readObject} data of a class still found, which reads it: the JDK
   * throws its {@code ClassNotFoundException} out of that {@code readObject}, so the graph fails.
   */
  @Test
  void anObjectOfADeletedClassReadByALiveReadObjectIsClassNotFound() throws Exception {
    String now =
        THING.replace(
            "public Thing next;",
            """
            public transient Object held;
            public Thing next;
            private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
              out.defaultWriteObject();
              out.writeObject(held);
            }
            private void readObject(java.io.ObjectInputStream in)
                throws java.io.IOException, ClassNotFoundException {
              in.defaultReadObject();
              held = in.readObject();
            }
            """);
    String make = make("t.held = new Gone();");
    Written w = write(version(now, GONE, make));
    ClassLoader v2 = version(now);
    rejected(jdk(w.jdk(), v2), ClassNotFoundException.class);
    assertInstanceOf(ClassNotFoundException.class, stream(w.stream(), v2).error());
    assertInstanceOf(ClassMismatchException.class, snapshot(w.snapshot(), v2).error());
  }

  /** The root itself is an object of a deleted class: not found, as the JDK's top level. */
  @Test
  void aRootOfADeletedClassIsClassNotFound() throws Exception {
    String make =
        """
        public class Make {
          public static Object make() {
            Gone x = new Gone();
            x.back = new Thing();
            return x;
          }
        }
        """;
    Written w = write(version(THING, GONE, make));
    ClassLoader v2 = version(THING);
    goneForAll(w, v2);
  }

  /**
   * Several segments of a stream: the first holds an object of a deleted class in a removed field,
   * not made; a later segment that refers to it through a live field throws its {@code
   * ClassNotFoundException}, as the JDK throws the exception the object's handle was marked with,
   * and the stream reads on past it, as it does for a later top-level write of the object itself; a
   * later segment that refers to it through a removed field only restores, as with the JDK.
   */
  @Test
  void aLaterSegmentReachingAnObjectNotMadeIsClassNotFound() throws Exception {
    String now = THING.replace("public Thing next;", "public Thing next; public Object live;");
    String before = now.replace("public Object live;", "public Object live; public Object extra;");
    String make =
        """
        public class Make {
          static Gone shared;
          public static Object make() {
            Thing t = new Thing();
            t.a = 7;
            shared = new Gone();
            t.extra = shared;
            return t;
          }
          public static Object reach() {
            Thing t = new Thing();
            t.a = 8;
            t.live = shared;
            return t;
          }
          public static Object plain() {
            Thing t = new Thing();
            t.a = 9;
            return t;
          }
          public static Object again() {
            return shared;
          }
          public static Object skip() {
            Thing t = new Thing();
            t.a = 10;
            t.extra = shared;
            return t;
          }
        }
        """;
    ClassLoader v1 = version(before, GONE, make);
    ClassLoader v2 = version(now);
    Class<?> m = Class.forName("evo.Make", true, v1);
    Method[] steps = {
      m.getMethod("make"),
      m.getMethod("reach"),
      m.getMethod("plain"),
      m.getMethod("again"),
      m.getMethod("skip")
    };
    ByteArrayOutputStream jdk = new ByteArrayOutputStream();
    ByteArrayOutputStream codese = new ByteArrayOutputStream();
    try (ObjectOutputStream j = new ObjectOutputStream(jdk);
        CodeseOutputStream c = new CodeseOutputStream(codese)) {
      for (Method step : steps) {
        Object o = step.invoke(null);
        j.writeObject(o);
        c.writeObject(o);
      }
    }
    try (ObjectInputStream j =
            new ObjectInputStream(new ByteArrayInputStream(jdk.toByteArray())) {
              @Override
              protected Class<?> resolveClass(ObjectStreamClass d)
                  throws IOException, ClassNotFoundException {
                return Class.forName(d.getName(), false, v2);
              }
            };
        CodeseInputStream c =
            new CodeseInputStream(
                new ByteArrayInputStream(codese.toByteArray()),
                CodeseOptions.defaults().withClassLoader(v2))) {
      for (int i = 0; i < steps.length; i++) {
        Outcome want = read(j);
        Outcome got = read(c);
        assertEquals(
            i == 1 || i == 3, want.error() != null, "the JDK throws for the objects reaching it");
        if (want.error() != null) {
          assertInstanceOf(ClassNotFoundException.class, want.error(), "segment " + i);
          assertInstanceOf(want.error().getClass(), got.error(), "segment " + i);
          assertNull(got.value());
        } else {
          assertNull(got.error(), "segment " + i + ": " + got.error());
          assertArrayEquals(
              JdkBytes.serialize(want.value()), JdkBytes.serialize(got.value()), "segment " + i);
        }
      }
    }
  }

  /**
   * Through a stream subclass whose {@code resolveClass} refuses the deleted classes (the loader
   * Codese would fall back on still has them): the JDK restores, asking the hook about the same
   * classes in the same order as Codese; where a live field also refers to the object, both throw
   * the exception the hook threw.
   */
  @Test
  void objectsOfClassesRefusedByResolveClassAreNotMade() throws Exception {
    String now = THING.replace("public Thing next;", "public Thing next; public Object live;");
    String before = now.replace("public class Thing", EXTENDS);
    ClassLoader v2 = version(now);
    ClassLoader fallback = version(before, BASE, GONE);
    for (String statements :
        new String[] {
          "Gone x = new Gone(); t.held = x;", "Gone x = new Gone(); t.held = x; u.live = x;"
        }) {
      Written w = write(version(before, BASE, GONE, make(statements)));
      java.util.List<String> jdkAsked = new java.util.ArrayList<>();
      java.util.List<String> codeseAsked = new java.util.ArrayList<>();
      Outcome want;
      try (ObjectInputStream in =
          new ObjectInputStream(new ByteArrayInputStream(w.jdk())) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass d)
                throws IOException, ClassNotFoundException {
              jdkAsked.add(d.getName());
              if (d.getName().equals("evo.Gone") || d.getName().equals("evo.Base")) {
                throw new ClassNotFoundException("refused " + d.getName());
              }
              return Class.forName(d.getName(), false, v2);
            }
          }) {
        want = read(in);
      }
      Outcome got;
      try (CodeseInputStream in =
          new CodeseInputStream(
              new ByteArrayInputStream(w.stream()),
              CodeseOptions.defaults().withClassLoader(fallback)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass d)
                throws IOException, ClassNotFoundException {
              codeseAsked.add(d.getName());
              if (d.getName().equals("evo.Gone") || d.getName().equals("evo.Base")) {
                throw new ClassNotFoundException("refused " + d.getName());
              }
              return Class.forName(d.getName(), false, v2);
            }
          }) {
        got = read(in);
      }
      assertEquals(jdkAsked, codeseAsked, statements);
      if (statements.contains("live")) {
        assertInstanceOf(ClassNotFoundException.class, want.error(), statements);
        assertInstanceOf(ClassNotFoundException.class, got.error(), statements);
        assertEquals(want.error().getMessage(), got.error().getMessage(), statements);
      } else {
        assertNull(want.error(), statements);
        assertNull(got.error(), statements);
        assertArrayEquals(JdkBytes.serialize(want.value()), JdkBytes.serialize(got.value()));
      }
    }
  }

  /**
   * A stream subclass's {@code resolveObject} is called for the same objects by both streams: never
   * for an object not made, as the JDK never calls it for an object whose handle holds a {@code
   * ClassNotFoundException}.
   */
  @Test
  void resolveObjectIsNotCalledForObjectsNotMade() throws Exception {
    String make = make("Gone x = new Gone(); x.back = u; t.held = x; u.held = new Gone();");
    Written w = write(version(thing(), BASE, GONE, make));
    ClassLoader v2 = version(THING);
    java.util.List<String> jdkSeen = new java.util.ArrayList<>();
    java.util.List<String> codeseSeen = new java.util.ArrayList<>();
    Outcome want;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(w.jdk())) {
          {
            enableResolveObject(true);
          }

          @Override
          protected Class<?> resolveClass(ObjectStreamClass d)
              throws IOException, ClassNotFoundException {
            return Class.forName(d.getName(), false, v2);
          }

          @Override
          protected Object resolveObject(Object obj) {
            jdkSeen.add(obj == null ? "null" : obj.getClass().getName());
            return obj;
          }
        }) {
      want = read(in);
    }
    Outcome got;
    try (CodeseInputStream in =
        new CodeseInputStream(
            new ByteArrayInputStream(w.stream()), CodeseOptions.defaults().withClassLoader(v2)) {
          {
            enableResolveObject(true);
          }

          @Override
          protected Object resolveObject(Object obj) {
            codeseSeen.add(obj == null ? "null" : obj.getClass().getName());
            return obj;
          }
        }) {
      got = read(in);
    }
    assertNull(want.error());
    assertNull(got.error());
    jdkSeen.sort(null);
    codeseSeen.sort(null);
    assertEquals(jdkSeen, codeseSeen);
    assertArrayEquals(JdkBytes.serialize(want.value()), JdkBytes.serialize(got.value()));
  }

  private static Outcome read(ObjectInputStream in) {
    try {
      return new Outcome(in.readObject(), null);
    } catch (Exception e) {
      return new Outcome(null, e);
    }
  }

  private static Outcome read(CodeseInputStream in) {
    try {
      return new Outcome(in.readObject(), null);
    } catch (Exception e) {
      return new Outcome(null, e);
    }
  }
}
