package org.codese.load;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.codese.ClassMismatchException;
import org.codese.CodeseLimits;
import org.codese.CorruptSnapshotException;
import org.codese.RestoreException;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Placement;
import org.codese.program.RuntimeContract;
import org.codese.program.Tape;
import org.codese.runtime.Entry;
import org.codese.verify.GrammarCheck;

/**
 * A snapshot whose classes are defined and whose constants are resolved, ready to run.
 *
 * <p>The generated classes are hidden classes, each called with the restore table and the resolved
 * constants; a later snapshot with the same code reuses them ({@link DefinedCode}), and they are
 * unloadable once no snapshot uses them and {@code DefinedCode} has dropped them. {@link
 * #restoreInto} may be called from many threads at once: every call works on its own table.
 */
public final class LoadedSnapshot {
  /**
   * A full-privilege lookup in the runtime contract's package, where Codese-hosted classes of
   * format 3 and later are defined; made once the finish-program runner is installed there.
   */
  private static final MethodHandles.Lookup RUNTIME;

  static {
    Entry.install(StepRunner.INSTANCE);
    try {
      RUNTIME = MethodHandles.privateLookupIn(Entry.class, MethodHandles.lookup());
    } catch (IllegalAccessException e) {
      throw new ExceptionInInitializerError(e); // same module: cannot happen
    }
  }

  private final SnapshotFile file;
  private final Object[] constants;
  private final List<List<BiConsumer<Object[], Object[]>>> phases;

  /** Objects of earlier stream segments this snapshot refers to, and the types they must have. */
  private final int[] priorIds;

  private final Class<?>[] priorTypes;

  /** The {@code readObject} calls of classes that gained one since capture, or {@code null}. */
  private final AddedHooks addedHooks;

  /**
   * The ids of the objects the program does not make ({@link ProgramCheck#NOT_MADE}: of a class not
   * found, which nothing live refers to), and their classes' {@code ClassNotFoundException}s;
   * {@code null} if every object is made.
   */
  private final int[] notMade;

  private final ClassNotFoundException[] notMadeCauses;

  /** The binary names of the classes of {@link #notMade}. */
  private final String[] notMadeNames;

  /** Per phase, the work of each of its classes ({@link ProgramCheck#classCost}). */
  private final long[][] costs;

  /**
   * Per phase before the finish phase, how restores with several threads run it: measured, for the
   * phases whose estimated work would pay for several threads; {@code null} until asked.
   */
  private PhaseChoice[] choices;

  /**
   * The choice of phase {@code p}, made on first use: a restore on one thread never loads the
   * class.
   */
  private synchronized PhaseChoice choice(int p) {
    if (choices == null) {
      choices = new PhaseChoice[Grammar.PHASES - 1];
    }
    if (choices[p] == null) {
      choices[p] = new PhaseChoice();
    }
    return choices[p];
  }

  /**
   * The serialization filter the snapshot was loaded under, or {@code null}: asked about what the
   * finish program's steps make where the JDK's {@code readResolve} would have returned it.
   */
  private final ObjectInputFilter filter;

  private LoadedSnapshot(
      SnapshotFile file,
      Object[] constants,
      List<List<BiConsumer<Object[], Object[]>>> phases,
      long[][] costs,
      ProgramCheck checked,
      AddedHooks addedHooks,
      ObjectInputFilter filter) {
    this.file = file;
    this.filter = filter;
    this.addedHooks = addedHooks;
    this.constants = constants;
    this.phases = phases;
    this.costs = costs;
    this.priorIds = checked.priorIds();
    this.priorTypes = checked.priorTypes();
    if (checked.hasNotMade()) {
      this.notMade = checked.notMadeIds();
      this.notMadeCauses = new ClassNotFoundException[notMade.length];
      this.notMadeNames = new String[notMade.length];
      for (int i = 0; i < notMade.length; i++) {
        ClassMismatchException e = (ClassMismatchException) checked.notMadeFailure(notMade[i]);
        notMadeCauses[i] = (ClassNotFoundException) e.getCause();
        notMadeNames[i] = e.classname;
      }
    } else {
      this.notMade = null;
      this.notMadeCauses = null;
      this.notMadeNames = null;
    }
  }

