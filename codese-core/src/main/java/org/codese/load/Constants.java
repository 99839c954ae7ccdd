package org.codese.load;

import java.io.ObjectInputFilter;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.List;
import org.codese.ClassMismatchException;
import org.codese.format.SnapshotFile;
import org.codese.jvm.Jvm;
import org.codese.jvm.Slot;
import org.codese.jvm.StreamDescriptors;
import org.codese.program.Constant;
import org.codese.program.Fills;
import org.codese.program.Grammar;
import org.codese.runtime.FieldStore;
import org.codese.runtime.NewCollection;

/**
 * Resolves a snapshot's constant table to the live values generated code loads. Runs after the
 * serialization filter accepted every class: resolving initialises classes ({@code
 * ObjectStreamClass.lookupAny}, {@code Enum.valueOf}, constructors and method handles).
 */
final class Constants implements Constant.Visitor<Object, ClassMismatchException> {
  /** The type of every resolved {@code readResolve}: {@link Hooks} calls it exactly. */
  private final ClassTable classes;

  private final ObjectInputFilter filter;
  private final int maxArrayLength;
  private final SegmentMemo memo;
  private final boolean bare;

  /**
   * Per class index (a record may have both), the record makers, made only once a record hook comes
   * so that a snapshot without records does not load the class, and the {@code readResolve}
   * handles.
   */
  private RecordMaker[] makers;

  private final MethodHandle[] resolvers;

  private Constants(
      ClassTable classes,
      ObjectInputFilter filter,
      int maxArrayLength,
      SegmentMemo memo,
      boolean bare) {
    this.classes = classes;
    this.filter = filter;
    this.maxArrayLength = maxArrayLength;
    this.memo = memo;
    this.bare = bare;
    this.resolvers = new MethodHandle[classes.size()];
  }

  /**
   * Resolves every constant, taking allocating constructors from {@code memo} where an earlier
   * segment of the same stream made them, and keeping there those it makes.
   *
   * @param constants the segment's constants
   * @param classes its class table, accepted by the filter
   * @param filter the effective serialization filter, or {@code null}
   * @param maxArrayLength the longest array a {@code readObject} may allocate
   * @param memo the stream's memo, or {@code null}
   * @param bare {@link #allocatesBare} of the snapshot: whether an allocator may resolve to its
   *     class, which {@link Allocation} creates without a constructor
   * @return the live values, in constant order
   * @throws ClassMismatchException if a constant does not fit the live classes
   */
  static Object[] resolve(
      List<Constant> constants,
      ClassTable classes,
      ObjectInputFilter filter,
      int maxArrayLength,
      SegmentMemo memo,
      boolean bare)
      throws ClassMismatchException {
    Constants resolver = new Constants(classes, filter, maxArrayLength, memo, bare);
    Object[] out = new Object[constants.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = constants.get(i).accept(resolver);
    }
    return out;
  }

  @Override
  public Object visitTypeRef(Constant.TypeRef t) throws ClassMismatchException {
    return classes.get(t.type());
  }

  @Override
  public Object visitStreamClassRef(Constant.StreamClassRef t) throws ClassMismatchException {
    return streamClass(classes.get(t.type()));
  }

  @Override
  public Object visitEnumRef(Constant.EnumRef e) throws ClassMismatchException {
    return enumConstant(classes.get(e.type()), e.name());
  }

  /** A static constant's value, read once the filter accepted its class ({@link Globals}). */
  @Override
  public Object visitStaticRef(Constant.StaticRef r) throws ClassMismatchException {
    return Globals.read(classes.get(r.type()), r.field());
  }

  /** A named global: one the options give, as {@link Globals#admit} made sure. */
  @Override
  public Object visitNamedRef(Constant.NamedRef n) {
    return classes.allowed().globals().get(n.name());
  }

  @Override
  public Object visitAllocator(Constant.Allocator a) throws ClassMismatchException {
    if (classes.hasGone() && a.type() >= 0 && a.type() < classes.size() && classes.gone(a.type())) {
      // a class not found: its objects are not made (ProgramCheck.NOT_MADE), allocating null
      return null;
    }
    return memo != null
        ? allocator(classes.get(a.type()), a.mode(), bare, memo)
        : allocator(classes.get(a.type()), a.mode(), bare);
  }

