package org.codese.testkit;

import java.io.Externalizable;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Walks an original graph and a restored copy in parallel, iteratively (an explicit stack, so a
 * chain of millions of objects is fine), and checks what JDK serialization bytes cannot see:
 *
 * <ul>
 *   <li>at each position the copy has the same class as the original;
 *   <li>original-to-copy is a bijection: shared objects stay shared, distinct objects stay distinct
 *       (also distinct but equal strings and boxes);
 *   <li>the copy is never the original object, except where it must be the very same instance: enum
 *       constants, {@code Class} objects, the JDK's cached boxes (a cached box must come back as
 *       the cached box, a non-cached box as a non-cached one), and objects that JDK deserialization
 *       itself maps to the original instance (readResolve singletons);
 *   <li>values: primitive fields and array elements, strings, boxes; objects of classes in closed
 *       JDK packages by their public view (elements and entries of collections and maps, in
 *       iteration order, comparators, atomics) or else by {@code equals};
 *   <li>after the walk, look-ups in restored maps and sets ({@code get}, {@code contains}) find the
 *       restored keys: hashes and orders were rebuilt from the restored state.
 * </ul>
 *
 * <p>Fields that serialization does not carry (transient fields, fields not in {@code
 * serialPersistentFields}, fields of non-serializable superclasses of a serializable class) are
 * compared with what JDK deserialization produced for the same object, when that is known, and
 * otherwise skipped.
 */
public final class GraphWalker {

  /** How strictly identity rules apply. */
  public enum Mode {
    /** Original against JDK deserialization's copy: only a precondition of the test graph. */
    JDK_REFERENCE,
    /** Original against a Codese copy: every rule. */
    CODESE
  }

  /** One position in the walk: an original object, its copy, and how it was reached. */
  static final class Item {
    final Object o;
    final Object c;
    final Item parent;
    final String label;
    final int depth;

    Item(Object o, Object c, Item parent, String label) {
      this.o = o;
      this.c = c;
      this.parent = parent;
      this.label = label;
      this.depth = parent == null ? 0 : parent.depth + 1;
    }

    String path() {
      List<String> parts = new ArrayList<>();
      int skipped = 0;
      for (Item i = this; i != null; i = i.parent) {
        if (i.depth > 40 && i.depth < this.depth - 40) {
          skipped++;
          if (i.depth == 41) {
            parts.add("...(" + skipped + " more steps)...");
          }
          continue;
        }
        parts.add(i.label);
      }
      Collections.reverse(parts);
      StringBuilder sb = new StringBuilder();
      for (int k = 0; k < parts.size(); ) {
        int run = 1;
        while (k + run < parts.size() && parts.get(k + run).equals(parts.get(k))) {
          run++;
        }
        sb.append(parts.get(k));
        if (run > 2) {
          sb.append("{x").append(run).append('}');
        } else if (run == 2) {
          sb.append(parts.get(k));
        }
        k += run;
      }
      return sb.toString();
    }
  }

  /** What a walk found. */
  public static final class Result {
    final IdentityHashMap<Object, Item> visited = new IdentityHashMap<>();
    final IdentityHashMap<Object, Item> reverse = new IdentityHashMap<>();
    final List<String> failures = new ArrayList<>();
    final List<Runnable> deferred = new ArrayList<>();
    int truncatedFailures;
    boolean stoppedEarly;

    /**
     * @return failures, empty when the copy passed
     */
    public List<String> failures() {
      return failures;
    }

    /**
     * @return the number of distinct original objects reached
     */
    public int objectCount() {
      return visited.size();
    }

    /**
     * @return the copy of an original object reached by the walk, or {@code null}
     */
    public Object copyOf(Object original) {
      Item i = visited.get(original);
      return i == null ? null : i.c;
    }

    /**
     * @return the original whose copy is {@code copy}, or {@code null}
     */
    public Object originalOf(Object copy) {
      Item i = reverse.get(copy);
      return i == null ? null : i.o;
    }

    /**
     * @return the original objects whose copy is the original instance itself
     */
    public Set<Object> sameInstances() {
      Set<Object> s = Collections.newSetFromMap(new IdentityHashMap<>());
      for (Item i : visited.values()) {
        if (i.o == i.c) {
          s.add(i.o);
        }
      }
      return s;
    }

