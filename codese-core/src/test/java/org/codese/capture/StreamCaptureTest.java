package org.codese.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.CodeseOptions;
import org.codese.jvm.DescriptorForm;
import org.codese.program.ClassDescriptor;
import org.junit.jupiter.api.Test;

/**
 * How an object stream's capturer (with {@link StreamHooks}) numbers objects and describes classes:
 * a segment's objects in the order the JDK's reader completes them (children first), references to
 * earlier segments by the numbers those segments ended with, and each class described once, in the
 * JDK's order, until a reset.
 */
class StreamCaptureTest {
  static final class Item implements Serializable {
    private static final long serialVersionUID = 1L;
    Item left;
    Item right;
    String name;

    Item(String name) {
      this.name = name;
    }
  }

  /** Hooks that only record which classes were described. */
  static final class Recording implements StreamHooks {
    final List<String> described = new ArrayList<>();

    @Override
    public boolean replacing() {
      return false;
    }

    @Override
    public Object replaceObject(Object obj) {
      return obj;
    }

    @Override
    public ClassDescriptor describe(Class<?> c) throws IOException {
      described.add(c.getName());
      return new ClassDescriptor(DescriptorForm.of(c), new byte[0]);
    }
  }

  private static Capturer capturer(Recording hooks) {
    return new Capturer(CodeseOptions.defaults().withRequireSerializable(true), hooks);
  }

  /** The ids an instance node refers to through its single slot's fields, in field order. */
  private static int[] refs(Node n) {
    Node.Instance i = (Node.Instance) n;
    if (i.slots()[0] != null) {
      return i.slots()[0].refs();
    }
    // a direct slot: its fields are in the class's rows
    int base = i.rows().refBase(i.row(), 0);
    int count = i.type().slots().get(0).fields().size() - i.type().slots().get(0).primitiveCount();
    int[] refs = new int[count];
    for (int k = 0; k < count; k++) {
      refs[k] = i.rows().ref(base + k);
    }
    return refs;
  }

  @Test
  void aSegmentsObjectsAreNumberedInTheOrderTheyComplete() throws Exception {
    Item root = new Item("root");
    Item a = new Item("a");
    Item b = new Item("b");
    Item c = new Item("c");
    root.left = a;
    root.right = b;
    a.left = c;
    c.left = root; // a cycle back to the root
    c.right = b; // b is first reached through c, inside a
    Capturer cap = capturer(new Recording());
    cap.writeObject(root, false);
    Graph g = cap.drain();
    int n = g.nodes().size();
    for (int k = 0; k < n; k++) {
      assertEquals(k, g.postOrder()[k], "ids are the completion order");
      assertEquals(k, g.nodes().get(k).id());
    }
    // object fields in the JDK's order, by name: left, name, right; so the JDK reads root.left
    // = a, a.left = c, c.left = root (back), c.name, c.right = b (completes first), ...
    Node rootNode = g.nodes().get(n - 1);
    int aId = refs(rootNode)[0];
    int bId = refs(rootNode)[2];
    Node aNode = g.nodes().get(aId);
    int cId = refs(aNode)[0];
    Node cNode = g.nodes().get(cId);
    assertEquals(n - 1, refs(cNode)[0], "c refers back to the root, completed last");
    assertEquals(bId, refs(cNode)[2], "c and the root share b");
    assertTrue(bId < cId && cId < aId && aId < n - 1, "b completes in c, c in a, a in root");
  }

  @Test
  void laterSegmentsReferToEarlierOnesByTheirFinalNumbers() throws Exception {
    Recording hooks = new Recording();
    Capturer cap = capturer(hooks);
    Item x = new Item("x");
    x.left = new Item("inner");
    cap.writeObject(x, false);
    Graph first = cap.drain();
    assertEquals(1, cap.descriptors().size(), "Item, once: String has no descriptor");
    int xId = first.nodes().size() - 1;
    // object fields in the JDK's order, by name: left, name, right
    assertEquals("x", ((Node.Text) first.nodes().get(refs(first.nodes().get(xId))[1])).value());
    Item y = new Item("y");
    y.left = x;
    y.right = x.left;
    cap.writeObject(y, false);
    Graph second = cap.drain();
    Node yNode = second.nodes().get(second.nodes().size() - 1);
    assertEquals(xId, refs(yNode)[0], "x by the number its segment gave it");
    assertEquals(refs(first.nodes().get(xId))[0], refs(yNode)[2], "x.left likewise");
    assertEquals(List.of(Item.class.getName()), hooks.described, "described once");
    assertEquals(List.of(), cap.descriptors(), "the second segment describes nothing new");
    cap.reset();
    cap.writeObject(new Item("z"), false);
    cap.drain();
    assertEquals(
        List.of(Item.class.getName(), Item.class.getName()),
        hooks.described,
        "described again after a reset");
  }
}
