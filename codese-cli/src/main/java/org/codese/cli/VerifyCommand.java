package org.codese.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import org.codese.ClassMismatchException;
import org.codese.CodeseOptions;
import org.codese.CorruptSnapshotException;
import org.codese.ProgramListener;
import org.codese.SnapshotContents;
import org.codese.SnapshotSegment;
import org.codese.SnapshotSegment.ClassInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code codese verify}: integrity, class fingerprints and the restore grammar. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = {
      "Checks a snapshot or Codese object stream without running any of its code: integrity,"
          + " class fingerprints, restore grammar, allow-list and the loader's program checks.",
      "",
      "  integrity    magic, versions, lengths, indices and every checksum;",
      "  fingerprints every class it names is found on the class path with the recorded"
          + " serialVersionUID and fields (name and type);",
      "  grammar      its generated code follows the restore grammar;",
      "  allow-list   it restores only classes ObjectInputStream would (or --allow admits);"
          + " otherwise the line names the CodeseOptions that admit it, ready to paste;",
      "  program      the loader's checks of what its code does.",
      "Classes that evolved since capture in ways ObjectInputStream accepts (serialization"
          + " specification 5.6: fields added or removed, made static or transient, a class"
          + " inserted into a hierarchy or removed from one, even deleted) get one line each,"
          + " 'FILE: evolved: ...', after the problems; they restore as the JDK restores them.",
      "Prints one line per problem, 'FILE: check: problem', or, when all hold, one line"
          + " 'verified FILE: ...' with the number of segments, objects and classes checked.",
      "Exits 0 only if all hold, 1 otherwise."
    },
    footer = {
      "",
      "Examples:",
      "  codese verify tree.cdse --classpath app.jar && echo ok",
      "  codese verify state.cdse --classpath app.jar --allow 'com.example.model.*'"
    })