    /**
     * Checks that two restored graphs share no object, except objects that are the original
     * instance in both (enum constants, classes, cached boxes, singletons).
     */
    public List<String> sharedWith(Result other, String otherName) {
      IdentityHashMap<Object, Item> mine = new IdentityHashMap<>();
      for (Item i : visited.values()) {
        if (i.c != i.o && i.c != null) {
          mine.put(i.c, i);
        }
      }
      List<String> out = new ArrayList<>();
      for (Item i : other.visited.values()) {
        if (i.c != i.o && i.c != null && mine.containsKey(i.c)) {
          if (out.size() < 10) {
            out.add(
                "restored graphs share an object of class "
                    + i.c.getClass().getName()
                    + ": at "
                    + mine.get(i.c).path()
                    + " here and at "
                    + i.path()
                    + " in "
                    + otherName);
          }
        }
      }
      return out;
    }
  }

  private static final int MAX_FAILURES = 8;

  private final Mode mode;
  private final Map<Object, Object> origToJdk;
  private final Map<Object, Object> jdkToOrig;
  private final Set<Object> jdkSame;
  private final Result result = new Result();
  private final ArrayDeque<Item> stack = new ArrayDeque<>();

  private GraphWalker(Mode mode, Result jdkReference) {
    this.mode = mode;
    if (jdkReference != null) {
      IdentityHashMap<Object, Object> o2j = new IdentityHashMap<>();
      IdentityHashMap<Object, Object> j2o = new IdentityHashMap<>();
      for (Item i : jdkReference.visited.values()) {
        o2j.put(i.o, i.c);
        j2o.put(i.c, i.o);
      }
      this.origToJdk = o2j;
      this.jdkToOrig = j2o;
      this.jdkSame = jdkReference.sameInstances();
    } else {
      this.origToJdk = Collections.emptyMap();
      this.jdkToOrig = Collections.emptyMap();
      this.jdkSame = Collections.emptySet();
    }
  }

  /**
   * Walks {@code original} and {@code copy} in parallel.
   *
   * @param jdkReference the walk of the original against JDK deserialization's copy, or {@code
   *     null} when the graph is not JDK-serializable
   */
  public static Result walk(Object original, Object copy, Mode mode, Result jdkReference) {
    GraphWalker w = new GraphWalker(mode, jdkReference);
    w.stack.push(new Item(original, copy, null, "root"));
    w.run();
    if (w.result.failures.size() < MAX_FAILURES) {
      for (Runnable r : w.result.deferred) {
        r.run();
      }
    }
    w.result.deferred.clear();
    if (w.result.truncatedFailures > 0 || w.result.stoppedEarly) {
      w.result.failures.add("... walk stopped after " + MAX_FAILURES + " failures");
    }
    return w.result;
  }

  private void fail(Item at, String message) {
    if (result.failures.size() >= MAX_FAILURES) {
      result.truncatedFailures++;
      return;
    }
    result.failures.add("at " + at.path() + ": " + message);
  }

  private void run() {
    while (!stack.isEmpty()) {
      if (result.failures.size() >= MAX_FAILURES) {
        result.stoppedEarly = true;
        return;
      }
      visit(stack.pop());
    }
  }

  static String describe(Object x) {
    if (x == null) {
      return "null";
    }
    String s;
    try {
      if (x instanceof String
          || x instanceof Number
          || x instanceof Boolean
          || x instanceof Character
          || x instanceof Enum
          || x instanceof Class) {
        s = String.valueOf(x);
        if (s.length() > 60) {
          s = s.substring(0, 60) + "...(" + s.length() + " chars)";
        }
        return x.getClass().getSimpleName() + " " + s + " @" + idHash(x);
      }
    } catch (RuntimeException e) {
      // fall through
    }
    return x.getClass().getName() + "@" + idHash(x);
  }

  private static String idHash(Object x) {
    return Integer.toHexString(System.identityHashCode(x));
  }

