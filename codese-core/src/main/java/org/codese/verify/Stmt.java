package org.codese.verify;

/**
 * The statements of a generated chunk, lifted back from its bytecode by {@link Lifter}, as a
 * compact code of ints: a statement kind followed by its operands. The grammar check recognises a
 * chunk only if it is a sequence of these statements, each in the exact instruction shape the
 * emitter writes; the loader then checks what the statements do against the live classes and the
 * snapshot's constants before any of them runs.
 *
 * <p>The statements are ints, not objects, because they are read once, on the restore path, in a
 * JVM that is often cold: every class it loads costs there (about 0.4 ms each, measured), which a
 * class per statement kind would multiply. This class holds only compile-time constants, so it is
 * never loaded either; {@link GrammarCheck#statementSize} walks the codes.
 *
 * <p>Operands: {@code k} a constant index; {@code id} and {@code ref} table ids; {@code s} an index
 * into the class's names ({@link GrammarCheck.Lifted#names()}), or -1 for none; {@code t} a value
 * kind, a primitive descriptor character or {@code 'L'}, with {@code ref} meaningful only for
 * {@code 'L'}. Statements other than the stores, the loops and {@link #RUN_STEPS} act on the
 * <em>target</em>: the object chosen by the last {@link #SELECT} of the same chunk.
 */
public final class Stmt {
  /**
   * {@code STORE_ALLOC id k}: {@code table[id] = Allocation.allocate(allocator k)} (format version
   * 1: {@code allocator k.newInstance(null)}).
   */
  public static final int STORE_ALLOC = 1;

  /**
   * {@code STORE_ARRAY id t k length}: {@code table[id]} = a new array of {@code length} zero
   * elements of primitive kind {@code t}, or for {@code 'L'} of the component class given by the
   * array-maker constant {@code k} (-1 for {@code Object[]}).
   */
  public static final int STORE_ARRAY = 2;

  /**
   * {@code STORE_CLONE id k s}: {@code table[id] = constant k.clone()}, of array type {@code s}.
   */
  public static final int STORE_CLONE = 3;

  /**
   * {@code STORE_STRING id k}: {@code table[id] = new String(...)} of text constant {@code k} (-1:
   * inline).
   */
  public static final int STORE_STRING = 4;

  /**
   * {@code STORE_BOX id t cached}: a box of kind {@code t}, from {@code valueOf} when cached is 1.
   */
  public static final int STORE_BOX = 5;

  /** {@code STORE_CONSTANT id k}: {@code table[id] = constant k} itself. */
  public static final int STORE_CONSTANT = 6;

  /**
   * {@code ALLOC_LOOP ids k}: {@code table[ids[i]] = Allocation.allocate(allocator k)} (format
   * version 1: {@code allocator k.newInstance(null)}).
   */
  public static final int ALLOC_LOOP = 7;

  /** {@code STRING_LOOP ids texts}: {@code table[ids[i]] = new String(texts[i])}. */
  public static final int STRING_LOOP = 8;

  /** {@code SELECT id s}: {@code target = (s) table[id]}, no cast for -1. */
  public static final int SELECT = 9;

  /** {@code SET_FIELD k t ref}: {@code field k.setX(target, value)}; {@code t} names the setter. */
  public static final int SET_FIELD = 10;

  /**
   * {@code PUT_FIELD owner name descriptor cast t ref}: {@code putfield} after the cast (-1: none).
   */
  public static final int PUT_FIELD = 11;

  /**
   * {@code PUT_ELEMENT index t ref}: {@code target[index] = value}; {@code t} is the store kind.
   */
  public static final int PUT_ELEMENT = 12;

  /** {@code ELEMENT_LOOP refs}: {@code target[i] = table[refs[i]]}. */
  public static final int ELEMENT_LOOP = 13;

  /**
   * {@code CLUSTER_LOOP owner ids n} then {@code n} columns {@code t values field name descriptor
   * cast}: {@code t = (owner) table[ids[i]]; t.column = values[i]...}, through field constant
   * {@code field} or, when it is -1, with {@code putfield owner.name:descriptor}; leaves no target.
   */
  public static final int CLUSTER_LOOP = 14;

  /** The number of ints per column of a {@link #CLUSTER_LOOP}. */
  public static final int COLUMN_SIZE = 6;

  /** {@code RUN_STEPS k}: runs the finish program held in the {@code int[]} constant {@code k}. */
  public static final int RUN_STEPS = 15;

  /**
   * {@code BOX_LOOP ids values t cached}: {@code table[ids[i]]} = a box of kind {@code t} of {@code
   * values[i]}, from {@code valueOf} when cached is 1, else {@code new}; {@code values} is a
   * primitive array constant of kind {@code t}.
   */
  public static final int BOX_LOOP = 16;

  /**
   * {@code STORE_COLLECTION id k}: {@code table[id] = Entry.newCollection(maker k)} (format version
   * 8 on, where {@link #STORE_ALLOC}'s allocator is never a collection maker).
   */
  public static final int STORE_COLLECTION = 17;

  /**
   * {@code COLLECTION_LOOP ids k}: {@code table[ids[i]] = Entry.newCollection(maker k)} (format
   * version 8 on, as {@link #STORE_COLLECTION}).
   */
  public static final int COLLECTION_LOOP = 18;

  private Stmt() {}
}
