package org.codese.load;

import org.codese.runtime.Entry;

/**
 * The finish-program runner {@link LoadedSnapshot} installs in {@link Entry}: it hands each program
 * to {@link Hooks#runSteps}. A class of its own, so that a restore without finish programs loads
 * neither {@code Hooks} nor what verifying it loads.
 */
final class StepRunner implements Entry.Steps {
  /** The one instance. */
  static final StepRunner INSTANCE = new StepRunner();

  private StepRunner() {}

  @Override
  public void run(Object[] table, Object[] constants, int program) throws Throwable {
    Hooks.runSteps(table, constants, program);
  }
}
