package org.codese.load;

import static org.codese.load.ProgramCheck.ARRAY;
import static org.codese.load.ProgramCheck.BLOCK;
import static org.codese.load.ProgramCheck.INSTANCE;
import static org.codese.load.ProgramCheck.NOT_MADE;

import java.io.ObjectStreamException;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.BitSet;
import org.codese.jvm.Types;
import org.codese.program.Constant;
import org.codese.program.TypeNames;
import org.codese.verify.Stmt;

/**
 * The program check of the set phase ({@link ProgramCheck}): each statement writes fields or
 * elements of an object or array this snapshot allocated, selected by a cast that succeeds and that
 * the generated class may name (accessible and resolved to the same class by its loader); every
 * field set through a setter or {@code putfield} fits the object's class and the value's type,
 * every element index is inside its array, and every column of a cluster loop holds values of the
 * field's type. Also checks, for {@link FinishCheck}, the field and element stores of finish steps
 * ({@link #setter}, {@link #element}).
 *
 * <p>One per program check; {@link #statement} is called for each set-phase statement, in program
 * order, after every create-phase statement. Each check that fails throws the {@link
 * org.codese.UnsafeSnapshotException} of {@link ProgramCheck#reject}; a field whose class the
 * loader cannot check throws what {@link ClassTable#writableField} throws.
 *
 * <p>A store into a recorded field of a {@code Serializable} class on an object whose class no
 * longer has that class (removed since capture from the object's hierarchy, while other objects of
 * the snapshot may still be of it) is not rejected but dropped, per object, as {@code
 * ObjectInputStream} skips that data ({@link ObjectDrops}): a single store is recorded for {@link
 * Evolution#adapt} to take out, a cluster loop's rows over such objects are filtered out of the
 * constants it reads.
 */
final class SetCheck {
  private final ProgramCheck check;
  private final ClassTable classes;
  private final Object[] resolved;

  /** {@link ProgramCheck}'s per-slot kinds, classes and lengths, and its first table id. */
  private final byte[] kind;

  private final Class<?>[] type;
  private final int[] length;
  private final int first;

  /**
   * The slot index of the object or array selected to write to, or -1: reset at the start of each
   * method, and set by a finish step that stores an element.
   */
  int target = -1;

  /**
   * Whether the target was selected through a cast to a class removed since capture from its
   * hierarchy ({@link ClassTable#detach}): the adapted code holds {@code null} there, so only
   * stores into removed fields, which are taken out, may follow.
   */
  private boolean nullTarget;

  /** The chunk whose loops {@link #nextLoop} counts, and how many it counted. */
  private int loopClass = -1;

  private int loopMethod = -1;
  private int loops;

  private String lastCast;
  private int lastCastHost;
  private Class<?> lastCastClass;

  /**
   * @param check the program check, for what each slot holds, constants, names and rejections
   * @param classes the snapshot's resolved class table
   * @param resolved its resolved constants
   */
  SetCheck(ProgramCheck check, ClassTable classes, Object[] resolved) {
    this.check = check;
    this.classes = classes;
    this.resolved = resolved;
    this.kind = check.kind;
    this.type = check.type;
    this.length = check.length;
    this.first = check.first;
  }