  /**
   * @return whether {@code x} is the JDK's cached instance of its box value
   */
  public static boolean isCachedBox(Object x) {
    Object canonical;
    if (x instanceof Integer v) {
      canonical = Integer.valueOf(v.intValue());
    } else if (x instanceof Long v) {
      canonical = Long.valueOf(v.longValue());
    } else if (x instanceof Short v) {
      canonical = Short.valueOf(v.shortValue());
    } else if (x instanceof Byte v) {
      canonical = Byte.valueOf(v.byteValue());
    } else if (x instanceof Character v) {
      canonical = Character.valueOf(v.charValue());
    } else if (x instanceof Boolean v) {
      canonical = Boolean.valueOf(v.booleanValue());
    } else {
      return false;
    }
    return canonical == x;
  }

  /**
   * Empty optionals are value-based singletons: returning the JDK's own empty instance is as right
   * as returning a new empty one.
   */
  private static boolean isValueBasedSingleton(Object x) {
    return x == Optional.empty()
        || x == java.util.OptionalInt.empty()
        || x == java.util.OptionalLong.empty()
        || x == java.util.OptionalDouble.empty();
  }

  private static boolean isBox(Object x) {
    return x instanceof Integer
        || x instanceof Long
        || x instanceof Short
        || x instanceof Byte
        || x instanceof Character
        || x instanceof Boolean
        || x instanceof Float
        || x instanceof Double;
  }

  private static boolean isEnumConstant(Object x) {
    return x instanceof Enum<?>;
  }

  private void visit(Item it) {
    Object o = it.o;
    Object c = it.c;
    if (o == null || c == null) {
      if (o != c) {
        fail(it, "expected " + describe(o) + " but the copy has " + describe(c));
      }
      return;
    }
    Item seen = result.visited.get(o);
    if (seen != null) {
      if (seen.c != c) {
        fail(
            it,
            "sharing lost: the original object "
                + describe(o)
                + " was first reached at "
                + seen.path()
                + " and copied as "
                + describe(seen.c)
                + ", but here the copy has "
                + describe(c));
      }
      return;
    }
    Item other = result.reverse.get(c);
    if (other != null) {
      fail(
          it,
          "distinct objects merged: the originals "
              + describe(o)
              + " (here) and "
              + describe(other.o)
              + " (at "
              + other.path()
              + ") were restored to one object "
              + describe(c));
      return;
    }
    result.visited.put(o, it);
    result.reverse.put(c, it);

    Class<?> type = o.getClass();
    if (type != c.getClass()) {
      fail(
          it,
          "class differs: expected "
              + type.getName()
              + " but the copy is "
              + c.getClass().getName());
      return;
    }

    if (mode == Mode.CODESE) {
      String sameBecause =
          isEnumConstant(o)
              ? "an enum constant"
              : o instanceof Class
                  ? "a Class"
                  : isCachedBox(o)
                      ? "the JDK's cached box (valueOf) of its value"
                      : jdkSame.contains(o)
                          ? "what JDK deserialization returns (readResolve to this instance)"
                          : null;
      boolean mustBeSame = sameBecause != null;
      if (mustBeSame && c != o) {
        fail(
            it,
            "expected the very same instance as the original, "
                + sameBecause
                + ": "
                + describe(o)
                + ", got "
                + describe(c));
        return;
      }
      if (!mustBeSame && c == o && !isValueBasedSingleton(o)) {
        fail(
            it,
            "the copy IS the original object "
                + describe(o)
                + " (a restore must create new objects)");
        return;
      }
      if (isBox(o) && isCachedBox(c) != isCachedBox(o)) {
        fail(
            it,
            "box cache identity differs: original "
                + describe(o)
                + " is "
                + (isCachedBox(o) ? "" : "not ")
                + "the JDK's cached instance, but the copy "
                + describe(c)
                + (isCachedBox(c) ? " is" : " is not"));
      }
    } else if ((isEnumConstant(o) || o instanceof Class) && c != o) {
      fail(it, "JDK deserialization gave another instance of " + describe(o));
      return;
    }

    if (o instanceof String || isBox(o)) {
      if (!o.equals(c)) {
        fail(it, "value differs: expected " + describe(o) + ", got " + describe(c));
      }
      return;
    }
    if (isEnumConstant(o) || o instanceof Class) {
      return;
    }
    if (type.isArray()) {
      visitArray(it, o, c);
      return;
    }
    if (isOpen(type)) {
      visitFields(it, o, c);
    }
    visitPublicView(it, o, c, type);
  }

