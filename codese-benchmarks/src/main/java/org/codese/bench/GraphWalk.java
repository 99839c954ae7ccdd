package org.codese.bench;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Iterative walks over object graphs: the paper's Figure 4 counts, and a structural comparison. */
public final class GraphWalk {
  private GraphWalk() {}

  /** The paper's Figure 4 statistics of one graph. */
  public static final class Stats {
    public long objects;
    public long refs;
    public long prims;

    /** objects whose fields could not be read (closed JDK classes): counted, not descended */
    public long opaque;
  }

  private static final Map<Class<?>, List<Field>> FIELDS = new HashMap<>();

  /**
   * All instance fields of a class and its superclasses, made accessible, or {@code null} if one of
   * them cannot be (a class of a closed JDK package).
   */
  private static List<Field> fields(Class<?> c, boolean skipTransient) {
    List<Field> cached = FIELDS.get(c);
    if (cached == null && !FIELDS.containsKey(c)) {
      cached = new ArrayList<>();
      outer:
      for (Class<?> k = c; k != null; k = k.getSuperclass()) {
        for (Field f : k.getDeclaredFields()) {
          if (!Modifier.isStatic(f.getModifiers())) {
            try {
              f.setAccessible(true);
              cached.add(f);
            } catch (RuntimeException closed) {
              if (k == c) {
                // the object's own class is closed: opaque
                cached = null;
                break outer;
              }
              // a closed JDK superclass (AbstractList.modCount, ...): its fields are skipped
            }
          }
        }
      }
      FIELDS.put(c, cached);
    }
    if (cached == null || !skipTransient) {
      return cached;
    }
    List<Field> kept = new ArrayList<>();
    for (Field f : cached) {
      if (!Modifier.isTransient(f.getModifiers())) {
        kept.add(f);
      }
    }
    return kept;
  }

  private static boolean leaf(Object o) {
    return o instanceof Class
        || o instanceof ClassLoader
        || o instanceof Thread
        || o instanceof Module;
  }

  /**
   * Counts reachable objects (arrays included), reference fields and array slots that are not null,
   * and primitive fields and array elements that are not zero/false.
   *
   * @param root the graph
   * @return the counts
   * @throws IllegalAccessException never, fields are made accessible first
   */
  public static Stats stats(Object root) throws IllegalAccessException {
    Stats s = new Stats();
    IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
    ArrayDeque<Object> work = new ArrayDeque<>();
    if (root != null) {
      seen.put(root, true);
      work.push(root);
    }
    while (!work.isEmpty()) {
      Object o = work.pop();
      s.objects++;
      if (leaf(o)) {
        continue;
      }
      Class<?> c = o.getClass();
      if (c.isArray()) {
        int n = Array.getLength(o);
        if (c.getComponentType().isPrimitive()) {
          for (int i = 0; i < n; i++) {
            if (!isDefault(Array.get(o, i))) {
              s.prims++;
            }
          }
        } else {
          for (Object e : (Object[]) o) {
            if (e != null) {
              s.refs++;
              if (seen.put(e, true) == null) {
                work.push(e);
              }
            }
          }
        }
        continue;
      }
      List<Field> fs = fields(c, false);
      if (fs == null) {
        s.opaque++;
        continue;
      }
      for (Field f : fs) {
        Object v = f.get(o);
        if (f.getType().isPrimitive()) {
          if (!isDefault(v)) {
            s.prims++;
          }
        } else if (v != null) {
          s.refs++;
          if (seen.put(v, true) == null) {
            work.push(v);
          }
        }
      }
    }
    return s;
  }

  private static boolean isDefault(Object boxed) {
    if (boxed instanceof Boolean) {
      return !(Boolean) boxed;
    }
    if (boxed instanceof Character) {
      return (Character) boxed == 0;
    }
    if (boxed instanceof Double) {
      return Double.doubleToRawLongBits((Double) boxed) == 0;
    }
    if (boxed instanceof Float) {
      return Float.floatToRawIntBits((Float) boxed) == 0;
    }
    return ((Number) boxed).longValue() == 0;
  }

  private static boolean valueLike(Object o) {
    return o instanceof String
        || o instanceof Number
        || o instanceof Boolean
        || o instanceof Character
        || o instanceof Enum;
  }

