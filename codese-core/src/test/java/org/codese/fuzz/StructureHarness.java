package org.codese.fuzz;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.Codese;
import org.codese.CodeseOptions;
import org.codese.RestoreException;
import org.codese.Snapshot;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;

/**
 * Runs the structure fuzzer's inputs and judges them by issue 15's invariants. One input is a
 * mutated snapshot (from {@link StructureMutator}, or a file); it is loaded and restored twice,
 * with default options and under the allow-list filter {@code java.lang.*;java.util.*;!*}, each
 * time on a worker thread under {@link FuzzSupport}'s time limit, with the {@link Canaries}
 * compared before and after. A pass ends well with a restore, or with a typed rejection: an {@link
 * IOException} ({@code CorruptSnapshotException}, {@code UnsafeSnapshotException}, {@code
 * ClassMismatchException}, {@code InvalidClassException}, {@code InvalidObjectException}, a {@code
 * RestoreException} caused by an IOException, or the IOException a class's own {@code readObject}
 * threw), or with an exception thrown by a class's own serialization method (as {@code
 * ObjectInputStream} would let it through: inside a {@code RestoreException}, or as the cause of
 * the {@code IOException} {@code ObjectInputStream} throws in its place). Findings:
 *
 * <ul>
 *   <li>I1, I2, I3: a canary changed; I2 also a snapshot that loaded although its generated code
 *       refers to a class no class entry names, a canary class loaded that no class entry names, or
 *       one initialised while the snapshot was checked (the {@code Serializable} canary only before
 *       the filter accepted it, as {@code ObjectInputStream} initialises a class once its filter
 *       accepted it; the other at any time); I3 also a restored graph that holds an object of a
 *       class that is not {@code Serializable};
 *   <li>I4: no answer within the time limit (fatal: the worker cannot be stopped), an {@code
 *       OutOfMemoryError}, more memory allocated than the default limits allow for the table, or
 *       more generated classes accepted than the objects could need;
 *   <li>I5: a snapshot that loaded with {@code max_stack} or {@code max_locals} beyond what its
 *       code needs; any other exception: one that is not an IOException, or a {@code
 *       RestoreException} or other IOException (but a {@code ClassMismatchException}, whose cause
 *       is the class loader's) whose cause was thrown in Codese or in generated code ({@code
 *       NullPointerException}, {@code ClassCastException}, {@code InstantiationError}, {@code
 *       NoClassDefFoundError}, {@code IllegalAccessError}, {@code BootstrapMethodError}, {@code
 *       StackOverflowError}, {@code ArrayStoreException}, {@code ArrayIndexOutOfBoundsException},
 *       {@code IllegalArgumentException} from reflection, ...).
 * </ul>
 */
final class StructureHarness implements AutoCloseable {
  /** The allow-list filter of the second pass. */
  static final ObjectInputFilter ALLOW_LIST =
      ObjectInputFilter.Config.createFilter("java.lang.*;java.util.*;!*");

  /**
   * A pass slower than this is counted by the campaign, not reported as a finding: on a shared
   * machine, a cold JVM or a busy core takes seconds for what takes milliseconds.
   */
  static final long SLOW_MILLIS = Long.getLong("codese.fuzz.slowMillis", 3_000);

  /** Bytes a restore may allocate: every array element the default limits allow, and slack. */
  static final long ALLOCATION_LIMIT = 8L * (1 << 27) + (256L << 20);

  /** One broken invariant. */
  record Finding(String invariant, String signature, String detail, Throwable error) {}

  /** How one pass ended. */
  record Pass(String name, String outcome, long nanos, long allocated) {}

  /** Everything about one input. */
  record Report(
      String seed,
      List<String> log,
      byte[] snapshot,
      List<Pass> passes,
      List<Finding> findings,
      boolean fatal) {
    String describe() {
      StringBuilder s = new StringBuilder();
      for (Finding f : findings) {
        s.append(f.invariant()).append(": ").append(f.detail()).append('\n');
      }
      s.append("seed ").append(seed).append(", mutations:");
      for (String l : log) {
        s.append("\n  ").append(l);
      }
      for (Pass p : passes) {
        s.append("\npass ").append(p.name()).append(": ").append(p.outcome());
      }
      return s.toString();
    }
  }

  private static StructureHarness shared;

