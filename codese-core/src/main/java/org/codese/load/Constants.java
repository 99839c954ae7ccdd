package org.codese.load;

import java.io.ObjectInputFilter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.List;
import org.codese.ClassMismatchException;
import org.codese.jvm.Jvm;
import org.codese.jvm.Types;
import org.codese.program.Constant;

/**
 * Resolves a snapshot's constant table to the live values generated code loads. Runs after the
 * serialization filter accepted every class: resolving initialises classes ({@code
 * ObjectStreamClass.lookupAny}, {@code Enum.valueOf}, constructors and method handles).
 */
final class Constants {
  private Constants() {}

  /**
   * Resolves every constant.
   *
   * @param constants the snapshot's constants
   * @param classes its class table, accepted by the filter
   * @param filter the effective serialization filter, or {@code null}; hooks ask it about the
   *     arrays a class's own {@code readObject} allocates
   * @param maxArrayLength the longest array such a {@code readObject} may allocate
   * @return the live values, in constant order
   * @throws ClassMismatchException if a constant does not fit the live classes
   */
  static Object[] resolve(List<Constant> constants, ClassTable classes, ObjectInputFilter filter,
      int maxArrayLength) throws ClassMismatchException {
    Object[] out = new Object[constants.size()];
    // per class index: the canonical constructor, then readResolve (a record may have both)
    MethodHandle[] handles = new MethodHandle[2 * classes.size()];
    for (int i = 0; i < out.length; i++) {
      Constant c = constants.get(i);
      out[i] = c instanceof Constant.Hook h
          ? hook(h, classes, handles, filter, maxArrayLength)
          : resolve(c, classes);
    }
    return out;
  }

  private static Object resolve(Constant c, ClassTable classes) throws ClassMismatchException {
    if (c instanceof Constant.TypeRef t) {
      return classes.get(t.type());
    } else if (c instanceof Constant.StreamClassRef t) {
      return java.io.ObjectStreamClass.lookupAny(classes.get(t.type()));
    } else if (c instanceof Constant.EnumRef e) {
      return enumConstant(classes.get(e.type()), e.name());
    } else if (c instanceof Constant.Allocator a) {
      return allocator(classes.get(a.type()), a.mode());
    } else if (c instanceof Constant.ArrayMaker a) {
      Class<?> type = classes.get(a.type());
      if (!type.isArray()) {
        throw new ClassMismatchException(type.getName(), null, "expected an array class");
      }
      return type.getComponentType();
    } else if (c instanceof Constant.Setter s) {
      return setter(classes, s.type(), s.field());
    } else if (c instanceof Constant.Text t) {
      return t.value();
    } else if (c instanceof Constant.PrimArray p) {
      return p.array();
    } else if (c instanceof Constant.Texts t) {
      return t.values();
    }
    throw new IllegalArgumentException("unknown constant " + c);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumConstant(Class<?> type, String name) throws ClassMismatchException {
    if (!type.isEnum()) {
      throw new ClassMismatchException(type.getName(), null, "was an enum at capture, is not now");
    }
    try {
      return Enum.valueOf((Class) type, name);
    } catch (IllegalArgumentException e) {
      throw new ClassMismatchException(type.getName(), name, "enum constant " + name
          + " existed at capture but is gone now");
    }
  }

  private static Constructor<?> allocator(Class<?> type, Constant.Mode mode)
      throws ClassMismatchException {
    if (type.isPrimitive() || type.isArray() || type.isInterface()
        || java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
      throw new ClassMismatchException(type.getName(), null, "the snapshot allocates an instance"
          + " of it, which no class of this kind can have; the snapshot is damaged or crafted");
    }
    if (mode == Constant.Mode.EXTERNAL && !java.io.Externalizable.class.isAssignableFrom(type)) {
      throw new ClassMismatchException(type.getName(), null, "is not Externalizable");
    }
    Constructor<?> ctor = switch (mode) {
      case SERIAL -> Jvm.serialConstructor(type);
      case BARE -> Jvm.bareConstructor(type);
      case EXTERNAL -> Jvm.externalConstructor(type);
    };
    if (ctor == null) {
      throw new ClassMismatchException(type.getName(), null, mode == Constant.Mode.EXTERNAL
          ? "an Externalizable class needs a public no-arg constructor"
          : "its first non-serializable superclass has no accessible no-arg constructor");
    }
    return ctor;
  }

  /**
   * A setter's field: one {@link ClassTable#writableField} allows (a serializable field, unless
   * the class is admitted), made accessible.
   */
  private static Field setter(ClassTable classes, int type, String name)
      throws ClassMismatchException {
    Field f = classes.writableField(type, name);
    try {
      f.setAccessible(true);
      return f;
    } catch (RuntimeException e) {
      throw new ClassMismatchException(classes.get(type).getName(), name, "field " + name
          + " cannot be set: " + e.getMessage());
    }
  }

  /**
   * Resolves a hook; {@code handles} caches, per class index {@code i}, the class's canonical
   * constructor at {@code 2i} and its {@code readResolve} at {@code 2i + 1}.
   */
  private static HookCall hook(Constant.Hook h, ClassTable classes, MethodHandle[] handles,
      ObjectInputFilter filter, int maxArray) throws ClassMismatchException {
    Class<?> type = classes.get(h.type());
    return switch (h.kind()) {
      case SLOT -> new HookCall(h.kind(), type, h.id(), h.tape(), classes.slot(h.type()), null,
          filter, maxArray);
      case EXTERNAL -> new HookCall(h.kind(), type, h.id(), h.tape(), null, null, filter,
          maxArray);
      case RECORD -> {
        int at = 2 * h.type();
        if (handles[at] == null) {
          handles[at] = canonicalConstructor(type);
        }
        yield new HookCall(h.kind(), type, h.id(), h.tape(), classes.slot(h.type()),
            handles[at], filter, maxArray);
      }
      case RESOLVE -> {
        int at = 2 * h.type() + 1;
        if (handles[at] == null) {
          handles[at] = readResolve(type);
        }
        yield new HookCall(h.kind(), type, h.id(), null, null, handles[at], filter, maxArray);
      }
    };
  }

  private static MethodHandle readResolve(Class<?> type) throws ClassMismatchException {
    MethodHandle h = Jvm.readResolve(type);
    if (h == null) {
      throw new ClassMismatchException(type.getName(), null,
          "had readResolve at capture but has none now");
    }
    return h;
  }

  private static MethodHandle canonicalConstructor(Class<?> type) throws ClassMismatchException {
    if (!type.isRecord()) {
      throw new ClassMismatchException(type.getName(), null, "was a record at capture, is not now");
    }
    RecordComponent[] comps = type.getRecordComponents();
    Class<?>[] params = new Class<?>[comps.length];
    for (int i = 0; i < comps.length; i++) {
      params[i] = comps[i].getType();
    }
    try {
      Constructor<?> ctor = type.getDeclaredConstructor(params);
      ctor.setAccessible(true);
      return MethodHandles.lookup().unreflectConstructor(ctor);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ClassMismatchException(type.getName(), null,
          "its canonical constructor cannot be called: " + e.getMessage());
    }
  }
}