  /**
   * A JDK collection's maker, which calls its public constructor directly: the no-arg one, or the
   * one taking an initial capacity; {@code null} for a class that is not one of {@link Fills}'
   * classes, has no constructor taking a capacity or refuses the one given ({@link
   * Fills#minCapacity}), or for an {@code EnumMap} a key type that is no enum class of the table
   * ({@link Fills#keyed}), which {@link ProgramCheck} rejects if the code allocates with it.
   */
  @Override
  public Object visitSized(Constant.Sized s) throws ClassMismatchException {
    Class<?> c = classes.get(s.type());
    if (Fills.keyed(c)) {
      Class<?> key = classes.found(s.capacity());
      return key != null && key.isEnum() ? NewCollection.enumMap(key) : null;
    }
    if (Fills.kind(c) == Fills.NONE
        || (s.capacity() >= 0 && (!Fills.sized(c) || s.capacity() < Fills.minCapacity(c)))) {
      return null;
    }
    return NewCollection.of(c, s.capacity());
  }

  @Override
  public Object visitArrayMaker(Constant.ArrayMaker a) throws ClassMismatchException {
    Class<?> type = classes.get(a.type());
    if (!type.isArray()) {
      throw new ClassMismatchException(type.getName(), null, "expected an array class");
    }
    return type.getComponentType();
  }

  /**
   * Turns the resolved setter constants of a snapshot of format {@link Grammar#STORE_VERSION} or
   * later into the {@link FieldStore}s its code calls; for the loader, after the program check and
   * any adaptation of the code (both compare setters with the {@code Field}s they resolved to), and
   * before the first restore. A field removed since capture becomes an {@link FieldStore#inert}
   * store. Does nothing for earlier formats, whose code calls the {@code Field}s.
   *
   * @param file the snapshot
   * @param resolved its resolved constants, changed in place
   */
  static void toStores(SnapshotFile file, Object[] resolved) {
    if (file.version() < Grammar.STORE_VERSION) {
      return;
    }
    List<Constant> raw = file.constants();
    for (int i = 0; i < resolved.length; i++) {
      if (resolved[i] instanceof Field f && raw.get(i).tag() == Constant.SETTER) {
        resolved[i] = f.getDeclaringClass() == Hooks.class ? FieldStore.inert(f) : FieldStore.of(f);
      }
    }
  }

  @Override
  public Object visitSetter(Constant.Setter s) throws ClassMismatchException {
    return memo != null
        ? setter(classes, s.type(), s.field(), memo)
        : setter(classes, s.type(), s.field());
  }

  @Override
  public Object visitText(Constant.Text t) {
    return t.value();
  }

  @Override
  public Object visitPrimArray(Constant.PrimArray p) {
    return p.array();
  }

  @Override
  public Object visitTexts(Constant.Texts t) {
    return t.values();
  }

  @Override
  public Object visitHook(Constant.Hook h) throws ClassMismatchException {
    if (makers == null && h.kind() == Constant.HookKind.RECORD) {
      makers = new RecordMaker[classes.size()];
    }
    return hook(h, classes, makers, resolvers, filter, maxArrayLength);
  }

