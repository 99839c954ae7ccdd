package org.codese.jvm;

import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import sun.reflect.ReflectionFactory;

/**
 * The JVM facilities serialization libraries are given: {@link ReflectionFactory} (module {@code
 * jdk.unsupported}) for constructors that skip user constructors and for handles to private
 * serialization methods. Nothing here prints a warning on any supported JDK.
 */
public final class Jvm {
  /** The first JDK whose {@code ReflectionFactory} reads and writes default fields for us. */
  static final int FIRST_JDK_WITH_DEFAULT_FIELD_HANDLES = 24;

  private static final ReflectionFactory FACTORY = ReflectionFactory.getReflectionFactory();
  private static final int FEATURE = Runtime.version().feature();

  /**
   * The last JDK whose {@code sun.misc.Unsafe} tells whether a class is initialised without
   * initialising it: JDK 22 removed {@code shouldBeInitialized} and gave no replacement.
   */
  static final int LAST_JDK_WITH_INITIALISATION_QUERY = 21;

  private Jvm() {}

  /**
   * Whether {@code type}'s static initialiser may have run, told without running it.
   *
   * @param type a loaded class
   * @return {@code false} only if the class is certainly not initialised yet (nor being
   *     initialised); {@code true} if it is, or if this JDK cannot tell without initialising it
   *     (JDK 22 and later)
   */
  @SuppressWarnings("removal")
  public static boolean mayBeInitialised(Class<?> type) {
    return FEATURE > LAST_JDK_WITH_INITIALISATION_QUERY
        || !TheUnsafe.UNSAFE.shouldBeInitialized(type);
  }

  /**
   * @return whether default fields of classes closed to deep reflection are reached through {@code
   *     ReflectionFactory} handles (JDK 24 and later) rather than {@code sun.misc.Unsafe}
   */
  public static boolean hasDefaultFieldHandles() {
    return FEATURE >= FIRST_JDK_WITH_DEFAULT_FIELD_HANDLES;
  }

  /**
   * The constructor Java serialization uses: allocates {@code type} and runs only the no-arg
   * constructor of its first non-serializable superclass.
   *
   * @param type a serializable class
   * @return the constructor, or {@code null} if that superclass has no accessible no-arg one
   */
  public static Constructor<?> serialConstructor(Class<?> type) {
    return Constructors.SERIAL.get(type);
  }

  /**
   * The class whose no-arg constructor Java serialization runs to allocate {@code c}, as {@code
   * jdk.internal.reflect.ReflectionFactory.newConstructorForSerialization} (which {@code
   * ObjectStreamClass} uses) decides it, without generating the constructor: the first
   * non-serializable superclass, if every class of the serializable chain may call its superclass's
   * constructors and that class's no-arg constructor is not private and, if package-private, in
   * {@code c}'s package and loader.
   *
   * @param c a {@code Serializable} class
   * @return the class, or {@code null} where the JDK reports "no valid constructor"
   */
  public static Class<?> serialInitClass(Class<?> c) {
    Class<?> init = c;
    while (Serializable.class.isAssignableFrom(init)) {
      Class<?> prev = init;
      init = init.getSuperclass();
      if (init == null || !superHasAccessibleConstructor(prev)) {
        return null;
      }
    }
    Constructor<?> ctor;
    try {
      ctor = init.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      return null;
    }
    int mods = ctor.getModifiers();
    if (Modifier.isPrivate(mods)
        || (mods & (Modifier.PUBLIC | Modifier.PROTECTED)) == 0 && !samePackage(c, init)) {
      return null;
    }
    return init;
  }