  private void visitArray(Item it, Object o, Object c) {
    int n = Array.getLength(o);
    int m = Array.getLength(c);
    if (n != m) {
      fail(it, "array length differs: expected " + n + ", got " + m);
      return;
    }
    Class<?> ct = o.getClass().getComponentType();
    if (ct.isPrimitive()) {
      boolean equal;
      if (o instanceof int[] a) {
        equal = Arrays.equals(a, (int[]) c);
      } else if (o instanceof long[] a) {
        equal = Arrays.equals(a, (long[]) c);
      } else if (o instanceof byte[] a) {
        equal = Arrays.equals(a, (byte[]) c);
      } else if (o instanceof char[] a) {
        equal = Arrays.equals(a, (char[]) c);
      } else if (o instanceof short[] a) {
        equal = Arrays.equals(a, (short[]) c);
      } else if (o instanceof boolean[] a) {
        equal = Arrays.equals(a, (boolean[]) c);
      } else if (o instanceof float[] a) {
        equal = Arrays.equals(a, (float[]) c);
      } else {
        equal = Arrays.equals((double[]) o, (double[]) c);
      }
      if (!equal) {
        for (int i = 0; i < n; i++) {
          Object x = Array.get(o, i);
          Object y = Array.get(c, i);
          if (!x.equals(y)) {
            fail(it, "array element [" + i + "] differs: expected " + x + ", got " + y);
            break;
          }
        }
      }
      return;
    }
    Object[] oa = (Object[]) o;
    Object[] ca = (Object[]) c;
    for (int i = n - 1; i >= 0; i--) {
      stack.push(new Item(oa[i], ca[i], it, "[" + i + "]"));
    }
  }

  private static boolean isOpen(Class<?> type) {
    Module m = type.getModule();
    return m.isOpen(type.getPackageName(), GraphWalker.class.getModule());
  }

  /** A field with how serialization treats it for the walked object's class. */
  private record FieldInfo(Field field, boolean serialized) {}

  private static final ClassValue<List<FieldInfo>> FIELDS =
      new ClassValue<>() {
        @Override
        protected List<FieldInfo> computeValue(Class<?> type) {
          List<FieldInfo> out = new ArrayList<>();
          boolean serializable = Serializable.class.isAssignableFrom(type);
          boolean externalizable = Externalizable.class.isAssignableFrom(type);
          for (Class<?> k = type;
              k != null && k != Object.class && isOpen(k);
              k = k.getSuperclass()) {
            ObjectStreamClass desc =
                serializable && Serializable.class.isAssignableFrom(k)
                    ? ObjectStreamClass.lookup(k)
                    : null;
            for (Field f : k.getDeclaredFields()) {
              if (Modifier.isStatic(f.getModifiers())) {
                continue;
              }
              f.setAccessible(true);
              boolean ser;
              if (k.isAnnotationPresent(SerialFormOnly.class)) {
                ser = false; // compared with JDK deserialization's result, like a transient field
              } else if (externalizable) {
                ser = true; // the class's own writeExternal/readExternal decide; corpus classes are
                // faithful
              } else if (!serializable) {
                ser = !Modifier.isTransient(f.getModifiers());
              } else if (desc == null) {
                ser = false; // a non-serializable superclass of a serializable class
              } else {
                ser =
                    desc.getField(f.getName()) != null
                        && desc.getField(f.getName()).getType() == f.getType();
              }
              out.add(new FieldInfo(f, ser));
            }
          }
          return out;
        }
      };