  /**
   * Checks the set-phase statement at {@code code[pc]}.
   *
   * @param host the class-table index whose nest the generated class joins, or -1
   * @param code a lifted method of the generated class
   * @param pc the statement's offset in {@code code}
   * @throws ObjectStreamException if the statement breaks an invariant
   */
  void statement(int host, int[] code, int pc) throws ObjectStreamException {
    switch (code[pc]) {
      case Stmt.SELECT -> select(code[pc + 1], check.name(code[pc + 2]), host);
      case Stmt.SET_FIELD -> {
        Field field = setter(code[pc + 1], (char) code[pc + 2], null);
        boolean removed = removed(field);
        if (notMadeTarget()) {
          // an object not made: only its class's recorded fields, all removed, are set, and taken
          // out; a field of a class still found would be live data of an object the JDK lacks
          if (!removed) {
            throw check.notMadeFailure(target + first);
          }
          check.write(1);
          check.skipped((char) code[pc + 2], code[pc + 3], field.getType());
          return;
        }
        Class<?> on = instanceTarget();
        if (!removed && !field.getDeclaringClass().isAssignableFrom(on)) {
          if (!ObjectDrops.droppable(field.getDeclaringClass(), field.getName(), on, classes)) {
            throw notInHierarchy(field, on);
          }
          // a class removed from this object's hierarchy only: the store is taken out
          check.drops().dropStores(field.getDeclaringClass(), target + first);
          check.skipped((char) code[pc + 2], code[pc + 3], field.getType());
          return;
        }
        check.write(1);
        if (nullTarget && field != Evolution.REMOVED) {
          throw check.reject(
              "sets " + field + " of an object cast to a class its class no longer has");
        }
        if (removed) {
          check.skipped((char) code[pc + 2], code[pc + 3], field.getType());
        } else {
          check.value((char) code[pc + 2], code[pc + 3], field.getType());
        }
      }
      case Stmt.PUT_FIELD -> {
        Class<?> owner = hostClass(host, check.name(code[pc + 1]));
        boolean detached = classes.detached(owner);
        String name = check.name(code[pc + 2]);
        if (!detached
            && !owner.isAssignableFrom(instanceTarget())
            && ObjectDrops.droppable(owner, name, instanceTarget(), classes)) {
          // a class removed from this object's hierarchy only: the store is taken out
          Field field =
              putfield(owner, name, check.name(code[pc + 3]), check.name(code[pc + 4]), host);
          check.drops().dropStores(owner, target + first);
          check.skipped((char) code[pc + 5], code[pc + 6], field.getType());
          return;
        }
        check.write(1);
        if (!detached && !owner.isAssignableFrom(instanceTarget())) {
          throw check.reject(
              "puts into a field of "
                  + owner.getTypeName()
                  + " of an object of "
                  + instanceTarget().getTypeName());
        }
        Field field =
            putfield(
                owner,
                check.name(code[pc + 2]),
                check.name(code[pc + 3]),
                check.name(code[pc + 4]),
                host);
        if ((detached || nullTarget) && field != Evolution.REMOVED) {
          throw check.reject(
              "puts into field "
                  + check.name(code[pc + 2])
                  + " of "
                  + owner.getTypeName()
                  + ", a class removed since capture from the hierarchy of the object, which was"
                  + " no recorded field");
        }
        if (removed(field)) {
          check.skipped((char) code[pc + 5], code[pc + 6], field.getType());
        } else {
          check.value((char) code[pc + 5], code[pc + 6], field.getType());
        }
      }
      case Stmt.PUT_ELEMENT -> {
        check.write(1);
        Class<?> component = element(code[pc + 1], (char) code[pc + 2]);
        check.value((char) code[pc + 2], code[pc + 3], component);
      }
      case Stmt.ELEMENT_LOOP -> {
        nextLoop();
        int[] refs = check.intArray(code[pc + 1]);
        check.write(refs.length);
        Class<?> component = element(refs.length - 1, 'L');
        check.refs(refs, refs.length, component);
        target = -1;
      }
      case Stmt.CLUSTER_LOOP -> {
        cluster(host, code, pc);
        target = -1;
      }
      default ->
          throw check.reject(
              "the set phase only writes fields and elements, not statement " + code[pc]);
    }
  }

  private void select(int id, String cast, int host) throws ObjectStreamException {
    int at = check.own(id);
    if (kind[at] == NOT_MADE) {
      // an object not made: selected without a cast, only to set its class's removed fields
      if (cast != null) {
        throw check.notMadeFailure(id);
      }
      nullTarget = false;
      target = at;
      return;
    }
    if (kind[at] != INSTANCE && kind[at] != ARRAY) {
      throw check.reject(
          "writes to table slot " + id + ", which holds no object this" + " snapshot allocated");
    }
    Class<?> to = cast == null ? null : cast(cast, host);
    nullTarget = to != null && kind[at] == INSTANCE && classes.detached(to);
    if (to != null
        && !nullTarget
        && kind[at] == INSTANCE
        && !check.fits(to, type[at])
        && ObjectDrops.droppableCast(to, type[at], classes)) {
      // the cast of an object to a class removed from its hierarchy only, to store into the
      // class's fields: null instead, and those stores taken out (PUT_FIELD)
      nullTarget = true;
      check.drops().dropStores(to, id);
    }
    if (to != null && !nullTarget && !check.fits(to, type[at])) {
      throw check.reject(
          "casts slot " + id + " (" + type[at].getTypeName() + ") to " + TypeNames.javaName(cast));
    }
    target = at;
  }