  private static boolean superHasAccessibleConstructor(Class<?> c) {
    Class<?> sup = c.getSuperclass();
    if (samePackage(c, sup)) {
      for (Constructor<?> ctor : sup.getDeclaredConstructors()) {
        if (!Modifier.isPrivate(ctor.getModifiers())) {
          return true;
        }
      }
      return c.isNestmateOf(sup);
    }
    if ((sup.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED)) == 0) {
      return false;
    }
    for (Constructor<?> ctor : sup.getDeclaredConstructors()) {
      if ((ctor.getModifiers() & (Modifier.PUBLIC | Modifier.PROTECTED)) != 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean samePackage(Class<?> a, Class<?> b) {
    return a.getClassLoader() == b.getClassLoader()
        && a.getPackageName().equals(b.getPackageName());
  }

  /**
   * Whether {@code type}'s no-arg constructor does nothing but call its superclass's, which does
   * nothing either, up to {@code Object}'s, and store default values (zero, {@code null}) into
   * fields of a new object: whether creating an object without it is the same as creating it with
   * it. Known for {@code Object} and the JDK's abstract bases that are the first non-serializable
   * superclass of its serializable collections; {@code JvmTest} reads their constructors' bytecode
   * on the running JDK to check it.
   *
   * @param type a class
   * @return whether its no-arg constructor is known to do nothing
   */
  public static boolean hasTrivialConstructor(Class<?> type) {
    return type == Object.class
        || type == java.util.AbstractMap.class
        || type == java.util.AbstractList.class
        || type == java.util.AbstractCollection.class
        || type == java.util.AbstractSet.class
        || type == java.util.AbstractSequentialList.class
        || type == java.util.AbstractQueue.class
        || type == java.util.Dictionary.class;
  }

  /**
   * Creates an instance of {@code type} without running any constructor, as {@link
   * #bareConstructor} would, but without the class the JDK generates for that constructor.
   *
   * @param type a class that is not abstract, an interface, an array or primitive
   * @return the new, zeroed instance (the class initialised if it was not)
   * @throws InstantiationException if {@code type} cannot have instances
   */
  public static Object allocateInstance(Class<?> type) throws InstantiationException {
    return TheUnsafe.UNSAFE.allocateInstance(type);
  }

  /**
   * The target of the {@code --add-opens} option that opens a package to Codese, for messages:
   * {@code org.codese} when Codese runs as a named module (on the module path), {@code ALL-UNNAMED}
   * when it runs on the class path.
   *
   * @return the module name to put after {@code =} in {@code --add-opens module/package=...}
   */
  public static String openTarget() {
    Module m = Jvm.class.getModule();
    return m.isNamed() ? m.getName() : "ALL-UNNAMED";
  }

  /**
   * @param c any class
   * @return whether the JDK defines it: loaded by the bootstrap or the platform class loader
   */
  public static boolean isJdkClass(Class<?> c) {
    ClassLoader l = c.getClassLoader();
    return l == null || l == ClassLoader.getPlatformClassLoader();
  }

  /**
   * A constructor that allocates {@code type} and runs no user constructor at all.
   *
   * @param type any non-abstract class
   * @return the constructor
   */
  public static Constructor<?> bareConstructor(Class<?> type) {
    return Constructors.BARE.get(type);
  }

  /**
   * Serialization constructors, made once per class and kept with it: on JDK 17 each {@code
   * newConstructorForSerialization} call generates a class of its own, so that every load of a
   * snapshot of a known class made one more, and the first restore after each load ran that fresh,
   * unprofiled class (the next loads of a model checker's states). Named classes in a holder, so
   * that a load that allocates without constructors loads none of them.
   */
  private static final class Constructors extends ClassValue<Constructor<?>> {
    static final Constructors SERIAL = new Constructors(false);
    static final Constructors BARE = new Constructors(true);

    /** Whether the constructor runs no constructor at all ({@link #bareConstructor}). */
    private final boolean bare;

    private Constructors(boolean bare) {
      this.bare = bare;
    }

    @Override
    protected Constructor<?> computeValue(Class<?> type) {
      if (!bare) {
        return FACTORY.newConstructorForSerialization(type);
      }
      try {
        return FACTORY.newConstructorForSerialization(type, Object.class.getDeclaredConstructor());
      } catch (NoSuchMethodException e) {
        throw new AssertionError("Object has a no-arg constructor", e);
      }
    }
  }

  /**
   * @param type an externalizable class
   * @return its public no-arg constructor, or {@code null}
   */
  public static Constructor<?> externalConstructor(Class<?> type) {
    return FACTORY.newConstructorForExternalization(type);
  }

  static MethodHandle writeObject(Class<?> type) {
    return declaresPrivate(type, "writeObject", "java.io.ObjectOutputStream")
        ? FACTORY.writeObjectForSerialization(type)
        : null;
  }

  /**
   * @param type any class
   * @return {@code type}'s {@code private void readObject(ObjectInputStream)} as Java serialization
   *     calls it, or {@code null} if the class is not {@code Serializable} or declares none
   */
  public static MethodHandle readObject(Class<?> type) {
    return declaresReadObject(type) ? FACTORY.readObjectForSerialization(type) : null;
  }

  /**
   * @param type any class
   * @return whether {@code type} declares {@code private void readObject(ObjectInputStream)}
   */
  public static boolean declaresReadObject(Class<?> type) {
    // by the parameter's name: the class literal would load ObjectInputStream, a large class of the
    // runtime image (not of the class-data archive), into every load that checks a class
    return declaresPrivate(type, "readObject", "java.io.ObjectInputStream");
  }

  /**
   * Whether {@code c} declares the private, non-static {@code void name(parameter)}. Scans the
   * declared methods rather than asking for this one, as {@code ReflectionFactory} does: a missing
   * method is a {@code NoSuchMethodException} whose message the JDK builds with streams and a
   * lambda, milliseconds in a cold JVM, and most classes declare no such method.
   */
  private static boolean declaresPrivate(Class<?> c, String name, String parameter) {
    return privateMethod(c, name, parameter) != null;
  }

  /**
   * The private, non-static {@code void name(parameter)} that {@code c} itself declares, as Java
   * serialization looks for its hook methods, found by a scan of the declared methods ({@link
   * #declaresPrivate}).
   *
   * @param c any class
   * @param name the method's name
   * @param parameter its one parameter type, or {@code null} for a method without parameters
   * @return the method, not made accessible, or {@code null} if {@code c} declares none
   */
  public static java.lang.reflect.Method privateMethod(
      Class<?> c, String name, Class<?> parameter) {
    java.lang.reflect.Method m =
        privateMethod(c, name, parameter == null ? null : parameter.getName());
    // a class declares one method of a name and a descriptor: the one whose parameter has this name
    return m == null || parameter == null || m.getParameterTypes()[0] == parameter ? m : null;
  }

  /**
   * As {@link #privateMethod(Class, String, Class)}, the parameter type given by its binary name,
   * which names one class for the JDK's own types (only the boot loader defines {@code java.*}), so
   * that asking does not load the class (a method {@code c} declares with it has loaded it).
   *
   * @param c any class
   * @param name the method's name
   * @param parameter the binary name of its one parameter type, or {@code null} for a method
   *     without parameters
   * @return the method, not made accessible, or {@code null} if {@code c} declares none
   */
  private static java.lang.reflect.Method privateMethod(Class<?> c, String name, String parameter) {
    int count = parameter == null ? 0 : 1;
    for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
      int mods = m.getModifiers();
      if (m.getName().equals(name)
          && m.getParameterCount() == count
          && (count == 0 || m.getParameterTypes()[0].getName().equals(parameter))
          && m.getReturnType() == void.class
          && java.lang.reflect.Modifier.isPrivate(mods)
          && !java.lang.reflect.Modifier.isStatic(mods)) {
        return m;
      }
    }
    return null;
  }

  static MethodHandle writeReplace(Class<?> type) {
    return FACTORY.writeReplaceForSerialization(type);
  }

  public static MethodHandle readResolve(Class<?> type) {
    return FACTORY.readResolveForSerialization(type);
  }

  /**
   * {@link #readObject}, adapted once to {@code (Object, ObjectInputStream)void} for {@code
   * invokeExact} and kept with the class, so that every load of a snapshot of the class calls the
   * same handle: HotSpot customises a handle invoked many times from one call site, spinning a
   * lambda-form class for that instance, so that a handle made per load made a class per load.
   *
   * @param type any class
   * @return the adapted handle, or {@code null} if {@code type} declares no {@code readObject}
   */
  public static MethodHandle readObjectExact(Class<?> type) {
    return HookHandles.READ_OBJECT.get(type);
  }

  /**
   * {@link #readResolve}, adapted once to {@code (Object)Object} and kept with the class, as {@link
   * #readObjectExact}.
   *
   * @param type any class
   * @return the adapted handle, or {@code null} if {@code type} has no {@code readResolve}
   */
  public static MethodHandle readResolveExact(Class<?> type) {
    return HookHandles.READ_RESOLVE.get(type);
  }

  /**
   * The adapted hook handles of {@link #readObjectExact} and {@link #readResolveExact}. Named
   * classes in a holder, so that a restore without hooks loads none of them.
   */
  private static final class HookHandles extends ClassValue<MethodHandle> {
    static final HookHandles READ_OBJECT = new HookHandles(true);
    static final HookHandles READ_RESOLVE = new HookHandles(false);

    private final boolean readObject;

    private HookHandles(boolean readObject) {
      this.readObject = readObject;
    }

    @Override
    protected MethodHandle computeValue(Class<?> type) {
      if (readObject) {
        MethodHandle h = readObject(type);
        return h == null
            ? null
            : h.asType(MethodType.methodType(void.class, Object.class, ObjectInputStream.class));
      }
      MethodHandle h = readResolve(type);
      return h == null ? null : h.asType(MethodType.methodType(Object.class, Object.class));
    }
  }

  /**
   * On JDK 24+, a handle {@code (Object, ObjectOutputStream)void} that writes {@code type}'s
   * default fields through {@link ObjectOutputStream#putFields()} and {@code writeFields()}.
   *
   * @param type a serializable class
   * @return the handle
   */
  static MethodHandle defaultWriteObject(Class<?> type) {
    return Handles.DEFAULT_WRITE.get(type);
  }

  /**
   * On JDK 24+, a handle {@code (Object, ObjectInputStream)void} that reads {@code type}'s default
   * fields through {@link ObjectInputStream#readFields()}.
   *
   * @param type a serializable class
   * @return the handle
   */
  static MethodHandle defaultReadObject(Class<?> type) {
    return Handles.DEFAULT_READ.get(type);
  }

  /**
   * Default-field handles, made once per class: making one costs a reflective look-up. Named
   * classes in a holder, so that a restore without hooks loads none of them.
   */
  private static final class Handles extends ClassValue<MethodHandle> {
    static final Handles DEFAULT_READ =
        new Handles("defaultReadObjectForSerialization", java.io.ObjectInputStream.class);
    static final Handles DEFAULT_WRITE =
        new Handles("defaultWriteObjectForSerialization", java.io.ObjectOutputStream.class);

    private final String factoryMethod;
    private final MethodType exact;

    private Handles(String factoryMethod, Class<?> stream) {
      this.factoryMethod = factoryMethod;
      this.exact = MethodType.methodType(void.class, Object.class, stream);
    }

    /** The handle, adapted once to {@code (Object, stream)void} for {@code invokeExact}. */
    @Override
    protected MethodHandle computeValue(Class<?> type) {
      MethodHandle h = factoryHandle(factoryMethod, type);
      return h == null ? null : h.asType(exact);
    }
  }

  /**
   * @param eof whether the exception reports the end of custom data
   * @return the exception {@code readObject} throws when primitive data or the end of data is found
   *     where an object was expected
   */
  public static java.io.OptionalDataException optionalData(boolean eof) {
    return FACTORY.newOptionalDataExceptionForSerialization(eof);
  }

  /** Per class, its declared {@code serialVersionUID} or {@link #NO_SUID}. */
  private static final ClassValue<Object> SUIDS = new Suids();

  /** A named class rather than an anonymous one: see {@code RestoreClassesTest}. */
  private static final class Suids extends ClassValue<Object> {
    @Override
    protected Object computeValue(Class<?> c) {
      Long v = readSuid(c, false);
      return v == null ? NO_SUID : v;
    }
  }

  private static final Object NO_SUID = new Object();

  /**
   * The {@code serialVersionUID} {@code c} declares, as {@code ObjectStreamClass} finds it: a
   * declared field of that name, {@code static} and {@code final}, whose value widens to {@code
   * long}. The value describes the class, not what this JVM may see of it: where the field is open
   * to Codese it is read by reflection, which initialises the class (as {@code ObjectStreamClass}
   * does); where it is not (a package the class's module does not open, as the JDK's own, unless
   * the JVM was started with {@code --add-opens}), before JDK 24 through {@code sun.misc.Unsafe}
   * once the class is initialised, from JDK 24 on from the field's {@code ConstantValue} in the
   * class file, which needs no access and initialises nothing; and where the value is not a
   * constant there, for a {@code Serializable} class, through {@code ObjectStreamClass}. Cached per
   * class.
   *
   * @param c any class
   * @return its declared {@code serialVersionUID}, or {@code null} if it declares none
   * @throws IllegalStateException if it declares one that none of these ways can read (a class that
   *     is not {@code Serializable}, of a package not open to Codese, whose value the static
   *     initialiser computes)
   */
  public static Long declaredSuid(Class<?> c) {
    Object v = SUIDS.get(c);
    return v == NO_SUID ? null : (Long) v;
  }

  /**
   * Makes the first {@link #declaredSuid} reads of a cold JVM cheap, where they are not already:
   * from JDK 24 on, the first read of a {@code static final long} by reflection generates the
   * accessor's method-handle form (about 5 ms), and the first class file read from the runtime
   * image (how the value of a class of a closed JDK module is read) opens it (about 7 ms). Does
   * both for classes of its own, so that a loader can do it on a background thread while it parses
   * and checks a snapshot; does nothing before JDK 24. Thread-safe; never throws.
   */
  public static void prepareSuidReads() {
    if (!hasDefaultFieldHandles()) {
      return;
    }
    try {
      declaredSuid(SuidProbe.class);
      ClassFileSuid.read(java.util.Random.class);
    } catch (RuntimeException | LinkageError e) {
      // the reads that need it pay the cost themselves, and report what goes wrong
    }
  }

  /** The JDK's own filter factory, whose only effect besides its result is a trace message. */
  private static final String BUILTIN_FILTER_FACTORY =
      "java.io.ObjectInputFilter$Config$BuiltinFilterFactory";

  /**
   * Sets up the JVM-wide serialization filter configuration, as the first {@code ObjectInputStream}
   * would, and makes the first call of the built-in filter factory (which sets up its trace logger,
   * a few ms in a cold JVM); for a background thread. Only the public getter is called, so the
   * factory stays replaceable ({@code Config.setSerialFilterFactory}) until a stream is made. A
   * failure is ignored: whoever asks for the configuration next meets it.
   */
  public static void prepareFilterConfig() {
    try {
      var factory = java.io.ObjectInputFilter.Config.getSerialFilterFactory();
      if (factory.getClass().getName().equals(BUILTIN_FILTER_FACTORY)) {
        factory.apply(null, null);
      }
    } catch (RuntimeException | Error e) {
      // only a warm-up: reported where the configuration is asked for
    }
  }

  /** A class with a {@code serialVersionUID} for {@link #prepareSuidReads} to read. */
  private static final class SuidProbe implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * As {@link #declaredSuid}, but from the class file first wherever the value is a constant there,
   * so that the class is initialised only where the value is not (for tools that must not run a
   * class's code, such as {@code codese verify}). Costs a read of the class file; not cached.
   *
   * @param c any class
   * @return its declared {@code serialVersionUID}, or {@code null} if it declares none
   * @throws IllegalStateException as {@link #declaredSuid}
   */
  public static Long declaredSuidFromClassFile(Class<?> c) {
    return readSuid(c, true);
  }

  private static Long readSuid(Class<?> c, boolean classFileFirst) {
    if (c.isPrimitive() || c.isArray()) {
      return null;
    }
    Field f;
    try {
      f = c.getDeclaredField("serialVersionUID");
    } catch (NoSuchFieldException e) {
      return null;
    }
    int mask = Modifier.STATIC | Modifier.FINAL;
    Class<?> t = f.getType();
    if ((f.getModifiers() & mask) != mask
        || !(t == long.class
            || t == int.class
            || t == short.class
            || t == char.class
            || t == byte.class)) {
      return null; // ObjectStreamClass ignores it (its Field.getLong fails for other types)
    }
    Long constant = classFileFirst ? ClassFileSuid.read(c) : null;
    if (constant != null) {
      return constant;
    }
    try {
      if (f.trySetAccessible()) {
        return f.getLong(null);
      }
    } catch (IllegalAccessException e) {
      // not accessible after all: as if closed
    }
    if (!classFileFirst && !hasDefaultFieldHandles()) {
      // before JDK 24 sun.misc.Unsafe reads it without a class file read (about 2 ms in a cold
      // JVM for the first one), once the class is initialised as reflection would initialise it
      try {
        Class.forName(c.getName(), true, c.getClassLoader());
        return UnsafeFields.getStaticIntegral(f);
      } catch (ClassNotFoundException | LinkageError e) {
        // a hidden class, or one its loader does not find by name: read the class file
      }
    }
    constant = classFileFirst ? null : ClassFileSuid.read(c);
    if (constant != null) {
      return constant;
    }
    if (Serializable.class.isAssignableFrom(c)) {
      return ObjectStreamClass.lookup(c).getSerialVersionUID();
    }
    throw new IllegalStateException(
        c.getName()
            + " declares a serialVersionUID that is not a constant, and module "
            + c.getModule().getName()
            + " does not open package "
            + c.getPackageName()
            + " to Codese");
  }

  /**
   * The value of a class's {@code serialPersistentFields}, as {@code ObjectStreamClass} reads it,
   * without {@code ObjectStreamClass} (whose first use costs milliseconds in a cold JVM). Reading
   * it initialises the class.
   *
   * @param c a {@code Serializable} class
   * @param declared its {@code private static final ObjectStreamField[] serialPersistentFields}
   * @return a copy of the array, or {@code null} where the field holds {@code null}
   */
  public static ObjectStreamField[] serialPersistentFields(Class<?> c, Field declared) {
    Object value;
    try {
      if (declared.trySetAccessible()) {
        value = declared.get(null);
      } else if (hasDefaultFieldHandles()) {
        value =
            ReflectionFactory.class
                .getMethod("serialPersistentFields", Class.class)
                .invoke(FACTORY, c);
      } else {
        Class.forName(c.getName(), true, c.getClassLoader());
        value = UnsafeFields.getStatic(declared);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "serialPersistentFields of " + c.getName() + " cannot be read on JDK " + FEATURE, e);
    }
    return value == null ? null : ((ObjectStreamField[]) value).clone();
  }

  private static MethodHandle factoryHandle(String name, Class<?> type) {
    try {
      MethodHandle getter =
          MethodHandles.publicLookup()
              .findVirtual(
                  ReflectionFactory.class,
                  name,
                  MethodType.methodType(MethodHandle.class, Class.class));
      return (MethodHandle) getter.invoke(FACTORY, type);
    } catch (Throwable e) {
      throw new IllegalStateException(
          "ReflectionFactory." + name + " is missing on JDK " + FEATURE, e);
    }
  }
}
