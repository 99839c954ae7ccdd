package org.codese.runtime;

import java.lang.reflect.Constructor;
import org.codese.jvm.Jvm;

/**
 * The methods generated code of format version 3 and later calls: {@code Entry.runSteps(table,
 * constants, program)} in the finish phase, and {@code table[id] = Entry.allocate(constants[k])}
 * and (format version 8 on, for JDK collections) {@code table[id] =
 * Entry.newCollection(constants[k])} in the create phase. Their names and descriptors are {@code
 * Grammar.STEPS_*}, {@code Grammar.ALLOCATE_*} and {@code Grammar.NEW_COLLECTION_METHOD}; all are
 * package-private, so only classes defined in this package, which the loader defines only after the
 * grammar check admitted them, can call them.
 *
 * <p>The finish programs themselves run in the loader, which {@link #install}s the {@link Steps}
 * that runs them before it defines any class here; this package depends on nothing of the loader.
 */
public final class Entry {
  private static volatile Steps steps;

  private Entry() {}

  /** Runs finish programs: the loader's implementation of {@link #runSteps}. */
  public interface Steps {
    /**
     * Runs finish program {@code program}.
     *
     * @param table the restore table
     * @param constants the resolved constants
     * @param program the index of the program among the constants
     * @throws Throwable whatever a class's own hook throws, or an exception for a malformed step
     */
    void run(Object[] table, Object[] constants, int program) throws Throwable;
  }

  /**
   * Makes {@code s} the runner of every finish program; called once, by the loader, before it
   * defines a class in this package.
   *
   * @param s the runner
   * @throws IllegalStateException if another runner was installed
   */
  public static void install(Steps s) {
    synchronized (Entry.class) {
      if (steps != null && steps != s) {
        throw new IllegalStateException("the finish-program runner is installed already");
      }
      steps = s;
    }
  }

  /**
   * Runs one finish program ({@code Grammar.STEPS_METHOD}).
   *
   * @param table the restore table
   * @param constants the resolved constants
   * @param program the index of the {@code int[]} program among the constants
   * @throws Throwable as {@link Steps#run} throws
   */
  static void runSteps(Object[] table, Object[] constants, int program) throws Throwable {
    steps.run(table, constants, program);
  }

  /**
   * Creates one object ({@code Grammar.ALLOCATE_METHOD}).
   *
   * @param allocator a resolved allocator constant: a {@code Class}, created without running a
   *     constructor, the no-arg {@code Constructor} to run, the {@link NewCollection} that makes an
   *     empty JDK collection, or {@code null} for an object the loader does not make (its class is
   *     not found and nothing live refers to it; the program check admitted it as such)
   * @return the new object, or {@code null} for {@code null}
   * @throws ReflectiveOperationException what {@code Constructor.newInstance} throws, notably
   *     {@code InvocationTargetException} for a constructor that threw
   */
  static Object allocate(Object allocator) throws ReflectiveOperationException {
    if (allocator instanceof Class<?> c) {
      return Jvm.allocateInstance(c);
    }
    return construct(allocator);
  }

  /**
   * Makes one empty JDK collection ({@code Grammar.NEW_COLLECTION_METHOD}, format version {@code
   * Grammar.COLLECTION_VERSION} on, where {@link #allocate} makes everything else).
   *
   * @param maker a resolved {@code Constant.Sized}, which the loader checked is one
   * @return the new collection
   */
  static Object newCollection(Object maker) {
    return ((NewCollection) maker).make();
  }

  /**
   * The allocations that run a constructor, out of line: {@link #allocate} is inlined into every
   * allocation of the generated code, and a collection's constructors inlined there with it made
   * the compiled create phase larger than what the compiler keeps. Code of format versions 4 to 7
   * passes collection makers to {@link #allocate} too.
   */
  private static Object construct(Object allocator) throws ReflectiveOperationException {
    if (allocator instanceof NewCollection c) {
      return c.make();
    }
    if (allocator == null) {
      return null; // an object of a class not found that nothing live refers to: not made
    }
    return ((Constructor<?>) allocator).newInstance((Object[]) null);
  }
}
