package org.codese.program;

/**
 * Names and limits shared by the emitter, which writes generated classes, and the loader, which
 * defines and runs them.
 *
 * <p>A generated class is a public final class that implements {@code
 * java.util.function.BiConsumer}: its {@code accept(table, constants)} calls its static chunk
 * methods {@code m0}, {@code m1}, ... of descriptor {@link #CHUNK_DESCRIPTOR} in order. A class
 * belongs to one phase and one host: Codese's package (its format version's {@link
 * RuntimeContract#hostPackage()}), or the nest of one user class, in whose package it is defined.
 * The chunks contain only: table loads and stores, constant pushes, loads from the constant array,
 * {@code new} of strings and boxes, {@code newarray}, box {@code valueOf}, array {@code clone},
 * {@link #ALLOCATE_METHOD} (before format version {@link #ALLOCATE_VERSION}, {@code
 * Constructor.newInstance}) and, from {@link #COLLECTION_VERSION} on, {@link
 * #NEW_COLLECTION_METHOD} and {@code Array.newInstance} on constants, {@code Field.set*} on
 * constants, {@code putfield} to fields of the host's nest, {@code checkcast}, the counted loop,
 * and the finish-program runner {@link #STEPS_METHOD}. No other branches, no field reads, no other
 * calls. The classes of Codese that code names are its {@link RuntimeContract}'s.
 */
public final class Grammar {
  /** The simple-name prefix of generated classes. */
  public static final String CLASS_PREFIX = "CodeseRestore";

  /** The interface generated classes implement. */
  public static final String ENTRY_INTERFACE = "java/util/function/BiConsumer";

  /**
   * The finish-program runner ({@link RuntimeContract#stepsOwner()}): {@code static void
   * runSteps(Object[] table, Object[] constants, int program)}, where constant {@code program} is
   * an {@code int[]} of steps {@link #STEP_HOOK}, {@link #STEP_FIELD}, {@link #STEP_ELEMENT} and
   * {@link #STEP_FILL}.
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

  /**
   * Step {@code (STEP_FILL, target, n, r1 ... rn)}: fills the JDK collection {@code table[target]}
   * with {@code table[r1] ... table[rn]} as {@link Fills} says for its class (pairs for maps). From
   * format version {@link #FILL_VERSION} on.
   */
  public static final int STEP_FILL = 3;

  /**
   * Step {@code (STEP_ARRAYS, t, source, n, id1, length1, offset1 ... idn, lengthn, offsetn)} of a
   * <em>create</em> program (format version {@link #FILL_VERSION} on, the only step such a program
   * has; the create phase runs it with {@link #STEPS_METHOD}): {@code table[id] = new T[length]}
   * for the element kind {@code t} (a primitive descriptor character, or {@code 'L'} with {@code
   * source} an array-maker constant or -1 for {@code Object[]}); for a primitive kind with an
   * offset of 0 or more, the elements are {@code length} elements of the primitive array constant
   * {@code source} from that offset, else zero. So a graph of many small arrays is data, not code.
   */
  public static final int STEP_ARRAYS = 4;

  /**
   * Step {@code (STEP_VALUES, kind, source, n, id1, offset1 ... idn, offsetn)} of a <em>create</em>
   * program (format version {@link #VALUE_VERSION} on): {@code table[id]} is the value of {@link
   * Values} kind {@code kind} made from {@code Values.arity(kind)} elements of the {@code long[]}
   * constant {@code source} from {@code offset}. So dates, times, UUIDs, (format {@link
   * #BIG_INTEGER_VERSION} on) {@code BigInteger}s and (format {@link #DECIMAL_VERSION} on) {@code
   * java.util.Date}s and {@code BigDecimal}s are data, not replayed serial forms. A {@code
   * BigDecimal}'s data name the slot of its {@code BigInteger}, which an earlier step of the same
   * program made.
   */
  public static final int STEP_VALUES = 5;

