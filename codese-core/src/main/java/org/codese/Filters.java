package org.codese;

import java.io.ObjectInputFilter;
import java.util.function.Supplier;

/**
 * The effective serialization filter, composed as {@code ObjectInputStream} composes it. An
 * instance gives the loader the effective filter for one per-call filter when it asks; as a {@code
 * Runnable} it initialises the JVM-wide configuration (one class for both, because each class
 * loaded on the restore path costs in a cold JVM).
 */
final class Filters implements Supplier<ObjectInputFilter>, Runnable {
  private static volatile boolean prepared;
  private final ObjectInputFilter perCall;

  /**
   * @param perCall the per-call filter, or {@code null}
   */
  Filters(ObjectInputFilter perCall) {
    this.perCall = perCall;
  }

  /**
   * Starts initialising the JVM-wide filter configuration ({@code ObjectInputFilter.Config}) on a
   * short-lived daemon thread, once per JVM, so that it overlaps with parsing and checking the
   * first snapshot: in a cold JVM that initialisation (properties, logging, the built-in factory)
   * takes about 15 ms. {@link #effective} then finds it done or waits for it, as the JVM's class
   * initialisation lock makes every thread do.
   */
  static void prepare() {
    if (prepared) {
      return;
    }
    prepared = true;
    try {
      Thread t = new Thread(new Filters(null), "codese-filter-config");
      t.setDaemon(true);
      t.start();
    } catch (RuntimeException | Error e) {
      // no thread allowed or available: effective() initialises the configuration itself
    }
  }

  /**
   * The JVM-wide filter passed through the filter factory, then, if {@code perCall} is given, the
   * factory's combination of the two (JEP 290 and 415).
   */
  static ObjectInputFilter effective(ObjectInputFilter perCall) {
    var factory = ObjectInputFilter.Config.getSerialFilterFactory();
    ObjectInputFilter f = factory.apply(null, ObjectInputFilter.Config.getSerialFilter());
    return perCall == null ? f : factory.apply(f, perCall);
  }

  /**
   * @return {@link #effective} of this instance's per-call filter
   */
  @Override
  public ObjectInputFilter get() {
    return effective(perCall);
  }

  /** Touches the filter configuration; any failure is left for {@link #effective} to report. */
  @Override
  public void run() {
    try {
      ObjectInputFilter.Config.getSerialFilterFactory();
    } catch (RuntimeException | Error e) {
      // reported, as the JDK reports it, when the loader asks for the filter
    }
  }
}
