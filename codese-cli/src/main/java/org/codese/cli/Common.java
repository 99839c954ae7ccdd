package org.codese.cli;

import picocli.CommandLine.Option;

/** Options every command takes besides {@code --help} and {@code --version}. */
final class Common {
  @Option(names = "--verbose", description = "On failure, also print the stack trace.")
  boolean verbose;
}
