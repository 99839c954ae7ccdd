package org.codese.jvm;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.HashSet;

/**
 * The private state of {@code java.util.HashMap} and {@code HashSet} their {@code writeObject}
 * writes and their public API does not tell: a map's capacity (the length of its {@code table}, or
 * while it has none its {@code threshold}), load factor and threshold, and a set's backing map.
 * Read only where that is warning-free: by reflection where {@code java.util} is open to Codese,
 * else through {@code sun.misc.Unsafe} before JDK 24, else not at all ({@link #readable()} is then
 * {@code false}: from JDK 24 on {@code Unsafe} memory access prints a warning). The fields and
 * offsets are looked up once.
 */
public final class HashFields {
  /** Which way the fields are read; {@code null} when they cannot be. */
  private static final Reader READER = reader();

  private HashFields() {}

  /**
   * @return whether this JDK lets the fields be read without warnings; if not, the other methods
   *     must not be called
   */
  public static boolean readable() {
    return READER != null;
  }

  /**
   * {@code HashMap.capacity()}: the length of the map's table, or while it has none its threshold
   * (the initial capacity asked for) if positive, else 16.
   *
   * @param map a map
   * @return the capacity its {@code writeObject} writes
   */
  public static int capacity(HashMap<?, ?> map) {
    int tableLength = READER.tableLength(map);
    if (tableLength >= 0) {
      return tableLength;
    }
    int threshold = READER.threshold(map);
    return threshold > 0 ? threshold : 16;
  }

  /**
   * @param map a map
   * @return its {@code loadFactor} field
   */
  public static float loadFactor(HashMap<?, ?> map) {
    return READER.loadFactor(map);
  }

  /**
   * @param map a map
   * @return its {@code threshold} field
   */
  public static int threshold(HashMap<?, ?> map) {
    return READER.threshold(map);
  }

  /**
   * @param set a set
   * @return the map behind it (its {@code map} field)
   */
  public static HashMap<?, ?> map(HashSet<?> set) {
    return READER.map(set);
  }

  private static Reader reader() {
    Field table;
    Field threshold;
    Field loadFactor;
    Field map;
    try {
      table = HashMap.class.getDeclaredField("table");
      threshold = HashMap.class.getDeclaredField("threshold");
      loadFactor = HashMap.class.getDeclaredField("loadFactor");
      map = HashSet.class.getDeclaredField("map");
    } catch (NoSuchFieldException | SecurityException e) {
      return null; // another JDK's layout: the writeObject runs instead
    }
    if (table.getType().isArray()
        && threshold.getType() == int.class
        && loadFactor.getType() == float.class
        && map.getType() == HashMap.class) {
      if (table.trySetAccessible()
          && threshold.trySetAccessible()
          && loadFactor.trySetAccessible()
          && map.trySetAccessible()) {
        return new Reflective(table, threshold, loadFactor, map);
      }
      if (!Jvm.hasDefaultFieldHandles()) {
        return new ByUnsafe(table, threshold, loadFactor, map);
      }
    }
    return null;
  }

  /** Reads the four fields. */
  private abstract static class Reader {
    /** The table's length, or -1 if it has none. */
    abstract int tableLength(HashMap<?, ?> m);

    abstract int threshold(HashMap<?, ?> m);

    abstract float loadFactor(HashMap<?, ?> m);

    abstract HashMap<?, ?> map(HashSet<?> s);
  }

  /** Through fields made accessible (a JVM that opens {@code java.util} to Codese). */
  private static final class Reflective extends Reader {
    private final Field table;
    private final Field threshold;
    private final Field loadFactor;
    private final Field map;

    Reflective(Field table, Field threshold, Field loadFactor, Field map) {
      this.table = table;
      this.threshold = threshold;
      this.loadFactor = loadFactor;
      this.map = map;
    }

    @Override
    int tableLength(HashMap<?, ?> m) {
      Object t = get(table, m);
      return t == null ? -1 : ((Object[]) t).length;
    }

    @Override
    int threshold(HashMap<?, ?> m) {
      return (Integer) get(threshold, m);
    }

    @Override
    float loadFactor(HashMap<?, ?> m) {
      return (Float) get(loadFactor, m);
    }

    @Override
    HashMap<?, ?> map(HashSet<?> s) {
      return (HashMap<?, ?>) get(map, s);
    }

    private static Object get(Field f, Object obj) {
      try {
        return f.get(obj);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("field " + f + " was made accessible but is not", e);
      }
    }
  }

  /** Through {@code sun.misc.Unsafe} and offsets taken once: only before JDK 24. */
  @SuppressWarnings("removal")
  private static final class ByUnsafe extends Reader {
    private final long table;
    private final long threshold;
    private final long loadFactor;
    private final long map;

    ByUnsafe(Field table, Field threshold, Field loadFactor, Field map) {
      this.table = TheUnsafe.UNSAFE.objectFieldOffset(table);
      this.threshold = TheUnsafe.UNSAFE.objectFieldOffset(threshold);
      this.loadFactor = TheUnsafe.UNSAFE.objectFieldOffset(loadFactor);
      this.map = TheUnsafe.UNSAFE.objectFieldOffset(map);
    }

    @Override
    int tableLength(HashMap<?, ?> m) {
      Object t = TheUnsafe.UNSAFE.getObject(m, table);
      return t == null ? -1 : ((Object[]) t).length;
    }

    @Override
    int threshold(HashMap<?, ?> m) {
      return TheUnsafe.UNSAFE.getInt(m, threshold);
    }

    @Override
    float loadFactor(HashMap<?, ?> m) {
      return TheUnsafe.UNSAFE.getFloat(m, loadFactor);
    }

    @Override
    HashMap<?, ?> map(HashSet<?> s) {
      return (HashMap<?, ?>) TheUnsafe.UNSAFE.getObject(s, map);
    }
  }
}