  private void visitFields(Item it, Object o, Object c) {
    List<FieldInfo> fields = FIELDS.get(o.getClass());
    Object jdk = origToJdk.get(o);
    boolean serializableObject = o instanceof Serializable;
    for (int i = fields.size() - 1; i >= 0; i--) {
      FieldInfo fi = fields.get(i);
      Field f = fi.field;
      Object ov;
      Object cv;
      try {
        ov = f.get(o);
        cv = f.get(c);
      } catch (IllegalAccessException e) {
        fail(it, "cannot read field " + f + ": " + e);
        continue;
      }
      String label = "." + fieldLabel(f, o.getClass());
      if (fi.serialized || !serializableObject) {
        if (!fi.serialized) {
          continue; // transient field of a non-serializable class: no rule is known
        }
        if (f.getType().isPrimitive()) {
          if (!ov.equals(cv)) {
            fail(it, "field " + label + " differs: expected " + ov + ", got " + cv);
          }
        } else {
          stack.push(new Item(ov, cv, it, label));
        }
        continue;
      }
      // Not carried by serialization: must be what JDK deserialization produces.
      if (mode == Mode.JDK_REFERENCE || jdk == null) {
        continue;
      }
      Object jv;
      try {
        jv = f.get(jdk);
      } catch (IllegalAccessException e) {
        continue;
      }
      if (f.getType().isPrimitive()) {
        if (!jv.equals(cv)) {
          fail(
              it,
              "field "
                  + label
                  + " (not serialized: transient, outside serialPersistentFields "
                  + "or of a non-serializable superclass) is "
                  + cv
                  + ", but JDK deserialization "
                  + "gives "
                  + jv);
        }
        continue;
      }
      if (jv == null || cv == null) {
        if (jv != cv) {
          fail(
              it,
              "field "
                  + label
                  + " (not serialized) is "
                  + describe(cv)
                  + ", but JDK deserialization gives "
                  + describe(jv));
        }
        continue;
      }
      Object origOfJv = jdkToOrig.get(jv);
      if (origOfJv != null) {
        stack.push(new Item(origOfJv, cv, it, label));
      } else if (jv.getClass() != cv.getClass()) {
        fail(
            it,
            "field "
                + label
                + " (not serialized) has class "
                + cv.getClass().getName()
                + ", but JDK deserialization gives "
                + jv.getClass().getName());
      } else if ((jv instanceof String || isBox(jv)) && !jv.equals(cv)) {
        fail(
            it,
            "field "
                + label
                + " (not serialized) is "
                + describe(cv)
                + ", but JDK deserialization gives "
                + describe(jv));
      }
    }
  }

  private static String fieldLabel(Field f, Class<?> objectClass) {
    if (f.getDeclaringClass() == objectClass) {
      return f.getName();
    }
    return f.getName() + "(" + f.getDeclaringClass().getSimpleName() + ")";
  }