  /**
   * Records this stream segment's objects that are not made ({@link ProgramCheck#NOT_MADE}) as lost
   * to their classes' {@code ClassNotFoundException}: the stream throws it where the top level or a
   * later segment reaches one, as {@code ObjectInputStream} throws the exception it marked the
   * object's handle with.
   *
   * @param lost the stream's lost objects
   * @param refused the exceptions the stream's {@code resolveClass} threw, by class name: an object
   *     of such a class is lost to that exception, as the JDK marks its handle with it
   */
  void loseNotMade(LostObjects lost, Map<String, ClassNotFoundException> refused) {
    if (notMade != null) {
      for (int i = 0; i < notMade.length; i++) {
        ClassNotFoundException hook = refused.get(notMadeNames[i]);
        lost.addNotMade(notMade[i], hook != null ? hook : notMadeCauses[i]);
      }
    }
  }

  /**
   * @return the ids of the objects the snapshot does not make ({@link ProgramCheck#NOT_MADE}),
   *     ascending, or {@code null} if it makes every object
   */
  int[] notMadeIds() {
    return notMade;
  }

  /**
   * Checks a snapshot against the live classes, resolves its constants and defines its classes,
   * admitting the classes of {@code allowed} beyond {@code ObjectInputStream}'s surface.
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @param filter gives the effective serialization filter, or is {@code null} for none
   * @param limits bounds on what the snapshot may create
   * @param allowed the admitted classes; {@link AllowList#NONE} for the default surface
   * @return the loaded snapshot
   * @throws org.codese.ClassNotAllowedException if it instantiates or writes a class that is not
   *     admitted where {@code ObjectInputStream} would refuse it
   * @throws org.codese.ClassMismatchException if a class is missing or changed
   * @throws org.codese.CorruptSnapshotException if its code cannot be defined
   * @throws org.codese.UnsafeSnapshotException if its code does anything outside the restore
   *     grammar
   * @throws java.io.InvalidObjectException if it exceeds a limit
   * @throws java.io.InvalidClassException if the filter rejects it
   * @throws IOException for every other reason the checks give
   */
  public static LoadedSnapshot load(
      SnapshotFile file,
      ClassLoader loader,
      Supplier<ObjectInputFilter> filter,
      CodeseLimits limits,
      AllowList allowed)
      throws IOException {
    return load(
        file, loader, filter, limits, allowed, true, null, Admission.SNAPSHOT_BYTES, 0, null, null);
  }

  /**
   * As {@link #load(SnapshotFile, ClassLoader, Supplier, CodeseLimits, AllowList)}, for a segment
   * of an object stream: class files that {@code memo} saw before in an earlier segment of the same
   * stream are not checked against the grammar again, and a class defined from the same bytes in
   * the same host is used again instead of defining another; every other check runs.
   *
   * @param file a parsed segment
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @param filter gives the effective serialization filter, or is {@code null} for none
   * @param limits bounds on what the segment may create
   * @param allowed the admitted classes; {@link AllowList#NONE} for the default surface
   * @param memo what earlier segments of the stream left
   * @param streamBytes the bytes read from the stream so far, the segment's included: what the
   *     filter is told as {@code streamBytes}, as {@code ObjectInputStream} tells it its running
   *     total
   * @param refsBefore the objects of the stream's earlier segments, resets included: the filter is
   *     told the running total of references ({@link Admission#references})
   * @param resolved the classes the stream's {@code resolveClass} gave, by name, which the class
   *     table takes instead of resolving the names itself; {@code null} if it does not override it
   * @return the loaded segment
   * @throws IOException for every reason {@link #load(SnapshotFile, ClassLoader, Supplier,
   *     CodeseLimits, AllowList)} gives
   */
  static LoadedSnapshot loadSegment(
      SnapshotFile file,
      ClassLoader loader,
      Supplier<ObjectInputFilter> filter,
      CodeseLimits limits,
      AllowList allowed,
      SegmentMemo memo,
      long streamBytes,
      long refsBefore,
      Map<String, Class<?>> resolved)
      throws IOException {
    return load(
        file, loader, filter, limits, allowed, true, memo, streamBytes, refsBefore, resolved, null);
  }

