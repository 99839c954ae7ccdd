package org.codese.program;

import java.util.Objects;

/**
 * One entry of a snapshot's constant table. Generated code refers to constants by index into the
 * {@code Object[]} of resolved constants it is called with; the loader resolves each entry to a
 * live value before any generated code runs. Class indices refer to the snapshot's class table.
 *
 * <p>The records' {@code equals} and {@code hashCode} are written out: a record's own bootstrap
 * method handles the first time each record class is hashed, which cost the first capture in a JVM
 * about 40 ms (docs/DESIGN.md, Section 3).
 */
public sealed interface Constant {
  /** A {@code Class} object. */
  record TypeRef(int type) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof TypeRef x && type == x.type;
    }

    @Override
    public int hashCode() {
      return type;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitTypeRef(this);
    }

    @Override
    public int tag() {
      return TYPE_REF;
    }
  }

  /**
   * An {@code ObjectStreamClass} of a class, restored as {@code ObjectInputStream} reads one back
   * (a descriptor built from the stream, not {@code lookup}'s own).
   */
  record StreamClassRef(int type) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof StreamClassRef x && type == x.type;
    }

    @Override
    public int hashCode() {
      return type;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitStreamClassRef(this);
    }

    @Override
    public int tag() {
      return STREAM_CLASS_REF;
    }
  }

  /** An enum constant, by its declaring enum class and name. */
  record EnumRef(int type, String name) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof EnumRef x && type == x.type && Objects.equals(name, x.name);
    }

    @Override
    public int hashCode() {
      int h = type;
      h = 31 * h + Objects.hashCode(name);
      return h;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitEnumRef(this);
    }
  }

  /**
   * The value of the static final reference field {@code field} declared by class {@code type}: an
   * object of the graph that was, by identity, that field's value at capture ({@code
   * CodeseOptions.withStaticConstants}). Restored by reading the field, as the same instance;
   * generated code only stores it into the table, and nothing writes to it. From format version
   * {@link Grammar#GLOBAL_VERSION} on.
   */
  record StaticRef(int type, String field) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof StaticRef x && type == x.type && Objects.equals(field, x.field);
    }

    @Override
    public int hashCode() {
      int h = type;
      h = 31 * h + Objects.hashCode(field);
      return h;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitStaticRef(this);
    }

    @Override
    public boolean global() {
      return true;
    }
  }

  /**
   * The object the load options name {@code name} ({@code CodeseOptions.withGlobal}): an object of
   * the graph that the capture options named so. Restored as the object the loading side gives
   * under that name; generated code only stores it into the table, and nothing writes to it. From
   * format version {@link Grammar#GLOBAL_VERSION} on.
   */
  record NamedRef(String name) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof NamedRef x && Objects.equals(name, x.name);
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(name);
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitNamedRef(this);
    }

    @Override
    public boolean global() {
      return true;
    }
  }

  /**
   * What allocates an instance of {@code type} as {@code mode} says: generated code passes it to
   * {@code Grammar.ALLOCATE_METHOD} (format version 1: calls {@code newInstance(null)} on it as a
   * {@code java.lang.reflect.Constructor}); the loader resolves it to the class or a constructor.
   */
  record Allocator(int type, Mode mode) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof Allocator x && type == x.type && mode == x.mode;
    }

    @Override
    public int hashCode() {
      int h = type;
      h = 31 * h + Objects.hashCode(mode);
      return h;
    }

    @Override
    public int tag() {
      return ALLOCATOR;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitAllocator(this);
    }
  }

  /**
   * What allocates an instance of the JDK collection {@code type} (one of {@link Fills}' classes)
   * through its public constructor: the one taking an initial capacity, or with {@code capacity}
   * {@code -1} the no-arg one. Generated code passes it to {@code Grammar.ALLOCATE_METHOD}; the
   * object is filled by a {@link Grammar#STEP_FILL} step. From format version {@link
   * Grammar#FILL_VERSION} on.
   */
  record Sized(int type, int capacity) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof Sized x && type == x.type && capacity == x.capacity;
    }

    @Override
    public int hashCode() {
      int h = type;
      h = 31 * h + capacity;
      return h;
    }

    @Override
    public int tag() {
      return SIZED;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitSized(this);
    }
  }

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
  record ArrayMaker(int type) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof ArrayMaker x && type == x.type;
    }

    @Override
    public int hashCode() {
      return type;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitArrayMaker(this);
    }
  }

  /**
   * The accessible {@code java.lang.reflect.Field} {@code field} declared by {@code type}, of JVM
   * type {@code descriptor}; generated code calls its {@code set*} methods.
   */
  record Setter(int type, String field, String descriptor) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof Setter x
          && type == x.type
          && Objects.equals(field, x.field)
          && Objects.equals(descriptor, x.descriptor);
    }

    @Override
    public int hashCode() {
      int h = type;
      h = 31 * h + Objects.hashCode(field);
      h = 31 * h + Objects.hashCode(descriptor);
      return h;
    }

    @Override
    public int tag() {
      return SETTER;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitSetter(this);
    }
  }

  /** A string too long for a class-file constant. */
  record Text(String value) implements Constant {
    @Override
    public boolean equals(Object o) {
      return o instanceof Text x && Objects.equals(value, x.value);
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(value);
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitText(this);
    }
  }

  /** A primitive array: cloned into the graph, or read as loop data. */
  record PrimArray(Object array) implements Constant {
    @Override
    public int tag() {
      return PRIM_ARRAY;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitPrimArray(this);
    }
  }

  /** An array of strings, read as loop data. */
  record Texts(String[] values) implements Constant {
    @Override
    public int tag() {
      return TEXTS;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitTexts(this);
    }
  }

  /**
   * A call of a sanctioned restore hook for object {@code id} of class {@code type}, with the data
   * it reads.
   */
  record Hook(HookKind kind, int type, int id, Tape tape) implements Constant {
    @Override
    public int tag() {
      return HOOK;
    }

    @Override
    public <R, X extends Exception> R accept(Visitor<R, X> v) throws X {
      return v.visitHook(this);
    }
  }

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

  /**
   * Passes this constant to the visitor method of its record: {@code visitTypeRef} for {@link
   * TypeRef}, and so on.
   *
   * @param <R> what the visitor returns
   * @param <X> what the visitor throws
   * @param v the visitor
   * @return what the visitor returned
   * @throws X if the visitor does
   */
  <R, X extends Exception> R accept(Visitor<R, X> v) throws X;

  /** {@link #tag()} of a constant of a kind the loader need not tell apart from the others. */
  int OTHER = 0;

  /** {@link #tag()} of an {@link Allocator}. */
  int ALLOCATOR = 1;

  /** {@link #tag()} of a {@link Sized}. */
  int SIZED = 2;

  /** {@link #tag()} of a {@link Setter}. */
  int SETTER = 3;

  /** {@link #tag()} of a {@link PrimArray}. */
  int PRIM_ARRAY = 4;

  /** {@link #tag()} of a {@link Texts}. */
  int TEXTS = 5;

  /** {@link #tag()} of a {@link Hook}. */
  int HOOK = 6;

  /** {@link #tag()} of a {@link TypeRef}. */
  int TYPE_REF = 7;

  /** {@link #tag()} of a {@link StreamClassRef}. */
  int STREAM_CLASS_REF = 8;

  /**
   * What this constant is, for the loader's tests that ask every constant of a snapshot: {@link
   * #ALLOCATOR}, {@link #SIZED}, {@link #SETTER}, {@link #PRIM_ARRAY}, {@link #TEXTS}, {@link
   * #HOOK}, {@link #TYPE_REF}, {@link #STREAM_CLASS_REF}, else {@link #OTHER}. A method rather than
   * {@code instanceof} tests, as {@link #global()}, so that asking does not load the record classes
   * of kinds the snapshot holds none of (a class costs a cold load about a quarter of a
   * millisecond).
   *
   * @return the tag
   */
  default int tag() {
    return OTHER;
  }

  /**
   * Whether this is a global reference, {@link StaticRef} or {@link NamedRef}: a method rather than
   * an {@code instanceof} test, so that the loader asks every constant without loading the two
   * record classes into a JVM whose snapshots hold none.
   *
   * @return {@code true} for a global reference
   */
  default boolean global() {
    return false;
  }

  /**
   * A consumer of constants, in the style of ASM's visitors: one method per constant record, so
   * that adding a constant to this sealed interface fails to compile until every consumer handles
   * it (the baseline is Java 17, which has no exhaustive pattern switches; see docs/DESIGN.md). The
   * loader resolves constants with one, so implementations on the restore path are named classes,
   * not lambdas or anonymous classes.
   *
   * @param <R> what each visit returns
   * @param <X> what each visit may throw ({@link RuntimeException} for nothing checked)
   */
  interface Visitor<R, X extends Exception> {
    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitTypeRef(TypeRef c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitStreamClassRef(StreamClassRef c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitEnumRef(EnumRef c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitStaticRef(StaticRef c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitNamedRef(NamedRef c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitAllocator(Allocator c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitSized(Sized c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitArrayMaker(ArrayMaker c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitSetter(Setter c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitText(Text c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitPrimArray(PrimArray c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitTexts(Texts c) throws X;

    /**
     * @param c the constant
     * @return the visitor's result
     * @throws X if the visitor fails
     */
    R visitHook(Hook c) throws X;
  }
}
