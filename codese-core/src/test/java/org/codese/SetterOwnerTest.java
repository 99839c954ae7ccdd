package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;

/**
 * Format 10's code stores final fields through {@code org.codese.runtime.FieldStore}, earlier
 * formats' through {@code java.lang.reflect.Field}: each format's code restores with its own setter
 * owner and is refused with the other's.
 */
class SetterOwnerTest {
  static final class Frozen implements Serializable {
    private static final long serialVersionUID = 1L;
    private final int count;
    private final double weight;
    private final String name;
    private final Frozen next;

    Frozen(int count, Frozen next) {
      this.count = count;
      this.weight = count * 1.5;
      this.name = "f" + count;
      this.next = next;
    }
  }

  private static Frozen chain(int n) {
    Frozen f = null;
    for (int i = 1; i <= n; i++) {
      f = new Frozen(i, f);
    }
    return f;
  }

  @Test
  void eachFormatRestoresWithItsOwnSetterOwner() throws Exception {
    Frozen g = chain(40);
    byte[] now = Codese.toBytes(g);
    SnapshotFile f = SnapshotFile.parse(now);
    assertTrue(f.version() >= Grammar.STORE_VERSION, "format " + f.version());
    assertEquals(
        org.codese.program.RuntimeContract.RUNTIME_SETTER,
        org.codese.program.RuntimeContract.of(f.version()).setterOwner());
    assertArrayEquals(JdkBytes.serialize(g), JdkBytes.serialize(Codese.fromBytes(now)));
    byte[] nine = SnapshotEdit.relabel(f, Grammar.PACKED_VERSION).bytes();
    assertArrayEquals(JdkBytes.serialize(g), JdkBytes.serialize(Codese.fromBytes(nine)));
  }

  @Test
  void format10CodeCallingFieldIsRefused() throws Exception {
    SnapshotFile f = SnapshotFile.parse(Codese.toBytes(chain(40)));
    List<byte[]> code =
        SnapshotEdit.renameOwner(
            f.classFiles(), RuntimeContract.RUNTIME_SETTER, RuntimeContract.REFLECTIVE_SETTER);
    byte[] hostile = SnapshotEdit.withCode(f, f.version(), code).bytes();
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(hostile));
    assertTrue(e.getMessage().contains("java/lang/reflect/Field"), e.getMessage());
  }

  @Test
  void format9CodeCallingFieldStoreIsRefused() throws Exception {
    SnapshotFile f = SnapshotFile.parse(Codese.toBytes(chain(40)));
    byte[] hostile = SnapshotEdit.withCode(f, Grammar.PACKED_VERSION, f.classFiles()).bytes();
    UnsafeSnapshotException e =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.fromBytes(hostile));
    assertTrue(e.getMessage().contains("org/codese/runtime/FieldStore"), e.getMessage());
  }
}
