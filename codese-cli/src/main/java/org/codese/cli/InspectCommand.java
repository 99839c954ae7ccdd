package org.codese.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.codese.ProgramListener;
import org.codese.SnapshotContents;
import org.codese.SnapshotSegment;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code codese inspect}: what a snapshot holds, read without running any of its code. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Prints what a snapshot or Codese object stream holds, without running any of its code:"
          + " format version, the JDK it was captured on, checksum status, sizes, and a table"
          + " of the classes it creates with how many objects and field values of each.",
      "",
      "compression         whether the snapshot was written compressed"
          + " (CodeseOptions.withCompression): the compressed size, the size once inflated, and"
          + " the one as a share of the other; the counts below are of the inflated snapshot;",
      "objects             the objects the restore program creates (one per slot of its"
          + " restore table);",
      "items               what a reader gets in order: objects from readObject, and blocks"
          + " of primitive data for readInt, readUTF etc.;",
      "generated classes   the class files that hold the restore program;",
      "generated methods   all methods of the generated classes, and how many of them hold"
          + " restore statements (the program is split into methods of bounded size);",
      "generated code      the class files' bytes, and the code section that holds them;",
      "data                the bytes of constants (strings, numbers, arrays) and of the item"
          + " list, besides the code;",
      "own methods run     the classes' own readObject, readExternal and readResolve calls"
          + " the program makes;",
      "allow-list          the CodeseOptions line a program needs to load the file if it"
          + " restores classes ObjectInputStream would refuse (classes that are not"
          + " Serializable): judged from the classes on --classpath, never initialising"
          + " them; 'none needed' when a default load admits every class.",
      "global references   (only if there are any) the static constants and named globals"
          + " the file refers to instead of holding copies (snapshot format 6): they restore"
          + " as objects of the loading JVM, and a default load refuses them.",
      "",
      "In the table, 'references' and 'primitives' count the field and array-element values"
          + " the restore program sets to something other than null, zero or false"
          + " (including values set through the default-field records of readObject"
          + " replays), charged to the class of the object whose field is set (the columns"
          + " of Figure 4 in the CoDeSe paper)."
    },
    footer = {"", "Example:", "  codese inspect tree.cdse --classpath app.jar"})
