package org.codese.cli;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.OptionalDataException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StreamCorruptedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.codese.CaptureException;
import org.codese.CodeseOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code codese convert}: a JDK serialization file becomes a Codese object stream. */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Reads a file written by ObjectOutputStream (one or several objects, with primitive"
          + " data between them), restores it with the JDK's ObjectInputStream and writes the"
          + " same sequence to a Codese object stream (CodeseOutputStream), with the same"
          + " sharing: reading OUT with CodeseInputStream yields what ObjectInputStream yielded"
          + " from INPUT.",
      "",
      "Primitive data between objects is carried as bytes: ObjectInputStream reports it as"
          + " an OptionalDataException giving its length; those bytes are read with readFully"
          + " and written unchanged with write(byte[]), so that readInt, readUTF etc. read"
          + " the same values back. Adjacent blocks are joined.",
      "",
      "On success prints one line: what was read and written, with sizes.",
      "",
      "INPUT is deserialized by the JDK: convert only files you trust.",
      "",
      "File extensions: .ser for JDK serialization data, .cdss for Codese object streams"
          + " (read with CodeseInputStream), .cdse for Codese snapshots (Codese.write; read with"
          + " Codese.load, read or fromBytes). Codese.load refuses an object stream and says so."
    },
    footer = {"", "Example:", "  codese convert state.ser -o state.cdss --classpath app.jar"})