  /**
   * Runs every check {@link #load} runs (grammar, limits, classes, filter, constants, program) and
   * defines nothing: for tools that vet a snapshot whose classes come from another loader.
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @param limits bounds on what the snapshot may create
   * @throws IOException as {@link #load}, for every reason but the definition of its classes
   */
  public static void check(SnapshotFile file, ClassLoader loader, CodeseLimits limits)
      throws IOException {
    check(file, loader, limits, AllowList.NONE);
  }

  /**
   * As {@link #check(SnapshotFile, ClassLoader, CodeseLimits)}, admitting the classes of {@code
   * allowed}.
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @param limits bounds on what the snapshot may create
   * @param allowed the admitted classes; {@link AllowList#NONE} for the default surface
   * @return the binary names of the classes whose data a load skips per object ({@link
   *     ObjectDrops}: removed since capture from the hierarchy of some objects while others are of
   *     the class itself, or made final), in the order the check met them; empty if none
   * @throws IOException as {@link #load}, for every reason but the definition of its classes
   */
  public static Set<String> check(
      SnapshotFile file, ClassLoader loader, CodeseLimits limits, AllowList allowed)
      throws IOException {
    return checkChanges(file, loader, limits, allowed).droppedPerObject();
  }

  /**
   * What a load adapts to classes that changed since capture and that only its program check finds:
   * the classes whose data it skips per object ({@link ObjectDrops}), and the objects it does not
   * make because their class is not found and only skipped data refers to them ({@link
   * ProgramCheck#NOT_MADE}).
   *
   * @param droppedPerObject as {@link #check(SnapshotFile, ClassLoader, CodeseLimits, AllowList)}
   *     returns it
   * @param notMade per binary name of a class not found, the number of its objects not made, in the
   *     order of their table ids; empty if none
   */
  public record Changes(Set<String> droppedPerObject, Map<String, Integer> notMade) {}

  /**
   * As {@link #check(SnapshotFile, ClassLoader, CodeseLimits, AllowList)}, returning the objects
   * not made too.
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @param limits bounds on what the snapshot may create
   * @param allowed the admitted classes; {@link AllowList#NONE} for the default surface
   * @return what the load adapts that only the program check finds
   * @throws IOException as {@link #load}, for every reason but the definition of its classes
   */
  public static Changes checkChanges(
      SnapshotFile file, ClassLoader loader, CodeseLimits limits, AllowList allowed)
      throws IOException {
    Changes changes = new Changes(new java.util.LinkedHashSet<>(), new java.util.LinkedHashMap<>());
    load(
        file,
        loader,
        null,
        limits,
        allowed,
        false,
        null,
        Admission.SNAPSHOT_BYTES,
        0,
        null,
        changes);
    return changes;
  }

  /**
   * The classes a load would treat as superclasses removed from the hierarchy since capture (the
   * serialization specification's section 5.6.2): classes whose data the snapshot carries of which
   * no object it allocates is an instance now, and classes not found that it names only where it
   * carries their data. Their data is skipped on restore, as {@code ObjectInputStream} skips it.
   * Initialises no class.
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @return binary name to whether the loader still finds the class, in class-table order
   * @throws ClassMismatchException if a class is not found where the snapshot needs it, or a proxy
   *     class cannot be made
   */
  public static Map<String, Boolean> removedSuperclasses(SnapshotFile file, ClassLoader loader)
      throws ClassMismatchException {
    return GoneClasses.removedSuperclasses(file, loader);
  }