  private Class<?> cast(String internalName, int host) throws ObjectStreamException {
    if (internalName.equals(lastCast) && host == lastCastHost) {
      return lastCastClass;
    }
    Class<?> c = check.named(internalName);
    if (!accessible(c, host)) {
      throw check.reject(
          "casts to "
              + c.getTypeName()
              + ", which generated code in "
              + generatedIn(host)
              + " cannot access");
    }
    if (!visible(c, host)) {
      throw check.reject(
          "casts to "
              + c.getTypeName()
              + ", which the class loader of generated code in "
              + generatedIn(host)
              + " resolves to another class or not at all");
    }
    lastCast = internalName;
    lastCastHost = host;
    lastCastClass = c;
    return c;
  }

  /** Where generated code of {@code host} (-1: Codese's own package) lives, for messages. */
  private String generatedIn(int host) {
    return host < 0 ? "Codese's package" : "the nest of " + classes.get(host).getTypeName();
  }

  /**
   * Whether a generated class of {@code host} (-1: Codese's own package) may name {@code c} in a
   * cast: {@code c} is public in a package exported to it, or in the same runtime package.
   */
  private boolean accessible(Class<?> c, int host) {
    Class<?> e = elementOf(c);
    if (e.isPrimitive()) {
      return true;
    }
    Class<?> from = beside(host);
    if (Modifier.isPublic(e.getModifiers())) {
      return e.getModule().isExported(e.getPackageName(), from.getModule());
    }
    return e.getPackageName().equals(from.getPackageName())
        && e.getClassLoader() == from.getClassLoader();
  }

  /**
   * Whether the loader that will define the generated class of {@code host} resolves {@code c}'s
   * name to {@code c}: the class table resolves names through the snapshot's loader, the JVM a cast
   * through the loader of the class it sits in.
   */
  private boolean visible(Class<?> c, int host) {
    Class<?> e = elementOf(c);
    ClassLoader from = beside(host).getClassLoader();
    ClassLoader own = e.getClassLoader();
    if (e.isPrimitive() || own == null || own == from) {
      return true;
    }
    try {
      return Class.forName(e.getName(), false, from) == e;
    } catch (ClassNotFoundException | LinkageError x) {
      return false;
    }
  }

  /** The class whose package and loader generated code of {@code host} (-1: none) shares. */
  private Class<?> beside(int host) {
    return host < 0 ? ProgramCheck.class : classes.get(host);
  }

  /** {@code c}'s element class if it is an array class, else {@code c}. */
  private static Class<?> elementOf(Class<?> c) {
    Class<?> e = c;
    while (e.isArray()) {
      e = e.getComponentType();
    }
    return e;
  }

  /** Whether the selected target is an object not made ({@link ProgramCheck#NOT_MADE}). */
  private boolean notMadeTarget() {
    return target >= 0 && check.hasNotMade() && kind[target] == NOT_MADE;
  }

  private Class<?> instanceTarget() throws ObjectStreamException {
    if (target < 0 || kind[target] != INSTANCE) {
      throw check.reject("sets a field with no object selected");
    }
    return type[target];
  }

  /**
   * Checks an element store into the target array at {@code index} of kind {@code store}; returns
   * the component type.
   */
  Class<?> element(int index, char store) throws ObjectStreamException {
    if (target < 0 || kind[target] != ARRAY) {
      throw check.reject("sets an element with no array selected");
    }
    Class<?> component = type[target].getComponentType();
    if (index < 0 || index >= length[target]) {
      throw check.reject("sets element " + index + " of an array of length " + length[target]);
    }
    boolean fits =
        store == 'L'
            ? !component.isPrimitive()
            : component.isPrimitive()
                && (Types.primitiveCode(component) == store
                    || (store == 'B' && component == boolean.class));
    if (!fits) {
      throw check.reject(
          "stores a value of kind " + store + " into a " + type[target].getSimpleName());
    }
    return component;
  }

