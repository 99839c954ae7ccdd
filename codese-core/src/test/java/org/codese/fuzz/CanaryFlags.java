package org.codese.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the structure fuzzer's canary classes report that their code ran: static initialisers
 * (issue 15's I2: a class initialised before, or without, the filter's consent) and constructors,
 * {@code hashCode} and {@code compare} of classes that are not {@code Serializable} (I3: code that
 * {@code ObjectInputStream} would never run). Public because canary classes in another class loader
 * and package call it; checking it never touches, so never initialises, a canary class.
 */
public final class CanaryFlags {
  private static final List<String> RAN = new ArrayList<>();

  private CanaryFlags() {}

  /**
   * Called by the static initialiser of a canary class.
   *
   * @param className the canary class
   */
  public static void initRan(String className) {
    record("<clinit> of " + className);
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

  /** @return what ran since the last call, and forgets it */
  static synchronized List<String> drain() {
    if (RAN.isEmpty()) {
      return List.of();
    }
    List<String> out = List.copyOf(RAN);
    RAN.clear();
    return out;
  }
}