  /**
   * Step {@code (STEP_IMMUTABLE, t, tag, target, n, r1 ... rn)} of the finish program (format
   * version {@link #IMMUTABLE_VERSION} on): {@code table[target]} is the immutable collection
   * {@code java.util.CollSer.readResolve} makes of its tag and the objects {@code table[r1] ...
   * table[rn]}: {@code List.of} (tag 1), {@code Set.of} (tag 2) or the map of the key and value
   * pairs (tag 3, {@code Map.of}/{@code Map.ofEntries}). {@code t} is the class-table index of
   * {@code java.util.CollSer}, the class a JDK stream holds for it, which the filter is asked
   * about. The slot holds nothing before; the step runs where the {@code CollSer}'s {@code
   * readResolve} would have run. So {@code List.of}, {@code Set.of} and {@code Map.of} are data,
   * not a replayed {@code readObject} and {@code readResolve}.
   */
  public static final int STEP_IMMUTABLE = 6;

  /** A {@link #STEP_IMMUTABLE} tag: {@code List.of} ({@code CollSer.IMM_LIST}). */
  public static final int IMMUTABLE_LIST = 1;

  /** A {@link #STEP_IMMUTABLE} tag: {@code Set.of} ({@code CollSer.IMM_SET}). */
  public static final int IMMUTABLE_SET = 2;

  /** A {@link #STEP_IMMUTABLE} tag: a map of key and value pairs ({@code CollSer.IMM_MAP}). */
  public static final int IMMUTABLE_MAP = 3;

  /**
   * The first snapshot format version with {@link #STEP_IMMUTABLE} steps; its code is that of
   * {@link #STORE_VERSION}. Object streams keep replaying {@code CollSer}.
   */
  public static final int IMMUTABLE_VERSION = 12;

  /**
   * Step {@code (STEP_FACTORY, t, kind, target, n, r1 ... rn)} of the finish program (format
   * version {@link #FACTORY_VERSION} on): {@code table[target]} is the object the public factory of
   * {@link Factories} kind {@code kind} makes of {@code table[r1] ... table[rn]} (for example
   * {@code Collections.unmodifiableList(table[r1])}), {@code t} the class-table index of the kind's
   * class, which the filter is asked about as for any class of the snapshot. The slot holds nothing
   * before; the step runs where the JDK would have completed the object (its default read and any
   * {@code readResolve}). So the {@code Collections} wrappers, empties and singletons and {@code
   * Arrays.asList} are data, not replayed default reads of private final fields.
   */
  public static final int STEP_FACTORY = 7;

  /**
   * The first snapshot format version with {@link #STEP_FACTORY} steps; its code is that of {@link
   * #STORE_VERSION}. Object streams keep replaying these classes.
   */
  public static final int FACTORY_VERSION = 13;

  /**
   * The first snapshot format version that makes the other {@code java.time} values from data
   * ({@code ZoneOffset}, {@code ZoneRegion}, {@code ZonedDateTime}, {@code OffsetDateTime}, {@code
   * OffsetTime}, {@code Period}, {@code Year}, {@code YearMonth}, {@code MonthDay}: {@link
   * Values}); the same format as {@link #FACTORY_VERSION}.
   */
  public static final int TIME_VERSION = FACTORY_VERSION;

  /** The first snapshot format version with {@link #STEP_VALUES}. */
  public static final int VALUE_VERSION = 5;

  /** The first snapshot format version with {@link #STEP_FILL} and {@link Constant.Sized}. */
  public static final int FILL_VERSION = 4;

  /**
   * The first snapshot format version with global references, {@link Constant.StaticRef} and {@link
   * Constant.NamedRef}: constants stored into the table as they are, like enum constants.
   */
  public static final int GLOBAL_VERSION = 6;

  /**
   * The first snapshot format version with class-table entries of dynamic proxy classes ({@link
   * ClassEntry#isProxy()}): the proxy class is named by its interfaces and made again on load.
   */
  public static final int PROXY_VERSION = 7;

