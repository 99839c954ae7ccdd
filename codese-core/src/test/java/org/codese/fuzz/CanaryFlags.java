package org.codese.fuzz;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the structure fuzzer's canary classes report that their code ran: static initialisers
 * (issue 15's I2: a class initialised before, or without, the filter's consent) and constructors,
 * {@code hashCode} and {@code compare} of classes that are not {@code Serializable} (I3: code that
 * {@code ObjectInputStream} would never run). Public because canary classes in another class loader
 * and package call it; checking it never touches, so never initialises, a canary class.
 */
public final class CanaryFlags {
  private static final List<String> RAN = new ArrayList<>();

  /**
   * The loader's steps that run only once {@code load.Surface} and the filter accepted every class
   * the snapshot names (SECURITY.md, "Loading, step by step", steps 8 to 11): reading fingerprints
   * ({@code serialPersistentFields}), resolving constants ({@code ObjectStreamClass.lookupAny},
   * enum constants, hooks), the program check, and reading declared {@code serialVersionUID}s.
   * {@code ObjectInputStream} initialises a class at the same point: {@code ObjectStreamClass}
   * reads its {@code serialVersionUID} with {@code Field.getLong} after the filter accepted it.
   */
  private static final Set<String> ACCEPTED_STEPS =
      Set.of(
          "org.codese.load.ClassTable.checkFields", "org.codese.load.Constants.resolve",
          "org.codese.load.ProgramCheck.check", "org.codese.load.ClassTable.checkSuids");

  private static final Set<String> AFTER_FILTER = new HashSet<>();

  private CanaryFlags() {}

  /**
   * Called by the static initialiser of a canary class; also notes whether the loader was at a step
   * after the filter accepted the class ({@link #drainInitialisedAfterFilter}).
   *
   * @param className the canary class
   */
  public static void initRan(String className) {
    record("<clinit> of " + className);
    for (StackTraceElement e : new Throwable().getStackTrace()) {
      if (ACCEPTED_STEPS.contains(e.getClassName() + "." + e.getMethodName())) {
        synchronized (CanaryFlags.class) {
          AFTER_FILTER.add(className);
        }
        return;
      }
    }
  }

  /**
   * @return the canary classes whose static initialiser ran, since the last call, while the loader
   *     was at a step after the filter accepted them; and forgets them
   */
  static synchronized Set<String> drainInitialisedAfterFilter() {
    if (AFTER_FILTER.isEmpty()) {
      return Set.of();
    }
    Set<String> out = Set.copyOf(AFTER_FILTER);
    AFTER_FILTER.clear();
    return out;
  }

  /**
   * Called by code of a class that is not {@code Serializable} (a constructor, {@code hashCode},
   * {@code compare}).
   *
   * @param what the class and method
   */
  public static void codeRan(String what) {
    record(what);
  }

  private static synchronized void record(String what) {
    if (RAN.size() < 100) {
      RAN.add(what);
    }
  }

  /**
   * @return what ran since the last call, and forgets it
   */
  static synchronized List<String> drain() {
    if (RAN.isEmpty()) {
      return List.of();
    }
    List<String> out = List.copyOf(RAN);
    RAN.clear();
    return out;
  }
}
