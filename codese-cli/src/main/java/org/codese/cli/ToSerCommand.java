package org.codese.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.codese.ClassMismatchException;
import org.codese.Codese;
import org.codese.CodeseInputStream;
import org.codese.CodeseOptions;
import org.codese.CorruptSnapshotException;
import org.codese.RestoreException;
import org.codese.SnapshotContents;
import org.codese.SnapshotSegment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code codese to-ser}: a snapshot back to JDK serialization. */
@Command(
    name = "to-ser",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Restores a snapshot or Codese object stream and writes what it holds with"
          + " ObjectOutputStream: each object with writeObject and each block of primitive"
          + " data with write(byte[]), in the original order, so that ObjectInputStream reads"
          + " the same sequence. Restoring runs the snapshot's code: only use files you"
          + " trust (check them with 'codese verify' first)."
    },
    footer = {"", "Example:", "  codese to-ser state.cdss -o state.ser --classpath app.jar"})
final class ToSerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin Common common;

  @Mixin AllowOption allow;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "A snapshot (.cdse) or object stream (.cdss).")
  Path file;

  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "OUT.ser",
      description = "The JDK serialization file to write (replaced if it exists).")
  Path output;

  @Option(
      names = {"--classpath", "-cp"},
      paramLabel = "CP",
      description =
          "Where the snapshot's classes are: jars and directories separated by '"
              + "${sys:path.separator}'. The JDK's classes are always seen.")
  String classpath;

  @Override
  public Integer call() throws IOException {
    SnapshotSource src = SnapshotSource.read(file);
    ClassLoader loader = ClassPaths.loader(classpath);
    CodeseOptions options =
        CodeseOptions.defaults()
            .withClassLoader(loader)
            .withAllowedClasses(allow.list().toArray(String[]::new));
    byte[] bytes = SnapshotSource.readFile(file);
    Path dir = output.toAbsolutePath().getParent();
    Path tmp =
        dir.resolve("." + output.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    ClassLoader saved = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(loader);
    try {
      try (OutputStream os = Files.newOutputStream(tmp);
          ObjectOutputStream out = new ObjectOutputStream(new java.io.BufferedOutputStream(os))) {
        if (src.kind == SnapshotSource.Kind.SNAPSHOT) {
          try (var s = Codese.load(bytes, options)) {
            out.writeObject(s.restore());
          }
        } else {
          try (CodeseInputStream in =
              new CodeseInputStream(new ByteArrayInputStream(bytes), options)) {
            for (SnapshotContents.Part frame : src.frames) {
              if (frame instanceof SnapshotContents.Data d) {
                byte[] block = new byte[d.length()];
                in.readFully(block);
                out.write(block);
              } else if (frame instanceof SnapshotContents.Reset) {
                out.reset();
              } else {
                for (SnapshotSegment.Item item : ((SnapshotSegment) frame).items()) {
                  if (item.kind() == SnapshotSegment.Item.Kind.DATA) {
                    byte[] block = new byte[item.value()];
                    in.readFully(block);
                    out.write(block);
                  } else if (item.kind() == SnapshotSegment.Item.Kind.OBJECT) {
                    out.writeObject(in.readObject());
                  }
                }
              }
            }
          }
        }
      } catch (NoSuchFileException e) {
        throw new CliException(output + ": cannot be written: its directory does not exist", e);
      } catch (org.codese.ClassNotAllowedException e) {
        throw new CliException(
            file
                + ": "
                + e.getMessage()
                + "; here: --allow "
                + String.join(",", e.classesToAllow()),
            e);
      } catch (ClassMismatchException e) {
        throw new CliException(
            file
                + ": "
                + e.getMessage()
                + (e.getMessage().contains("class path") ? "" : "")
                + " (pass the classes with"
                + " --classpath; 'codese verify' lists every mismatch)",
            e);
      } catch (CorruptSnapshotException e) {
        throw new CliException(file + ": " + e.getMessage(), e);
      } catch (RestoreException e) {
        throw new CliException(file + ": restoring failed: " + e.getMessage(), e);
      } catch (ClassNotFoundException e) {
        throw new CliException(
            file
                + ": class "
                + e.getMessage()
                + " is not on the class path;"
                + " add its jar or directory with --classpath",
            e);
      } catch (java.io.NotSerializableException e) {
        throw new CliException(
            file
                + ": the restored graph holds an object of class "
                + e.getMessage()
                + ", which JDK serialization cannot write",
            e);
      }
      Files.move(tmp, output, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Thread.currentThread().setContextClassLoader(saved);
      Files.deleteIfExists(tmp);
    }
    return Main.OK;
  }
}