final class ConvertCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin Common common;

  @Parameters(index = "0", paramLabel = "INPUT.ser", description = "A JDK serialization file.")
  Path input;

  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "OUT.cdss",
      description = "The Codese object stream to write (replaced if it exists).")
  Path output;

  @Option(
      names = {"--classpath", "-cp"},
      paramLabel = "CP",
      description =
          "Where INPUT's classes are: jars and directories separated by '"
              + "${sys:path.separator}'. The JDK's classes are always seen.")
  String classpath;

  @Option(
      names = "--progress",
      paramLabel = "WHEN",
      defaultValue = "auto",
      description =
          "Draw a progress bar on standard error for runs over a second: auto (when"
              + " standard error is a terminal), always or never. Default: ${DEFAULT-VALUE}.")
  String progress;

  /** A block of primitive data between objects. */
  private record Block(byte[] bytes) {}

  @Override
  public Integer call() throws IOException {
    boolean draw =
        switch (progress) {
          case "always" -> true;
          case "never" -> false;
          case "auto" -> System.console() != null;
          default ->
              throw new picocli.CommandLine.ParameterException(
                  spec.commandLine(),
                  "--progress must be auto, always or never, not '" + progress + "'");
        };
    ClassLoader loader = ClassPaths.loader(classpath);
    long size;
    try {
      size = Files.size(input);
    } catch (NoSuchFileException e) {
      throw new CliException(input + ": no such file; check the path");
    }
    List<Object> items;
    try (Progress bar = new Progress(draw, System.err, "Reading " + input.getFileName(), size)) {
      items = read(loader, size, bar);
      bar.next("Capturing", items.size());
      write(items, bar);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(summary(items, size));
    out.flush();
    return Main.OK;
  }

  /** The line a conversion prints: what was read, and what was written where. */
  private String summary(List<Object> items, long inputSize) throws IOException {
    long objects = 0;
    long blocks = 0;
    long dataBytes = 0;
    for (Object item : items) {
      if (item instanceof Block b) {
        blocks++;
        dataBytes += b.bytes.length;
      } else {
        objects++;
      }
    }
    String data =
        blocks == 0
            ? ""
            : String.format(
                Locale.ROOT,
                " and %,d byte%s of primitive data in %,d block%s",
                dataBytes,
                dataBytes == 1 ? "" : "s",
                blocks,
                blocks == 1 ? "" : "s");
    return String.format(
        Locale.ROOT,
        "converted %s (%,d bytes) to %s (%,d bytes): %,d object%s%s," + " one segment per object",
        input,
        inputSize,
        output,
        Files.size(output),
        objects,
        objects == 1 ? "" : "s",
        data);
  }

  /**
   * @return what Codese file the input is, from its magic number ("CDSE", a compressed "CDSZ" or
   *     signed "CDSG" snapshot, or "CDSS"), or {@code null} if it is none
   */
  private String codeseKind() {
    byte[] magic = new byte[4];
    try (InputStream in = Files.newInputStream(input)) {
      if (in.readNBytes(magic, 0, 4) < 4) {
        return null;
      }
    } catch (IOException e) {
      return null;
    }
    String m = new String(magic, java.nio.charset.StandardCharsets.ISO_8859_1);
    if (m.equals("CDSE") || m.equals("CDSZ") || m.equals("CDSG")) {
      return "already a Codese snapshot (.cdse; inspect, show or verify it, or restore it with"
          + " Codese.load)";
    }
    if (m.equals("CDSS")) {
      return "already a Codese object stream (.cdss; inspect, show or verify it, or read it with"
          + " CodeseInputStream)";
    }
    return null;
  }

  private List<Object> read(ClassLoader loader, long size, Progress bar) {
    List<Object> items = new ArrayList<>();
    ClassLoader saved = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(loader);
    try (InputStream raw = Files.newInputStream(input);
        Counting counting = new Counting(new BufferedInputStream(raw, 1 << 16), bar);
        ObjectInputStream in =
            new ObjectInputStream(counting) {
              @Override
              protected Class<?> resolveClass(ObjectStreamClass desc)
                  throws IOException, ClassNotFoundException {
                try {
                  return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                  return super.resolveClass(desc);
                }
              }
            }) {
      while (true) {
        long before = counting.count;
        try {
          items.add(in.readObject());
        } catch (OptionalDataException e) {
          if (e.eof) {
            break;
          }
          byte[] bytes = new byte[e.length];
          in.readFully(bytes);
          if (!items.isEmpty() && items.get(items.size() - 1) instanceof Block b) {
            byte[] joined = java.util.Arrays.copyOf(b.bytes, b.bytes.length + bytes.length);
            System.arraycopy(bytes, 0, joined, b.bytes.length, bytes.length);
            items.set(items.size() - 1, new Block(joined));
          } else {
            items.add(new Block(bytes));
          }
        } catch (EOFException e) {
          if (before == size && counting.count == size) {
            break;
          }
          throw new CliException(
              input
                  + ": truncated: the file ends inside an object (read "
                  + counting.count
                  + " of "
                  + size
                  + " bytes); restore the complete file",
              e);
        }
      }
    } catch (ClassNotFoundException e) {
      throw new CliException(
          input
              + ": class "
              + e.getMessage()
              + " is not on the class path;"
              + " add its jar or directory with --classpath",
          e);
    } catch (InvalidClassException e) {
      throw new CliException(
          input
              + ": "
              + e.getMessage()
              + "; the class on the class path is"
              + " not the one the file was written with",
          e);
    } catch (StreamCorruptedException e) {
      String codese = codeseKind();
      if (codese != null) {
        throw new CliException(
            input
                + ": "
                + codese
                + ", not JDK serialization data; convert reads what ObjectOutputStream wrote"
                + " (.ser): there is nothing to convert",
            e);
      }
      throw new CliException(
          input
              + ": not a valid JDK serialization stream ("
              + e.getMessage()
              + "); give a file written by ObjectOutputStream",
          e);
    } catch (EOFException e) {
      throw new CliException(
          input
              + ": truncated or empty: it ends before a complete JDK"
              + " serialization stream; give a complete file written by ObjectOutputStream",
          e);
    } catch (IOException e) {
      throw new CliException(input + ": cannot be read: " + e + "; check the file", e);
    } finally {
      Thread.currentThread().setContextClassLoader(saved);
    }
    return items;
  }

  private void write(List<Object> items, Progress bar) throws IOException {
    Path dir = output.toAbsolutePath().getParent();
    Path tmp =
        dir.resolve("." + output.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      try (OutputStream os = Files.newOutputStream(tmp);
          CodeseOutputStream out = new CodeseOutputStream(new java.io.BufferedOutputStream(os))) {
        for (Object item : items) {
          if (item instanceof Block b) {
            out.write(b.bytes);
          } else {
            out.writeObject(item);
          }
          bar.value.incrementAndGet();
        }
        bar.next("Emitting code", -1);
      } catch (CaptureException e) {
        throw new CliException(input + ": an object cannot be captured: " + e.getMessage(), e);
      } catch (NoSuchFileException e) {
        throw new CliException(output + ": cannot be written: its directory does not exist", e);
      } catch (IOException e) {
        throw new CliException(output + ": cannot be written: " + e, e);
      }
      Files.move(tmp, output, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Counts the bytes read, for the progress bar and for telling a clean end from truncation. */
  private static final class Counting extends FilterInputStream {
    private final Progress bar;
    long count;

    Counting(InputStream in, Progress bar) {
      super(in);
      this.bar = bar;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        bar.value.set(++count);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
        bar.value.set(count);
      }
      return n;
    }
  }
}