  private final Canaries canaries;
  private final StructureMutator mutator;
  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  StructureHarness() throws IOException {
    List<StructureMutator.Seed> seeds = new ArrayList<>();
    Set<String> seedClasses = new HashSet<>();
    for (Map.Entry<String, Object> e : StructureSeeds.graphs().entrySet()) {
      byte[] b = Codese.toBytes(e.getValue());
      SnapshotFile f = SnapshotFile.parse(b);
      seeds.add(new StructureMutator.Seed(e.getKey(), f));
      for (ClassEntry c : f.classes()) {
        seedClasses.add(c.name());
      }
    }
    canaries = new Canaries(seedClasses);
    mutator = new StructureMutator(List.copyOf(seeds), StructureHarness.class.getClassLoader());
  }

  /**
   * @return the harness of this JVM, made on first use (JUnit and Jazzer share it)
   */
  static synchronized StructureHarness shared() throws IOException {
    if (shared == null) {
      StructureHarness h = new StructureHarness();
      // the temporary home directory goes when the JVM does
      Runtime.getRuntime().addShutdownHook(new Thread(h::close, "codese-fuzz-cleanup"));
      shared = h;
    }
    return shared;
  }

  StructureMutator mutator() {
    return mutator;
  }

  Canaries canaries() {
    return canaries;
  }

  /** Mutates a seed as {@code input} says and runs the result. */
  Report runInput(byte[] input) {
    StructureMutator.Mutant m = mutator.mutate(new Choices(input));
    return run(m.seed(), m.log(), m.bytes());
  }

  /** Runs a snapshot as it is. */
  Report run(String seed, List<String> log, byte[] snapshot) {
    Set<String> names = new HashSet<>();
    int classFiles = -1;
    long objects = -1;
    SnapshotFile f = null;
    try {
      f = SnapshotFile.parse(snapshot);
      for (ClassEntry e : f.classes()) {
        names.add(e.name());
      }
      classFiles = f.classFiles().size();
      objects = (long) f.tableSize() - f.firstId();
    } catch (IOException | RuntimeException e) {
      // the loader rejects it too; nothing is named
    }
    List<Pass> passes = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    boolean fatal = false;
    boolean[] loaded = {false};
    for (String pass : new String[] {"default", "allow-list"}) {
      fatal |= runPass(pass, snapshot, names, classFiles, objects, passes, findings, loaded);
      if (fatal) {
        break;
      }
    }
    if (loaded[0] && f != null) {
      unnamedReferences(f, names, findings);
      oversizedFrames(f, findings);
    }
    if (canaries.leakedThreads() > 20) {
      findings.add(
          new Finding(
              "I3",
              "I3 too many leaked threads",
              canaries.leakedThreads()
                  + " non-daemon threads started by inputs are alive; restart the JVM",
              null));
      fatal = true;
    }
    return new Report(seed, log, snapshot, passes, findings, fatal);
  }

  /** What one attempt on the worker thread gave. */
  private record Attempt(
      Throwable error, GraphScan graph, long nanos, long allocated, boolean loaded) {}

