package org.codese.jvm;

import java.io.Externalizable;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * How a class is captured and restored, computed once per class. Instances are immutable and
 * cached; obtain them with {@link #of(Class)}.
 */
public final class SerialClass {
  /** What kind of object a class describes, deciding how it is captured and restored. */
  public enum Kind {
    STRING,
    BOX,
    ENUM,
    CLASS,
    ARRAY,
    RECORD,
    EXTERNALIZABLE,
    INSTANCE
  }

  /** How an {@link Kind#INSTANCE} is allocated. */
  public enum Alloc {
    /** Run the no-arg constructor of the first non-serializable superclass, as the JDK does. */
    SERIAL,
    /** Run no constructor at all (classes that are not {@code Serializable}). */
    BARE
  }

  private static final ClassValue<SerialClass> CACHE =
      new ClassValue<>() {
        @Override
        protected SerialClass computeValue(Class<?> type) {
          return new SerialClass(type);
        }
      };

  private final Class<?> type;
  private final Kind kind;
  private final boolean serializable;
  private final Alloc alloc;
  private final List<Slot> slots;
  private final MethodHandle writeReplace;
  private final MethodHandle readResolve;
  private final String problem;

  private SerialClass(Class<?> type) {
    this.type = type;
    this.serializable = Serializable.class.isAssignableFrom(type);
    this.kind = kindOf(type);
    boolean custom = kind == Kind.INSTANCE || kind == Kind.RECORD || kind == Kind.EXTERNALIZABLE;
    this.writeReplace = custom && serializable ? Jvm.writeReplace(type) : null;
    this.readResolve = custom && serializable ? Jvm.readResolve(type) : null;
    Alloc a = null;
    List<Slot> s = List.of();
    String why = null;
    if (kind == Kind.INSTANCE) {
      if (serializable && Jvm.serialInitClass(type) != null) {
        a = Alloc.SERIAL;
        s = serialSlots(type);
      } else {
        a = Alloc.BARE;
        s = bareSlots(type);
      }
      why = problemOf(type, s);
    } else if (kind == Kind.EXTERNALIZABLE && Jvm.externalConstructor(type) == null) {
      why = "an Externalizable class needs a public no-arg constructor";
    }
    this.alloc = a;
    this.slots = s;
    this.problem = why;
  }

  /**
   * @param type any class
   * @return its cached description
   */
  public static SerialClass of(Class<?> type) {
    return CACHE.get(type);
  }

  /**
   * The kind of {@code type}, without the rest of what {@link #of} works out about it.
   *
   * @param type a class
   * @return its kind
   */
  public static Kind kindOf(Class<?> type) {
    if (type == String.class) {
      return Kind.STRING;
    } else if (type == Integer.class
        || type == Long.class
        || type == Boolean.class
        || type == Byte.class
        || type == Character.class
        || type == Short.class
        || type == Float.class
        || type == Double.class) {
      return Kind.BOX;
    } else if (Enum.class.isAssignableFrom(type) && type != Enum.class) {
      return Kind.ENUM;
    } else if (type == Class.class || type == java.io.ObjectStreamClass.class) {
      return Kind.CLASS;
    } else if (type.isArray()) {
      return Kind.ARRAY;
    } else if (type.isRecord()) {
      return Kind.RECORD;
    } else if (Externalizable.class.isAssignableFrom(type)) {
      return Kind.EXTERNALIZABLE;
    }
    return Kind.INSTANCE;
  }

  private static List<Slot> serialSlots(Class<?> type) {
    List<Class<?>> chain = new ArrayList<>();
    for (Class<?> c = type;
        c != null && Serializable.class.isAssignableFrom(c);
        c = c.getSuperclass()) {
      chain.add(0, c);
    }
    List<Slot> slots = new ArrayList<>(chain.size());
    for (Class<?> c : chain) {
      ObjectStreamClass desc = ObjectStreamClass.lookup(c);
      List<SerialField> fields = new ArrayList<>();
      for (ObjectStreamField f : desc.getFields()) {
        fields.add(new SerialField(f.getName(), f.getType(), realField(c, f), f.isUnshared()));
      }
      slots.add(slot(c, fields, Jvm.writeObject(c), Jvm.readObject(c), openedByItsModule(c)));
    }
    return List.copyOf(slots);
  }

  /**
   * Whether {@code c}'s module opens its package to every module by its own declaration: an unnamed
   * module, an open or automatic one, or an unqualified {@code opens}. Not what this JVM's {@code
   * --add-opens} options or {@code Module.addOpens} calls opened: a {@code Serializable} class's
   * fields are planned the same way whatever the flags of the capturing JVM, so that the snapshot
   * restores in a JVM started without them (through the class's default-field reads, which need no
   * access).
   */
  private static boolean openedByItsModule(Class<?> c) {
    Module m = c.getModule();
    if (!m.isNamed()) {
      return true;
    }
    java.lang.module.ModuleDescriptor d = m.getDescriptor();
    if (d == null || d.isOpen() || d.isAutomatic()) {
      return d != null;
    }
    String pkg = c.getPackageName();
    for (java.lang.module.ModuleDescriptor.Opens o : d.opens()) {
      if (!o.isQualified() && o.source().equals(pkg)) {
        return true;
      }
    }
    return false;
  }

  private static List<Slot> bareSlots(Class<?> type) {
    List<Class<?>> chain = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      chain.add(0, c);
    }
    List<Slot> slots = new ArrayList<>(chain.size());
    for (Class<?> c : chain) {
      List<SerialField> fields = new ArrayList<>();
      for (Field f : c.getDeclaredFields()) {
        int m = f.getModifiers();
        if (!Modifier.isStatic(m) && !Modifier.isTransient(m)) {
          fields.add(new SerialField(f.getName(), f.getType(), f));
        }
      }
      fields.sort(SerialField.ORDER);
      slots.add(slot(c, fields, null, null, true));
    }
    return List.copyOf(slots);
  }

  /**
   * A slot; {@code open} false makes a slot with fields inaccessible whatever reflection could
   * reach (see {@link #openedByItsModule}).
   */
  private static Slot slot(
      Class<?> c,
      List<SerialField> fields,
      MethodHandle writeObject,
      MethodHandle readObject,
      boolean open) {
    boolean accessible = true;
    for (SerialField f : fields) {
      if (f.field() != null && (!open || !f.field().trySetAccessible())) {
        accessible = false;
      }
    }
    return Slot.of(c, List.copyOf(fields), writeObject, readObject, accessible);
  }

  /**
   * The declared field that backs serializable field {@code f}, by the JDK's rule ({@code
   * ObjectStreamClass.getDeclaredSerialFields}): a non-static field of the same name and exactly
   * the same type; else {@code null}, and only {@code putFields} and {@code readFields} reach the
   * field.
   */
  private static Field realField(Class<?> c, ObjectStreamField f) {
    try {
      Field field = c.getDeclaredField(f.getName());
      boolean backs = field.getType() == f.getType() && !Modifier.isStatic(field.getModifiers());
      return backs ? field : null;
    } catch (NoSuchFieldException e) {
      return null;
    }
  }

  private static String problemOf(Class<?> type, List<Slot> slots) {
    if (Thread.class.isAssignableFrom(type)) {
      return "a Thread cannot be captured; mark the field that holds it transient (or make it"
          + " static), or keep it out of the graph";
    }
    if (type.isHidden() || type.isSynthetic() && type.getName().contains("$$Lambda")) {
      return "a lambda that is not Serializable cannot be captured; declare its target interface"
          + " Serializable (or cast it to an intersection with Serializable) or leave it out";
    }
    if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
      return "the class is abstract";
    }
    for (Slot s : slots) {
      if (!s.accessible() && !Serializable.class.isAssignableFrom(s.type())) {
        String opens = s.type().getModule().getName() + "/" + s.type().getPackageName();
        return (s.type() == type
                ? "the class is not Serializable and its fields are"
                : "the class is not Serializable and the fields of its superclass "
                    + s.type().getName()
                    + " are")
            + " closed to reflection (module "
            + s.type().getModule().getName()
            + " does not open package "
            + s.type().getPackageName()
            + "): its state is internal to "
            + (Jvm.isJdkClass(s.type()) ? "the JDK" : "that module")
            + ". Mark the field that holds it transient (or make it static), or keep the object"
            + " out of the graph. Only if its fields must be copied: the JVM option --add-opens "
            + opens
            + "="
            + Jvm.openTarget()
            + " opens them, and a snapshot captured with it restores only in a JVM"
            + " started with it too";
      }
    }
    return null;
  }

  /**
   * @return the described class
   */
  public Class<?> type() {
    return type;
  }

  /**
   * @return the kind of object
   */
  public Kind kind() {
    return kind;
  }

  /**
   * @return whether the class implements {@code Serializable}
   */
  public boolean serializable() {
    return serializable;
  }

  /**
   * @return how instances are allocated; only for {@link Kind#INSTANCE}
   */
  public Alloc alloc() {
    return alloc;
  }

  /**
   * @return the slots, superclass first; only for {@link Kind#INSTANCE}
   */
  public List<Slot> slots() {
    return slots;
  }

  /**
   * @return the {@code writeReplace} handle {@code (Object)Object}, or {@code null}
   */
  public MethodHandle writeReplace() {
    return writeReplace;
  }

  /**
   * @return whether instances are replaced by {@code readResolve} on restore
   */
  public boolean resolves() {
    return readResolve != null;
  }

  /**
   * @return why instances cannot be captured, or {@code null} if they can
   */
  public String problem() {
    return problem;
  }

  /**
   * @return the record's fields in serialization order, for {@link Kind#RECORD}
   */
  public List<SerialField> recordFields() {
    List<SerialField> fields = recordFields;
    if (fields == null) {
      fields = List.copyOf(readRecordFields());
      recordFields = fields; // racy but idempotent: every thread computes the same list
    }
    return fields;
  }

  /**
   * What {@link #recordFields()} answers, made once per class: capture and the planner ask for
   * every record they meet, and finding the fields by reflection costs far more than the record.
   */
  private volatile List<SerialField> recordFields;

  private List<SerialField> readRecordFields() {
    List<SerialField> fields = new ArrayList<>();
    for (RecordComponent rc : type.getRecordComponents()) {
      try {
        Field f = type.getDeclaredField(rc.getName());
        f.trySetAccessible();
        fields.add(new SerialField(rc.getName(), rc.getType(), f));
      } catch (NoSuchFieldException e) {
        throw new IllegalStateException("record component without field: " + rc, e);
      }
    }
    fields.sort(SerialField.ORDER);
    return fields;
  }
}