final class VerifyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin Common common;

  @Mixin AllowOption allow;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "A snapshot (.cdse) or object stream (.cdss).")
  Path file;

  @Option(
      names = {"--classpath", "-cp"},
      paramLabel = "CP",
      description =
          "Where the snapshot's classes are: jars and directories separated by '"
              + "${sys:path.separator}'. The JDK's classes are always seen.")
  String classpath;

  @Option(
      names = "--static-constants",
      description =
          "Check as a load with CodeseOptions.withStaticConstants(true) would: admit the file's"
              + " references to static final fields (snapshot format 5), which a default load"
              + " refuses. Reading them initialises their classes. Only for files from a"
              + " trusted source.")
  boolean staticConstants;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    List<String> given = allow.list();
    ClassLoader loader = ClassPaths.loader(classpath);
    SnapshotSource src;
    try {
      src = SnapshotSource.read(file);
    } catch (CliException e) {
      if (e.getMessage().contains("no such file") || e.getMessage().contains("permission")) {
        throw e;
      }
      String m = e.getMessage();
      out.println(file + ": integrity: " + m.substring(m.indexOf(": ") + 2));
      out.flush();
      return Main.FAILED;
    }
    List<String> problems = new ArrayList<>();
    List<String> evolved = new ArrayList<>();
    Set<ClassInfo> seen = new HashSet<>();
    Set<String> names = new HashSet<>();
    for (SnapshotSegment s : src.segments) {
      for (ClassInfo e : s.classes()) {
        names.add(e.name());
      }
    }
    Map<String, Boolean> removed = new LinkedHashMap<>();
    for (SnapshotSegment s : src.segments) {
      try {
        removed.putAll(s.removedSuperclasses(loader));
      } catch (ClassMismatchException x) {
        // a class missing where a load needs it: the fingerprints and program checks report it
      }
    }
    // classes not on the class path a load may do without: objects of them that only skipped data
    // refers to are not made, which only the program check below finds
    List<String> missing = new ArrayList<>();
    Set<String> notMade = new HashSet<>();
    for (SnapshotSegment s : src.segments) {
      for (ClassInfo e : s.classes()) {
        if (seen.add(e)) {
          fingerprint(e, loader, names, removed, missing, problems, evolved);
        }
      }
    }
    for (int i = 0; i < src.segments.size(); i++) {
      String where = src.segments.size() == 1 ? "" : "segment " + (i + 1) + ": ";
      for (String v : src.segments.get(i).grammarViolations()) {
        problems.add("grammar: " + where + v);
      }
    }
    if (problems.isEmpty()) {
      List<String> admitted = allowList(src, loader, given, problems);
      CodeseOptions options =
          CodeseOptions.defaults()
              .withClassLoader(loader)
              .withAllowedClasses(admitted.toArray(String[]::new))
              .withStaticConstants(staticConstants);
      for (int i = 0; i < src.segments.size(); i++) {
        String where = src.segments.size() == 1 ? "" : "segment " + (i + 1) + ": ";
        try {
          SnapshotSegment.Changes changes = src.segments.get(i).checkChanges(options);
          for (String c : changes.removedPerObject()) {
            evolved.add(Evolved.removedPerObject(c));
          }
          for (Map.Entry<String, Integer> n : changes.notMade().entrySet()) {
            evolved.add(Evolved.notMade(n.getKey(), n.getValue()));
            notMade.add(n.getKey());
          }
        } catch (java.io.IOException e) {
          if (missing.isEmpty()) {
            problems.add("program: " + where + e.getMessage());
          } // else the classes not on the class path are the reason, named below
        }
      }
    }
    for (String name : missing) {
      if (!notMade.contains(name)) {
        problems.add(
            "fingerprint: class "
                + name
                + " is not on the class path; add its jar or directory with --classpath");
      }
    }
    try {
      src.contents.list(new ProgramListener() {});
    } catch (CorruptSnapshotException e) {
      problems.add("grammar: " + e.getMessage());
    }
    for (String p : problems) {
      out.println(file + ": " + p);
    }
    for (String e : new java.util.LinkedHashSet<>(evolved)) {
      out.println(file + ": evolved: " + e);
    }
    if (problems.isEmpty()) {
      out.println(summary(src, seen, given, evolved.size()));
    }
    out.flush();
    return problems.isEmpty() ? Main.OK : Main.FAILED;
  }

  /** The line a passed check prints: what was checked, and which checks passed. */
  private String summary(
      SnapshotSource src, Set<ClassInfo> entries, List<String> given, int changes) {
    long objects = 0;
    for (SnapshotSegment s : src.segments) {
      objects += s.objectCount();
    }
    long classes =
        entries.stream().filter(c -> !c.isPrimitive()).map(ClassInfo::name).distinct().count();
    int segments = src.segments.size();
    String what =
        src.kind == SnapshotSource.Kind.STREAM
            ? "object stream, " + count(segments, "segment") + ", "
            : (src.contents.isCompressed() ? "compressed snapshot, " : "snapshot, ");
    return "verified "
        + file
        + ": "
        + what
        + count(objects, "object")
        + ", "
        + count(classes, "class")
        + "; integrity, fingerprints, grammar, allow-list"
        + (given.isEmpty() ? "" : " (with --allow)")
        + (staticConstants ? " (with --static-constants)" : "")
        + " and program checks passed"
        + (src.contents.isSigned() ? " (the signature was not checked: verify takes no key)" : "")
        + (changes == 0
            ? ""
            : "; classes evolved since capture, restored as ObjectInputStream restores them"
                + " (the 'evolved' lines above)");
  }

  private static String count(long n, String noun) {
    return String.format(
        java.util.Locale.ROOT,
        "%,d %s",
        n,
        n == 1 ? noun : noun + (noun.endsWith("s") ? "es" : "s"));
  }

  /**
   * Reports, as one problem with the ready-to-paste options, the classes the file needs admitted
   * beyond {@code --allow}; returns the allow-list the program checks then run with (the given
   * patterns and those classes), so that they check the rest of the file too.
   */
  private static List<String> allowList(
      SnapshotSource src, ClassLoader loader, List<String> given, List<String> problems) {
    AllowLines.Needs needs = AllowLines.of(src, loader);
    if (needs.problem() != null) {
      return given;
    }
    List<String> all = AllowLines.with(given, needs.needed());
    int missing = all.size() - given.size();
    if (missing > 0) {
      problems.add(
          "allow-list: "
              + missing
              + (missing == 1 ? " class" : " classes")
              + " that"
              + " ObjectInputStream would refuse (not Serializable, or allocated without a"
              + " constructor); if the file comes from a trusted source, load it with "
              + AllowLines.optionsLine(all)
              + " (or verify with --allow)");
    }
    return all;
  }

  private static void fingerprint(
      ClassInfo e,
      ClassLoader loader,
      Set<String> names,
      Map<String, Boolean> removed,
      List<String> missing,
      List<String> problems,
      List<String> evolved) {
    if (e.isPrimitive()) {
      return;
    }
    if (e.isProxy()) {
      // the proxy class's name is the capturing JVM's; a load makes it again from the interfaces
      for (String i : e.proxyInterfaces()) {
        fingerprint(
            new ClassInfo(i, OptionalLong.empty(), List.of()),
            loader,
            names,
            removed,
            missing,
            problems,
            evolved);
      }
      return;
    }
    Class<?> c;
    try {
      c = Class.forName(e.name(), false, loader);
    } catch (ClassNotFoundException | LinkageError x) {
      if (Boolean.FALSE.equals(removed.get(e.name()))) {
        evolved.add(Evolved.removedSuperclass(e, false));
        return;
      }
      missing.add(e.name()); // a problem unless a load leaves its objects unmade (below)
      return;
    }
    if (e.serialVersionUID().isPresent()) {
      long was = e.serialVersionUID().getAsLong();
      Long now;
      try {
        // where it is a constant, initialises nothing
        OptionalLong declared = SnapshotContents.declaredSerialVersionUID(c);
        now = declared.isPresent() ? declared.getAsLong() : null;
      } catch (IllegalStateException x) {
        problems.add(
            "fingerprint: class "
                + e.name()
                + ": its serialVersionUID cannot be read here ("
                + x.getMessage()
                + ")");
        now = was;
      } catch (RuntimeException | LinkageError x) {
        now = null;
      }
      if (now == null || now != was) {
        problems.add(
            "fingerprint: class "
                + e.name()
                + ": serialVersionUID was "
                + was
                + " at capture but is "
                + (now == null ? "not declared" : now)
                + " now");
      }
    }
    if (Boolean.TRUE.equals(removed.get(e.name()))) {
      evolved.add(Evolved.removedSuperclass(e, true));
      return; // its fields are all skipped, whatever became of them
    }
    Evolved.fields(e, c, problems, evolved);
    Evolved.inserted(e, c, names, evolved);
  }

  static String type(String descriptor) {
    if (descriptor.length() == 1) {
      return Names.primitive(descriptor);
    }
    if (descriptor.startsWith("L") && descriptor.endsWith(";")) {
      return Names.source(descriptor.substring(1, descriptor.length() - 1).replace('/', '.'));
    }
    return Names.source(descriptor.replace('/', '.'));
  }
}