  /**
   * {@code CLUSTER_LOOP owner ids n} and its {@code n} columns. Rows whose object's class no longer
   * has the class declaring the columns' fields (removed since capture from that object's hierarchy
   * only, {@link ObjectDrops#droppable}) are dropped: the loop reads a copy of its rows without
   * them.
   */
  private void cluster(int host, int[] code, int pc) throws ObjectStreamException {
    int loop = nextLoop();
    int[] ids = check.intArray(code[pc + 2]);
    int columns = code[pc + 3];
    String ownerName = check.name(code[pc + 1]);
    Class<?> owner = ownerName == null ? null : hostClass(host, ownerName);
    // a class removed from the hierarchy of the objects: the adapted loop casts nothing
    boolean detached = owner != null && classes.detached(owner);
    Class<?> targets = detached ? null : owner;
    Field[] fields = new Field[columns];
    for (int c = 0; c < columns; c++) {
      int col = pc + 4 + c * Stmt.COLUMN_SIZE;
      char t = (char) code[col];
      Field field;
      if (code[col + 2] >= 0) {
        field = setter(code[col + 2], t, null);
      } else {
        if (owner == null) {
          throw check.reject("a cluster loop stores with putfield but casts to no class");
        }
        field =
            putfield(
                owner,
                check.name(code[col + 3]),
                check.name(code[col + 4]),
                check.name(code[col + 5]),
                host);
      }
      if (detached && field != Evolution.REMOVED) {
        throw check.reject(
            "a cluster loop over objects cast to a class removed since capture from their"
                + " hierarchy stores into "
                + field);
      }
      fields[c] = field;
    }
    BitSet dropped = null;
    // slots an allocation loop filled keep their class through the set phase: one class, one test
    Class<?> allocated = check.loopClasses.get(code[pc + 2]);
    if (allocated != null && (targets == null || targets.isAssignableFrom(allocated))) {
      if (ids.length > 0 && !keepRow(ids[0], allocated, targets, fields)) {
        dropped = new BitSet(ids.length);
        dropped.set(0, ids.length);
      }
    } else {
      Class<?>[] types = new Class<?>[Math.min(BLOCK, ids.length)];
      for (int from = 0; from < ids.length; from += BLOCK) {
        int to = Math.min(ids.length, from + BLOCK);
        targetBlock(ids, from, to, targets, types);
        dropped = dropRows(ids, from, to, types, targets, fields, dropped);
      }
    }
    int kept = dropped == null ? ids.length : ids.length - dropped.cardinality();
    check.write((long) kept * Math.max(1, columns));
    int[] values = new int[columns];
    for (int c = 0; c < columns; c++) {
      int col = pc + 4 + c * Stmt.COLUMN_SIZE;
      column((char) code[col], code[col + 1], ids.length, fields[c]);
      values[c] = code[col + 1];
    }
    if (dropped != null) {
      BitSet keep = new BitSet(ids.length);
      keep.set(0, ids.length);
      keep.andNot(dropped);
      check
          .drops()
          .filterLoop(
              declaring(targets, fields),
              check.whereClass(),
              check.whereMethod(),
              loop,
              ids,
              code[pc + 2],
              values,
              resolved,
              keep);
    }
  }

  /** The class a cluster loop casts to, else the class declaring its first field kept anywhere. */
  private Class<?> declaring(Class<?> owner, Field[] fields) {
    if (owner != null) {
      return owner;
    }
    for (Field f : fields) {
      if (!removed(f)) {
        return f.getDeclaringClass();
      }
    }
    return Object.class; // no field: unreachable, a row is dropped only for a field it lacks
  }