  /**
   * @return whether the JVM should be restarted
   */
  private boolean runPass(
      String pass,
      byte[] snapshot,
      Set<String> names,
      int classFiles,
      long objects,
      List<Pass> passes,
      List<Finding> findings,
      boolean[] loaded) {
    CodeseOptions options =
        pass.equals("default")
            ? CodeseOptions.defaults()
            : CodeseOptions.defaults().withObjectInputFilter(ALLOW_LIST);
    Canaries.Before before = canaries.before();
    CanaryLoader loader = canaries.loader();
    loader.drainRequested();
    CanaryFlags.drainInitialisedAfterFilter();
    boolean fatal = false;
    Attempt a = null;
    String outcome;
    try {
      a =
          FuzzSupport.run(
              "structure fuzz, " + pass + " pass", () -> attempt(snapshot, options, loader));
      outcome = a.error() == null ? "ok" : null;
      loaded[0] |= a.loaded();
    } catch (FuzzSupport.HangFinding h) {
      loaded[0] = true;
      StackTraceElement[] where = h.getStackTrace();
      findings.add(
          new Finding(
              "I4",
              "I4 hang at " + frame(where),
              pass
                  + " pass: no answer within "
                  + FuzzSupport.TIME_LIMIT_SECONDS
                  + " s; the worker was at "
                  + frame(where),
              h));
      outcome = "hang";
      fatal = true;
    }
    // the canaries first: an input may have broken what the judging below relies on
    List<Canaries.Violation> violations;
    try {
      violations = canaries.check(before);
      if (!violations.isEmpty()) {
        canaries.repair(before, violations);
      }
    } catch (Throwable t) {
      findings.add(
          new Finding(
              "I1",
              "I1 the canary check failed",
              pass
                  + " pass: checking the"
                  + " canaries threw "
                  + t
                  + "; the JVM's state is damaged beyond repair",
              t));
      passes.add(new Pass(pass, "canaries broken", -1, -1));
      return true;
    }
    try {
      if (a != null && a.error() != null) {
        outcome = classify(pass, a.error(), findings);
        for (Throwable c = a.error(); c != null; c = c.getCause()) {
          if (c instanceof OutOfMemoryError) {
            fatal |= Boolean.getBoolean("codese.fuzz.restartOnOom");
          }
        }
      }
      if (a != null) {
        judgeCosts(pass, a, snapshot, classFiles, objects, findings);
      }
      Set<String> afterFilter = CanaryFlags.drainInitialisedAfterFilter();
      for (Canaries.Violation v : violations) {
        if (v.invariant().equals("I2")
            && v.key().endsWith(StructureSeeds.INIT_CANARY)
            && (a != null && a.loaded() || afterFilter.contains(StructureSeeds.INIT_CANARY))) {
          // the snapshot was admitted and its code ran (it may have allocated an instance, and
          // ObjectInputStream initialises a class it instantiates too, even if the restore then
          // fails), or the Serializable canary was initialised by a step after the filter had
          // accepted it (reading its serialVersionUID, as ObjectStreamClass.lookup does, also
          // when the suid then no longer matches); initialising it before is the finding
          continue;
        }
        findings.add(
            new Finding(
                v.invariant(), v.key(), pass + " pass (" + outcome + "): " + v.detail(), null));
      }
      for (String c : loader.drainRequested()) {
        if (!names.contains(c)) {
          findings.add(
              new Finding(
                  "I2",
                  "I2 class loaded that no class entry names: " + c,
                  pass
                      + " pass ("
                      + outcome
                      + ") loaded "
                      + c
                      + ", which no class entry names, so no"
                      + " filter saw it",
                  null));
        }
      }
    } catch (Throwable t) {
      findings.add(
          new Finding(
              "I1",
              "I1 judging the outcome failed",
              pass + " pass: judging" + " the outcome threw " + t + "; the JVM's state is damaged",
              t));
      fatal = true;
    }
    passes.add(new Pass(pass, outcome, a == null ? -1 : a.nanos(), a == null ? -1 : a.allocated()));
    return fatal;
  }

  private static void judgeCosts(
      String pass,
      Attempt a,
      byte[] snapshot,
      int classFiles,
      long objects,
      List<Finding> findings) {
    long limit = ALLOCATION_LIMIT + Math.max(0, objects) * 1024;
    if (a.allocated() > limit) {
      findings.add(
          new Finding(
              "I4",
              "I4 allocation beyond the limits",
              pass
                  + " pass allocated "
                  + a.allocated()
                  + " bytes for a snapshot of "
                  + snapshot.length
                  + " bytes and "
                  + objects
                  + " objects (the default limits allow about "
                  + limit
                  + ")",
              null));
    }
    if (a.error() == null && classFiles > 3 * Math.max(0, objects) + 16) {
      findings.add(
          new Finding(
              "I4",
              "I4 generated classes beyond what the graph needs",
              pass
                  + " pass accepted "
                  + classFiles
                  + " generated classes for "
                  + objects
                  + " objects",
              null));
    }
    if (a.graph() != null) {
      for (String c : a.graph().nonSerializable) {
        findings.add(
            new Finding(
                "I3",
                "I3 non-Serializable object restored: " + stable(c),
                pass + " pass restored a graph holding a " + c + ", which is not Serializable",
                null));
      }
    }
  }

