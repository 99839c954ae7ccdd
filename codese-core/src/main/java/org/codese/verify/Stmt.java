package org.codese.verify;

import java.util.List;

/**
 * One statement of a generated chunk, lifted back from its bytecode by {@link Lifter}. The grammar
 * check recognises a chunk only if it is a sequence of these statements, each in the exact
 * instruction shape the emitter writes; the loader then checks what the statements do against the
 * live classes and the snapshot's constants before any of them runs.
 *
 * <p>Constant indices index the snapshot's constant table; ids index the restore table. Statements
 * other than {@link Store}, the loops and {@link RunSteps} act on the <em>target</em>: the object
 * chosen by the last {@link Select} of the same chunk.
 */
public sealed interface Stmt {
  /** {@code table[id] = value}. */
  record Store(int id, Value value) implements Stmt {}

  /** {@code for i: table[ids[i]] = allocator.newInstance(null)}. */
  record AllocLoop(int ids, int allocator) implements Stmt {}

  /** {@code for i: table[ids[i]] = new String(texts[i])}. */
  record StringLoop(int ids, int texts) implements Stmt {}

  /**
   * {@code target = (cast) table[id]}.
   *
   * @param cast the internal name or array descriptor cast to, or {@code null} for none
   */
  record Select(int id, String cast) implements Stmt {}

  /**
   * {@code field.setX(target, value)} through the {@code java.lang.reflect.Field} constant {@code
   * field}; {@code value.type()} says which {@code setX} is called ({@code 'L'} for {@code set}).
   */
  record SetField(int field, Operand value) implements Stmt {}

  /**
   * {@code target.name = (cast) value} with {@code putfield}.
   *
   * @param cast the internal name the value is cast to, or {@code null}
   */
  record PutField(String owner, String name, String descriptor, String cast, Operand value)
      implements Stmt {}

  /** {@code target[index] = value}; {@code value.type()} is the array-store kind. */
  record PutElement(int index, Operand value) implements Stmt {}

  /** {@code for i: target[i] = table[refs[i]]}, the target an object array. */
  record ElementLoop(int refs) implements Stmt {}

  /**
   * {@code for i: t = (owner) table[ids[i]]; t.column = values[i] ...}; the loop leaves no
   * target selected.
   *
   * @param owner the class cast to and stored into with {@code putfield}, or {@code null}
   */
  record ClusterLoop(String owner, int ids, List<Column> columns) implements Stmt {}

  /**
   * One field set by a {@link ClusterLoop}: through the field constant {@code field} when it is
   * not -1, else with {@code putfield owner.name:descriptor} after casting to {@code cast}.
   *
   * @param type the value kind: a primitive code, or {@code 'L'} for table ids in {@code values}
   * @param values the constant holding the column's values
   */
  record Column(char type, int values, int field, String name, String descriptor, String cast) {}

  /** Runs the finish program held in the {@code int[]} constant {@code program}. */
  record RunSteps(int program) implements Stmt {}

  /**
   * A value put into a field or an element: {@code table[ref]} when {@code type} is {@code 'L'},
   * else a primitive constant of kind {@code type} (its value does not matter to any check).
   */
  record Operand(char type, int ref) {}

  /** What a {@link Store} puts into the table. */
  sealed interface Value {
    /** {@code allocator.newInstance(null)} on the {@code Constructor} constant. */
    record Allocate(int allocator) implements Value {}

    /**
     * A new array of {@code length} zero elements: {@code elem} is a primitive code, or {@code 'L'}
     * with {@code maker} the class constant of its component type (-1 for {@code Object[]}).
     */
    record NewArray(char elem, int maker, int length) implements Value {}

    /** {@code constant.clone()} of a primitive array constant of type {@code descriptor}. */
    record CloneArray(int constant, String descriptor) implements Value {}

    /** {@code new String(s)} of an inline literal, or of the text constant {@code text} (>= 0). */
    record NewString(String literal, int text) implements Value {}

    /**
     * A box of the primitive kind {@code type}: {@code valueOf} (possibly a JVM-wide cached
     * instance) when {@code cached}, else a new one.
     */
    record Box(char type, boolean cached) implements Value {}

    /** The resolved constant itself: an enum constant, a {@code Class}, a stream-class. */
    record Constant(int constant) implements Value {}
  }
}
