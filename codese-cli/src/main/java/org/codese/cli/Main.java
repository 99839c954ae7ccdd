package org.codese.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code codese} command: entry point, shared conventions and exit codes. */
@Command(
    name = "codese",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Converts JDK-serialized files to Codese object streams and back, and reads snapshots"
          + " and object streams without running their code.",
      "",
      "Files: .cdse a Codese snapshot (Codese.write; Codese.load reads it), .cdss a Codese"
          + " object stream (CodeseOutputStream, codese convert; CodeseInputStream reads it),"
          + " .ser JDK serialization data (ObjectOutputStream).",
      "",
      "Exit codes: 0 ok, 1 a failed check or operation, 2 a usage error."
    },
    subcommands = {
      ConvertCommand.class,
      InspectCommand.class,
      ShowCommand.class,
      VerifyCommand.class,
      ToSerCommand.class
    })
public final class Main implements Runnable {
  /** Exit code: everything held. */
  public static final int OK = 0;

  /** Exit code: a check failed, or the operation could not be done. */
  public static final int FAILED = 1;

  /** Exit code: the command line was wrong. */
  public static final int USAGE = 2;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "missing command: give one of convert, inspect, show, verify, to-ser");
  }

  /**
   * Runs the command and exits with its exit code.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    PrintStream out =
        new PrintStream(
            new java.io.FileOutputStream(java.io.FileDescriptor.out),
            false,
            StandardCharsets.UTF_8);
    int code = run(args, out, System.err);
    out.flush();
    System.exit(code);
  }

  /**
   * Runs the command.
   *
   * @param args the command line
   * @param out where results go
   * @param err where errors and progress go
   * @return the exit code
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Integer isolated = ClassPaths.runIsolated(args, out, err);
    if (isolated != null) {
      return isolated;
    }
    boolean verbose = Arrays.asList(args).contains("--verbose");
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          err.println(prefix(cmd) + ": " + message(ex));
          if (verbose) {
            ex.printStackTrace(err);
          }
          return ex instanceof CliException c ? c.exitCode() : FAILED;
        });
    cl.setParameterExceptionHandler(
        (ex, rest) -> {
          CommandLine cmd = ex.getCommandLine();
          err.println(
              prefix(cmd)
                  + ": "
                  + ex.getMessage()
                  + "; see '"
                  + cmd.getCommandSpec().qualifiedName()
                  + " --help'");
          if (verbose) {
            ex.printStackTrace(err);
          }
          return USAGE;
        });
    return cl.execute(args);
  }

  private static String prefix(CommandLine cmd) {
    return cmd.getCommandSpec().qualifiedName();
  }

  private static String message(Exception ex) {
    if (ex instanceof CliException) {
      return ex.getMessage();
    }
    String m = ex.getMessage();
    return "unexpected "
        + ex.getClass().getSimpleName()
        + (m == null ? "" : ": " + m)
        + "; rerun with --verbose and report it";
  }

  /**
   * The version of the build: the runnable jar's manifest entry {@code Implementation-Version}, or,
   * when the classes run from a directory, the one Maven filtered into {@code
   * codese-cli.properties}.
   */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "codese " + version(),
        "JVM: "
            + System.getProperty("java.version")
            + " ("
            + System.getProperty("java.vm.name")
            + ")"
      };
    }

    static String version() {
      String fromJar = Main.class.getPackage().getImplementationVersion();
      return fromJar != null ? fromJar : fromResource();
    }

    private static String fromResource() {
      Properties p = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("/codese-cli.properties")) {
        if (in != null) {
          p.load(in);
        }
      } catch (IOException e) {
        // fall through to "unknown"
      }
      return p.getProperty("version", "unknown");
    }
  }
}