  private static boolean overridesEquals(Class<?> type) {
    try {
      return type.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private void visitPublicView(Item it, Object o, Object c, Class<?> type) {
    boolean open = isOpen(type);
    if (o instanceof Map<?, ?> om) {
      Map<?, ?> cm = (Map<?, ?>) c;
      if (om.size() != cm.size()) {
        fail(it, "map size differs: expected " + om.size() + ", got " + cm.size());
        return;
      }
      Iterator<? extends Map.Entry<?, ?>> oi = om.entrySet().iterator();
      Iterator<? extends Map.Entry<?, ?>> ci = cm.entrySet().iterator();
      List<Item> items = new ArrayList<>();
      List<Object[]> copyEntries = new ArrayList<>();
      int i = 0;
      while (oi.hasNext() && ci.hasNext()) {
        Map.Entry<?, ?> oe = oi.next();
        Map.Entry<?, ?> ce = ci.next();
        items.add(new Item(oe.getKey(), ce.getKey(), it, "{key#" + i + "}"));
        items.add(new Item(oe.getValue(), ce.getValue(), it, "{value#" + i + "}"));
        copyEntries.add(new Object[] {ce.getKey(), ce.getValue()});
        i++;
      }
      for (int k = items.size() - 1; k >= 0; k--) {
        stack.push(items.get(k));
      }
      {
        result.deferred.add(
            () -> {
              int n = 0;
              for (Object[] e : copyEntries) {
                Object got;
                boolean has;
                try {
                  has = cm.containsKey(e[0]);
                  got = cm.get(e[0]);
                } catch (RuntimeException ex) {
                  fail(it, "look-up of restored key #" + n + " threw " + ex);
                  return;
                }
                if (!has || got != e[1]) {
                  fail(
                      it,
                      "restored map cannot find its own key #"
                          + n
                          + " "
                          + describe(e[0])
                          + ": containsKey="
                          + has
                          + ", get gives "
                          + describe(got)
                          + " instead of "
                          + describe(e[1])
                          + " (hash or order not rebuilt from restored state?)");
                  return;
                }
                n++;
              }
            });
      }
      pushComparator(it, o, c);
      return;
    }
    if (o instanceof Collection<?> oc) {
      Collection<?> cc = (Collection<?>) c;
      if (oc.size() != cc.size()) {
        fail(it, "collection size differs: expected " + oc.size() + ", got " + cc.size());
        return;
      }
      Iterator<?> oi = oc.iterator();
      Iterator<?> ci = cc.iterator();
      List<Item> items = new ArrayList<>();
      List<Object> copyElements = new ArrayList<>();
      int i = 0;
      while (oi.hasNext() && ci.hasNext()) {
        Object ce = ci.next();
        items.add(new Item(oi.next(), ce, it, "<" + i + ">"));
        copyElements.add(ce);
        i++;
      }
      for (int k = items.size() - 1; k >= 0; k--) {
        stack.push(items.get(k));
      }
      if (o instanceof Set) {
        result.deferred.add(
            () -> {
              int n = 0;
              for (Object e : copyElements) {
                boolean has;
                try {
                  has = cc.contains(e);
                } catch (RuntimeException ex) {
                  fail(it, "contains() of restored element #" + n + " threw " + ex);
                  return;
                }
                if (!has) {
                  fail(
                      it,
                      "restored set does not contain its own element #"
                          + n
                          + " "
                          + describe(e)
                          + " (hash or order not rebuilt from restored state?)");
                  return;
                }
                n++;
              }
            });
      }
      pushComparator(it, o, c);
      return;
    }
    if (open) {
      return;
    }
    if (o instanceof AtomicReference<?> a) {
      stack.push(new Item(a.get(), ((AtomicReference<?>) c).get(), it, ".get()"));
    } else if (o instanceof AtomicInteger a) {
      expectEqual(it, a.get(), ((AtomicInteger) c).get(), ".get()");
    } else if (o instanceof AtomicLong a) {
      expectEqual(it, a.get(), ((AtomicLong) c).get(), ".get()");
    } else if (o instanceof AtomicBoolean a) {
      expectEqual(it, a.get(), ((AtomicBoolean) c).get(), ".get()");
    } else if (o instanceof StringBuilder || o instanceof StringBuffer) {
      expectEqual(it, o.toString(), c.toString(), ".toString()");
    } else if (o instanceof Optional<?> a) {
      stack.push(new Item(a.orElse(null), ((Optional<?>) c).orElse(null), it, ".get()"));
    } else if (overridesEquals(type)) {
      boolean eq;
      try {
        eq = o.equals(c);
      } catch (RuntimeException e) {
        fail(it, "equals threw " + e);
        return;
      }
      if (!eq) {
        fail(it, "not equal: expected " + abbreviate(o) + ", got " + abbreviate(c));
      }
    }
  }

  private void pushComparator(Item it, Object o, Object c) {
    Object oc = null;
    Object cc = null;
    if (o instanceof SortedMap<?, ?> m) {
      oc = m.comparator();
      cc = ((SortedMap<?, ?>) c).comparator();
    } else if (o instanceof SortedSet<?> s) {
      oc = s.comparator();
      cc = ((SortedSet<?>) c).comparator();
    } else if (o instanceof PriorityQueue<?> q) {
      oc = q.comparator();
      cc = ((PriorityQueue<?>) c).comparator();
    }
    if (oc != null || cc != null) {
      stack.push(new Item(oc, cc, it, ".comparator()"));
    }
  }

  private void expectEqual(Item it, Object expected, Object actual, String what) {
    if (!expected.equals(actual)) {
      fail(it, what + " differs: expected " + abbreviate(expected) + ", got " + abbreviate(actual));
    }
  }

  private static String abbreviate(Object x) {
    String s;
    try {
      s = String.valueOf(x);
    } catch (RuntimeException e) {
      s = describe(x);
    }
    return s.length() > 120 ? s.substring(0, 120) + "...(" + s.length() + " chars)" : s;
  }
}
