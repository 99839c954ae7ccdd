package org.codese;

/**
 * Loads and links, ahead of the caller and on another thread, Codese's own classes (and ASM's) that
 * every load or every capture needs. In a fresh JVM, reading, verifying and linking each class is a
 * fraction of a millisecond, and tens of them are a large part of a small snapshot's first load or
 * capture; done on a background thread while the caller reads and checks the file, or walks the
 * graph, that work moves to another core and the caller finds the classes ready.
 *
 * <p>Nothing is initialised here, so no static initialiser runs on the background thread and none
 * can deadlock with the caller's: each class is loaded ({@link Class#forName(String, boolean,
 * ClassLoader)} without initialisation) and linked, which verifies its bytecode (asking for its
 * public constructors links it; few of these classes have one, so few constructor parameter types
 * are loaded by it, and those are loaded anyway). The lists hold only classes that the smallest
 * load and restore, or the smallest capture, loads anyway ({@code LinkAheadTest} checks them
 * against a child JVM's class-loading log), in the order the caller first needs them, so the
 * background thread never does work the caller would not have done itself.
 */
final class LinkAhead implements Runnable {
  /**
   * What a load and first restore needs, in that order, from the decoding of constants on (what
   * comes before is needed at once, and left to the caller). Run by {@link Filters}' thread.
   */
  static final String[] LOAD = {
    "org.codese.format.ConstantCodec",
    "org.codese.program.Constant",
    "org.codese.program.Constant$Allocator",
    "org.codese.program.Constant$Mode",
    "org.codese.program.Placement",
    "org.codese.program.Phase",
    "org.codese.program.Tape",
    "org.codese.Snapshot",
    "org.codese.load.LoadedSnapshot",
    "org.codese.runtime.Entry$Steps",
    "org.codese.ClassMismatchException",
    "org.codese.load.StepRunner",
    "org.codese.runtime.Entry",
    "org.codese.load.Admission",
    "org.codese.verify.GrammarCheck$Checked",
    "org.codese.load.CodeCheck",
    "org.codese.load.ClassTable",
    "org.codese.verify.GrammarCheck",
    "org.codese.verify.ClassChecker",
    "org.codese.jvm.Types",
    "org.codese.jvm.Types$Descriptors",
    "org.codese.verify.ClassFile",
    "org.codese.verify.ClassFile$Method",
    "org.codese.verify.MethodChecker$Kind",
    "org.codese.verify.MethodChecker",
    "org.codese.load.Surface",
    "org.codese.verify.Lifter$NotAStatement",
    "org.codese.verify.Opcodes",
    "org.codese.load.Fingerprints",
    "org.codese.verify.Insn",
    "org.codese.program.Grammar",
    "org.codese.verify.Lifter",
    "org.codese.program.Constant$Visitor",
    "org.codese.load.Constants",
    "org.codese.verify.GrammarCheck$Lifted",
    "org.codese.verify.GrammarCheck$Result",
    "org.codese.load.ProgramCheck",
    "org.codese.load.CreateCheck",
    "org.codese.load.SetCheck",
    "org.codese.load.FinishCheck",
    "org.codese.load.RestoreRun",
    "org.codese.load.DefinedCode"
  };

