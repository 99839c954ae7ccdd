package org.codese.program;

/**
 * Names and limits shared by the emitter, which writes generated classes, and the loader, which
 * defines and runs them.
 *
 * <p>A generated class is a final class in package {@link #PACKAGE} with only static methods of
 * descriptor {@link #CHUNK_DESCRIPTOR}: chunk methods named by phase letter and number ({@code a0},
 * {@code a1}, ... for the create phase, {@code b*} for set, {@code c*} for finish) and one entry
 * method per phase ({@code a}, {@code b}, {@code c}) that calls that phase's chunks in order. The
 * chunks contain only: table loads and stores, constant pushes, dynamic constants from class data,
 * {@code MethodHandle.invokeExact} on those constants, {@code new}/{@code newarray} of
 * boxes, strings and arrays, box {@code valueOf}, array {@code clone}, and calls of {@link
 * #HOOKS_OWNER}. No branches, no field access, no other calls.
 */
public final class Grammar {
  /** The package generated classes are defined in, in internal form. */
  public static final String PACKAGE = "org/codese/load";
  /** The simple-name prefix of generated classes. */
  public static final String CLASS_PREFIX = "Restore";
  /** The class whose static {@link #HOOK_METHOD} runs a hook constant. */
  public static final String HOOKS_OWNER = "org/codese/load/Hooks";
  /** The hook-running method: {@code static void run(Object[] table, Object hook)}. */
  public static final String HOOK_METHOD = "run";
  /** Its descriptor. */
  public static final String HOOK_DESCRIPTOR = "([Ljava/lang/Object;Ljava/lang/Object;)V";
  /** The descriptor of every generated method: it takes the restore table. */
  public static final String CHUNK_DESCRIPTOR = "([Ljava/lang/Object;)V";
  /** Phase letters, in execution order: create, set, finish. */
  public static final String PHASES = "abc";

  /**
   * HotSpot never JIT-compiles a method with more bytecode than this ({@code
   * -XX:+DontCompileHugeMethods}, {@code HugeMethodLimit}).
   */
  public static final int JIT_HUGE_METHOD_LIMIT = 8_000;

  /** The most bytecode the emitter puts into one chunk method, safely below the JIT limit. */
  public static final int MAX_CHUNK_BYTES = 7_600;

  /**
   * The most ops the emitter puts into one class; each op adds at most five constant-pool entries,
   * which keeps the pool below the class-file limit of 65,535 entries.
   */
  public static final int MAX_OPS_PER_CLASS = 10_000;

  private Grammar() {}
}
