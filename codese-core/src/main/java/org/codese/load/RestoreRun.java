package org.codese.load;

import java.io.InvalidObjectException;
import java.io.ObjectInputValidation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * State of one restore on the thread that runs its finish phase: the validations registered by
 * {@code readObject} methods, which run, highest priority first, once the graph is complete.
 */
final class RestoreRun {
  private static final ThreadLocal<RestoreRun> CURRENT = new ThreadLocal<>();

  private record Entry(ObjectInputValidation validation, int priority, int order) {}

  private final List<Entry> validations = new ArrayList<>();

  static RestoreRun current() {
    RestoreRun r = CURRENT.get();
    return r != null ? r : new RestoreRun();
  }

  static RestoreRun begin() {
    RestoreRun r = new RestoreRun();
    CURRENT.set(r);
    return r;
  }

  void addValidation(ObjectInputValidation v, int priority) {
    validations.add(new Entry(v, priority, validations.size()));
  }

  void finish() throws InvalidObjectException {
    CURRENT.remove();
    if (validations.isEmpty()) {
      return;
    }
    validations.sort(Comparator.comparingInt((Entry e) -> -e.priority())
        .thenComparingInt(Entry::order));
    for (Entry e : validations) {
      e.validation().validateObject();
    }
  }

  void abandon() {
    CURRENT.remove();
  }
}