final class InspectCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin Common common;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "A snapshot (.cdse) or object stream (.cdss).")
  Path file;

  @Option(
      names = {"--classpath", "-cp"},
      paramLabel = "CP",
      description =
          "Where the snapshot's classes are, to judge which need admitting: jars and"
              + " directories separated by '${sys:path.separator}'. The JDK's classes are always"
              + " seen. Nothing else needs them.")
  String classpath;

  /** Per-class counts. */
  static final class Row {
    long objects;
    long refs;
    long prims;
  }

  /** Counts objects and non-default field values per class. */
  static final class Counter implements ProgramListener {
    final Map<String, Row> rows = new TreeMap<>();
    long hooks;
    final java.util.Set<String> globals = new java.util.TreeSet<>();
    long globalSlots;
    long items;
    long objectItems;
    long blockBytes;

    private Row row(String type) {
      return rows.computeIfAbsent(type == null ? "?" : type, k -> new Row());
    }

    @Override
    public void create(int id, String type, String expr) {
      rows.computeIfAbsent(type, k -> new Row()).objects++;
    }

    @Override
    public void global(int id, String owner, String name, String expr) {
      globalSlots++;
      globals.add(owner == null ? "global \"" + name + "\"" : Names.source(owner) + "." + name);
    }

    @Override
    public void field(
        int target, String type, String field, String value, boolean ref, boolean nonDefault) {
      count(type, ref, nonDefault);
    }

    @Override
    public void element(
        int target, String type, int index, String value, boolean ref, boolean nonDefault) {
      count(type, ref, nonDefault);
    }

    private void count(String type, boolean reference, boolean nonDefault) {
      if (nonDefault) {
        Row r = row(type);
        if (reference) {
          r.refs++;
        } else {
          r.prims++;
        }
      }
    }

    @Override
    public void hook(int target, String type, String text, int refs, int prims) {
      if (text != null) {
        hooks++;
      }
      Row r = row(type);
      r.refs += refs;
      r.prims += prims;
    }

    @Override
    public void fill(int target, String type, String text, int refs) {
      row(type).refs += refs;
    }

    @Override
    public void end(int index, SnapshotSegment segment) {
      for (SnapshotSegment.Item item : segment.items()) {
        if (item.kind() == SnapshotSegment.Item.Kind.DATA) {
          items++;
          blockBytes += item.value();
        } else if (item.kind() == SnapshotSegment.Item.Kind.OBJECT) {
          // a back reference is what the next object refers to, for readUnshared: not an item
          items++;
          objectItems++;
        }
      }
    }
  }

  @Override
  public Integer call() {
    SnapshotSource src = SnapshotSource.read(file);
    Counter counter = new Counter();
    src.list(counter);
    // primitive data between the segments of a stream: each run of data frames is one item, as
    // a block of the tape is
    boolean inData = false;
    for (SnapshotContents.Part frame : src.frames) {
      if (frame instanceof SnapshotContents.Data d) {
        if (!inData) {
          counter.items++;
        }
        counter.blockBytes += d.length();
        inData = true;
      } else if (frame instanceof SnapshotSegment) {
        inData = false;
      }
    }
    long classFiles = 0;
    long methods = 0;
    long chunks = 0;
    long classBytes = 0;
    long constants = 0;
    long code = 0;
    long itemBytes = 0;
    List<String> jdks = new ArrayList<>();
    java.util.TreeSet<Integer> versions = new java.util.TreeSet<>();
    long objects = 0;
    for (SnapshotSegment f : src.segments) {
      versions.add(f.formatVersion());
      if (!f.jdk().isEmpty() && !jdks.contains(f.jdk())) {
        jdks.add(f.jdk());
      }
      objects += f.objectCount();
      Map<String, Integer> sizes = f.sectionSizes();
      constants += sizes.get("constants");
      code += sizes.get("code");
      itemBytes += sizes.get("items");
      for (byte[] cf : f.classFiles()) {
        classFiles++;
        classBytes += cf.length;
        List<String> names = methodNames(cf);
        methods += names.size();
        for (String m : names) {
          if (m.matches("m\\d+")) {
            chunks++;
          }
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("file:                %s%n", file);
    out.printf(
        "kind:                %s%s%s%n",
        src.kind.label,
        src.contents.isSigned() ? " (signed; the signature is not checked here)" : "",
        src.kind == SnapshotSource.Kind.STREAM
            ? " (" + src.segments.size() + " segment" + (src.segments.size() == 1 ? "" : "s") + ")"
            : "");
    out.printf("compression:         %s%n", compression(src.contents));
    out.printf(
        "format version:      %s%n",
        versions.isEmpty()
            ? "none (no segment)"
            : versions.stream().map(String::valueOf).collect(Collectors.joining(", ")));
    out.printf(
        "captured on JDK:     %s%n",
        jdks.isEmpty() ? "not recorded in the file" : String.join(", ", jdks));
    out.printf("checksums:           ok%n");
    out.printf("size:                %d bytes%n", src.size);
    out.printf("objects:             %d%n", objects);
    out.printf(
        "items:               %d (%d objects, %d bytes of primitive data)%n",
        counter.items, counter.objectItems, counter.blockBytes);
    out.printf("generated classes:   %d%n", classFiles);
    out.printf("generated methods:   %d (%d with restore statements)%n", methods, chunks);
    out.printf("generated code:      %d bytes (class files %d)%n", code, classBytes);
    out.printf(
        "data:                %d bytes (constants %d, item list %d)%n",
        constants + itemBytes, constants, itemBytes);
    out.printf("own methods run:     %d (readObject, readExternal, readResolve)%n", counter.hooks);
    out.printf("allow-list:          %s%n", allowList(src));
    if (counter.globalSlots > 0) {
      // static constants and named globals: restored as objects of the loading JVM, by option
      out.printf(
          "global references:   %d (%s); loading needs %s%n",
          counter.globalSlots,
          String.join(", ", counter.globals),
          counter.globals.stream().anyMatch(g -> !g.startsWith("global "))
              ? "CodeseOptions.withStaticConstants(true)"
                  + (counter.globals.stream().anyMatch(g -> g.startsWith("global "))
                      ? " and CodeseOptions.withGlobal for each name"
                      : "")
              : "CodeseOptions.withGlobal for each name");
    }
    out.println();
    out.printf("%10s %12s %12s  %s%n", "objects", "references", "primitives", "class");
    long tObj = 0;
    long tRef = 0;
    long tPrim = 0;
    Map<String, String> proxies = proxyNames(src);
    for (Map.Entry<String, Row> e : counter.rows.entrySet()) {
      Row r = e.getValue();
      String name = proxies.getOrDefault(e.getKey(), Names.source(e.getKey()));
      out.printf("%10d %12d %12d  %s%n", r.objects, r.refs, r.prims, name);
      tObj += r.objects;
      tRef += r.refs;
      tPrim += r.prims;
    }
    out.printf("%10d %12d %12d  %s%n", tObj, tRef, tPrim, "total");
    out.flush();
    return Main.OK;
  }

  /**
   * How the rows name dynamic proxy classes: by the interfaces a load makes them for, since the
   * name a proxy class had at capture is the capturing JVM's.
   */
  private static Map<String, String> proxyNames(SnapshotSource src) {
    Map<String, String> names = new java.util.HashMap<>();
    for (SnapshotSegment s : src.segments) {
      for (SnapshotSegment.ClassInfo c : s.classes()) {
        if (c.isProxy()) {
          List<String> in = new ArrayList<>();
          for (String i : c.proxyInterfaces()) {
            in.add(Names.source(i));
          }
          names.put(c.name(), "dynamic proxy of " + String.join(", ", in) + " (" + c.name() + ")");
        }
      }
    }
    return names;
  }

  /** The compression line: none, or the compressed and uncompressed sizes. */
  static String compression(SnapshotContents contents) {
    if (!contents.isCompressed()) {
      return "none";
    }
    long packed = contents.compressedSize();
    long plain = contents.snapshotSize();
    return "DEFLATE, "
        + packed
        + " bytes compressed, "
        + plain
        + " bytes uncompressed ("
        + Math.round(100.0 * packed / plain)
        + "%)";
  }

  /** The names of a class file's methods. */
  private static List<String> methodNames(byte[] classFile) {
    List<String> names = new ArrayList<>();
    new ClassReader(classFile)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String desc, String signature, String[] exceptions) {
                names.add(name);
                return null;
              }
            },
            ClassReader.SKIP_CODE);
    return names;
  }

  /** The allow-list line: the options that admit the file, or why it is not known. */
  private String allowList(SnapshotSource src) {
    AllowLines.Needs needs = AllowLines.of(src, ClassPaths.loader(classpath));
    if (!needs.unknown().isEmpty()) {
      int n = needs.unknown().size();
      return "unknown: "
          + n
          + (n == 1 ? " class is" : " classes are")
          + " not on the class path"
          + " (pass --classpath): "
          + String.join(", ", needs.unknown().subList(0, Math.min(3, n)))
          + (n > 3 ? ", ..." : "");
    }
    if (needs.problem() != null) {
      return "cannot be computed: " + needs.problem();
    }
    return needs.needed().isEmpty() ? "none needed" : AllowLines.optionsLine(needs.needed());
  }
}
