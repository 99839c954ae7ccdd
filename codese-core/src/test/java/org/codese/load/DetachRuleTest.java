package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.Codese;
import org.codese.format.SnapshotFile;
import org.junit.jupiter.api.Test;

/**
 * Which classes {@link ClassTable#detach} takes for superclasses removed since capture: only a
 * class whose data the snapshot carries and no object of which it makes. A class the snapshot
 * merely names (an enum whose constants have bodies, restored by name; a class held as a {@code
 * Class} value) is left alone: taking it would cost every load the code adaptation (ASM on the
 * restore path), as it did for commons-math3's {@code Percentile.EstimationType}.
 */
class DetachRuleTest {
  /** An enum whose constants have bodies: the enum class is abstract, not final. */
  enum Op implements Serializable {
    PLUS {
      @Override
      int apply(int a, int b) {
        return a + b;
      }
    },
    MINUS {
      @Override
      int apply(int a, int b) {
        return a - b;
      }
    };

    abstract int apply(int a, int b);
  }

  /** A serializable class the graph holds only as a {@code Class} value. */
  static class Named implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
  }

  /** A serializable class with data, for a graph that does make objects. */
  static class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Op op;
    Class<?> type;
  }

  private static ClassTable detached(Object graph) throws Exception {
    SnapshotFile file = SnapshotFile.parse(Codese.toBytes(graph));
    ClassTable table =
        new ClassTable(file.classes(), DetachRuleTest.class.getClassLoader(), AllowList.NONE);
    table.checkFields();
    table.detach(file);
    return table;
  }

  @Test
  void enumsAndNamedClassesAreNeverTakenForRemovedSuperclasses() throws Exception {
    Holder h = new Holder();
    h.op = Op.MINUS;
    h.type = Named.class;
    List<Object> graph = new ArrayList<>(List.of(h, Op.PLUS, Named.class));
    ClassTable table = detached(graph);
    assertFalse(table.hasDetached());
    assertFalse(table.detached(Op.class));
    assertFalse(table.detached(Named.class));
    @SuppressWarnings("unchecked")
    List<Object> copy = (List<Object>) Codese.fromBytes(Codese.toBytes(graph));
    assertEquals(Op.MINUS, ((Holder) copy.get(0)).op);
    assertTrue(copy.get(1) == Op.PLUS && copy.get(2) == Named.class, copy::toString);
  }
}