  /**
   * Compares two graphs structurally: same classes, same values of non-transient fields, the same
   * sharing and cycles (an identity bijection), collections and maps element by element in
   * iteration order, closed JDK classes by {@code equals}.
   *
   * @param a the original
   * @param b the restored graph
   * @return {@code null} if equal, else where they first differ
   * @throws IllegalAccessException never, fields are made accessible first
   */
  public static String compare(Object a, Object b) throws IllegalAccessException {
    IdentityHashMap<Object, Object> ab = new IdentityHashMap<>();
    IdentityHashMap<Object, Object> ba = new IdentityHashMap<>();
    ArrayDeque<Object[]> work = new ArrayDeque<>();
    work.push(new Object[] {a, b, "root"});
    while (!work.isEmpty()) {
      Object[] w = work.pop();
      Object x = w[0];
      Object y = w[1];
      String path = (String) w[2];
      if (x == null || y == null) {
        if (x != y) {
          return path + ": one side is null";
        }
        continue;
      }
      if (x.getClass() != y.getClass()) {
        return path + ": class " + x.getClass().getName() + " vs " + y.getClass().getName();
      }
      Object mapped = ab.get(x);
      if (mapped != null) {
        if (mapped != y) {
          return path + ": sharing differs";
        }
        continue;
      }
      if (ba.containsKey(y)) {
        return path + ": sharing differs (restored object reached twice)";
      }
      ab.put(x, y);
      ba.put(y, x);
      if (x instanceof Class || x instanceof Enum || leaf(x)) {
        if (x != y) {
          return path + ": " + x + " is not the same object";
        }
        continue;
      }
      if (valueLike(x)) {
        if (!x.equals(y)) {
          return path + ": " + x + " vs " + y;
        }
        continue;
      }
      Class<?> c = x.getClass();
      if (c.isArray()) {
        int n = Array.getLength(x);
        if (n != Array.getLength(y)) {
          return path + ": array length " + n + " vs " + Array.getLength(y);
        }
        if (c.getComponentType().isPrimitive()) {
          if (!Objects.deepEquals(x, y)) {
            return path + ": primitive array contents differ";
          }
        } else {
          for (int i = n - 1; i >= 0; i--) {
            work.push(new Object[] {Array.get(x, i), Array.get(y, i), path + "[" + i + "]"});
          }
        }
        continue;
      }
      boolean jdk = c.getName().startsWith("java.") || c.getName().startsWith("javax.");
      if (x instanceof Map) {
        Map<?, ?> mx = (Map<?, ?>) x;
        Map<?, ?> my = (Map<?, ?>) y;
        if (mx.size() != my.size()) {
          return path + ": map size " + mx.size() + " vs " + my.size();
        }
        Iterator<? extends Map.Entry<?, ?>> ix = mx.entrySet().iterator();
        Iterator<? extends Map.Entry<?, ?>> iy = my.entrySet().iterator();
        for (int i = 0; ix.hasNext(); i++) {
          Map.Entry<?, ?> ex = ix.next();
          Map.Entry<?, ?> ey = iy.next();
          work.push(new Object[] {ex.getValue(), ey.getValue(), path + ".value#" + i});
          work.push(new Object[] {ex.getKey(), ey.getKey(), path + ".key#" + i});
        }
      } else if (x instanceof Collection) {
        Collection<?> cx = (Collection<?>) x;
        Collection<?> cy = (Collection<?>) y;
        if (cx.size() != cy.size()) {
          return path + ": size " + cx.size() + " vs " + cy.size();
        }
        Iterator<?> ix = cx.iterator();
        Iterator<?> iy = cy.iterator();
        for (int i = 0; ix.hasNext(); i++) {
          work.push(new Object[] {ix.next(), iy.next(), path + "#" + i});
        }
      }
      List<Field> fs = jdk ? null : fields(c, true);
      if (fs == null) {
        if (!(x instanceof Map || x instanceof Collection) && !x.equals(y)) {
          return path + ": " + c.getName() + " not equal";
        }
        continue;
      }
      for (Field f : fs) {
        if (f.getDeclaringClass().getName().startsWith("java.")) {
          continue;
        }
        Object vx = f.get(x);
        Object vy = f.get(y);
        if (f.getType().isPrimitive()) {
          if (!vx.equals(vy)) {
            return path + "." + f.getName() + ": " + vx + " vs " + vy;
          }
        } else {
          work.push(new Object[] {vx, vy, path + "." + f.getName()});
        }
      }
    }
    return null;
  }
}
