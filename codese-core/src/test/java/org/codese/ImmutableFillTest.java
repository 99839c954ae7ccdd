package org.codese;

import static org.codese.testkit.Messages.assertMentions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.testkit.FilterCalls;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code List.of}, {@code Set.of} and {@code Map.of} collections made by {@code STEP_IMMUTABLE}
 * steps instead of replaying their serial proxy {@code java.util.CollSer}: the JDK round trip's
 * bytes at every size, sharing and cycles, what keeps the replay, the filter's view, and hostile
 * files (format writer, checksums valid).
 */
class ImmutableFillTest {
  private static List<Object> strings(int n) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("s" + i * 7919 % 1009);
    }
    return out;
  }

  private static Map<Object, Object> pairs(int n) {
    Map<Object, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put("k" + i, i % 3 == 0 ? Integer.valueOf(i * 1000) : List.of(i));
    }
    return m;
  }

  private static long hooks(Object root) throws IOException {
    return SnapshotFile.parse(Codese.toBytes(root)).constants().stream()
        .filter(c -> c instanceof Constant.Hook)
        .count();
  }

  @Test
  void listsSetsAndMapsRestoreToTheJdkRoundTripsBytesAtEverySize() throws IOException {
    for (int n : new int[] {0, 1, 2, 3, 10, 100}) {
      List<Object> list = List.copyOf(strings(n));
      Set<Object> set = Set.copyOf(strings(n));
      Map<Object, Object> map = Map.copyOf(pairs(n));
      for (Object o : List.of(list, set, map)) {
        String name = o.getClass().getSimpleName() + " of " + n;
        assertEquals(0, hooks(o), name);
        if (n > 2 && !(o instanceof List)) {
          // a SetN or MapN iterates in an order that depends on the order it was made in, so that
          // not even the JDK's own round trip is byte-stable: both restores must make the same
          // collection from the same stream order
          assertArrayEquals(
              JdkBytes.serialize(JdkBytes.deserialize(JdkBytes.serialize(o))),
              JdkBytes.serialize(Codese.fromBytes(Codese.toBytes(o))));
          assertEquals(o, Codese.fromBytes(Codese.toBytes(o)), name);
          continue;
        }
        RoundTrip.of(o)
            .name(name)
            .check(r -> assertEquals(o.getClass(), r.getClass(), name + ": the same class"))
            .run();
      }
    }
  }

  @Test
  void theSampleGraphsImmutableCollectionsAreNoLongerReplayed() throws IOException {
    Object g = org.codese.samples.SampleGraphs.jdkCollections();
    long[] collSerHooks = {0};
    long[] made = {0};
    SnapshotContents.read(Codese.toBytes(g))
        .list(
            new ProgramListener() {
              @Override
              public void hook(int target, String type, String text, int refs, int prims) {
                collSerHooks[0] += type != null && type.endsWith("CollSer") ? 1 : 0;
              }

              @Override
              public void create(int object, String type, String expression) {
                made[0] += expression.endsWith("/* as java.util.CollSer */") ? 1 : 0;
              }
            });
    assertEquals(0, collSerHooks[0]);
    long immutables = immutablesIn(g);
    assertTrue(immutables > 100, "the sample graph holds " + immutables);
    assertEquals(immutables, made[0], "the graph's List.of and Set.of collections");
    RoundTrip.of(g).run();
  }

  /**
   * The immutable collections reachable from {@code root} through collections, maps, arrays and the
   * fields of the samples' own classes.
   */
  private static long immutablesIn(Object root) {
    java.util.Set<Object> seen =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    java.util.ArrayDeque<Object> todo = new java.util.ArrayDeque<>(List.of(root));
    long count = 0;
    while (!todo.isEmpty()) {
      Object o = todo.pop();
      if (!seen.add(o)) {
        continue;
      }
      count += o.getClass().getName().startsWith("java.util.ImmutableCollections$") ? 1 : 0;
      List<Object> next = new ArrayList<>();
      if (o instanceof java.util.Collection<?> c) {
        next.addAll(c);
      } else if (o instanceof Map<?, ?> m) {
        next.addAll(m.keySet());
        next.addAll(m.values());
      } else if (o instanceof Object[] a) {
        next.addAll(Arrays.asList(a));
      } else if (o.getClass().getName().startsWith("org.codese.")) {
        for (Class<?> c = o.getClass();
            c != null && c.getName().startsWith("org.codese.");
            c = c.getSuperclass()) {
          for (java.lang.reflect.Field f : c.getDeclaredFields()) {
            if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())
                && !f.getType().isPrimitive()) {
              try {
                f.setAccessible(true);
                next.add(f.get(o));
              } catch (ReflectiveOperationException | RuntimeException e) {
                throw new AssertionError(f.toString(), e);
              }
            }
          }
        }
      }
      for (Object n : next) {
        if (n != null) {
          todo.push(n);
        }
      }
    }
    return count;
  }

  @Test
  void nestedAndSharedCollectionsKeepTheirIdentity() throws IOException {
    List<Object> inner = List.of("a", 1, Set.of(2L));
    Object[] root = {inner, List.of(inner, inner, Map.of("k", inner)), inner};
    assertEquals(0, hooks(root));
    RoundTrip.of(root)
        .check(
            o -> {
              Object[] r = (Object[]) o;
              List<?> outer = (List<?>) r[1];
              assertSame(r[0], r[2]);
              assertSame(r[0], outer.get(0));
              assertSame(r[0], outer.get(1));
              assertSame(r[0], ((Map<?, ?>) outer.get(2)).get("k"));
            })
        .run();
  }

  /** A node whose children are an immutable list; the list may hold the node itself. */
  static final class Tree implements Serializable {
    private static final long serialVersionUID = 1L;
    final String name;
    List<Tree> children = List.of();
    Object extra;

    Tree(String name) {
      this.name = name;
    }
  }

  @Test
  void anElementWrittenBeforeTheCollectionMayReferToIt() throws IOException {
    Tree t = new Tree("root");
    t.children = List.of(t); // the tree is written first; its field is set once the list exists
    assertEquals(0, hooks(t));
    RoundTrip.of(t).check(o -> assertSame(o, ((Tree) o).children.get(0))).run();
  }

  @Test
  void objectsFirstWrittenInsideTheCollectionKeepTheReplay() throws IOException {
    // a child written inside the list could refer to the list before readResolve made it: in a
    // JDK stream it would find the proxy; such a graph replays
    Tree root = new Tree("root");
    Tree child = new Tree("child");
    root.children = List.of(child);
    assertTrue(hooks(root) > 0);
    RoundTrip.of(root).run();
  }

  @Test
  void theFilterIsAskedAboutTheProxyAndItsArray() throws IOException {
    Object o = List.copyOf(strings(50));
    assertEquals(FilterCalls.jdk(o, "CollSer"), FilterCalls.codese(o, "CollSer"));
  }

  @Test
  void theFilterIsToldOfTheLongestElementsArray() throws IOException {
    // Codese asks once per array class, about the longest: the longest the JDK asks about
    Object[] root = {List.copyOf(strings(50)), List.copyOf(strings(49)), List.of()};
    Object[] reversed = {root[2], root[1], root[0]};
    for (Object o : List.of(root, reversed)) {
      List<String> codese = FilterCalls.codese(o, "CollSer");
      assertTrue(codese.contains("java.lang.Object[50"), codese.toString());
      assertTrue(FilterCalls.jdk(o, "CollSer").contains("java.lang.Object[50"));
      assertFalse(codese.contains("java.lang.Object[49"), codese.toString());
    }
  }

  @Test
  void aFilterRejectingTheProxyRejectsTheSnapshot() throws IOException {
    byte[] bytes = Codese.toBytes(List.of("a", "b"));
    ObjectInputFilter noProxy = ObjectInputFilter.Config.createFilter("!java.util.CollSer");
    assertThrows(
        java.io.InvalidClassException.class,
        () -> Codese.fromBytes(bytes, CodeseOptions.defaults().withObjectInputFilter(noProxy)));
  }

  /** Hostile snapshots that misuse the step, written by the format's own writer. */
  @Nested
  class Hostile {

    private int program(SnapshotEdit e) {
      return e.programIndex(Grammar.STEP_IMMUTABLE);
    }

    /** An edit of a two-element list's step {STEP_IMMUTABLE, type, tag, target, 2, a, b}. */
    private SnapshotEdit edited(Object root, java.util.function.Consumer<int[]> change)
        throws IOException {
      SnapshotEdit e = SnapshotEdit.ofGraph(root);
      int at = program(e);
      int[] p = e.program(at);
      assertEquals(Grammar.STEP_IMMUTABLE, p[0], Arrays.toString(p));
      change.accept(p);
      e.setConstant(at, new Constant.PrimArray(p));
      return e;
    }

    @Test
    void theUneditedSnapshotRestores() throws IOException {
      assertEquals(
          List.of("a", "b"), Codese.fromBytes(SnapshotEdit.ofGraph(List.of("a", "b")).bytes()));
    }

    @Test
    void theStepIsOutsideTheGrammarBeforeItsFormat() throws IOException {
      SnapshotFile f = SnapshotFile.parse(Codese.toBytes(List.of("a", "b")));
      SnapshotFile older = SnapshotEdit.relabel(f, Grammar.IMMUTABLE_VERSION - 1);
      String m =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(older.bytes()))
              .getMessage();
      // an earlier format's table cannot count on the step's slot, nor its program hold the step
      assertTrue(
          m.contains("the snapshot declares 3 table slots but its program can fill at most 2")
              || m.contains("finish step " + Grammar.STEP_IMMUTABLE + " at 0 is unknown"),
          m);
    }

    @Test
    void aClassOtherThanTheProxyIsRefused() throws IOException {
      Object[] root = {List.of("a", "b"), new Tree("t")};
      SnapshotEdit e = SnapshotEdit.ofGraph(root);
      int at = program(e);
      int[] p = e.program(at);
      p[1] = e.classIndex(Tree.class);
      e.setConstant(at, new Constant.PrimArray(p));
      assertMentions(
          e.unsafeRejection(), "(" + Tree.class.getTypeName() + "), not as java.util.CollSer");
    }

    @Test
    void aClassIndexOutsideTheTableIsRefused() throws IOException {
      for (int t : new int[] {-1, 1_000_000}) {
        assertMentions(
            (edited(List.of("a", "b"), p -> p[1] = t)).unsafeRejection(),
            "makes an immutable collection as class " + t + ", not as java.util.CollSer");
      }
    }

    @Test
    void anUnknownTagIsRefused() throws IOException {
      assertMentions(
          (edited(List.of("a", "b"), p -> p[2] = 4)).unsafeRejection(),
          "makes an immutable collection of unknown tag 4");
    }

    @Test
    void aMapOfAnOddCountIsRefused() throws IOException {
      SnapshotEdit e =
          edited(
              List.of("a", "b", "c"),
              p -> {
                p[2] = 3;
              });
      assertMentions(
          e.unsafeRejection(), "makes an immutable map of 3 references, not whole elements");
    }

    @Test
    void aSlotMadeBeforeIsRefused() throws IOException {
      SnapshotEdit e = edited(List.of("a", "b"), p -> p[3] = p[5]);
      assertMentions(e.unsafeRejection(), "which is filled already");
    }

    @Test
    void aCountNearTheLargestIntIsRefusedNotThrown() throws IOException {
      for (int n : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 4, Integer.MAX_VALUE - 5}) {
        SnapshotEdit e = edited(List.of("a", "b"), p -> p[4] = n);
        assertMentions(e.unsafeRejection(), "is unknown or cut short");
        // the listing reads the same program: a typed exception, not an index out of bounds
        assertThrows(
            CorruptSnapshotException.class,
            () -> SnapshotContents.read(e.bytes()).list(new ProgramListener() {}));
      }
    }

    @Test
    void aSlotOutsideTheTableIsRefused() throws IOException {
      assertMentions(
          (edited(List.of("a", "b"), p -> p[6] = 1_000_000)).unsafeRejection(),
          "reads table slot 1000000, outside the table");
    }

    @Test
    void aNullOrADuplicateFailsAsReadResolveFails() throws IOException {
      SnapshotEdit dup = edited(Set.of("a", "b"), p -> p[6] = p[5]);
      InvalidObjectException d =
          assertThrows(InvalidObjectException.class, () -> Codese.fromBytes(dup.bytes()));
      assertEquals("invalid object", d.getMessage());
      assertInstanceOf(IllegalArgumentException.class, d.getCause());
      // the table's last slot, one past the objects, holds null
      SnapshotEdit nul = edited(List.of("a", "b"), p -> p[6] = p[3] + 3);
      InvalidObjectException x =
          assertThrows(InvalidObjectException.class, () -> Codese.fromBytes(nul.bytes()));
      assertInstanceOf(NullPointerException.class, x.getCause());
    }
  }
}
