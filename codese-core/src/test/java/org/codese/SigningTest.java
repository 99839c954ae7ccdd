package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.codese.samples.RedBlackTree;
import org.junit.jupiter.api.Test;

/** Optional HMAC-SHA256 signing: with a key, only snapshots signed with that key load. */
class SigningTest {
  private static final CodeseOptions SIGNED =
      CodeseOptions.defaults()
          .withSigningKey("0123456789abcdef-key-one".getBytes(StandardCharsets.UTF_8));
  private static final CodeseOptions OTHER_KEY =
      CodeseOptions.defaults()
          .withSigningKey("0123456789abcdef-key-two".getBytes(StandardCharsets.UTF_8));

  @Test
  void signedSnapshotLoadsWithItsKeyOnly() throws Exception {
    RedBlackTree tree = RedBlackTree.random(100, 4);
    byte[] signed = Codese.toBytes(tree, SIGNED);
    try (Snapshot s = Codese.load(signed, SIGNED)) {
      RedBlackTree copy = (RedBlackTree) s.restore();
      assertTrue(copy.isValid());
      assertEquals(100, copy.size());
    }
    assertThrows(AuthenticityException.class, () -> Codese.load(signed, OTHER_KEY));
    byte[] unsigned = Codese.toBytes(tree);
    AuthenticityException e =
        assertThrows(AuthenticityException.class, () -> Codese.load(unsigned, SIGNED));
    assertTrue(e.getMessage().contains("not signed"), e.getMessage());
  }

  @Test
  void anyChangedByteIsRejected() throws Exception {
    byte[] signed = Codese.toBytes(List.of("a", 1, RedBlackTree.random(10, 1)), SIGNED);
    for (int i = 6; i < signed.length; i += Math.max(1, signed.length / 97)) {
      byte[] changed = signed.clone();
      changed[i] ^= 0x01;
      assertThrows(AuthenticityException.class, () -> Codese.load(changed, SIGNED), "byte " + i);
    }
  }

  @Test
  void signedStreamSegmentsAreChecked() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes, SIGNED)) {
      out.writeObject("one");
      out.flush();
      out.writeObject(List.of(2, 3));
    }
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()), SIGNED)) {
      assertEquals("one", in.readObject());
      assertEquals(List.of(2, 3), in.readObject());
    }
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()), OTHER_KEY)) {
      assertThrows(AuthenticityException.class, in::readObject);
    }
  }

  @Test
  void shortKeysAreRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> CodeseOptions.defaults().withSigningKey(new byte[8]));
  }
}
