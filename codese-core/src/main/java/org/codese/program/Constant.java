package org.codese.program;

/**
 * One entry of a snapshot's constant table. Generated code refers to constants by index (as
 * dynamic constants loaded from the generated classes' class data); the loader resolves each entry
 * to a live value before any generated code runs. Class indices refer to the snapshot's class
 * table.
 */
public sealed interface Constant {
  /** A {@code Class} object. */
  record TypeRef(int type) implements Constant {}

  /** An enum constant, by its declaring enum class and name. */
  record EnumRef(int type, String name) implements Constant {}

  /** A handle {@code ()Object} that allocates an instance of {@code type}. */
  record Allocator(int type, Mode mode) implements Constant {}

  /** How an {@link Allocator} allocates. */
  enum Mode {
    /** Runs the no-arg constructor of the first non-serializable superclass, as the JDK does. */
    SERIAL,
    /** Runs no constructor. */
    BARE,
    /** Runs the public no-arg constructor of an {@code Externalizable} class. */
    EXTERNAL
  }

  /** A handle {@code (int)Object} that creates an array of the array class {@code type}. */
  record ArrayMaker(int type) implements Constant {}

  /**
   * A handle {@code (Object, T)void} that sets field {@code field} declared by {@code type}; T is
   * the field's primitive type or {@code Object}.
   */
  record Setter(int type, String field, String descriptor) implements Constant {}

  /** A string too long for a class-file constant. */
  record Text(String value) implements Constant {}

  /** A primitive array: cloned into the graph, or read as loop data. */
  record PrimArray(Object array) implements Constant {}

  /** An array of strings, read as loop data. */
  record Texts(String[] values) implements Constant {}

  /**
   * A call of a sanctioned restore hook for object {@code id} of class {@code type}, with the data
   * it reads.
   */
  record Hook(HookKind kind, int type, int id, Tape tape) implements Constant {}

  /** Which hook a {@link Hook} runs. */
  enum HookKind {
    /** The slot class's {@code readObject}, or default field reading, over the tape. */
    SLOT,
    /** {@code readExternal} over the tape. */
    EXTERNAL,
    /** The record's canonical constructor, with the field values of the tape. */
    RECORD,
    /** {@code readResolve}; replaces the object in the table. */
    RESOLVE
  }
}
