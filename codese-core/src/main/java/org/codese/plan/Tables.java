package org.codese.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.jvm.SerialField;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;

/** Builds the class and constant tables of a plan, de-duplicating entries. */
final class Tables {
  private final Map<Class<?>, Integer> classIndex = new HashMap<>();
  private final List<Class<?>> classes = new ArrayList<>();
  private final List<List<SerialField>> fields = new ArrayList<>();
  private final Map<Constant, Integer> constantIndex = new HashMap<>();
  private final List<Constant> constants = new ArrayList<>();

  int type(Class<?> c) {
    Integer i = classIndex.get(c);
    if (i == null) {
      Class<?> element = c;
      while (element.isArray()) {
        element = element.getComponentType();
      }
      if (element != c && java.lang.reflect.Proxy.isProxyClass(element)) {
        // the loader makes the array class from the proxy class's entry (load.ClassTable): the
        // proxy class's name is made up by the capturing JVM
        type(element);
      }
      i = classes.size();
      classIndex.put(c, i);
      classes.add(c);
      fields.add(null);
    }
    return i;
  }

  /** Registers {@code c} with the fields the snapshot relies on, for its fingerprint. */
  /**
   * The index of {@code sc}'s class, listing first the classes of its slots (its serializable
   * superclasses), whose descriptors a JDK stream holds and asks the filter about: for an object
   * that no slot's fields or hooks list them for (a fill, a factory's object).
   */
  int typeWithSlots(org.codese.jvm.SerialClass sc) {
    for (org.codese.jvm.Slot s : sc.slots()) {
      type(s.type());
    }
    return type(sc.type());
  }

  int typeWithFields(Class<?> c, List<SerialField> f) {
    int i = type(c);
    fields.set(i, f);
    return i;
  }

  int constant(Constant c) {
    if (c instanceof Constant.PrimArray
        || c instanceof Constant.Hook
        || c instanceof Constant.Texts) {
      constants.add(c);
      return constants.size() - 1;
    }
    Integer i = constantIndex.get(c);
    if (i == null) {
      i = constants.size();
      constants.add(c);
      constantIndex.put(c, i);
    }
    return i;
  }

  /** Constant {@code i} of the table. */
  Constant constantAt(int i) {
    return constants.get(i);
  }

  List<Constant> constants() {
    return List.copyOf(constants);
  }

  List<ClassEntry> classes() {
    List<ClassEntry> out = new ArrayList<>(classes.size());
    for (int i = 0; i < classes.size(); i++) {
      out.add(entry(classes.get(i), fields.get(i)));
    }
    return out;
  }

  /**
   * The class entry made last for each class, with the field list it was made from: a class's entry
   * depends on nothing else, and captures of one shape ask for the same entries each time.
   */
  private static final ClassValue<LastEntry> ENTRIES =
      new ClassValue<>() {
        @Override
        protected LastEntry computeValue(Class<?> type) {
          return new LastEntry();
        }
      };

  /** One class's last entry; replaced whole, so that a reader sees a consistent pair. */
  private static final class LastEntry {
    volatile Made made;
  }

  private record Made(List<SerialField> fields, ClassEntry entry) {}

  private static ClassEntry entry(Class<?> c, List<SerialField> f) {
    LastEntry last = ENTRIES.get(c);
    Made made = last.made;
    if (made == null || made.fields() != f) {
      made = new Made(f, makeEntry(c, f));
      last.made = made;
    }
    return made.entry();
  }

  private static ClassEntry makeEntry(Class<?> c, List<SerialField> f) {
    if (java.lang.reflect.Proxy.isProxyClass(c)) {
      List<String> names = new ArrayList<>();
      for (Class<?> i : c.getInterfaces()) {
        names.add(i.getName());
      }
      return ClassEntry.proxy(c.getName(), names);
    }
    List<ClassEntry.FieldEntry> fe = new ArrayList<>();
    if (f != null) {
      for (SerialField sf : f) {
        fe.add(new ClassEntry.FieldEntry(sf.name(), sf.descriptor(), sf.field() != null));
      }
    }
    Long suid;
    try {
      suid = org.codese.jvm.Jvm.declaredSuid(c);
    } catch (IllegalStateException e) {
      suid = null; // unreadable here: not part of the fingerprint (see Jvm.declaredSuid)
    }
    if (suid != null) {
      return new ClassEntry(c.getName(), List.copyOf(fe), suid, true);
    }
    return new ClassEntry(c.getName(), List.copyOf(fe), computedSuid(c), false);
  }

  /**
   * The {@code serialVersionUID} {@code ObjectOutputStream} writes for a {@code Serializable} class
   * that declares none (or whose declared one cannot be read here), computed from the class's shape
   * as the JDK computes it; the loader compares it as {@code ObjectInputStream} does. 0, meaning
   * "not compared", for classes whose value the JDK never compares: not {@code Serializable},
   * arrays, enums and records (dynamic proxy classes have an entry of their own: {@link #entry}),
   * and where the JDK cannot compute it (a class a member's type names is missing).
   */
  private static long computedSuid(Class<?> c) {
    if (!java.io.Serializable.class.isAssignableFrom(c)
        || c.isArray()
        || c.isEnum()
        || c.isRecord()) {
      return 0;
    }
    try {
      java.io.ObjectStreamClass d = java.io.ObjectStreamClass.lookup(c);
      return d == null ? 0 : d.getSerialVersionUID();
    } catch (RuntimeException | LinkageError e) {
      return 0; // a member's type is missing: not compared (ObjectOutputStream fails there)
    }
  }
}