  /**
   * The first snapshot format version whose code makes JDK collections ({@link Constant.Sized})
   * through {@link #NEW_COLLECTION_METHOD} and everything else through {@link #ALLOCATE_METHOD},
   * which code of earlier versions calls for both. One entry per kind of allocator, so that the
   * code the JIT compiler inlines into each loop of the create phase holds no type test shared with
   * loops of the other kind: a shared test's profile made the compiler hoist it out of loops it
   * fails in, and throw away the compiled create phase loop after loop.
   */
  public static final int COLLECTION_VERSION = 8;

  /**
   * The first snapshot format version whose container packs the class table, the code table and the
   * class files into one zlib stream with a preset dictionary and drops the per-section checksums
   * ({@code format.SnapshotFile.PACKED_VERSION}); its code and data are those of {@link
   * #COLLECTION_VERSION}.
   */
  public static final int PACKED_VERSION = 9;

  /**
   * The first snapshot format version whose code stores into a field it may not {@code putfield} (a
   * final field, a field of a class whose nest it may not join) through {@link
   * RuntimeContract#setterOwner()} {@code org.codese.runtime.FieldStore} rather than {@code
   * java.lang.reflect.Field}; same method names and descriptors, and the same constants (a setter
   * constant resolves to a {@code FieldStore} of the field the loader found).
   */
  public static final int STORE_VERSION = 10;

  /**
   * The first snapshot format version whose {@link #STEP_VALUES} steps make {@code BigInteger}s
   * that fit in a {@code long} ({@link Values} kind {@code 'B'}) instead of replaying their serial
   * form; its code is that of {@link #STORE_VERSION}. Object streams keep replaying them: a JDK
   * stream writes a {@code BigInteger}'s magnitude as a {@code byte[]} whose class descriptor a
   * stream's {@code resolveClass} sees.
   */
  public static final int BIG_INTEGER_VERSION = 11;

  /**
   * The first snapshot format version whose {@link #STEP_VALUES} steps make {@code java.util.Date}s
   * ({@link Values} kind {@code 'J'}) and {@code BigDecimal}s whose unscaled value fits in a {@code
   * long} (kind {@code 'N'}, made from the {@code BigInteger} of a {@code 'B'} value of the same
   * program and a scale) instead of replaying their serial form; its code is that of {@link
   * #STORE_VERSION}. Object streams keep replaying them, as they replay {@code BigInteger}s.
   */
  public static final int DECIMAL_VERSION = 12;

  /**
   * The collection entry ({@link RuntimeContract#allocateOwner()}, format version {@link
   * #COLLECTION_VERSION} on): {@code static Object newCollection(Object maker)}, where {@code
   * maker} is a {@link Constant.Sized} constant, resolved at load; descriptor {@link
   * #ALLOCATE_DESCRIPTOR}.
   */
  public static final String NEW_COLLECTION_METHOD = "newCollection";

  /**
   * The first snapshot format version whose code allocates through {@link #ALLOCATE_METHOD}: {@code
   * table[id] = allocate(constants[k])}. Code of earlier versions calls {@code ((Constructor)
   * constants[k]).newInstance(null)} instead, which costs a class generated by the JDK per
   * allocated class even where no constructor runs.
   */
  public static final int ALLOCATE_VERSION = 2;

  /**
   * The allocation entry ({@link RuntimeContract#allocateOwner()}): {@code static Object
   * allocate(Object allocator)}, where {@code allocator} is an allocator constant, resolved at
   * load.
   */
  public static final String ALLOCATE_METHOD = "allocate";

  /** Its descriptor. */
  public static final String ALLOCATE_DESCRIPTOR = "(Ljava/lang/Object;)Ljava/lang/Object;";

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
   * @throws IllegalArgumentException for any other character (the emitter passes only kinds, the
   *     grammar check only the element types of the primitive arrays it admitted as loop data)
   */
  public static int arrayLoadOpcode(char type) {
    return switch (type) {
      case 'Z', 'B' -> 51; // baload
      case 'C' -> 52; // caload
      case 'S' -> 53; // saload
      case 'I' -> 46; // iaload
      case 'J' -> 47; // laload
      case 'F' -> 48; // faload
      case 'D' -> 49; // daload
      default -> throw new IllegalArgumentException("not a primitive code: " + type);
    };
  }
}
