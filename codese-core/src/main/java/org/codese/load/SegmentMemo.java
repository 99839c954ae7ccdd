package org.codese.load;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.verify.GrammarCheck;

/**
 * What the loader keeps between the segments of one object stream, so that a segment whose
 * generated classes an earlier segment already had costs neither a second grammar check nor a
 * second hidden class: per class file, keyed by its bytes and the name of its host (the only inputs
 * of the grammar check), the outcome of the check and the instance defined from it, with the host
 * class it was defined in.
 *
 * <p>Nothing else is kept: every segment still runs every other check (limits, class table, default
 * surface, filter, constants, the program check against its own constants and table) before any of
 * its code runs. A hostile stream cannot swap an entry: the key is the content itself, compared
 * byte for byte, and a defined instance is reused only in the same host class. Emptied at a reset,
 * so what it holds is bounded by the distinct classes since the last one. Not thread-safe: one
 * stream reads one segment at a time.
 */
final class SegmentMemo {
  /**
   * Code no larger than this (bytes of class files not yet checked) is checked on the loading
   * thread: starting the code-check thread costs more than the check of a small segment.
   */
  static final int INLINE_CHECK_BYTES = 16 * 1024;

  /**
   * A class file with the name of its host, compared by content. Comparable, so that keys whose
   * hashes collide (the stream chooses the bytes) cost a logarithmic, not a linear, look-up.
   */
  private static final class Key implements Comparable<Key> {
    final byte[] bytes;
    final String host;
    final int hash;

    /**
     * Keys of the same hash but other content this one was compared with: the cost of collisions.
     */
    int collisions;