  /**
   * Adds to {@code dropped} the rows {@code ids[from..to)} of a cluster loop whose object's class
   * ({@code types[i - from]}) does not have the class declaring the loop's fields, or that the loop
   * casts to ({@code owner}, unless null): dropped where {@link ObjectDrops#droppable} for every
   * column (and {@link ObjectDrops#droppableCast} for the cast), else rejected.
   *
   * @param dropped the rows dropped so far, or {@code null} if none
   * @return the dropped rows, or {@code null} if none
   */
  private BitSet dropRows(
      int[] ids, int from, int to, Class<?>[] types, Class<?> owner, Field[] fields, BitSet dropped)
      throws ObjectStreamException {
    Class<?> ok = null;
    Class<?> gone = null;
    for (int i = from; i < to; i++) {
      Class<?> k = types[i - from];
      if (k == ok) {
        continue;
      }
      if (k != gone) {
        if (keepRow(ids[i], k, owner, fields)) {
          ok = k;
          continue;
        }
        gone = k;
      }
      if (dropped == null) {
        dropped = new BitSet(ids.length);
      }
      dropped.set(i);
    }
    return dropped;
  }

  /**
   * Whether a cluster loop's row over object {@code id} of class {@code k} is kept (every field
   * fits), or dropped (the class declaring the fields, and cast to, was removed from {@code k}'s
   * hierarchy only); anything between is rejected.
   */
  private boolean keepRow(int id, Class<?> k, Class<?> owner, Field[] fields)
      throws ObjectStreamException {
    if (k == ProgramCheck.NotMade.class) {
      // objects not made: a loop over them may only set their class's recorded fields, all
      // removed and taken out of the loop; anything else is live data of an object the JDK lacks
      if (owner != null) {
        throw check.notMadeFailure(id);
      }
      for (Field f : fields) {
        if (!removed(f)) {
          throw check.notMadeFailure(id);
        }
      }
      return true;
    }
    boolean cast = owner == null || check.fits(owner, k);
    if (!cast && !ObjectDrops.droppableCast(owner, k, classes)) {
      throw check.reject(
          "a cluster loop writes to slot "
              + id
              + ", which holds no "
              + owner.getTypeName()
              + " this snapshot allocated");
    }
    Field in = null;
    Field out = null;
    for (Field f : fields) {
      if (removed(f)) {
        continue; // taken out for every object
      }
      if (cast && f.getDeclaringClass().isAssignableFrom(k)) {
        in = f;
      } else if (ObjectDrops.droppable(f.getDeclaringClass(), f.getName(), k, classes)) {
        out = f;
      } else {
        throw notInHierarchy(f, k);
      }
    }
    if (in != null && out != null) {
      // some columns kept and others dropped: never so in Codese's own code, whose loops set the
      // fields of one class
      throw notInHierarchy(out, k);
    }
    return cast && out == null;
  }

  /**
   * Whether {@code f} is {@link Evolution#REMOVED}, a field removed since capture (tested only for
   * a table that has one: a snapshot of unchanged classes never loads {@link Evolution}).
   */
  boolean removed(Field f) {
    return classes.evolved() && f == Evolution.REMOVED;
  }

  /** The index of the next loop of the chunk being checked, counted per chunk. */
  private int nextLoop() {
    if (loopClass != check.whereClass() || loopMethod != check.whereMethod()) {
      loopClass = check.whereClass();
      loopMethod = check.whereMethod();
      loops = 0;
    }
    return loops++;
  }

  /**
   * Checks that slots {@code ids[from..to)} hold objects this snapshot allocated, and records their
   * classes in {@code types[0..to - from)}; whether each fits the loop's cast and fields is {@link
   * #keepRow}'s.
   *
   * @param named the class the loop casts to, for the rejection, or null
   */
  private void targetBlock(int[] ids, int from, int to, Class<?> named, Class<?>[] types)
      throws ObjectStreamException {
    Class<?> fits = null;
    byte[] kinds = kind;
    for (int i = from; i < to; i++) {
      int at = ids[i] - first;
      if (at < 0 || at >= kinds.length) {
        check.own(ids[i]);
      }
      if (kinds[at] == INSTANCE && type[at] == fits) {
        types[i - from] = fits;
        continue;
      }
      if (kind[at] == NOT_MADE) {
        types[i - from] = ProgramCheck.NotMade.class; // kept only if every column is removed
        continue;
      }
      if (kind[at] != INSTANCE) {
        throw check.reject(
            "a cluster loop writes to slot "
                + ids[i]
                + ", which holds no "
                + (named == null ? "object" : named.getTypeName())
                + " this snapshot allocated");
      }
      types[i - from] = type[at];
      fits = type[at];
    }
  }