  private static LoadedSnapshot load(
      SnapshotFile file,
      ClassLoader loader,
      Supplier<ObjectInputFilter> filter,
      CodeseLimits limits,
      AllowList allowed,
      boolean define,
      SegmentMemo memo,
      long streamBytes,
      long refsBefore,
      Map<String, Class<?>> resolved,
      Changes changes)
      throws IOException {
    long refs = Admission.references(file, refsBefore);
    ClassLoader l = loader != null ? loader : Thread.currentThread().getContextClassLoader();
    if (l == null) {
      l = LoadedSnapshot.class.getClassLoader();
    }
    if (computedSuids(file.classes())) {
      SuidWarmUp.startIfNeeded(file.classes());
    }
    GrammarCheck.Checked[] known =
        memo == null ? new GrammarCheck.Checked[file.classFiles().size()] : memo.known(file);
    // small or known code (a stream segment's) is checked here: a thread costs more than it saves
    boolean inline = memo != null && SegmentMemo.checkInline(file, known);
    GrammarCheck.Result code = inline ? CodeCheck.checkHere(file, known) : null;
    CodeCheck check = inline ? null : CodeCheck.start(file, known, false);
    ClassTable table;
    ClassTable reused;
    Object[] constants;
    ObjectInputFilter f = null;
    try {
      Admission.checkLimits(file, limits, 0, 0);
      // a segment of a shape seen before has the same class table: resolved and checked then
      reused = memo == null ? null : memo.table(file.classes());
      table = reused != null ? reused : new ClassTable(file.classes(), l, allowed, resolved);
      if (table.hasGone()) {
        GoneClasses.check(file, table); // a class not found may only be a removed superclass
      }
      boolean proxies = table.hasProxies();
      if (proxies) {
        // the filter about a proxy class's interfaces before the class is made (ProxyClasses)
        f = filter == null ? null : filter.get();
        Admission.checkProxyInterfaces(file, table, f, streamBytes, refs);
        table.makeProxies();
      }
      Surface.check(file, table, memo);
      for (Constant k : file.constants()) {
        if (k.global()) {
          Globals.admit(file, table); // only a snapshot that holds one loads the class
          break;
        }
      }
      if (!proxies) {
        f = filter == null ? null : filter.get();
      }
      Admission.checkFilter(file, table, f, streamBytes, refs);
      if (reused == null) {
        table.checkFields();
        table.detach(file); // superclasses removed since capture: their stores are taken out
      }
      // hooks ask the filter and the limit about the arrays a readObject allocates (ReplayStream)
      constants =
          Constants.resolve(
              file.constants(),
              table,
              f,
              limits.maxArrayLength(),
              memo,
              Constants.allocatesBare(file));
    } catch (IOException | RuntimeException e) {
      if (check != null) {
        check.result(); // code that breaks the grammar is the first reason to reject a snapshot
      }
      throw e;
    }
    if (check != null) {
      code = check.result();
    }
    if (memo != null) {
      memo.remember(file, known);
    }
    int longestArray =
        Admission.checkLimits(file, limits, code.longestArray(), code.arrayElements());
    Admission.checkArrays(file, table, f, longestArray, streamBytes, refs);
    ProgramCheck checked =
        ProgramCheck.check(
            file,
            table.hasGone() ? GoneClasses.defined(code.program(), table) : code.program(),
            table,
            constants,
            memo != null);
    if (memo == null && checked.hasNotMade()) {
      // the root not made: the class not found, as the JDK's readObject throws it for the root
      int[] items = file.items().items();
      for (int i = 0; i + 1 < items.length; i += 2) {
        if ((items[i] == Tape.OBJECT || items[i] == Tape.BACK_REFERENCE)
            && checked.isNotMade(items[i + 1])) {
          throw checked.notMadeFailure(items[i + 1]);
        }
      }
    }
    if (f != null) {
      Admission.checkBoxes(file, f, checked.boxClasses(), streamBytes, refs);
    }
    Admission.checkFillArrays(
        file, f, limits.maxArrayLength(), checked.fillArrays(), streamBytes, refs);
    if (checked.dataArrayElements() > 0 || checked.longestDataArray() > longestArray) {
      // the arrays a create program makes count as the code's do, against limits and filter; so
      // do those a JDK stream holds for its values (a BigInteger's magnitude)
      int longestMade =
          Admission.checkLimits(
              file,
              limits,
              Math.max(longestArray, checked.longestDataArray()),
              code.arrayElements() + checked.dataArrayElements());
      if (longestMade > longestArray) {
        Admission.checkArrays(file, table, f, longestMade, streamBytes, refs);
      }
    }
    boolean sameJdk = file.jdk().equals(System.getProperty("java.version"));
    // last: reading a declared serialVersionUID initialises the class, so only a snapshot that
    // passed every other check initialises the classes it merely names
    if (reused == null) {
      table.checkSuids(sameJdk);
      if (memo != null && !table.hasDetached()) {
        // a detached class depends on what this segment allocates: another segment decides anew
        memo.table(file.classes(), table);
      }
    }
    if (!define) {
      if (changes != null && checked.dropsIfAny() != null) {
        changes.droppedPerObject().addAll(checked.dropsIfAny().classes());
      }
      if (changes != null && checked.hasNotMade()) {
        for (int id : checked.notMadeIds()) {
          String name = ((ClassMismatchException) checked.notMadeFailure(id)).classname;
          Integer before = changes.notMade().get(name);
          changes.notMade().put(name, before == null ? 1 : before + 1);
        }
      }
      return null;
    }
    List<List<BiConsumer<Object[], Object[]>>> phases = new ArrayList<>();
    for (int p = 0; p < Grammar.PHASES; p++) {
      phases.add(new ArrayList<>());
    }
    MethodHandles.Lookup here = hostLookup(file.version());
    // fields removed since capture: their stores are taken out of the code before it is defined
    Set<String> removed =
        table.removedFields().isEmpty() && !table.hasDetached()
            ? null
            : Evolution.removedPutfields(table);
    // stores into fields of a class removed from some objects' hierarchy only: taken out per object
    ObjectDrops drops = checked.dropsIfAny();
    if (drops != null && removed == null) {
      removed = Set.of();
    }
    long[][] costs = new long[Grammar.PHASES][file.classFiles().size()];
    for (int i = 0; i < file.classFiles().size(); i++) {
      Placement placement = file.placements().get(i);
      if (placement.host() >= 0 && table.gone(placement.host())) {
        continue; // the nest of a class not found: its stores into that class's fields are dropped
      }
      List<BiConsumer<Object[], Object[]>> phase = phases.get(placement.phase().ordinal());
      costs[placement.phase().ordinal()][phase.size()] = checked.classCost(i);
      phase.add(instance(here, table, placement.host(), file, i, memo, removed, constants, drops));
    }
    Constants.toStores(file, constants);
    if (drops != null) {
      constants = drops.apply(constants, file.version());
    }
    return new LoadedSnapshot(
        file,
        constants,
        phases,
        costs,
        checked,
        table.hookAdded().isEmpty() && !table.hierarchyChanged(file, sameJdk)
            ? null // nothing changed since capture: AddedHooks is not even loaded
            : AddedHooks.of(file, table, checked, sameJdk, f, limits.maxArrayLength()),
        f);
  }

