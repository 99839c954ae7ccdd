package org.codese;

import java.io.ObjectInputFilter;
import java.security.Security;
import java.util.function.Supplier;
import org.codese.jvm.Jvm;

/**
 * The effective serialization filter, composed as {@code ObjectInputStream} composes it, without
 * setting up the JVM-wide configuration where it certainly holds nothing. An instance gives the
 * loader the effective filter for one per-call filter when it asks; as a {@code Runnable} it does
 * the slow part of the decision on a background thread, and then links ahead the classes the load
 * will need ({@link LinkAhead#LOAD}); one class for both, because each class loaded on the restore
 * path costs in a cold JVM.
 *
 * <p>Setting up {@code ObjectInputFilter.Config} costs a fresh JVM 15 to 25 ms (it reads the
 * security properties, finds a logging back end and spins a lambda), more than the rest of a small
 * restore. Where no JVM-wide filter or factory can be in force, the filter {@code
 * ObjectInputStream} would use is the per-call filter itself (the built-in factory returns the
 * filter it is given), so the configuration is left alone. None can be in force when the
 * configuration class is not initialised yet (a filter or factory set by a program initialises it
 * first) and neither {@code jdk.serialFilter} nor {@code jdk.serialFilterFactory} is set as a
 * system or security property. Whether the class is initialised can be told without initialising it
 * only up to JDK 21 ({@link Jvm#mayBeInitialised}); on later JDKs the configuration is always
 * consulted, set up on the background thread while the snapshot is parsed and checked.
 */
final class Filters implements Supplier<ObjectInputFilter>, Runnable {
  /** The property that names the JVM-wide filter, as a system or a security property. */
  static final String FILTER_PROPERTY = "jdk.serialFilter";

  /** The property that names the JVM-wide filter factory, as a system or a security property. */
  static final String FACTORY_PROPERTY = "jdk.serialFilterFactory";

  private static volatile boolean prepared;

  /**
   * Whether a property names a filter or factory; {@code null} until read. Guarded by the class.
   */
  private static Boolean propertySet;

  private final ObjectInputFilter perCall;

  /** As a {@code Runnable}: whether to prepare {@code serialVersionUID} reads, not the filter. */
  private final boolean suids;

  /**
   * @param perCall the per-call filter, or {@code null}
   */
  Filters(ObjectInputFilter perCall) {
    this(perCall, false);
  }

  private Filters(ObjectInputFilter perCall, boolean suids) {
    this.perCall = perCall;
    this.suids = suids;
  }

  /**
   * Starts the slow part of {@link #effective} on a short-lived daemon thread, once per JVM, so
   * that it overlaps with parsing and checking the first snapshot: reading the security properties
   * (about 3 ms in a fresh JVM on JDK 17, 7 ms on JDK 25), and setting up the configuration if it
   * is to be consulted. {@link #effective} then finds the work done or waits for it. From JDK 24
   * on, a second such thread prepares the class table's {@code serialVersionUID} reads ({@link
   * Jvm#prepareSuidReads}).
   */
  static void prepare() {
    if (prepared) {
      return;
    }
    prepared = true;
    start(new Filters(null), "codese-filter-config");
    if (Jvm.hasDefaultFieldHandles()) {
      start(new Filters(null, true), "codese-suid-reads");
    }
  }

  private static void start(Filters job, String name) {
    try {
      Thread t = new Thread(job, name);
      t.setDaemon(true);
      t.start();
    } catch (RuntimeException | Error e) {
      // no thread allowed or available: the loader does the work itself when it needs it
    }
  }

  /**
   * The filter {@code ObjectInputStream} would use for a stream given {@code perCall}: the JVM-wide
   * filter passed through the filter factory, then, if {@code perCall} is given, the factory's
   * combination of the two (JEP 290 and 415).
   *
   * @param perCall the per-call filter, or {@code null}
   * @return the effective filter, or {@code null} for none
   */
  static ObjectInputFilter effective(ObjectInputFilter perCall) {
    if (!configured()) {
      return perCall;
    }
    var factory = ObjectInputFilter.Config.getSerialFilterFactory();
    ObjectInputFilter f = factory.apply(null, ObjectInputFilter.Config.getSerialFilter());
    return perCall == null ? f : factory.apply(f, perCall);
  }

  /**
   * Whether the JVM-wide configuration may hold a filter or factory other than the built-in factory
   * alone: it is initialised (or this JDK cannot tell), or a property names one.
   */
  private static boolean configured() {
    return Jvm.mayBeInitialised(ObjectInputFilter.Config.class) || propertySet();
  }

  /**
   * Whether {@code jdk.serialFilter} or {@code jdk.serialFilterFactory} is set, as a system
   * property or a security property; read once, as the configuration reads them once.
   */
  private static synchronized boolean propertySet() {
    if (propertySet == null) {
      propertySet =
          System.getProperty(FILTER_PROPERTY) != null
              || System.getProperty(FACTORY_PROPERTY) != null
              || Security.getProperty(FILTER_PROPERTY) != null
              || Security.getProperty(FACTORY_PROPERTY) != null;
    }
    return propertySet;
  }

  /**
   * @return {@link #effective} of this instance's per-call filter
   */
  @Override
  public ObjectInputFilter get() {
    return effective(perCall);
  }

  /**
   * Links ahead the classes a load needs ({@link LinkAhead#LOAD}), then decides whether the
   * configuration is to be consulted and, if so, sets it up; any failure is left for {@link
   * #effective} to report. Or, for the second thread, prepares the reads of {@code
   * serialVersionUID}s.
   */
  @Override
  public void run() {
    if (suids) {
      Jvm.prepareSuidReads();
      return;
    }
    LinkAhead.load();
    try {
      if (configured()) {
        Jvm.prepareFilterConfig();
      }
    } catch (RuntimeException | Error e) {
      // reported, as the JDK reports it, when the loader asks for the filter
    }
  }
}