  private Attempt attempt(byte[] snapshot, CodeseOptions options, ClassLoader loader) {
    Thread t = Thread.currentThread();
    ClassLoader old = t.getContextClassLoader();
    t.setContextClassLoader(loader);
    long a0 = threads.getCurrentThreadAllocatedBytes();
    long t0 = System.nanoTime();
    boolean loaded = false;
    try (Snapshot s = Codese.load(snapshot, options)) {
      loaded = true;
      Object root = s.restore();
      GraphScan g = GraphScan.of(root);
      return new Attempt(
          null, g, System.nanoTime() - t0, threads.getCurrentThreadAllocatedBytes() - a0, true);
    } catch (Throwable e) {
      return new Attempt(
          e, null, System.nanoTime() - t0, threads.getCurrentThreadAllocatedBytes() - a0, loaded);
    } finally {
      t.setContextClassLoader(old);
    }
  }

  /** Classes the restore grammar itself names; every other class must have a class entry (I2). */
  private static final Set<String> GRAMMAR_CLASSES =
      Set.of(
          "java/lang/Object",
          "java/util/function/BiConsumer",
          "java/lang/String",
          "java/lang/Boolean",
          "java/lang/Byte",
          "java/lang/Character",
          "java/lang/Short",
          "java/lang/Integer",
          "java/lang/Long",
          "java/lang/Float",
          "java/lang/Double",
          "java/lang/reflect/Constructor",
          org.codese.program.RuntimeContract.current().setterOwner(),
          "java/lang/reflect/Array",
          "java/lang/Class",
          "org/codese/load/Hooks",
          "org/codese/load/Allocation",
          "org/codese/runtime/Entry");

  /**
   * I2, checked on the file: a snapshot that loaded may refer in its generated code ({@code
   * checkcast}, {@code new}, array types, field owners, method owners, class literals) only to the
   * grammar's own classes and to classes its class entries name, so that the filter saw them all.
   */
  private static void unnamedReferences(SnapshotFile f, Set<String> names, List<Finding> findings) {
    Set<String> reported = new HashSet<>();
    for (byte[] b : f.classFiles()) {
      org.objectweb.asm.ClassReader r;
      try {
        r = new org.objectweb.asm.ClassReader(b);
      } catch (RuntimeException e) {
        continue;
      }
      String self = r.getClassName();
      java.util.function.BiConsumer<String, String> use =
          (how, type) -> {
            String t = type;
            while (t.startsWith("[")) {
              t = t.substring(1);
            }
            if (t.startsWith("L") && t.endsWith(";")) {
              t = t.substring(1, t.length() - 1);
            } else if (t.length() == 1 && type.startsWith("[")) {
              return; // a primitive array
            }
            if (t.equals(self) || GRAMMAR_CLASSES.contains(t)) {
              return;
            }
            String binary = t.replace('/', '.');
            if (!names.contains(binary)
                && !names.contains(type.replace('/', '.'))
                && reported.add(how + " " + binary)) {
              findings.add(
                  new Finding(
                      "I2",
                      "I2 generated code refers to a class no class entry" + " names (" + how + ")",
                      "the snapshot loaded although its generated code refers"
                          + " to "
                          + binary
                          + " ("
                          + how
                          + "), which no class entry names, so no filter"
                          + " was asked about it",
                      null));
            }
          };
      try {
        r.accept(
            new org.objectweb.asm.ClassVisitor(org.objectweb.asm.Opcodes.ASM9) {
              @Override
              public org.objectweb.asm.MethodVisitor visitMethod(
                  int acc, String name, String desc, String sig, String[] ex) {
                return new org.objectweb.asm.MethodVisitor(org.objectweb.asm.Opcodes.ASM9) {
                  @Override
                  public void visitTypeInsn(int op, String type) {
                    use.accept(
                        op == org.objectweb.asm.Opcodes.CHECKCAST
                            ? "checkcast"
                            : op == org.objectweb.asm.Opcodes.NEW ? "new" : "type operand",
                        type);
                  }

                  @Override
                  public void visitFieldInsn(int op, String owner, String n, String d) {
                    use.accept(
                        "field owner", owner); // not the field's type: resolving does not load it
                  }

                  @Override
                  public void visitMethodInsn(int op, String owner, String n, String d, boolean i) {
                    use.accept("method owner", owner);
                  }

                  @Override
                  public void visitLdcInsn(Object c) {
                    if (c instanceof org.objectweb.asm.Type t
                        && t.getSort() == org.objectweb.asm.Type.OBJECT) {
                      use.accept("class literal", t.getInternalName());
                    }
                  }
                };
              }
            },
            0);
      } catch (RuntimeException e) {
        // a class file ASM cannot read was not defined either
      }
    }
  }

