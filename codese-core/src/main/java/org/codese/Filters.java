package org.codese;

import java.io.ObjectInputFilter;
import java.util.function.Supplier;

/** The effective serialization filter, composed as {@code ObjectInputStream} composes it. */
final class Filters {
  private static volatile boolean prepared;

  private Filters() {}

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
      Thread t = new Thread(new Prepare(), "codese-filter-config");
      t.setDaemon(true);
      t.start();
    } catch (RuntimeException | Error e) {
      // no thread allowed or available: effective() initialises the configuration itself
    }
  }

  /**
   * The JVM-wide filter passed through the filter factory, then, if {@code perCall} is given,
   * the factory's combination of the two (JEP 290 and 415).
   */
  static ObjectInputFilter effective(ObjectInputFilter perCall) {
    var factory = ObjectInputFilter.Config.getSerialFilterFactory();
    ObjectInputFilter f = factory.apply(null, ObjectInputFilter.Config.getSerialFilter());
    return perCall == null ? f : factory.apply(f, perCall);
  }

  /** {@link #effective} of a per-call filter, computed when the loader asks for it. */
  static final class Effective implements Supplier<ObjectInputFilter> {
    private final ObjectInputFilter perCall;

    Effective(ObjectInputFilter perCall) {
      this.perCall = perCall;
    }

    @Override
    public ObjectInputFilter get() {
      return effective(perCall);
    }
  }

  /** Touches the filter configuration; any failure is left for {@link #effective} to report. */
  private static final class Prepare implements Runnable {
    @Override
    public void run() {
      try {
        ObjectInputFilter.Config.getSerialFilterFactory();
      } catch (RuntimeException | Error e) {
        // reported, as the JDK reports it, when the loader asks for the filter
      }
    }
  }
}
