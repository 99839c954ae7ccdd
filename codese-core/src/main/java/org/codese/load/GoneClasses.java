package org.codese.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.codese.ClassMismatchException;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.verify.GrammarCheck;

/**
 * Decides whether a snapshot may be loaded although the loader does not find some of its classes:
 * only where each such class is a {@code Serializable} superclass removed from the hierarchy since
 * capture and deleted too (the specification's section 5.6.2, "removing classes"). {@code
 * ObjectInputStream} keeps the {@code ClassNotFoundException} of such a superclass's descriptor on
 * that descriptor alone, reads and discards the class's data and restores the subclass's objects;
 * it throws the exception for an object whose own class (or array class) is the missing one.
 *
 * <p>So a class not found may be named only where the snapshot carries its data: by its class
 * entry's recorded fields, by setter constants of its fields (which resolve to {@link
 * Evolution#REMOVED}), by {@code readObject} replays of it ({@link Constant.HookKind#SLOT}, which
 * resolve to {@link Evolution#REMOVED} too) and as the nest host of generated classes, which the
 * program check and the loader leave out entirely ({@link ProgramCheck}, {@link LoadedSnapshot}):
 * never defined, so nothing names the missing class in code that runs. An allocator of the class is
 * admitted too, for objects of it that nothing live refers to, which are not made: the program
 * check decides, and throws this failure for any live use ({@link ProgramCheck#NOT_MADE}). Any
 * other role (an array's element, a {@code Class} or descriptor constant, an enum, a static field's
 * owner, a hook but a {@code readObject} replay) fails as before, with the loader's {@code
 * ClassNotFoundException} as the cause.
 */
final class GoneClasses implements Constant.Visitor<Integer, RuntimeException> {
  private static final Integer NONE = -1;

  private GoneClasses() {}

  /**
   * Checks the roles of the classes the loader did not find ({@link ClassTable#gone(int)}).
   *
   * @param file the snapshot
   * @param table its class table
   * @throws ClassMismatchException the failure to find the first class that takes another role
   */
  static void check(SnapshotFile file, ClassTable table) throws ClassMismatchException {
    if (!table.hasGone()) {
      return;
    }
    GoneClasses roles = new GoneClasses();
    for (Constant k : file.constants()) {
      int t = k.accept(roles);
      if (t >= 0 && t < table.size() && table.gone(t)) {
        throw table.notFound(t);
      }
    }
  }

  /**
   * The classes a load would treat as superclasses removed from the hierarchy since capture, as
   * {@link LoadedSnapshot#removedSuperclasses} gives them: not a class not found that the snapshot
   * allocates, whose objects a load leaves unmade only where its program check finds nothing live
   * refers to them ({@link LoadedSnapshot#checkChanges}).
   *
   * @param file a parsed snapshot
   * @param loader the loader for the classes it names, or {@code null} for the context loader
   * @return binary name to whether the loader still finds the class, in class-table order
   * @throws ClassMismatchException if a class is not found where the snapshot needs it, or a proxy
   *     class cannot be made
   */
  static Map<String, Boolean> removedSuperclasses(SnapshotFile file, ClassLoader loader)
      throws ClassMismatchException {
    ClassLoader l = loader != null ? loader : Thread.currentThread().getContextClassLoader();
    ClassTable table =
        new ClassTable(
            file.classes(), l != null ? l : LoadedSnapshot.class.getClassLoader(), AllowList.NONE);
    check(file, table);
    table.makeProxies();
    table.detach(file);
    Map<String, Boolean> removed = new java.util.LinkedHashMap<>();
    boolean[] allocated = new boolean[table.size()];
    for (Constant k : file.constants()) {
      if (k instanceof Constant.Allocator a && a.type() >= 0 && a.type() < allocated.length) {
        allocated[a.type()] = true; // objects of it: not made, which only the program check finds
      }
    }
    for (int i = 0; i < table.size(); i++) {
      if (table.gone(i) && !allocated[i]) {
        removed.put(table.name(i), false);
      } else if (table.detached(table.get(i))) {
        removed.put(table.name(i), true);
      }
    }
    return removed;
  }

  /**
   * Whether the snapshot may do without class {@code index}: it names the class only where it
   * carries the class's data, as {@link #check} requires of a class not found.
   *
   * @param file the snapshot
   * @param index a class-table index
   * @return whether no constant gives the class another role, and it is no array class
   */
  static boolean onlyData(SnapshotFile file, int index) {
    if (file.classes().get(index).name().startsWith("[")) {
      return false;
    }
    GoneClasses roles = new GoneClasses();
    for (Constant k : file.constants()) {
      if (k.accept(roles) == index) {
        return false;
      }
    }
    return true;
  }

  /**
   * The generated classes the loader checks and defines: all but those in the nest of a class not
   * found, which can only set that class's fields and are left out (never checked, defined or run).
   *
   * @param program the lifted generated classes
   * @param table the class table
   * @return {@code program}, or a copy without those classes
   */
  static List<GrammarCheck.Lifted> defined(List<GrammarCheck.Lifted> program, ClassTable table) {
    if (!table.hasGone()) {
      return program;
    }
    List<GrammarCheck.Lifted> kept = new ArrayList<>(program.size());
    for (GrammarCheck.Lifted c : program) {
      if (c.host() < 0 || c.host() >= table.size() || !table.gone(c.host())) {
        kept.add(c);
      }
    }
    return kept;
  }

  @Override
  public Integer visitTypeRef(Constant.TypeRef c) {
    return c.type();
  }

  @Override
  public Integer visitStreamClassRef(Constant.StreamClassRef c) {
    return c.type();
  }

  @Override
  public Integer visitEnumRef(Constant.EnumRef c) {
    return c.type();
  }

  @Override
  public Integer visitStaticRef(Constant.StaticRef c) {
    return c.type();
  }

  @Override
  public Integer visitNamedRef(Constant.NamedRef c) {
    return NONE;
  }

  @Override
  public Integer visitAllocator(Constant.Allocator c) {
    // an object of a class not found is not made where nothing live refers to it, as the JDK never
    // makes it: the program check decides (ProgramCheck.NOT_MADE), and throws this failure if not
    return NONE;
  }

  @Override
  public Integer visitSized(Constant.Sized c) {
    return c.type();
  }

  @Override
  public Integer visitArrayMaker(Constant.ArrayMaker c) {
    return c.type();
  }

  @Override
  public Integer visitSetter(Constant.Setter c) {
    return NONE; // a removed field: the setter resolves to Evolution.REMOVED
  }

  @Override
  public Integer visitText(Constant.Text c) {
    return NONE;
  }

  @Override
  public Integer visitPrimArray(Constant.PrimArray c) {
    return NONE;
  }

  @Override
  public Integer visitTexts(Constant.Texts c) {
    return NONE;
  }

  @Override
  public Integer visitHook(Constant.Hook c) {
    // the JDK skips a gone superclass's custom data; it cannot call a hook of a class it lacks
    return c.kind() == Constant.HookKind.SLOT ? NONE : c.type();
  }
}
