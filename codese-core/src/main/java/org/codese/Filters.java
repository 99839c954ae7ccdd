package org.codese;

import java.io.ObjectInputFilter;

/** The effective serialization filter, composed as {@code ObjectInputStream} composes it. */
final class Filters {
  private Filters() {}

  /**
   * The JVM-wide filter passed through the filter factory, then, if {@code perCall} is given,
   * the factory's combination of the two (JEP 290 and 415).
   */
  static ObjectInputFilter effective(ObjectInputFilter perCall) {
    var factory = ObjectInputFilter.Config.getSerialFilterFactory();
    ObjectInputFilter f = factory.apply(null, ObjectInputFilter.Config.getSerialFilter());
    return perCall == null ? f : factory.apply(f, perCall);
  }
}
