package org.codese.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs sample test classes through the JUnit launcher, with the fixture directory and other
 * configuration parameters of the test's choosing, as a build would run them.
 */
final class Launch {
  private static final String SAMPLES = "codese.junit.samples";

  private Launch() {}

  /** Marks a sample class: it runs only when {@link Launch} runs it, not in the build itself. */
  @Target(ElementType.TYPE)
  @Retention(RetentionPolicy.RUNTIME)
  @ExtendWith(OnlyLaunched.class)
  @interface Sample {}

  /** Disables samples unless {@link Launch} runs them. */
  static final class OnlyLaunched implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getConfigurationParameter(SAMPLES).isPresent()
          ? ConditionEvaluationResult.enabled("run by Launch")
          : ConditionEvaluationResult.disabled("a sample for Launch");
    }
  }

  /**
   * @param dir the fixture directory ({@code codese.fixtures.dir})
   * @param params further configuration parameters, key and value alternating
   * @param classes the sample classes
   * @return what ran and what failed
   */
  static TestExecutionSummary run(Path dir, List<String> params, Class<?>... classes) {
    Map<String, String> config = new HashMap<>();
    config.put(SAMPLES, "true");
    config.put(FixtureSpec.DIR, dir.toString());
    config.put(FixtureSpec.RECORD, "false"); // not the build's -Dcodese.fixtures.record
    for (int i = 0; i < params.size(); i += 2) {
      config.put(params.get(i), params.get(i + 1));
    }
    LauncherDiscoveryRequestBuilder request =
        LauncherDiscoveryRequestBuilder.request().configurationParameters(config);
    for (Class<?> c : classes) {
      request.selectors(DiscoverySelectors.selectClass(c));
    }
    LauncherDiscoveryRequest built = request.build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(built, listener);
    return listener.getSummary();
  }

  /**
   * @return the failures' messages, one per failed test
   */
  static List<String> failures(TestExecutionSummary summary) {
    return summary.getFailures().stream().map(f -> f.getException().getMessage()).toList();
  }
}
