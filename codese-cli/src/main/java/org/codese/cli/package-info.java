/**
 * The {@code codese} command-line tool: converts JDK-serialized files to Codese snapshots and
 * object streams and back ({@code convert}, {@code to-ser}), and reads snapshots without running
 * their code ({@code inspect}, {@code show}, {@code verify}).
 *
 * <p>The tool is meant to be run, not called: its only public type is the entry point {@link
 * org.codese.cli.Main}, whose exit codes ({@link org.codese.cli.Main#OK}, {@link
 * org.codese.cli.Main#FAILED}, {@link org.codese.cli.Main#USAGE}) are the tool's contract with
 * scripts. Everything else in this package is internal. Run it with {@code java -jar codese.jar
 * --help} or the repository's {@code bin/codese}.
 */
package org.codese.cli;