  /** The descriptor of {@code type} as {@code ObjectInputStream} reads one back. */
  private static Object streamClass(Class<?> type) throws ClassMismatchException {
    try {
      return StreamDescriptors.of(type);
    } catch (java.io.InvalidClassException e) {
      throw new ClassMismatchException(type.getName(), null, e.getMessage());
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumConstant(Class<?> type, String name) throws ClassMismatchException {
    if (!type.isEnum()) {
      throw new ClassMismatchException(type.getName(), null, "was an enum at capture, is not now");
    }
    try {
      return Enum.valueOf((Class) type, name);
    } catch (IllegalArgumentException e) {
      throw new ClassMismatchException(
          type.getName(), name, "enum constant " + name + " existed at capture but is gone now");
    }
  }

  /**
   * A snapshot that creates at least this many objects gets its objects from the JDK's
   * serialization constructors even where {@link Allocation} could do without them: making one
   * costs a fresh JVM about a millisecond per class (overlapping the code check, on the loading
   * thread), but each object then costs tens of nanoseconds less than {@code
   * Unsafe.allocateInstance}, a native call until the JIT compiles the caller (rbt-100000, one loop
   * of 100,000 nodes: read, load and restore 48.8 ms without them, 46.7 ms with them, median of 15
   * fresh JVMs; rbt-1000 28.2 ms without, 28.8 ms with, median of 21). The bound lies between the
   * graph sizes measured faster each way; the whole snapshot's count is what the loader knows
   * before it resolves the constants.
   */
  static final int BULK_ALLOCATION = 1 << 15;

  /**
   * Whether {@code file}'s allocators may resolve to their classes, which {@link Allocation}
   * creates without a constructor: from format version {@code Grammar.ALLOCATE_VERSION} on, in
   * snapshots of fewer than {@link #BULK_ALLOCATION} objects; otherwise every allocator is a
   * constructor.
   *
   * @param file a parsed snapshot
   * @return whether it allocates without constructors where it may
   */
  static boolean allocatesBare(SnapshotFile file) {
    return file.version() >= Grammar.ALLOCATE_VERSION
        && (long) file.tableSize() - file.firstId() < BULK_ALLOCATION;
  }

  private static Object allocator(Class<?> type, Constant.Mode mode, boolean bare, SegmentMemo memo)
      throws ClassMismatchException {
    Object allocator = memo.allocator(type, mode);
    if (allocator == null) {
      allocator = allocator(type, mode, bare);
      memo.allocator(type, mode, allocator);
    }
    return allocator;
  }

  /**
   * An allocator constant as generated code uses it: with {@code bare}, the class itself where
   * creating an instance as {@code ObjectInputStream} would runs no code ({@link Allocation});
   * otherwise, and always before format version {@code Grammar.ALLOCATE_VERSION}, the constructor
   * that creates it.
   */
  private static Object allocator(Class<?> type, Constant.Mode mode, boolean bare)
      throws ClassMismatchException {
    if (type.isPrimitive()
        || type.isArray()
        || type.isInterface()
        || java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
      throw new ClassMismatchException(
          type.getName(),
          null,
          "the snapshot allocates an instance"
              + " of it, which no class of this kind can have; the snapshot is damaged or crafted");
    }
    if (mode == Constant.Mode.EXTERNAL && !java.io.Externalizable.class.isAssignableFrom(type)) {
      throw new ClassMismatchException(type.getName(), null, "is not Externalizable");
    }
    if (bare && mode == Constant.Mode.BARE) {
      return type;
    }
    if (bare && mode == Constant.Mode.SERIAL) {
      Class<?> init = Jvm.serialInitClass(type);
      if (init != null && Jvm.hasTrivialConstructor(init)) {
        return type;
      }
    }
    Constructor<?> ctor =
        mode == Constant.Mode.SERIAL
            ? Jvm.serialConstructor(type)
            : mode == Constant.Mode.BARE
                ? Jvm.bareConstructor(type)
                : Jvm.externalConstructor(type);
    if (ctor == null) {
      throw new ClassMismatchException(
          type.getName(),
          null,
          mode == Constant.Mode.EXTERNAL
              ? "an Externalizable class needs a public no-arg constructor"
              : "its first non-serializable superclass has no accessible no-arg constructor");
    }
    return ctor;
  }

  private static Field setter(ClassTable classes, int type, String name, SegmentMemo memo)
      throws ClassMismatchException {
    if (classes.removed(type, name)) {
      return Evolution.REMOVED;
    }
    Field f = memo.setter(classes.get(type), name);
    if (f == null) {
      f = setter(classes, type, name);
      if (!classes.hookAdded().contains(type)) {
        // a class that gained readObject is asked again per segment, so each table records it
        memo.setter(classes.get(type), f);
      }
    }
    return f;
  }

  /**
   * A setter's field: one {@link ClassTable#writableField} allows (a serializable field, unless the
   * class is admitted), made accessible.
   */
  private static Field setter(ClassTable classes, int type, String name)
      throws ClassMismatchException {
    Field f = classes.writableField(type, name);
    if (f == null) {
      // removed since capture: the loader takes the stores out of the code
      return Evolution.REMOVED;
    }
    try {
      f.setAccessible(true);
      return f;
    } catch (RuntimeException e) {
      Class<?> c = classes.get(type);
      if (e instanceof java.lang.reflect.InaccessibleObjectException) {
        // only a snapshot captured where the package was opened sets such a field directly
        throw new ClassMismatchException(
            c.getName(),
            name,
            "field "
                + name
                + " cannot be set: module "
                + c.getModule().getName()
                + " does not open package "
                + c.getPackageName()
                + " to Codese in this JVM, and the snapshot sets it directly: it was captured"
                + " in a JVM started with --add-opens "
                + c.getModule().getName()
                + "/"
                + c.getPackageName()
                + "="
                + Jvm.openTarget()
                + "; restore it in a JVM started with that option"
                + (java.io.Serializable.class.isAssignableFrom(c)
                    ? ", or capture it again (this version captures Serializable classes"
                        + " so that they restore without it)"
                    : " (the class is not Serializable: only direct access restores its"
                        + " fields)"));
      }
      throw new ClassMismatchException(
          c.getName(), name, "field " + name + " cannot be set: " + e.getMessage());
    }
  }

  /**
   * Resolves a hook ({@link Evolution#REMOVED} for a class removed since capture from the hierarchy
   * of the object, {@link ClassTable#detach}); {@code makers} (not null from the first record hook
   * on) and {@code resolvers} cache, per class index, the class's record maker and its {@code
   * readResolve}.
   */
  private static Object hook(
      Constant.Hook h,
      ClassTable classes,
      RecordMaker[] makers,
      MethodHandle[] resolvers,
      ObjectInputFilter filter,
      int maxArray)
      throws ClassMismatchException {
    int c = h.type();
    // if-chains, not switches over enums: each switch loads a synthetic class per JVM
    Constant.HookKind k = h.kind();
    if (k == Constant.HookKind.SLOT && (classes.gone(c) || classes.detached(classes.get(c)))) {
      // a class removed from the object's hierarchy since capture: ObjectInputStream discards its
      // data, custom data and all, and calls none of its methods; Hooks skips the step
      return Evolution.REMOVED;
    }
    if (k == Constant.HookKind.SLOT) {
      Slot slot = classes.slot(c);
      boolean jdk = slot.readObject() != null && Jvm.isJdkClass(slot.type());
      return new HookCall(k, h.id(), h.tape(), slot, null, null, filter, maxArray, jdk);
    } else if (k == Constant.HookKind.EXTERNAL) {
      boolean jdk = Jvm.isJdkClass(classes.get(c));
      return new HookCall(k, h.id(), h.tape(), null, null, null, filter, maxArray, jdk);
    } else if (k == Constant.HookKind.RECORD) {
      if (makers[c] == null) {
        makers[c] = RecordMaker.of(classes.get(c), classes.slot(c));
      }
      return new HookCall(
          k, h.id(), h.tape(), classes.slot(c), null, makers[c], filter, maxArray, false);
    }
    if (resolvers[c] == null) {
      resolvers[c] = readResolve(classes.get(c));
    }
    return new HookCall(k, h.id(), null, null, resolvers[c], null, filter, maxArray, false);
  }

  /** {@code type}'s {@code readResolve}, adapted to {@code (Object)Object} once per class. */
  private static MethodHandle readResolve(Class<?> type) throws ClassMismatchException {
    MethodHandle h = Jvm.readResolveExact(type);
    if (h == null) {
      throw new ClassMismatchException(
          type.getName(), null, "had readResolve at capture but has none now");
    }
    return h;
  }
}
