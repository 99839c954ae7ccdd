package org.codese.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamField;
import java.io.Serial;
import java.io.Serializable;
import org.codese.Codese;
import org.codese.samples.RedBlackTree;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Test;

/**
 * What capture does to be fast on a graph captured again and again (issue 9's model checker) must
 * not change what it captures: a reference back to the object that led the traversal to its holder
 * is answered without the identity table, except where that object was written unshared; and the
 * per-object lists, rows and buffers that grow at once to the last snapshot's size give the same
 * bytes as ones that grew by doubling.
 */
class RepeatedCaptureTest {
  /** A doubly linked node: each node's {@code prev} is the object the traversal came from. */
  static final class Link implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    int value;
    Link prev;
    Link next;
  }

  /** Holds {@code parent} as an unshared field, as {@code writeUnshared} would write it. */
  static final class Holder implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    @Serial
    private static final ObjectStreamField[] serialPersistentFields = {
      new ObjectStreamField("parent", Parent.class, true)
    };

    Parent parent;

    @Serial
    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
    }
  }

  static final class Parent implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    Child child;
  }

  /** Refers back to its parent, the object whose expansion reached it. */
  static final class Child implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    Parent back;
  }

  private static Link chain(int n) {
    Link first = new Link();
    Link last = first;
    for (int i = 1; i < n; i++) {
      Link l = new Link();
      l.value = i;
      l.prev = last;
      last.next = l;
      last = l;
    }
    return first;
  }

  @Test
  void referencesBackToTheTraversalParentRestoreAsThatObject() {
    RoundTrip.of(chain(200))
        .name("a doubly linked chain of 200")
        .check(
            o -> {
              Link l = (Link) o;
              for (int i = 0; l.next != null; i++, l = l.next) {
                assertSame(l, l.next.prev, "prev of node " + (i + 1));
              }
            })
        .run();
    RoundTrip.of(RedBlackTree.random(2_000, 5)).name("rbt-2000, nodes with parents").run();
  }

  @Test
  void aParentWrittenUnsharedIsAnotherObjectWhereItsChildRefersBack() throws Exception {
    Holder h = new Holder();
    h.parent = new Parent();
    h.parent.child = new Child();
    h.parent.child.back = h.parent;
    // as the JDK's stream: the unshared parent is not in the handle table, so the child's
    // reference writes it again as a new object, which refers to the same child (the kit's walker
    // expects every shared object to stay shared, so the two copies are compared here)
    Holder jdk = (Holder) JdkBytes.deserialize(JdkBytes.serialize(h));
    Holder codese = (Holder) Codese.fromBytes(Codese.toBytes(h));
    for (Holder copy : new Holder[] {jdk, codese}) {
      Parent p = copy.parent;
      assertNotSame(p, p.child.back, "the unshared parent and the child's back link");
      assertSame(p.child, p.child.back.child, "the second parent's child");
      assertSame(p.child.back, p.child.back.child.back, "the second parent, shared from then on");
    }
    assertArrayEquals(JdkBytes.serialize(jdk), JdkBytes.serialize(codese));
  }

  @Test
  void aGraphCapturedAfterLargerAndSmallerOnesGivesTheSameBytes() throws IOException {
    // past the first sizes of the identity table, the lists, the rows (1,024 objects) and the
    // constants' buffer (64 KB), so that each grows to the last snapshot's size at once
    RedBlackTree tree = RedBlackTree.random(12_000, 3);
    byte[] first = Codese.toBytes(tree);
    Codese.toBytes(RedBlackTree.random(40_000, 4));
    byte[] afterLarger = Codese.toBytes(tree);
    Codese.toBytes(RedBlackTree.random(1_500, 6));
    byte[] afterSmaller = Codese.toBytes(tree);
    assertArrayEquals(first, afterLarger, "after a larger graph");
    assertArrayEquals(first, afterSmaller, "after a smaller graph");
    // grown a little since: past the last snapshot's size by a few objects
    for (int k = 0; k < 50; k++) {
      tree.put(1_000_003 * k + 17);
    }
    byte[] grown = Codese.toBytes(tree);
    Codese.toBytes(RedBlackTree.random(1_500, 6));
    assertArrayEquals(grown, Codese.toBytes(tree), "the grown tree, after a smaller graph");
  }

  @Test
  void rowsKeptFromTheLastCaptureHoldNothingOfIt() throws Exception {
    // its rows, past the first 1,024, are kept for the next capture of the class (recycle)
    Codese.toBytes(RedBlackTree.random(30_000, 7));
    RedBlackTree other = RedBlackTree.random(29_000, 8);
    Object copy = Codese.fromBytes(Codese.toBytes(other));
    assertArrayEquals(JdkBytes.serialize(other), JdkBytes.serialize(copy), "the second tree");
    // and again from the rows the second capture left, the tree grown past them
    for (int k = 0; k < 5_000; k++) {
      other.put(7_919 * k + 3);
    }
    copy = Codese.fromBytes(Codese.toBytes(other));
    assertArrayEquals(JdkBytes.serialize(other), JdkBytes.serialize(copy), "the grown tree");
  }
}