  /**
   * What a capture needs after the walk of the graph (planning, emitting with ASM, encoding), in
   * that order.
   */
  static final String[] CAPTURE = {
    "org.codese.plan.Planner",
    "org.codese.plan.PlanContext",
    "org.codese.program.Constant",
    "org.codese.plan.Tables",
    "org.codese.plan.Tables$1",
    "org.codese.plan.CollectionFill",
    "org.codese.plan.FinishProgram",
    "org.codese.plan.IntList",
    "org.codese.plan.SetPhase",
    "org.codese.plan.Op",
    "org.codese.plan.SlotEntries",
    "org.codese.plan.CreatePhase",
    "org.codese.jvm.Kind",
    "org.codese.plan.CreatePhase$Boxes",
    "org.codese.plan.ValueData",
    "org.codese.capture.Node$Text",
    "org.codese.capture.Node$External",
    "org.codese.program.Fills",
    "org.codese.program.Constant$Mode",
    "org.codese.program.Constant$Allocator",
    "org.codese.program.Constant$PrimArray",
    "org.codese.program.Constant$Hook",
    "org.codese.program.Constant$Texts",
    "org.codese.plan.SetPhase$Cluster",
    "org.codese.program.Constant$Sized",
    "org.codese.plan.Op$Alloc",
    "org.codese.plan.SlotShape",
    "org.codese.plan.SlotShape$1",
    "org.codese.plan.SlotShape$Holder",
    "org.codese.plan.Op$PutDirect",
    "org.codese.plan.Op$Select",
    "org.codese.plan.FinishPhase",
    "org.codese.plan.Section",
    "org.codese.program.Placement",
    "org.codese.program.Phase",
    "org.codese.plan.Plan",
    "org.codese.plan.Tables$LastEntry",
    "org.codese.plan.Tables$Made",
    "org.codese.program.ClassEntry$FieldEntry",
    "org.codese.program.ClassEntry",
    "org.codese.emit.CodeCache",
    "org.codese.emit.CodeCache$1",
    "org.codese.emit.CodeCache$Key",
    "org.codese.program.RuntimeContract",
    "org.codese.emit.Emitter",
    "org.codese.plan.Op$Visitor",
    "org.objectweb.asm.ClassVisitor",
    "org.objectweb.asm.ClassWriter",
    "org.codese.emit.Emitter$1",
    "org.codese.emit.Emitter$OpWriter",
    "org.objectweb.asm.RecordComponentVisitor",
    "org.objectweb.asm.RecordComponentWriter",
    "org.objectweb.asm.ModuleVisitor",
    "org.objectweb.asm.ModuleWriter",
    "org.objectweb.asm.AnnotationVisitor",
    "org.objectweb.asm.AnnotationWriter",
    "org.objectweb.asm.MethodVisitor",
    "org.objectweb.asm.MethodWriter",
    "org.objectweb.asm.FieldVisitor",
    "org.objectweb.asm.FieldWriter",
    "org.objectweb.asm.ClassTooLargeException",
    "org.objectweb.asm.ComputeLimits",
    "org.objectweb.asm.LimitExceededException",
    "org.objectweb.asm.SymbolTable",
    "org.objectweb.asm.Symbol",
    "org.objectweb.asm.SymbolTable$Entry",
    "org.objectweb.asm.ByteVector",
    "org.objectweb.asm.MethodTooLargeException",
    "org.objectweb.asm.Frame",
    "org.objectweb.asm.CurrentFrame",
    "org.objectweb.asm.Type",
    "org.objectweb.asm.Label",
    "org.codese.program.Grammar",
    "org.codese.emit.Emitter$OpBytes",
    "org.objectweb.asm.Handler",
    "org.objectweb.asm.Attribute",
    "org.codese.emit.Emitter$2",
    "org.codese.emit.Emitted",
    "org.codese.format.SnapshotFile",
    "org.codese.format.Encoding",
    "org.codese.format.Out",
    "org.codese.format.Encoding$PackedBlock",
    "org.codese.format.Packed",
    "org.codese.format.Compression",
    "org.codese.program.Constant$Visitor",
    "org.codese.format.ConstantWriter"
  };

  /** Whether {@link #startCapture} ran (or a test's child JVM turned it off). */
  static volatile boolean captureStarted;

  /**
   * Turns {@link #load} off: set only by a test's child JVM, to see what a load needs by itself.
   */
  static volatile boolean loadOff;

  private final String[] classes;

  private LinkAhead(String[] classes) {
    this.classes = classes;
  }

  /**
   * Starts linking {@link #CAPTURE} on a short-lived daemon thread, once per JVM; the caller goes
   * on at once. Where no thread can be started, the caller loads the classes itself as it needs
   * them.
   */
  static void startCapture() {
    if (captureStarted) {
      return;
    }
    captureStarted = true;
    try {
      Thread t = new Thread(new LinkAhead(CAPTURE), "codese-link-ahead");
      t.setDaemon(true);
      t.start();
    } catch (RuntimeException | Error e) {
      // no thread allowed or available: nothing is lost but the head start
    }
  }

  /** Links {@link #LOAD}, on the calling thread (the filter configuration's, {@link Filters}). */
  static void load() {
    if (!loadOff) {
      link(LOAD);
    }
  }

  /** Links this instance's list ({@link #link}). */
  @Override
  public void run() {
    link(classes);
  }

  /**
   * Loads and links every class of {@code names}, in order, through Codese's own class loader;
   * stops at the first that fails (the caller meets the same failure where it needs the class, and
   * reports it there).
   *
   * @param names binary class names
   */
  static void link(String[] names) {
    ClassLoader loader = LinkAhead.class.getClassLoader();
    for (String name : names) {
      try {
        Class.forName(name, false, loader).getConstructors();
      } catch (ClassNotFoundException | LinkageError | SecurityException e) {
        return;
      }
    }
  }
}
