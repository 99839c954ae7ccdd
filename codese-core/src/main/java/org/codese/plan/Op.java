package org.codese.plan;

import java.util.Objects;
import org.codese.jvm.Kind;

/**
 * One statement of the restore program, in the vocabulary of the restore grammar. Object ids index
 * the restore table; constant indices index the snapshot's constant table. Ops of the create phase
 * fill table slots; ops of the later phases act on the object chosen by the last {@link Select}.
 *
 * <p>The records' {@code equals} and {@code hashCode} are written out: a record's own bootstrap
 * method handles the first time each record class is hashed, which cost the first capture in a JVM
 * about 40 ms (docs/DESIGN.md, Section 3).
 */
public sealed interface Op {
  /**
   * {@code table[id] = allocator()}; {@code collection} when the allocator is a {@code
   * Constant.Sized}, which generated code passes to the runtime's collection entry rather than to
   * its allocation entry (format version {@code Grammar.COLLECTION_VERSION} on).
   */
  record Alloc(int id, int allocator, boolean collection) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof Alloc x
          && id == x.id
          && allocator == x.allocator
          && collection == x.collection;
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + allocator;
      h = 31 * h + Boolean.hashCode(collection);
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitAlloc(this);
    }
  }

  /**
   * {@code table[id] = new T[length]} of element kind {@code elem}; for {@link Kind#REFERENCE},
   * {@code maker} is an array-maker constant, or -1 for {@code Object[]}.
   */
  record NewArray(int id, Kind elem, int maker, int length) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof NewArray x
          && id == x.id
          && elem == x.elem
          && maker == x.maker
          && length == x.length;
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + Objects.hashCode(elem);
      h = 31 * h + maker;
      h = 31 * h + length;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitNewArray(this);
    }
  }

  /** {@code table[id] = constant.clone()} for a primitive array constant. */
  record CloneArray(int id, int constant, String descriptor) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof CloneArray x
          && id == x.id
          && constant == x.constant
          && Objects.equals(descriptor, x.descriptor);
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + constant;
      h = 31 * h + Objects.hashCode(descriptor);
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitCloneArray(this);
    }
  }

  /**
   * {@code table[id] = new String(value)}; the value is inline, or the text constant {@code text}
   * when it is too long for the class file ({@code text >= 0}).
   */
  record NewString(int id, String value, int text) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof NewString x
          && id == x.id
          && Objects.equals(value, x.value)
          && text == x.text;
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + Objects.hashCode(value);
      h = 31 * h + text;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitNewString(this);
    }
  }

  /** {@code table[id] = box}: {@code valueOf} when {@code cached}, else a new box. */
  record NewBox(int id, Kind type, long bits, boolean cached) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof NewBox x
          && id == x.id
          && type == x.type
          && bits == x.bits
          && cached == x.cached;
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + Objects.hashCode(type);
      h = 31 * h + Long.hashCode(bits);
      h = 31 * h + Boolean.hashCode(cached);
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitNewBox(this);
    }
  }

  /** {@code table[id] = constant}, for enum constants and {@code Class} objects. */
  record LoadConstant(int id, int constant) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof LoadConstant x && id == x.id && constant == x.constant;
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + constant;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitLoadConstant(this);
    }
  }

  /**
   * Chooses {@code table[id]} as the target of the following puts, cast to {@code cast} (an
   * internal name or array descriptor), or not cast when {@code null}.
   */
  record Select(int id, String cast) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof Select x && id == x.id && Objects.equals(cast, x.cast);
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + Objects.hashCode(cast);
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitSelect(this);
    }
  }

  /**
   * {@code target.field = value} through the reflective field constant {@code field}: a primitive
   * of kind {@code type} with raw {@code bits}, or for {@link Kind#REFERENCE} the table entry
   * {@code ref}.
   */
  record PutField(int field, Kind type, long bits, int ref) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof PutField x
          && field == x.field
          && type == x.type
          && bits == x.bits
          && ref == x.ref;
    }

    @Override
    public int hashCode() {
      int h = field;
      h = 31 * h + Objects.hashCode(type);
      h = 31 * h + Long.hashCode(bits);
      h = 31 * h + ref;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitPutField(this);
    }
  }

  /**
   * {@code target.name = value} with {@code putfield}, in a class nested with {@code owner}; for
   * references the value is cast to {@code cast} first unless it is {@code null}.
   */
  record PutDirect(
      String owner, String name, String descriptor, String cast, Kind type, long bits, int ref)
      implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof PutDirect x
          && Objects.equals(owner, x.owner)
          && Objects.equals(name, x.name)
          && Objects.equals(descriptor, x.descriptor)
          && Objects.equals(cast, x.cast)
          && type == x.type
          && bits == x.bits
          && ref == x.ref;
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(owner);
      h = 31 * h + Objects.hashCode(name);
      h = 31 * h + Objects.hashCode(descriptor);
      h = 31 * h + Objects.hashCode(cast);
      h = 31 * h + Objects.hashCode(type);
      h = 31 * h + Long.hashCode(bits);
      h = 31 * h + ref;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitPutDirect(this);
    }
  }

  /** {@code target[index] = value}, typed as in {@link PutField}. */
  record PutElement(Kind type, int index, long bits, int ref) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof PutElement x
          && type == x.type
          && index == x.index
          && bits == x.bits
          && ref == x.ref;
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(type);
      h = 31 * h + index;
      h = 31 * h + Long.hashCode(bits);
      h = 31 * h + ref;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitPutElement(this);
    }
  }

  /**
   * A counted loop: {@code table[ids[i]] = allocator()} for every {@code i}, where {@code ids} is
   * the {@code int[]} constant {@code ids}; {@code collection} as for {@link Alloc}.
   */
  record AllocLoop(int allocator, int ids, boolean collection) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof AllocLoop x
          && allocator == x.allocator
          && ids == x.ids
          && collection == x.collection;
    }

    @Override
    public int hashCode() {
      int h = allocator;
      h = 31 * h + ids;
      h = 31 * h + Boolean.hashCode(collection);
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitAllocLoop(this);
    }
  }

  /**
   * A counted loop: {@code table[ids[i]] = new String(texts[i])}, {@code texts} being the {@code
   * String[]} constant {@code texts}.
   */
  record StringLoop(int ids, int texts) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof StringLoop x && ids == x.ids && texts == x.texts;
    }

    @Override
    public int hashCode() {
      int h = ids;
      h = 31 * h + texts;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitStringLoop(this);
    }
  }

  /**
   * A counted loop: {@code table[ids[i]] = box(values[i])}, {@code values} being a primitive array
   * constant of {@code type}; the boxes come from {@code valueOf} when {@code cached}, else from
   * {@code new}.
   */
  record BoxLoop(Kind type, boolean cached, int ids, int values) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof BoxLoop x
          && type == x.type
          && cached == x.cached
          && ids == x.ids
          && values == x.values;
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(type);
      h = 31 * h + Boolean.hashCode(cached);
      h = 31 * h + ids;
      h = 31 * h + values;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitBoxLoop(this);
    }
  }

  /**
   * A counted loop over a cluster of objects of one class: for every {@code i}, {@code t =
   * table[ids[i]]} (cast to {@code owner} unless that is {@code null}) and then, per column, {@code
   * t.field = column[i]}; a reference column holds table indices (the table's last slot is always
   * {@code null}). Columns with a {@code putfield} need the loop to run in {@code owner}'s nest.
   */
  record ClusterLoop(String owner, int ids, java.util.List<Column> columns) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof ClusterLoop x
          && Objects.equals(owner, x.owner)
          && ids == x.ids
          && Objects.equals(columns, x.columns);
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(owner);
      h = 31 * h + ids;
      h = 31 * h + Objects.hashCode(columns);
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitClusterLoop(this);
    }
  }

  /**
   * One field of a {@link ClusterLoop}: the field, the cast of reference values (or {@code null}),
   * its kind, the constant holding the values (a primitive array, or {@code int[]} of table indices
   * for references), and the reflective field constant to set it through, or -1 to set it with
   * {@code putfield}.
   */
  record Column(String name, String descriptor, String cast, Kind type, int values, int field) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Column x
          && Objects.equals(name, x.name)
          && Objects.equals(descriptor, x.descriptor)
          && Objects.equals(cast, x.cast)
          && type == x.type
          && values == x.values
          && field == x.field;
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(name);
      h = 31 * h + Objects.hashCode(descriptor);
      h = 31 * h + Objects.hashCode(cast);
      h = 31 * h + Objects.hashCode(type);
      h = 31 * h + values;
      h = 31 * h + field;
      return h;
    }

    /**
     * @return whether the column is set through {@code java.lang.reflect.Field}
     */
    public boolean reflective() {
      return field >= 0;
    }
  }

  /**
   * A counted loop: {@code target[i] = table[refs[i]]} over the object array {@code table[id]},
   * {@code refs} being an {@code int[]} constant of table indices.
   */
  record ElementLoop(int id, int refs) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof ElementLoop x && id == x.id && refs == x.refs;
    }

    @Override
    public int hashCode() {
      int h = id;
      h = 31 * h + refs;
      return h;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitElementLoop(this);
    }
  }

  /**
   * Runs the finish program held in the {@code int[]} constant {@code program}: hook calls and
   * deferred reference stores, in completion order, executed by Codese's runtime. See {@link
   * org.codese.program.Grammar#STEP_HOOK}.
   */
  record RunSteps(int program) implements Op {
    @Override
    public boolean equals(Object o) {
      return o instanceof RunSteps x && program == x.program;
    }

    @Override
    public int hashCode() {
      return program;
    }

    @Override
    public <R> R accept(Visitor<R> v) {
      return v.visitRunSteps(this);
    }
  }

  /**
   * Passes this op to the visitor method of its record: {@code visitAlloc} for {@link Alloc}, and
   * so on.
   *
   * @param <R> what the visitor returns
   * @param v the visitor
   * @return what the visitor returned
   */
  <R> R accept(Visitor<R> v);

  /**
   * A consumer of ops, in the style of ASM's visitors: one method per op record, so that adding an
   * op to this sealed interface fails to compile until every consumer handles it (the baseline is
   * Java 17, which has no exhaustive pattern switches; see docs/DESIGN.md).
   *
   * @param <R> what each visit returns ({@link Void} for none)
   */
  interface Visitor<R> {
    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitAlloc(Alloc op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitNewArray(NewArray op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitCloneArray(CloneArray op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitNewString(NewString op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitNewBox(NewBox op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitLoadConstant(LoadConstant op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitSelect(Select op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitPutField(PutField op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitPutDirect(PutDirect op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitPutElement(PutElement op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitAllocLoop(AllocLoop op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitStringLoop(StringLoop op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitBoxLoop(BoxLoop op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitClusterLoop(ClusterLoop op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitElementLoop(ElementLoop op);

    /**
     * @param op the op
     * @return the visitor's result
     */
    R visitRunSteps(RunSteps op);
  }
}