  /**
   * I5, checked on the file: a snapshot that loaded declares no {@code max_stack} above 64 or
   * {@code max_locals} above 256 (the grammar's most locals) beyond what its code needs (as ASM
   * computes it), since a huge frame can end in a {@code StackOverflowError} after other generated
   * code ran.
   */
  private static void oversizedFrames(SnapshotFile f, List<Finding> findings) {
    for (byte[] b : f.classFiles()) {
      try {
        Map<String, int[]> declared = new java.util.HashMap<>();
        org.objectweb.asm.ClassReader r = new org.objectweb.asm.ClassReader(b);
        r.accept(
            new org.objectweb.asm.ClassVisitor(org.objectweb.asm.Opcodes.ASM9) {
              @Override
              public org.objectweb.asm.MethodVisitor visitMethod(
                  int acc, String name, String desc, String sig, String[] ex) {
                return new org.objectweb.asm.MethodVisitor(org.objectweb.asm.Opcodes.ASM9) {
                  @Override
                  public void visitMaxs(int stack, int locals) {
                    if (stack > 64 || locals > 256) {
                      declared.put(name + desc, new int[] {stack, locals});
                    }
                  }
                };
              }
            },
            org.objectweb.asm.ClassReader.SKIP_FRAMES);
        if (declared.isEmpty()) {
          continue;
        }
        org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
        r.accept(cn, org.objectweb.asm.ClassReader.SKIP_FRAMES);
        org.objectweb.asm.ClassWriter w =
            new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
        cn.accept(w);
        org.objectweb.asm.tree.ClassNode needed = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(w.toByteArray())
            .accept(needed, org.objectweb.asm.ClassReader.SKIP_FRAMES);
        for (org.objectweb.asm.tree.MethodNode m : needed.methods) {
          int[] d = declared.get(m.name + m.desc);
          if (d != null && (d[0] > m.maxStack + 2 || d[1] > m.maxLocals + 2)) {
            findings.add(
                new Finding(
                    "I5",
                    "I5 max_stack or max_locals beyond what the code" + " needs",
                    "the snapshot loaded although method "
                        + m.name
                        + " declares"
                        + " max_stack "
                        + d[0]
                        + " and max_locals "
                        + d[1]
                        + " where its code needs "
                        + m.maxStack
                        + " and "
                        + m.maxLocals,
                    null));
            return;
          }
        }
      } catch (RuntimeException e) {
        // a class file ASM cannot read or write was not defined either
      }
    }
  }

