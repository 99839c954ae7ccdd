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
 * code is reused ({@link DefinedCode}) and so are the serialization constructors that allocate a
 * large snapshot's objects (on JDK 17 each {@code newConstructorForSerialization} call generates a
 * class, so that every load made one more and its first restore ran it unprofiled).
 */
class RepeatedLoadClassesTest {
  /** A class of this test alone; its objects are allocated with a serialization constructor. */
  static final class Link implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
    Link first;
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
    byte[] bytes = Codese.toBytes(links);
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
    assertArrayEquals(JdkBytes.serialize(links), JdkBytes.serialize(restored));
  }
}
