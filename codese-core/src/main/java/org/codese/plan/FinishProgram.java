package org.codese.plan;

import org.codese.program.Grammar;

/**
 * Builds the finish phase: the program of {@link Grammar#STEP_HOOK}, {@link Grammar#STEP_FIELD},
 * {@link Grammar#STEP_ELEMENT}, {@link Grammar#STEP_FILL}, {@link Grammar#STEP_IMMUTABLE} and
 * {@link Grammar#STEP_FACTORY} steps that Codese's runtime runs in order (one {@link Op.RunSteps}),
 * so that graphs with many hooks need no large amount of straight-line code.
 *
 * <p>Contract: reference stores into an object that must wait for a late object are {@linkplain
 * #deferField deferred} to the object's completion; {@link #complete} appends them, and the caller
 * then appends the object's own {@linkplain #hook hooks}, in the order Java deserialization
 * completes objects.
 */
final class FinishProgram {
  private final int firstId;

  /**
   * Per object (by id minus the first id), its deferred stores, or {@code null}; {@code null} as a
   * whole until a store is deferred (most graphs defer none: no array of a reference per object).
   */
  private IntList[] deferred;

  private final int objects;

  private final IntList steps = new IntList();

  /**
   * @param firstId the first object id of the graph
   * @param objects the number of objects
   */
  FinishProgram(int firstId, int objects) {
    this.firstId = firstId;
    this.objects = objects;
  }

  /** Defers {@code field.set(table[target], table[value])} to {@code target}'s completion. */
  void deferField(int target, int field, int value) {
    IntList d = deferred(target);
    d.add(Grammar.STEP_FIELD);
    d.add(field);
    d.add(target);
    d.add(value);
  }

  /** Defers {@code table[target][index] = table[value]} to {@code target}'s completion. */
  void deferElement(int target, int index, int value) {
    IntList d = deferred(target);
    d.add(Grammar.STEP_ELEMENT);
    d.add(target);
    d.add(index);
    d.add(value);
  }

  private IntList deferred(int id) {
    if (deferred == null) {
      deferred = new IntList[objects];
    }
    IntList d = deferred[id - firstId];
    if (d == null) {
      d = new IntList();
      deferred[id - firstId] = d;
    }
    return d;
  }

  /** Whether stores were deferred to object {@code id}'s completion. */
  boolean hasDeferred(int id) {
    return deferred != null && deferred[id - firstId] != null;
  }

  /** Appends the stores deferred to object {@code id}'s completion. */
  void complete(int id) {
    IntList d = deferred == null ? null : deferred[id - firstId];
    for (int i = 0; d != null && i < d.size(); i++) {
      steps.add(d.get(i));
    }
  }

  /**
   * Appends the making of immutable collection {@code target} of class-table type {@code type}
   * ({@code CollSer}) with tag {@code tag} and the objects {@code refs} (-1 for {@code null}, which
   * becomes {@code nullSlot}).
   */
  void immutable(int type, int tag, int target, int[] refs, int nullSlot) {
    made(Grammar.STEP_IMMUTABLE, type, tag, target, refs, nullSlot);
  }

  /**
   * Appends the making of object {@code target} of class-table type {@code type} by the factory of
   * {@link org.codese.program.Factories} kind {@code kind} of the objects {@code refs} (-1 for
   * {@code null}, which becomes {@code nullSlot}).
   */
  void factory(int type, int kind, int target, int[] refs, int nullSlot) {
    made(Grammar.STEP_FACTORY, type, kind, target, refs, nullSlot);
  }

  /** A step {@code (step, type, tag, target, n, refs...)} that makes {@code target}. */
  private void made(int step, int type, int tag, int target, int[] refs, int nullSlot) {
    steps.add(step);
    steps.add(type);
    steps.add(tag);
    steps.add(target);
    steps.add(refs.length);
    for (int r : refs) {
      steps.add(r < 0 ? nullSlot : r);
    }
  }

  /**
   * Appends the fill of collection {@code target} with the objects {@code refs} (-1 for {@code
   * null}, which becomes {@code nullSlot}).
   */
  void fill(int target, int[] refs, int nullSlot) {
    steps.add(Grammar.STEP_FILL);
    steps.add(target);
    steps.add(refs.length);
    for (int r : refs) {
      steps.add(r < 0 ? nullSlot : r);
    }
  }

  /** Appends a call of the hook constant {@code hook}. */
  void hook(int hook) {
    steps.add(Grammar.STEP_HOOK);
    steps.add(hook);
  }

  /**
   * @return whether the program has no step
   */
  boolean isEmpty() {
    return steps.size() == 0;
  }

  /**
   * @return the program's words
   */
  int[] toArray() {
    return steps.toArray();
  }
}