  /**
   * Whether a class entry holds a {@code serialVersionUID} computed at capture, which the load
   * computes again: only then is {@link SuidWarmUp} loaded.
   */
  private static boolean computedSuids(List<ClassEntry> entries) {
    for (ClassEntry e : entries) {
      if (!e.hasSuid() && e.suid() != 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where Codese-hosted classes of format {@code version} are defined: the runtime contract's
   * package ({@link Entry}) from format {@link RuntimeContract#RUNTIME_VERSION} on, the loader's
   * own before.
   */
  private static MethodHandles.Lookup hostLookup(int version) {
    return version >= RuntimeContract.RUNTIME_VERSION ? RUNTIME : MethodHandles.lookup();
  }

  /**
   * The instance of class file {@code i}: from {@code memo} if it has one (an object stream's
   * segment), else from what earlier snapshots defined of the same bytes ({@link DefinedCode}),
   * else defined.
   */
  private static BiConsumer<Object[], Object[]> instance(
      MethodHandles.Lookup here,
      ClassTable table,
      int host,
      SnapshotFile file,
      int i,
      SegmentMemo memo,
      Set<String> removed,
      Object[] constants,
      ObjectDrops drops)
      throws IOException {
    Class<?> hostClass = host < 0 ? null : table.get(host);
    if (removed != null) {
      // adapted to this table's removed fields: never shared with a segment of other constants
      return define(
          here,
          table,
          host,
          Evolution.adapt(file.classFiles().get(i), removed, constants, drops, i),
          i);
    }
    byte[] bytes = file.classFiles().get(i);
    if (memo == null) {
      Class<?> where = hostClass == null ? here.lookupClass() : hostClass;
      BiConsumer<Object[], Object[]> c = DefinedCode.find(where, bytes);
      if (c == null) {
        c = define(here, table, host, bytes, i);
        DefinedCode.keep(where, bytes, c);
      }
      return c;
    }
    BiConsumer<Object[], Object[]> c = memo.instance(file, i, hostClass);
    if (c == null) {
      c = define(here, table, host, bytes, i);
      memo.defined(file, i, hostClass, c);
    }
    return c;
  }

  @SuppressWarnings("unchecked")
  private static BiConsumer<Object[], Object[]> define(
      MethodHandles.Lookup here, ClassTable table, int host, byte[] bytes, int index)
      throws IOException {
    String where = host < 0 ? "" : " in the nest of " + table.get(host).getName();
    try {
      MethodHandles.Lookup defined =
          host < 0
              ? here.defineHiddenClass(bytes, true)
              : MethodHandles.privateLookupIn(table.get(host), here)
                  .defineHiddenClass(bytes, true, MethodHandles.Lookup.ClassOption.NESTMATE);
      Constructor<?> ctor = defined.lookupClass().getDeclaredConstructor();
      ctor.setAccessible(true);
      return (BiConsumer<Object[], Object[]>) ctor.newInstance();
    } catch (IllegalAccessException e) {
      throw new ClassMismatchException(
          table.get(host).getName(),
          null,
          "Codese cannot join the"
              + " nest of the class to set its fields ("
              + e.getMessage()
              + "); load the class with"
              + " the same class loader as Codese, or open its package to Codese (an object"
              + " stream's resolveClass may return another loader's copy only of classes the"
              + " writer did not have in Codese's own loader, whose fields Codese sets by"
              + " reflection)");
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      throw new CorruptSnapshotException(
          "code", 0, "generated class " + index + where + " cannot be defined: " + e);
    }
  }

  /**
   * Checks the objects of earlier segments that this snapshot stores into fields and arrays against
   * the types the load-time check required of them.
   */
  private void checkPrior(Object[] table) throws InvalidObjectException {
    for (int i = 0; i < priorIds.length; i++) {
      Object o = table[priorIds[i]];
      if (o != null && !priorTypes[i].isInstance(o)) {
        throw new InvalidObjectException(
            "snapshot segment rejected before it ran: it stores"
                + " object "
                + priorIds[i]
                + " of an earlier segment, a "
                + o.getClass().getTypeName()
                + ", where a "
                + priorTypes[i].getTypeName()
                + " belongs");
      }
    }
  }

  /**
   * Whether this stream segment refers to an object the stream lost to a class not found: {@code
   * ObjectInputStream} throws that object's exception for every object that reaches it.
   *
   * @param lost the stream's lost objects
   * @return the exception of the first lost object referred to, or {@code null}
   */
  ClassNotFoundException reaches(LostObjects lost) {
    for (int id : priorIds) {
      ClassNotFoundException x = lost.cause(id);
      if (x != null) {
        return x;
      }
    }
    return null;
  }

  /**
   * @return the parsed snapshot
   */
  public SnapshotFile file() {
    return file;
  }

  /**
   * The size from which {@link #unpin} empties a table: 128 KB with compressed references, 256 KB
   * without. A smaller table is never humongous (more than half a G1 region, which is at least 1
   * MB).
   */
  static final int UNPINNED_TABLE = 1 << 15;

  /**
   * Empties {@code table}, which no one reads again, if it has {@link #UNPINNED_TABLE} entries or
   * more. A large table is allocated outside the young generation (G1's humongous objects), where a
   * dead array of references is freed only when the old generation is next marked (before JDK 26):
   * while it still refers to its objects, they stay alive, are copied by young collections and fill
   * the old generation (a graph of a million objects restored warm took 5-10x as long on JDK 17). A
   * small table is young and dies young: emptying it would only cost time.
   */
  static void unpin(Object[] table) {
    if (table.length >= UNPINNED_TABLE) {
      Arrays.fill(table, null);
    }
  }

  /**
   * Restores into a new table and returns the first top-level object.
   *
   * @param threads threads for the create and set phases
   * @return the root
   * @throws RestoreException if restoring fails
   */
  public Object restoreRoot(int threads) throws IOException {
    Object[] table = restoreInto(new Object[file.tableSize() + 1], threads);
    Object root = null;
    int[] items = file.items().items();
    for (int i = 0; i < items.length; i += 2) {
      if (items[i] == Tape.OBJECT) {
        root = items[i + 1] < 0 ? null : table[items[i + 1]];
        break;
      }
    }
    unpin(table);
    return root;
  }

  /**
   * Runs the snapshot's code over {@code table}, which must hold the objects of earlier segments.
   *
   * @param table a table of {@link SnapshotFile#tableSize()} entries plus a last entry that stays
   *     {@code null} (loops over data refer to it for {@code null})
   * @param threads threads for the create and set phases
   * @return {@code table}
   * @throws RestoreException if a class's own restore code threw anything but an {@code
   *     IOException} or a {@code VirtualMachineError} (the cause), or the restore failed in Codese;
   *     the table must then be discarded
   * @throws VirtualMachineError as it was thrown, by a class's own code or while restoring
   * @throws IOException what a class's own restore code threw, or what {@code ObjectInputStream}
   *     throws in its place: {@code InvalidObjectException} for a record constructor that threw,
   *     {@code InvalidClassException} ("unable to create instance") for a constructor that threw
   */
  public Object[] restoreInto(Object[] table, int threads) throws IOException {
    try {
      return run(table, threads, new RestoreRun(filter));
    } catch (RuntimeException x) {
      // a test, not a catch of HookFailure, whose class the verifier would load on every load
      if (!(x instanceof HookFailure)) {
        throw x;
      }
      if (x.getCause() instanceof VirtualMachineError e) {
        throw e; // as ObjectInputStream lets it leave
      }
      throw Failures.restoreFailed(x.getCause());
    }
  }

  /**
   * Runs a segment of an object stream over {@code table} on the calling thread, letting what a
   * class's own restore code throws leave exactly as {@code ObjectInputStream.readObject} lets it:
   * {@code RuntimeException}s, {@code Error}s and {@code ClassNotFoundException}s as they are.
   *
   * @param table as for {@link #restoreInto}
   * @param run the segment's restore state
   * @throws IOException as {@link #restoreInto}, but never a {@code RestoreException} for an
   *     exception of a class's own code
   * @throws ClassNotFoundException if a class's own {@code readObject} or {@code readExternal}
   *     threw it
   */
  void restoreAsStream(Object[] table, RestoreRun run) throws IOException, ClassNotFoundException {
    try {
      run(table, 1, run);
    } catch (RuntimeException x) {
      if (!(x instanceof HookFailure)) {
        throw x;
      }
      Throwable t = x.getCause();
      if (t instanceof ClassNotFoundException c) {
        throw c;
      }
      throw LoadedSnapshot.<RuntimeException>unchecked(t);
    }
  }

  /**
   * Throws {@code t} as it is: a class's own code may throw checked exceptions it does not declare.
   */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T unchecked(Throwable t) throws T {
    throw (T) t;
  }

  private Object[] run(Object[] table, int threads, RestoreRun run) throws IOException {
    checkPrior(table);
    RestoreRun.begin(run);
    try {
      for (int p = 0; p < Grammar.PHASES; p++) {
        List<BiConsumer<Object[], Object[]>> classes = phases.get(p);
        if (threads > 1 && p < Grammar.PHASES - 1 && Parallel.pays(costs[p], classes.size())) {
          Parallel.runMeasured(choice(p), classes, costs[p], table, constants, threads);
        } else {
          for (BiConsumer<Object[], Object[]> c : classes) {
            c.accept(table, constants);
          }
        }
        if (addedHooks != null && p == Grammar.PHASES - 2) {
          addedHooks.run(table, run); // classes changed since capture: fields set, no hook run yet
        }
      }
      ObjectResolution resolution = run.resolution();
      if (resolution != null && resolution.pending()) {
        resolution.run(table, constants, null, run); // a segment without a finish program
      }
      run.finish();
      return table;
    } catch (IOException e) {
      throw e;
    } catch (Throwable t) {
      if (t instanceof HookFailure) {
        throw (RuntimeException) t; // typed so, the verifier does not load HookFailure
      }
      if (t instanceof InvocationTargetException e) {
        throw Failures.unableToCreate(e, file, constants);
      }
      if (t instanceof VirtualMachineError e) {
        throw e; // out of memory or stack: not a failure of the snapshot
      }
      throw Failures.restoreFailed(t);
    } finally {
      run.abandon();
    }
  }
}
