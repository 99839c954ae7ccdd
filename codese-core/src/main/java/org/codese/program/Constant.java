package org.codese.program;

/**
 * One entry of a snapshot's constant table. Generated code refers to constants by index into the
 * {@code Object[]} of resolved constants it is called with; the loader resolves each entry to a
 * live value before any generated code runs. Class indices refer to the snapshot's class table.
 */
public sealed interface Constant {
  /** A {@code Class} object. */
  record TypeRef(int type) implements Constant {}

  /**
   * An {@code ObjectStreamClass} of a class, restored as {@code ObjectInputStream} reads one back
   * (a descriptor built from the stream, not {@code lookup}'s own).
   */
  record StreamClassRef(int type) implements Constant {}

  /** An enum constant, by its declaring enum class and name. */
  record EnumRef(int type, String name) implements Constant {}

  /**
   * What allocates an instance of {@code type} as {@code mode} says: generated code passes it to
   * {@code Grammar.ALLOCATE_METHOD} (format version 1: calls {@code newInstance(null)} on it as a
   * {@code java.lang.reflect.Constructor}); the loader resolves it to the class or a constructor.
   */
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

  /**
   * The component class of the array class {@code type}, for {@code Array.newInstance}: arrays of
   * classes generated code may not name.
   */
  record ArrayMaker(int type) implements Constant {}

  /**
   * The accessible {@code java.lang.reflect.Field} {@code field} declared by {@code type}, of JVM
   * type {@code descriptor}; generated code calls its {@code set*} methods.
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
