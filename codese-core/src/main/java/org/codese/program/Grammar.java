package org.codese.program;

/**
 * Names and limits shared by the emitter, which writes generated classes, and the loader, which
 * defines and runs them.
 *
 * <p>A generated class is a public final class that implements {@code
 * java.util.function.BiConsumer}: its {@code accept(table, constants)} calls its static chunk
 * methods {@code m0}, {@code m1}, ... of descriptor {@link #CHUNK_DESCRIPTOR} in order. A class
 * belongs to one phase and one host: Codese's package {@link #PACKAGE}, or the nest of one user
 * class, in whose package it is defined. The chunks contain only: table loads and stores, constant
 * pushes, loads from the constant array, {@code new} of strings and boxes, {@code newarray}, box
 * {@code valueOf}, array {@code clone}, {@code Constructor.newInstance} and {@code
 * Array.newInstance} on constants, {@code Field.set*} on constants, {@code putfield} to fields of
 * the host's nest, {@code checkcast}, the counted loop, and the finish-program runner {@link
 * #STEPS_METHOD} of {@link #HOOKS_OWNER}. No other branches, no field reads, no other calls.
 */
public final class Grammar {
  /** The package of generated classes hosted by Codese, in internal form. */
  public static final String PACKAGE = "org/codese/load";

  /** The simple-name prefix of generated classes. */
  public static final String CLASS_PREFIX = "CodeseRestore";

  /** The interface generated classes implement. */
  public static final String ENTRY_INTERFACE = "java/util/function/BiConsumer";

  /** The class whose static {@link #STEPS_METHOD} runs a finish program. */
  public static final String HOOKS_OWNER = "org/codese/load/Hooks";

  /**
   * The finish-program runner: {@code static void runSteps(Object[] table, Object[] constants, int
   * program)}, where constant {@code program} is an {@code int[]} of steps {@link #STEP_HOOK},
   * {@link #STEP_FIELD} and {@link #STEP_ELEMENT}.
   */
  public static final String STEPS_METHOD = "runSteps";

  /** Its descriptor. */
  public static final String STEPS_DESCRIPTOR = "([Ljava/lang/Object;[Ljava/lang/Object;I)V";

  /** Step {@code (STEP_HOOK, hook)}: run the hook constant. */
  public static final int STEP_HOOK = 0;

  /**
   * Step {@code (STEP_FIELD, field, target, value)}: {@code field.set(table[target],
   * table[value])}.
   */
  public static final int STEP_FIELD = 1;

  /**
   * Step {@code (STEP_ELEMENT, target, index, value)}: {@code table[target][index] = table[value]}.
   */
  public static final int STEP_ELEMENT = 2;

  /** The descriptor of every chunk method: it takes the restore table and the constants. */
  public static final String CHUNK_DESCRIPTOR = "([Ljava/lang/Object;[Ljava/lang/Object;)V";

  /** The entry method of every generated class, {@code BiConsumer.accept}: it calls the chunks. */
  public static final String ENTRY_METHOD = "accept";

  /** {@link #ENTRY_METHOD}'s erased descriptor: the restore table and the constants, as objects. */
  public static final String ENTRY_DESCRIPTOR = "(Ljava/lang/Object;Ljava/lang/Object;)V";

  // the locals of every chunk method, which the emitter writes and the grammar check requires
  /** Local 0: the restore table. */
  public static final int LOCAL_TABLE = 0;

  /** Local 1: the resolved constants. */
  public static final int LOCAL_CONSTANTS = 1;

  /** Local 2: the object the following field and element stores act on. */
  public static final int LOCAL_TARGET = 2;

  /** Local 3: a loop's ids (or refs) array. */
  public static final int LOCAL_IDS = 3;

  /** Local 4: a loop's index. */
  public static final int LOCAL_INDEX = 4;

  /** Local 5 and up: the data arrays a loop reads. */
  public static final int LOCAL_FIRST_DATA = 5;

  /**
   * @param index a chunk's number in its class, from 0
   * @return the chunk method's name
   */
  public static String chunkName(int index) {
    return "m" + index;
  }

  /**
   * The internal package name of a class's binary name: where generated code that joins the class's
   * nest lives.
   *
   * @param binaryName a class's binary name, such as {@code com.example.Shop$Item}
   * @return its package in internal form, such as {@code com/example}; empty for the unnamed one
   */
  public static String packageOf(String binaryName) {
    int dot = binaryName.lastIndexOf('.');
    return dot < 0 ? "" : binaryName.substring(0, dot).replace('.', '/');
  }

  /** The number of phases: create, set, finish. */
  public static final int PHASES = 3;

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

  /**
   * The array-load instruction a loop over data uses to read a primitive array of kind {@code type}
   * (the emitter writes it, the grammar check requires it): {@code baload} for booleans and bytes,
   * {@code caload}, {@code saload}, {@code iaload}, {@code laload}, {@code faload}, {@code daload}.
   * Opcode numbers as the JVM specification (section 6.5) gives them.
   *
   * @param type a primitive descriptor character
   * @return the opcode
   */
  public static int arrayLoadOpcode(char type) {
    return switch (type) {
      case 'Z', 'B' -> 51; // baload
      case 'C' -> 52; // caload
      case 'S' -> 53; // saload
      case 'I' -> 46; // iaload
      case 'J' -> 47; // laload
      case 'F' -> 48; // faload
      default -> 49; // daload
    };
  }
}
