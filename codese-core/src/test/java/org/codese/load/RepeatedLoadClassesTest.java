package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import org.codese.Codese;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;

/**
 * Loading again a snapshot of classes an earlier load met defines no class at all: the generated
 * code is reused ({@link DefinedCode}), and so are the serialization constructors that allocate a
 * large snapshot's objects (on JDK 17 each {@code newConstructorForSerialization} call generates a
 * class, so that every load made one more and its first restore ran it unprofiled) and the handles
 * of the hooks a restore calls (HotSpot customises a handle called many times, a class per handle).
 */
class RepeatedLoadClassesTest {
  /** A class of this test alone; its objects are allocated with a serialization constructor. */
  static final class Link implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
    Link first;
  }

  /** An {@code ArrayList} subclass: restored by replaying {@code ArrayList.readObject}. */
  static final class Bag extends java.util.ArrayList<Object> {
    private static final long serialVersionUID = 1L;
  }

  /** A class with {@code readResolve}, which every restore calls once per object. */
  static final class Token implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;

    private Object readResolve() {
      return this;
    }
  }

  /**
   * A snapshot whose restore calls a {@code readObject} and a {@code readResolve} hundreds of
   * times, loaded again and again: the handles are the same each time, so that none is customised
   * anew.
   */
  @Test
  void loadingASnapshotWithHooksAgainDefinesNoClass() throws IOException {
    java.util.ArrayList<Object> graph = new java.util.ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Bag b = new Bag();
      b.add(i);
      Token t = new Token();
      t.value = i;
      graph.add(b);
      graph.add(t);
    }
    assertLoadsDefineNoClass(graph);
  }

  @Test
  void loadingALargeSnapshotAgainDefinesNoClass() throws IOException {
    // more objects than Constants.BULK_ALLOCATION, so that constructors allocate them
    Link[] links = new Link[Constants.BULK_ALLOCATION + 1000];
    for (int i = 0; i < links.length; i++) {
      links[i] = new Link();
      links[i].value = i;
      links[i].first = links[0];
    }
    assertLoadsDefineNoClass(links);
  }

  /**
   * Loads and restores a snapshot of {@code graph} twice, then eight times more, and requires the
   * eight to define fewer than eight classes and to restore the JDK's bytes.
   */
  private static void assertLoadsDefineNoClass(Object graph) throws IOException {
    byte[] bytes = Codese.toBytes(graph);
    for (int i = 0; i < 2; i++) {
      Codese.fromBytes(bytes); // classes loaded on first use are loaded by now
    }
    var classes = ManagementFactory.getClassLoadingMXBean();
    long before = classes.getTotalLoadedClassCount();
    int loads = 8;
    Object restored = null;
    for (int i = 0; i < loads; i++) {
      restored = Codese.fromBytes(bytes);
    }
    long defined = classes.getTotalLoadedClassCount() - before;
    assertTrue(
        defined < loads, defined + " classes defined by " + loads + " loads of one snapshot");
    assertArrayEquals(JdkBytes.serialize(graph), JdkBytes.serialize(restored));
  }
}