  /** A column of kind {@code t} whose values are constant {@code k}, stored into {@code field}. */
  private void column(char t, int k, int rows, Field field) throws ObjectStreamException {
    Object values = check.raw(k) instanceof Constant.PrimArray p ? p.array() : null;
    Class<?> expected = t == 'L' ? int[].class : Types.primitiveClass(t).arrayType();
    if (values == null || values.getClass() != expected || Array.getLength(values) < rows) {
      throw check.reject(
          "column constant "
              + k
              + " is not a "
              + expected.getSimpleName()
              + " of at least "
              + rows
              + " values");
    }
    if (t == 'L' && removed(field)) {
      check.skippedRefs((int[]) values, rows, field.getType()); // taken out: objects not made too
    } else if (t == 'L') {
      check.refs((int[]) values, rows, field.getType());
    }
  }

  /** The field of a setter constant, whose setter kind and declaring class must fit. */
  Field setter(int constant, char setterKind, Class<?> targetType) throws ObjectStreamException {
    if (!(check.raw(constant) instanceof Constant.Setter)
        || !(resolved[constant] instanceof Field f)) {
      throw check.reject("sets a field through constant " + constant + ", which is not a field");
    }
    if (classes.evolved() && f == Evolution.REMOVED) {
      return f; // removed since capture: the loader takes the store out of the code
    }
    boolean fits =
        setterKind == 'L'
            ? !f.getType().isPrimitive()
            : f.getType().isPrimitive() && Types.primitiveCode(f.getType()) == setterKind;
    if (!fits) {
      throw check.reject("sets " + f + " with a setter of kind " + setterKind);
    }
    if (targetType != null && !f.getDeclaringClass().isAssignableFrom(targetType)) {
      throw notInHierarchy(f, targetType);
    }
    return f;
  }

  /**
   * The rejection of a store into field {@code f} of an object of {@code target}, which is not of
   * {@code f}'s class, where the store cannot be dropped ({@link ObjectDrops#droppable}): a field
   * the class table does not record for its class, a class that is not {@code Serializable}, or a
   * loop row that would keep some of its stores and drop others. Codese's own code never makes such
   * a store: a class removed since capture from the hierarchy of some objects has its recorded
   * fields' stores dropped on those objects only.
   */
  ObjectStreamException notInHierarchy(Field f, Class<?> target) {
    return check.reject(
        "sets "
            + f
            + " of an object of "
            + target.getTypeName()
            + ", whose class does not have the field's class, and the store is not one of a"
            + " recorded field of a serializable class removed from the object's hierarchy since"
            + " capture, which alone is skipped");
  }

  private Class<?> hostClass(int host, String owner) throws ObjectStreamException {
    if (host < 0 || !Types.internalName(classes.get(host)).equals(owner)) {
      throw check.reject(
          "stores with putfield into " + TypeNames.javaName(owner) + " outside its nest");
    }
    return classes.get(host);
  }

  /** The live field {@code owner.name}: an instance field, not final, of the recorded type. */
  private Field putfield(Class<?> owner, String name, String descriptor, String cast, int host)
      throws ObjectStreamException {
    Field f = classes.writableField(host, name);
    if (f == null) {
      return Evolution.REMOVED; // removed since capture: the loader takes the store out of the code
    }
    if (Modifier.isFinal(f.getModifiers()) || !Types.descriptor(f.getType()).equals(descriptor)) {
      throw check.reject(
          "putfield into "
              + owner.getTypeName()
              + "."
              + name
              + " of type "
              + TypeNames.javaName(descriptor)
              + ", which is not a non-final instance field of that type");
    }
    if (cast != null && !Types.internalName(f.getType()).equals(cast)) {
      throw check.reject(
          "casts a value to "
              + TypeNames.javaName(cast)
              + " before storing it into a field of type "
              + f.getType().getTypeName());
    }
    if (cast != null && !accessible(f.getType(), host)) {
      throw check.reject(
          "casts to "
              + f.getType().getTypeName()
              + ", which the nest of "
              + owner.getTypeName()
              + " cannot access");
    }
    return f;
  }
}
