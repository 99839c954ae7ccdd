package org.codese.plan;

import org.codese.capture.Node;

/**
 * The captured objects that refer to no other object of the graph: what the immutable-collection
 * and factory steps may hold when written inside the object they make ({@link ImmutableFill},
 * {@link FactoryFill}), since nothing in them can refer back to it.
 */
final class Leaves {
  private Leaves() {}

  /**
   * @return whether {@code n} is a string, box, value, enum constant, global reference or primitive
   *     array
   */
  static boolean refersToNothing(Node n) {
    return n instanceof Node.Text
        || n instanceof Node.Box
        || n instanceof Node.Value
        || n instanceof Node.Constant
        || n instanceof Node.Global
        || (n instanceof Node.Array a && a.type().getComponentType().isPrimitive());
  }
}
