package org.codese.cli;

import java.util.ArrayList;
import java.util.List;
import org.codese.CodeseOptions;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --allow}: the classes a load admits beyond {@code ObjectInputStream}'s surface. */
final class AllowOption {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--allow",
      paramLabel = "PATTERN",
      split = ",",
      description = {
        "Classes to admit beyond what ObjectInputStream would restore (classes that"
            + " are not Serializable), as CodeseOptions.withAllowedClasses does: com.example.Foo,"
            + " com.example.* (a package), com.example.** (and subpackages), ** (everything; a"
            + " trusted file only). Repeat it or separate patterns with commas."
      })
  List<String> patterns = new ArrayList<>();

  /**
   * @return the given patterns, checked
   * @throws CommandLine.ParameterException if a pattern is malformed
   */
  List<String> list() {
    try {
      return CodeseOptions.defaults()
          .withAllowedClasses(patterns.toArray(String[]::new))
          .allowedClasses();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--allow: " + e.getMessage());
    }
  }
}