  /** Names a failed pass's outcome, adding a finding when the failure is not a typed rejection. */
  static String classify(String pass, Throwable e, List<Finding> findings) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof OutOfMemoryError) {
        findings.add(
            new Finding(
                "I4",
                "I4 OutOfMemoryError",
                pass + " pass: " + c + (c == e ? "" : ", reported as " + e),
                e));
        return "OutOfMemoryError";
      }
      if (c instanceof VirtualMachineError) {
        findings.add(
            new Finding(
                "I5",
                "I5 " + c.getClass().getName() + " at " + frame(c.getStackTrace()),
                pass + " pass: " + c + (c == e ? "" : ", reported as " + e),
                e));
        return c.getClass().getSimpleName();
      }
    }
    if (!(e instanceof IOException)) {
      findings.add(
          new Finding(
              "I5",
              "I5 untyped " + e.getClass().getName() + " at " + frame(e.getStackTrace()),
              pass + " pass: " + e + " escaped, not an IOException",
              e));
      return "untyped " + e.getClass().getSimpleName();
    }
    if (!(e instanceof RestoreException)) {
      // what ObjectInputStream throws in place of a class's own exception (a record constructor's
      // InvalidObjectException, a constructor's InvalidClassException, readObject's "unexpected
      // exception type") carries it as cause: class code, unless Codese threw the cause
      Throwable cause = unwrap(e.getCause());
      if (cause == null
          || cause instanceof IOException
          || e instanceof org.codese.ClassMismatchException) {
        return "rejected: " + e.getClass().getSimpleName();
      }
      StackTraceElement[] at = e.getStackTrace();
      if (at.length > 0 && at[0].getClassName().equals("org.codese.load.Immutables")) {
        // CollSer.readResolve's InvalidObjectException("invalid object") around the factory's
        // exception (whose stack the JIT may have omitted)
        return "class code: " + e.getClass().getSimpleName();
      }
      if (thrownByClassCode(cause)) {
        return "class code: "
            + e.getClass().getSimpleName()
            + "("
            + cause.getClass().getSimpleName()
            + ")";
      }
      findings.add(
          new Finding(
              "I5",
              "I5 "
                  + e.getClass().getSimpleName()
                  + "("
                  + cause.getClass().getName()
                  + ") at "
                  + frame(cause.getStackTrace()),
              pass
                  + " pass: "
                  + e
                  + ", caused by "
                  + cause
                  + " thrown at "
                  + frame(cause.getStackTrace()),
              e));
      return e.getClass().getSimpleName() + "(" + cause.getClass().getSimpleName() + ")";
    }
    Throwable cause = unwrap(e.getCause());
    if (cause == null) {
      return "rejected: RestoreException";
    }
    if (cause instanceof IOException) {
      return "rejected: RestoreException(" + cause.getClass().getSimpleName() + ")";
    }
    if (thrownByClassCode(cause)) {
      return "class code: RestoreException(" + cause.getClass().getSimpleName() + ")";
    }
    findings.add(
        new Finding(
            "I5",
            "I5 RestoreException("
                + cause.getClass().getName()
                + ") at "
                + frame(cause.getStackTrace()),
            pass
                + " pass: "
                + e
                + ", caused by "
                + cause
                + " thrown at "
                + frame(cause.getStackTrace()),
            e));
    return "RestoreException(" + cause.getClass().getSimpleName() + ")";
  }

  private static Throwable unwrap(Throwable t) {
    while (t instanceof InvocationTargetException
        || t instanceof UndeclaredThrowableException
        || t instanceof ExceptionInInitializerError) {
      Throwable next = t.getCause();
      if (next == null) {
        return t;
      }
      t = next;
    }
    return t;
  }

  private static boolean plumbing(String cls) {
    return cls.startsWith("java.lang.invoke.")
        || cls.startsWith("jdk.internal.reflect.")
        || cls.startsWith("java.lang.reflect.")
        || cls.startsWith("sun.reflect.")
        || cls.startsWith("sun.invoke.")
        || cls.startsWith("jdk.internal.util.")
        || cls.equals("java.util.Objects")
        || cls.startsWith("jdk.internal.misc.");
  }

  /** Codese's own code or generated code (not the samples, not this harness). */
  private static boolean codese(String cls) {
    return cls.startsWith("org.codese.")
            && !cls.startsWith("org.codese.fuzz.")
            && !cls.startsWith("org.codese.samples.")
        || cls.contains("CodeseRestore");
  }

  /**
   * Whether an exception was thrown by a class's own serialization code ({@code readObject}, {@code
   * readExternal}, {@code readResolve}, a constructor, a validation) rather than by Codese or
   * generated code: its first frame outside reflection is outside Codese, and a serialization
   * method lies between it and Codese.
   */
  static boolean thrownByClassCode(Throwable t) {
    StackTraceElement[] st = t.getStackTrace();
    if (byCollectionApi(st)) {
      return true;
    }
    int i = 0;
    while (i < st.length && plumbing(st[i].getClassName())) {
      i++;
    }
    if (i >= st.length || codese(st[i].getClassName())) {
      return false;
    }
    for (; i < st.length && !codese(st[i].getClassName()); i++) {
      String m = st[i].getMethodName();
      if (m.equals("readObject")
          || m.equals("readExternal")
          || m.equals("readResolve")
          || m.equals("readObjectNoData")
          || m.equals("validateObject")
          || m.equals("<init>")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether an exception was thrown by a JDK collection's or factory's own argument checks, called
   * by a fill or an immutable-collection step of the finish program ({@code CollectionFills},
   * {@code Immutables}) where the class's {@code readObject} or {@code readResolve} would have
   * called them and thrown the same: {@code put}'s type check, {@code add}'s null check.
   */
  private static boolean byCollectionApi(StackTraceElement[] st) {
    boolean jdk = false;
    for (StackTraceElement e : st) {
      String cls = e.getClassName();
      if (codese(cls)) {
        return jdk
            && (cls.equals("org.codese.load.CollectionFills")
                || cls.equals("org.codese.load.Immutables"));
      }
      jdk |= cls.startsWith("java.util.");
    }
    return false;
  }

  /**
   * Where an exception was thrown, for signatures: the first frame in Codese (generated code when
   * that is {@code LoadedSnapshot.run} or {@code restoreInto}, as the JVM hides the frames of
   * hidden classes), else the first frame outside reflection.
   */
  static String frame(StackTraceElement[] st) {
    for (StackTraceElement e : st) {
      if (codese(e.getClassName())) {
        String f = stable(e.getClassName()) + "." + e.getMethodName();
        return f.equals("org.codese.load.LoadedSnapshot.restoreInto")
                || f.equals("org.codese.load.LoadedSnapshot.run")
            ? "generated code"
            : f;
      }
    }
    for (StackTraceElement e : st) {
      if (!plumbing(e.getClassName())) {
        return stable(e.getClassName()) + "." + e.getMethodName();
      }
    }
    return st.length == 0 ? "?" : stable(st[0].getClassName()) + "." + st[0].getMethodName();
  }

  private static String stable(String cls) {
    return cls.replaceAll("CodeseRestore[0-9]+(/0x[0-9a-f]+)?", "CodeseRestore*");
  }

  @Override
  public void close() {
    canaries.close();
  }

  /** What a restored graph holds, found by a bounded walk that runs no code of its objects. */
  static final class GraphScan {
    final List<String> nonSerializable = new ArrayList<>();
    final Set<String> seen = new HashSet<>();

    private static final Set<String> ITERABLE =
        Set.of(
            "java.util.ArrayList",
            "java.util.LinkedList",
            "java.util.ArrayDeque",
            "java.util.HashMap",
            "java.util.LinkedHashMap",
            "java.util.HashSet",
            "java.util.LinkedHashSet",
            "java.util.PriorityQueue",
            "java.util.EnumMap",
            "java.util.Vector",
            "java.util.IdentityHashMap");

    static GraphScan of(Object root) {
      GraphScan g = new GraphScan();
      IdentityHashMap<Object, Boolean> visited = new IdentityHashMap<>();
      ArrayDeque<Object> queue = new ArrayDeque<>();
      int[] budget = {20_000};
      g.offer(root, visited, queue);
      while (!queue.isEmpty() && visited.size() < 5_000 && budget[0] > 0) {
        Object o = queue.poll();
        Class<?> c = o.getClass();
        g.seen.add(c.getName());
        if (!c.isArray()
            && !Serializable.class.isAssignableFrom(c)
            && g.nonSerializable.size() < 3
            && !g.nonSerializable.contains(c.getName())) {
          g.nonSerializable.add(c.getName());
        }
        try {
          if (c.isArray()) {
            if (!c.getComponentType().isPrimitive()) {
              for (Object e : (Object[]) o) {
                if (--budget[0] < 0) {
                  break;
                }
                g.offer(e, visited, queue);
              }
            }
          } else if (ITERABLE.contains(c.getName())
              || c.getName().startsWith("java.util.ImmutableCollections$")) {
            Iterator<?> it =
                o instanceof Map<?, ?> m ? m.entrySet().iterator() : ((Collection<?>) o).iterator();
            while (it.hasNext() && --budget[0] >= 0) {
              Object e = it.next();
              if (e instanceof Map.Entry<?, ?> me) {
                g.offer(me.getKey(), visited, queue);
                g.offer(me.getValue(), visited, queue);
              } else {
                g.offer(e, visited, queue);
              }
            }
          } else if (c.getClassLoader() != null
              && (!c.getName().startsWith("org.codese.")
                  || c.getName().startsWith("org.codese.fuzz."))) {
            for (Class<?> k = c; k != null && k.getClassLoader() != null; k = k.getSuperclass()) {
              for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())
                    && !f.getType().isPrimitive()
                    && f.trySetAccessible()) {
                  g.offer(f.get(o), visited, queue);
                }
              }
            }
          }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
          // a damaged collection, or a field reflection refuses: not walked further
        }
      }
      return g;
    }

    private void offer(
        Object o, IdentityHashMap<Object, Boolean> visited, ArrayDeque<Object> queue) {
      if (o != null && visited.put(o, Boolean.TRUE) == null) {
        queue.add(o);
      }
    }
  }
}