    Key(byte[] bytes, String host) {
      this.bytes = bytes;
      this.host = host;
      this.hash = Arrays.hashCode(bytes) * 31 + (host == null ? 0 : host.hashCode());
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key k) || k.hash != hash) {
        return false;
      }
      if ((host == null ? k.host == null : host.equals(k.host)) && Arrays.equals(bytes, k.bytes)) {
        return true;
      }
      collisions++;
      return false;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public int compareTo(Key o) {
      int c =
          host == null ? (o.host == null ? 0 : -1) : o.host == null ? 1 : host.compareTo(o.host);
      return c != 0 ? c : Arrays.compare(bytes, o.bytes);
    }
  }

  /** One checked class file and, once defined, its instance. */
  private static final class Entry {
    final String hostName;
    final GrammarCheck.Checked checked;

    /** The class whose nest it joined; {@code null} for a class in Codese's package. */
    Class<?> host;

    BiConsumer<Object[], Object[]> instance;

    Entry(String hostName, GrammarCheck.Checked checked) {
      this.hostName = hostName;
      this.checked = checked;
    }
  }

  private final HashMap<Key, Entry> entries = new HashMap<>();

  /**
   * The same entries by the array they were checked from: a stream's segments refer to class files
   * of earlier ones, which the decoder hands out as the same array, so most look-ups need no hash
   * of the bytes. The arrays are the decoder's own and never change.
   */
  private final IdentityHashMap<byte[], Entry> byArray = new IdentityHashMap<>();

  /**
   * How many times a look-up or insertion of {@link #entries} compared a class file with another of
   * the same hash and other content: the work colliding hashes cost.
   */
  private long collisions;

  /** Resolved allocators by class, one per {@link Constant.Mode}: made once per stream. */
  private final HashMap<Class<?>, Object[]> allocators = new HashMap<>();

  /** Fields that setters write, by class and name, checked and made accessible once per stream. */
  private final HashMap<Class<?>, HashMap<String, Field>> setters = new HashMap<>();

  private int defined;

  /**
   * Class tables that passed every check, by the list of entries they were made from: the decoder
   * hands every segment of one shape the same list, which never changes.
   */
  private final IdentityHashMap<List<ClassEntry>, ClassTable> tables = new IdentityHashMap<>();

  /** Per class, the sets of roles {@link Surface} found it may take. */
  private final HashMap<Class<?>, int[]> surface = new HashMap<>();

  private static String hostName(SnapshotFile file, int i) {
    int host = file.placements().get(i).host();
    return host < 0 ? null : file.classes().get(host).name();
  }

  private Entry find(SnapshotFile file, int i) {
    byte[] bytes = file.classFiles().get(i);
    String host = hostName(file, i);
    Entry e = byArray.get(bytes);
    if (e != null && Objects.equals(e.hostName, host)) {
      return e;
    }
    Key key = new Key(bytes, host);
    e = entries.get(key);
    collisions += key.collisions;
    if (e != null) {
      byArray.put(bytes, e);
    }
    return e;
  }

  /**
   * @param file a parsed segment
   * @return per class file, the outcome of an earlier check of the same bytes and host name, or
   *     {@code null}
   */
  GrammarCheck.Checked[] known(SnapshotFile file) {
    int n = file.classFiles().size();
    GrammarCheck.Checked[] known = new GrammarCheck.Checked[n];
    for (int i = 0; i < n; i++) {
      Entry e = find(file, i);
      known[i] = e == null ? null : e.checked;
    }
    return known;
  }

  /**
   * @param file a parsed segment
   * @param known what {@link #known} returned for it
   * @return whether the code still to check is small enough to check on the loading thread
   */
  static boolean checkInline(SnapshotFile file, GrammarCheck.Checked[] known) {
    long unknown = 0;
    for (int i = 0; i < known.length; i++) {
      if (known[i] == null) {
        unknown += file.classFiles().get(i).length;
      }
    }
    return unknown <= INLINE_CHECK_BYTES;
  }

  /**
   * Keeps the outcome of every class file of {@code file} that passed the grammar check.
   *
   * @param file a segment whose code passed the grammar check
   * @param known the outcomes, as the check filled them in
   */
  void remember(SnapshotFile file, GrammarCheck.Checked[] known) {
    for (int i = 0; i < known.length; i++) {
      if (known[i] != null && find(file, i) == null) {
        byte[] bytes = file.classFiles().get(i);
        Entry e = new Entry(hostName(file, i), known[i]);
        Key key = new Key(bytes, e.hostName);
        entries.put(key, e);
        collisions += key.collisions;
        byArray.put(bytes, e);
      }
    }
  }

  /**
   * @param file a segment that passed every check
   * @param i the index of one of its class files
   * @param host the class whose nest it joins, or {@code null}
   * @return the instance defined earlier from the same bytes in the same host, or {@code null}
   */
  BiConsumer<Object[], Object[]> instance(SnapshotFile file, int i, Class<?> host) {
    Entry e = find(file, i);
    return e != null && e.instance != null && e.host == host ? e.instance : null;
  }

  /**
   * Keeps the instance defined from class file {@code i} of {@code file}.
   *
   * @param file a segment that passed every check
   * @param i the index of the class file
   * @param host the class whose nest it joined, or {@code null}
   * @param instance the instance
   */
  void defined(SnapshotFile file, int i, Class<?> host, BiConsumer<Object[], Object[]> instance) {
    defined++;
    Entry e = find(file, i);
    if (e != null && e.instance == null) {
      e.host = host;
      e.instance = instance;
    }
  }

  /**
   * @return how many hidden classes were defined for the stream (for tests)
   */
  int definedClasses() {
    return defined;
  }

  /**
   * @return how many times class files were compared with others of the same hash and other
   *     content, since the stream began (for tests: about n log n for n colliding files, as long as
   *     the keys are ordered; n^2 / 2 if they were not)
   */
  long collisions() {
    return collisions;
  }

  /**
   * @param type a class
   * @param mode how it is allocated
   * @return the resolved allocator an earlier segment of the stream made for it (a class or a
   *     constructor, see {@link Allocation}), or {@code null}
   */
  Object allocator(Class<?> type, Constant.Mode mode) {
    Object[] byMode = allocators.get(type);
    return byMode == null ? null : byMode[mode.ordinal()];
  }

  /** Keeps the resolved allocator of {@code type} in {@code mode}. */
  void allocator(Class<?> type, Constant.Mode mode, Object ctor) {
    Object[] byMode = allocators.get(type);
    if (byMode == null) {
      byMode = new Object[Constant.Mode.values().length];
      allocators.put(type, byMode);
    }
    byMode[mode.ordinal()] = ctor;
  }

  /**
   * @param type a class
   * @param name one of its fields
   * @return the field an earlier segment's setter resolved to, or {@code null}
   */
  Field setter(Class<?> type, String name) {
    HashMap<String, Field> byName = setters.get(type);
    return byName == null ? null : byName.get(name);
  }

  /** Keeps the field a setter of {@code type} resolved to. */
  void setter(Class<?> type, Field field) {
    HashMap<String, Field> byName = setters.get(type);
    if (byName == null) {
      byName = new HashMap<>();
      setters.put(type, byName);
    }
    byName.put(field.getName(), field);
  }

  /**
   * @param entries a segment's class entries
   * @return the class table made from this very list, which passed every check, or {@code null}
   */
  ClassTable table(List<ClassEntry> entries) {
    return tables.get(entries);
  }

  /** Keeps a class table that passed every check, for later segments of the same shape. */
  void table(List<ClassEntry> entries, ClassTable table) {
    tables.put(entries, table);
  }

  /**
   * @return whether {@link Surface} let {@code c} take the roles {@code roles} before
   */
  boolean surfacePassed(Class<?> c, int roles) {
    int[] passed = surface.get(c);
    if (passed != null) {
      for (int r : passed) {
        if (r == roles) {
          return true;
        }
      }
    }
    return false;
  }

  /** Notes that {@link Surface} let {@code c} take the roles {@code roles}. */
  void notePassed(Class<?> c, int roles) {
    int[] passed = surface.get(c);
    passed = passed == null ? new int[1] : Arrays.copyOf(passed, passed.length + 1);
    passed[passed.length - 1] = roles;
    surface.put(c, passed);
  }

  /** Forgets everything, at a reset. */
  void clear() {
    tables.clear();
    surface.clear();
    setters.clear();
    entries.clear();
    byArray.clear();
    allocators.clear();
  }
}
