package org.codese.fuzz;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.codese.fuzz.StructureSeeds.CanaryEnum;
import org.codese.samples.SampleGraphs;

/**
 * The global canaries of issue 15, checked after every input of the structure fuzzer: JVM-wide
 * state that no restore may change.
 *
 * <ul>
 *   <li>I1: objects the restore did not create keep every field: the cached boxes of {@code
 *       Boolean}, {@code Byte}, {@code Short}, {@code Character}, {@code Integer} and {@code Long},
 *       interned literals (contents and hash code), the constants of {@code TimeUnit}, of an
 *       application enum and of the samples' enums, the JVM's cached {@code ObjectStreamClass}
 *       descriptors (name, suid, fields) of a few classes and their {@code ObjectStreamField}s; and
 *       a plain {@code ObjectInputStream} still rejects a stream naming a class that is not {@code
 *       Serializable}.
 *   <li>I2: no canary class was initialised ({@link CanaryFlags}; the checks never touch a canary
 *       class, so never initialise one) and none was loaded without a class entry naming it ({@link
 *       CanaryLoader}).
 *   <li>I3: no code of a non-serializable canary class ran, no non-daemon thread was started, no
 *       file appeared in the fuzzing home directory ({@code user.home} points to a fresh temporary
 *       directory while the canaries are installed) or the working directory, and no system
 *       property changed.
 * </ul>
 *
 * <p>The field-level checks read and, after a violation, write back the watched objects' fields
 * with {@code sun.misc.Unsafe} (module {@code jdk.unsupported}), so that fuzzing goes on in a
 * healthy JVM after a finding; threads cannot be stopped and are counted as leaked instead.
 */
final class Canaries implements AutoCloseable {
  /** One broken invariant. {@code key} is stable across inputs, for de-duplication. */
  record Violation(String invariant, String key, String detail) {}

  /** What is compared after the input with its state before: threads, files, properties. */
  static final class Before {
    final Set<Thread> nonDaemon;
    final Map<Object, Object> properties;
    final Set<String> files;

    Before(Set<Thread> nonDaemon, Map<Object, Object> properties, Set<String> files) {
      this.nonDaemon = nonDaemon;
      this.properties = properties;
      this.files = files;
    }
  }

  private static final sun.misc.Unsafe U = unsafe();

  private final Path home;
  private final boolean ownHome;
  private final String previousHome;
  private final List<Path> watchedTrees = new ArrayList<>();
  private final Path cwd;
  private final List<Frozen> frozen = new ArrayList<>();
  private final byte[] nonSerialStream;
  private final Set<Thread> leakedThreads = new HashSet<>();
  private final String literal = "interned";
  private final int literalHash;
  private final List<ObjectStreamClass> descriptors = new ArrayList<>();
  private final Map<ObjectStreamClass, String> descriptorImages = new LinkedHashMap<>();
  private final List<Class<?>> classObjects = new ArrayList<>();
  private final Set<String> moreClasses;
  private CanaryLoader loader;

  /**
   * @param moreClasses names of classes whose {@code Class} objects and {@code ObjectStreamClass}
   *     descriptors are watched besides {@link StructureSeeds#CLASS_NAMES} (those the seeds name)
   */
  Canaries(Set<String> moreClasses) throws IOException {
    this.moreClasses = Set.copyOf(moreClasses);
    previousHome = System.getProperty("user.home");
    Path given = previousHome == null ? null : Path.of(previousHome);
    if (given != null
        && given.getFileName() != null
        && given.getFileName().toString().startsWith("codese-fuzz-home")) {
      home = given;
      ownHome = false;
    } else {
      home = Files.createTempDirectory("codese-fuzz-home");
      ownHome = true;
      System.setProperty("user.home", home.toString());
    }
    watchedTrees.add(home);
    String extra = System.getProperty("codese.fuzz.watchDirs");
    if (extra != null && !extra.isBlank()) {
      for (String d : extra.split(File.pathSeparator)) {
        watchedTrees.add(Path.of(d));
      }
    }
    cwd = Path.of("").toAbsolutePath();
    loader = new CanaryLoader(Canaries.class.getClassLoader());
    literalHash = new String(literal.toCharArray()).hashCode();
    nonSerialStream = nonSerialStream();
    warmUp();
    freezeAll();
    List<Violation> v = new ArrayList<>();
    checkBehaviour(v);
    if (!v.isEmpty()) {
      throw new IllegalStateException("the canaries are broken before fuzzing: " + v);
    }
  }

  /**
   * @return the context class loader for restores (replaced after a canary initialiser ran)
   */
  CanaryLoader loader() {
    return loader;
  }

  /**
   * @return the fuzzing home directory
   */
  Path home() {
    return home;
  }

  /**
   * @return non-daemon threads started by inputs and still alive
   */
  int leakedThreads() {
    leakedThreads.removeIf(t -> !t.isAlive());
    return leakedThreads.size();
  }

  Before before() {
    return new Before(nonDaemonThreads(), new HashMap<>(System.getProperties()), files());
  }

  /**
   * Checks every canary against its state at installation (I1) or before the input (threads, files,
   * properties), and drains the flags of canary code that ran (I2, I3).
   *
   * @return the violations; empty when all is well
   */
  List<Violation> check(Before before) {
    List<Violation> out = new ArrayList<>();
    boolean confused = false;
    for (Frozen f : frozen) {
      confused |= f.diff(out);
    }
    if (confused) {
      // a reference field changed (to null, or to an object of the wrong type): calling the
      // object's own methods now may crash the JVM (compiled String.equals trusts that a String's
      // value is never null, and died of it), so the watched objects are put back first
      for (Frozen f : frozen) {
        f.restore();
      }
    }
    checkBehaviour(out);
    for (String ran : CanaryFlags.drain()) {
      if (ran.startsWith("<clinit>")) {
        out.add(
            new Violation("I2", "I2 static initialiser ran: " + ran.substring(12), ran + " ran"));
      } else {
        out.add(
            new Violation(
                "I3",
                "I3 code of a non-Serializable class ran: " + ran,
                ran + " ran, code that ObjectInputStream would never run"));
      }
    }
    for (Thread t : nonDaemonThreads()) {
      if (!before.nonDaemon.contains(t) && !leakedThreads.contains(t)) {
        out.add(
            new Violation(
                "I3",
                "I3 non-daemon thread started: " + t.getName().replaceAll("[0-9]+", "N"),
                "a non-daemon thread '" + t.getName() + "' was started and is still alive"));
      }
    }
    Map<Object, Object> props = new HashMap<>(System.getProperties());
    if (!props.equals(before.properties)) {
      Set<Object> keys = new TreeSet<>((a, b) -> String.valueOf(a).compareTo(String.valueOf(b)));
      keys.addAll(props.keySet());
      keys.addAll(before.properties.keySet());
      for (Object k : keys) {
        if (!Objects.equals(props.get(k), before.properties.get(k))) {
          out.add(
              new Violation(
                  "I3",
                  "I3 system property changed: " + k,
                  "system property "
                      + k
                      + " was "
                      + before.properties.get(k)
                      + ", is "
                      + props.get(k)));
        }
      }
    }
    Set<String> now = files();
    if (!now.equals(before.files)) {
      for (String f : now) {
        if (!before.files.contains(f)) {
          out.add(
              new Violation(
                  "I3",
                  "I3 file created: " + shortName(f).replaceAll("[0-9]+", "N"),
                  "file " + f + " was created"));
        }
      }
    }
    return out;
  }

  /**
   * Puts the JVM back as it was: watched fields written back, new files deleted, properties
   * restored, new non-daemon threads counted as leaked, a fresh canary loader if an initialiser
   * ran.
   */
  void repair(Before before, List<Violation> violations) {
    for (Frozen f : frozen) {
      f.restore();
    }
    for (Thread t : nonDaemonThreads()) {
      if (!before.nonDaemon.contains(t)) {
        leakedThreads.add(t);
      }
    }
    Map<Object, Object> props = new HashMap<>(System.getProperties());
    if (!props.equals(before.properties)) {
      for (Object k : props.keySet()) {
        if (!before.properties.containsKey(k)) {
          System.getProperties().remove(k);
        }
      }
      for (Map.Entry<Object, Object> e : before.properties.entrySet()) {
        if (!Objects.equals(System.getProperties().get(e.getKey()), e.getValue())) {
          System.getProperties().put(e.getKey(), e.getValue());
        }
      }
    }
    Set<String> now = files();
    if (!now.equals(before.files)) {
      List<Path> created = new ArrayList<>();
      for (String f : now) {
        if (!before.files.contains(f)) {
          created.add(Path.of(f));
        }
      }
      // Only files in the fuzzing home directory (a fresh temporary directory) are deleted, never
      // in the working directory or anywhere else: an input that damaged the JVM's strings can make
      // every existing file look new.
      if (created.size() <= 8) {
        created.sort((a, b) -> b.getNameCount() - a.getNameCount());
        for (Path f : created) {
          try {
            Path real = f.toRealPath(java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (real.startsWith(home.toRealPath()) && !real.equals(home.toRealPath())) {
              Files.deleteIfExists(real);
            }
          } catch (IOException ignored) {
            // a directory that is not empty yet, or a file still locked: the next check sees it
          }
        }
      }
    }
    for (Violation v : violations) {
      if (v.invariant().equals("I2")) {
        loader = new CanaryLoader(Canaries.class.getClassLoader());
        break;
      }
    }
  }

  @Override
  public void close() {
    if (ownHome) {
      if (previousHome != null) {
        System.setProperty("user.home", previousHome);
      }
      deleteTree(home.toFile());
    }
  }

  private static void deleteTree(File f) {
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        deleteTree(c);
      }
    }
    f.delete();
  }

  // ---- I1: what the checks compare ----

  private void warmUp() throws IOException {
    for (Class<?> c :
        List.of(
            java.util.ArrayList.class,
            StructureSeeds.Point.class,
            StructureSeeds.NonSerial.class,
            StructureSeeds.SerialTwn.class,
            CanaryEnum.class,
            TimeUnit.class,
            Integer.class,
            String.class)) {
      ObjectStreamClass d = ObjectStreamClass.lookupAny(c);
      d.getSerialVersionUID();
      d.getFields();
      descriptors.add(d);
    }
    // round trips fill the descriptors' lazily computed parts
    Object[] graph = {
      new java.util.ArrayList<>(List.of(1)),
      new StructureSeeds.Point(1, 2),
      new StructureSeeds.SerialTwn(),
      CanaryEnum.A,
      TimeUnit.SECONDS,
      7,
      "s"
    };
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(graph);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b.toByteArray()))) {
      in.readObject();
    } catch (ClassNotFoundException e) {
      throw new IOException(e);
    }
    nonSerialAccepted();
    for (ObjectStreamClass d : descriptors) {
      descriptorImages.put(d, image(d));
    }
    for (String s : StructureSeeds.LITERALS) {
      s.hashCode();
    }
    // Class objects and descriptors the mutator can reach through TypeRef and StreamClassRef
    // constants, with their caches filled
    Set<String> all = new java.util.TreeSet<>(StructureSeeds.CLASS_NAMES);
    all.addAll(moreClasses);
    for (String n : all) {
      if (n.startsWith(StructureSeeds.CANARY_PACKAGE)) {
        continue;
      }
      try {
        Class<?> c =
            n.equals("int")
                ? int.class
                : n.equals("long")
                    ? long.class
                    : n.equals("void")
                        ? void.class
                        : n.equals("boolean")
                            ? boolean.class
                            : Class.forName(n, false, Canaries.class.getClassLoader());
        c.getName();
        c.getPackageName();
        if (c.isEnum()) {
          c.getEnumConstants();
          @SuppressWarnings({"unchecked", "rawtypes"})
          Object first = Enum.valueOf((Class) c, ((Enum<?>) c.getEnumConstants()[0]).name());
          Objects.requireNonNull(first);
        }
        classObjects.add(c);
        if (!c.isPrimitive()) {
          ObjectStreamClass d = ObjectStreamClass.lookupAny(c);
          if (d != null && !descriptors.contains(d)) {
            d.getSerialVersionUID();
            d.getFields();
            descriptors.add(d);
          }
        }
      } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
        // not on this JDK: not watched
      }
    }
  }

  private static String image(ObjectStreamClass d) {
    StringBuilder s =
        new StringBuilder(d.getName())
            .append(" suid ")
            .append(d.getSerialVersionUID())
            .append(" fields");
    for (ObjectStreamField f : d.getFields()) {
      s.append(' ').append(f.getName()).append(':').append(f.getTypeCode());
    }
    return s.toString();
  }

  private void freezeAll() {
    freeze("Boolean cache", "Boolean.TRUE", Boolean.TRUE);
    freeze("Boolean cache", "Boolean.FALSE", Boolean.FALSE);
    for (int v = -128; v <= 127; v++) {
      freeze("Integer cache", "Integer.valueOf(" + v + ")", Integer.valueOf(v));
      freeze("Long cache", "Long.valueOf(" + v + ")", Long.valueOf(v));
      freeze("Short cache", "Short.valueOf(" + v + ")", Short.valueOf((short) v));
      freeze("Byte cache", "Byte.valueOf(" + v + ")", Byte.valueOf((byte) v));
      if (v >= 0) {
        freeze("Character cache", "Character.valueOf(" + v + ")", Character.valueOf((char) v));
      }
    }
    for (String s : StructureSeeds.LITERALS) {
      freeze("interned literal", "\"" + s + "\"", s);
    }
    for (TimeUnit u : TimeUnit.values()) {
      freeze("TimeUnit constant", "TimeUnit." + u, u);
    }
    for (CanaryEnum e : CanaryEnum.values()) {
      freeze("application enum constant", "CanaryEnum." + e, e);
    }
    for (SampleGraphs.Category e : SampleGraphs.Category.values()) {
      freeze("application enum constant", "Category." + e, e);
    }
    for (Class<?> c : classObjects) {
      frozen.add(
          new Frozen(
              "Class object",
              "the Class " + c.getName(),
              c,
              c.isArray() ? ARRAY_CLASS_FIELDS : CLASS_FIELDS));
    }
    for (ObjectStreamClass d : descriptors) {
      String name = d.getName().substring(d.getName().lastIndexOf('.') + 1);
      frozen.add(
          new Frozen(
              "ObjectStreamClass descriptor",
              "ObjectStreamClass of " + name,
              d,
              DESCRIPTOR_FIELDS));
      for (ObjectStreamField f : d.getFields()) {
        freeze("ObjectStreamField", "field " + f.getName() + " of " + name, f);
      }
    }
  }

  private void freeze(String family, String label, Object o) {
    frozen.add(new Frozen(family, label, o, null));
  }

  /**
   * The fields of {@code Class} that do not change once computed (the rest are caches). Not {@code
   * componentType} of a class that is not an array (HotSpot keeps the class's initialisation lock
   * in that slot until the class is initialised), nor {@code classRedefinedCount} (Jazzer's agent
   * redefines classes as it instruments them).
   */
  private static final Set<String> CLASS_FIELDS =
      Set.of("name", "module", "packageName", "enumConstants", "enumConstantDirectory");

  private static final Set<String> ARRAY_CLASS_FIELDS =
      Set.of("name", "module", "packageName", "componentType");

  /** The fields of {@code ObjectStreamClass} set when it is made (the rest are filled lazily). */
  private static final Set<String> DESCRIPTOR_FIELDS =
      Set.of(
          "cl",
          "name",
          "isProxy",
          "isEnum",
          "isRecord",
          "serializable",
          "externalizable",
          "hasWriteObjectData",
          "hasBlockExternalData",
          "resolveEx",
          "deserializeEx",
          "serializeEx",
          "defaultSerializeEx",
          "fields",
          "primDataSize",
          "numObjFields",
          "fieldRefl",
          "cons",
          "canonicalCtr",
          "writeObjectMethod",
          "readObjectMethod",
          "readObjectNoDataMethod",
          "writeReplaceMethod",
          "readResolveMethod",
          "localDesc",
          "superDesc",
          "initialized",
          "suid");

  /** One behavioural check: returns why it fails, or null. */
  private interface Check {
    String run() throws Throwable;
  }

  private void check(List<Violation> out, String key, Check c) {
    String why;
    try {
      why = c.run();
    } catch (Throwable t) {
      why = "checking it threw " + t;
    }
    if (why != null) {
      out.add(new Violation("I1", "I1 " + key, why));
    }
  }

  private void checkBehaviour(List<Violation> out) {
    check(
        out,
        "Boolean.TRUE/FALSE value",
        () ->
            Boolean.TRUE.booleanValue() && !Boolean.FALSE.booleanValue()
                ? null
                : "Boolean.TRUE.booleanValue() is "
                    + Boolean.TRUE.booleanValue()
                    + ", Boolean.FALSE.booleanValue() is "
                    + Boolean.FALSE.booleanValue());
    check(
        out,
        "Integer.valueOf(7) value",
        () ->
            Integer.valueOf(7).intValue() == 7
                ? null
                : "Integer.valueOf(7) reads " + Integer.valueOf(7).intValue());
    check(
        out,
        "interned literal contents",
        () ->
            literal.length() == 8
                    && literal.hashCode() == literalHash
                    && literal.equals(
                        new String(new char[] {'i', 'n', 't', 'e', 'r', 'n', 'e', 'd'}))
                ? null
                : "the literal \"interned\" now has length "
                    + literal.length()
                    + ", hash "
                    + literal.hashCode()
                    + " (was "
                    + literalHash
                    + "), bytes "
                    + Arrays.toString(literal.getBytes(StandardCharsets.UTF_8)));
    check(
        out,
        "TimeUnit.SECONDS.toNanos",
        () ->
            TimeUnit.SECONDS.toNanos(1) == 1_000_000_000L
                ? null
                : "TimeUnit.SECONDS.toNanos(1) == " + TimeUnit.SECONDS.toNanos(1));
    check(
        out,
        "application enum constant fields",
        () ->
            CanaryEnum.A.code() == 1
                    && "one".equals(CanaryEnum.A.label())
                    && CanaryEnum.A.hits() == 0
                    && CanaryEnum.B.code() == 2
                    && "two".equals(CanaryEnum.B.label())
                ? null
                : "CanaryEnum.A now has code "
                    + CanaryEnum.A.code()
                    + ", label "
                    + CanaryEnum.A.label()
                    + ", hits "
                    + CanaryEnum.A.hits());
    for (Map.Entry<ObjectStreamClass, String> e : descriptorImages.entrySet()) {
      check(
          out,
          "ObjectStreamClass descriptor contents",
          () -> {
            String now = image(e.getKey());
            return now.equals(e.getValue())
                ? null
                : "ObjectStreamClass.lookup descriptor was '"
                    + e.getValue()
                    + "', is '"
                    + now
                    + "'";
          });
    }
    check(
        out,
        "ObjectInputStream no longer rejects a non-Serializable class",
        () -> {
          String accepted = nonSerialAccepted();
          return accepted == null
              ? null
              : "a plain ObjectInputStream no longer rejects a stream of"
                  + " the non-Serializable "
                  + StructureSeeds.NonSerial.class.getName()
                  + " with"
                  + " InvalidClassException: "
                  + accepted;
        });
  }

  /** A stream of a {@code SerialTwn} whose class name is patched to {@code NonSerial}. */
  private static byte[] nonSerialStream() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(new StructureSeeds.SerialTwn());
    }
    byte[] bytes = b.toByteArray();
    byte[] from = StructureSeeds.SerialTwn.class.getName().getBytes(StandardCharsets.UTF_8);
    byte[] to = StructureSeeds.NonSerial.class.getName().getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i + from.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + from.length, from, 0, from.length)) {
        System.arraycopy(to, 0, bytes, i, to.length);
        return bytes;
      }
    }
    throw new IllegalStateException("class name not found in the stream");
  }

  /**
   * @return {@code null} if a plain ObjectInputStream rejects the stream as it must, else why
   */
  private String nonSerialAccepted() {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(nonSerialStream))) {
      Object o = in.readObject();
      return "it restored a " + (o == null ? "null" : o.getClass().getName());
    } catch (InvalidClassException expected) {
      return null;
    } catch (Throwable e) {
      return "it failed otherwise: " + e;
    }
  }

  // ---- I3: threads and files ----

  private static Set<Thread> nonDaemonThreads() {
    ThreadGroup g = Thread.currentThread().getThreadGroup();
    while (g.getParent() != null) {
      g = g.getParent();
    }
    Thread[] all = new Thread[g.activeCount() + 16];
    int n = g.enumerate(all, true);
    Set<Thread> out = new HashSet<>();
    for (int i = 0; i < n; i++) {
      if (!all[i].isDaemon() && all[i].isAlive()) {
        out.add(all[i]);
      }
    }
    return out;
  }

  private Set<String> files() {
    Set<String> out = new HashSet<>();
    for (Path p : watchedTrees) {
      list(p.toFile(), out, 4);
    }
    String[] top = cwd.toFile().list();
    if (top != null) {
      for (String s : top) {
        out.add(cwd.resolve(s).toString());
      }
    }
    return out;
  }

  /** A created file's name relative to the home or working directory, for stable keys. */
  private String shortName(String file) {
    String h = home.toString();
    if (file.startsWith(h)) {
      return "~" + file.substring(h.length());
    }
    String w = cwd.toString();
    return file.startsWith(w) ? "." + file.substring(w.length()) : file;
  }

  private static void list(File dir, Set<String> out, int depth) {
    File[] children = dir.listFiles();
    if (children == null || out.size() > 10_000) {
      return;
    }
    for (File c : children) {
      out.add(c.getPath());
      if (depth > 0 && c.isDirectory()) {
        list(c, out, depth - 1);
      }
    }
  }

  // ---- field images ----

  /** The instance fields of one watched object, read and written back through Unsafe. */
  private static final class Frozen {
    private final String family;
    private final String label;
    private final Object obj;
    private final Field[] fields;
    private final long[] offsets;
    private final long[] prims;
    private final Object[] refs;
    private final Object[] contents;

    Frozen(String family, String label, Object obj, Set<String> only) {
      this.family = family;
      this.label = label;
      this.obj = obj;
      obj.hashCode(); // fills lazily cached hashes (String.hash, on JDK 25 Enum.hash)
      List<Field> fs = new ArrayList<>();
      for (Class<?> c = obj.getClass(); c != null; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (!Modifier.isStatic(f.getModifiers())
              && (only == null || only.contains(f.getName()))) {
            fs.add(f);
          }
        }
      }
      List<Field> usable = new ArrayList<>();
      List<Long> offs = new ArrayList<>();
      for (Field f : fs) {
        try {
          offs.add(U.objectFieldOffset(f));
          usable.add(f);
        } catch (RuntimeException e) {
          // a field Unsafe refuses (none among the watched classes); not watched
        }
      }
      fields = usable.toArray(new Field[0]);
      offsets = new long[fields.length];
      prims = new long[fields.length];
      refs = new Object[fields.length];
      contents = new Object[fields.length];
      for (int i = 0; i < fields.length; i++) {
        offsets[i] = offs.get(i);
        if (fields[i].getType().isPrimitive()) {
          prims[i] = read(i);
        } else {
          refs[i] = U.getObject(obj, offsets[i]);
          contents[i] = copyOf(refs[i]);
        }
      }
    }

    private static Object copyOf(Object array) {
      if (array == null || !array.getClass().isArray()) {
        return null;
      }
      int n = java.lang.reflect.Array.getLength(array);
      Object copy = java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), n);
      System.arraycopy(array, 0, copy, 0, n);
      return copy;
    }

    private long read(int i) {
      Class<?> t = fields[i].getType();
      long o = offsets[i];
      if (t == boolean.class) {
        return U.getBoolean(obj, o) ? 1 : 0;
      } else if (t == byte.class) {
        return U.getByte(obj, o);
      } else if (t == char.class) {
        return U.getChar(obj, o);
      } else if (t == short.class) {
        return U.getShort(obj, o);
      } else if (t == int.class) {
        return U.getInt(obj, o);
      } else if (t == long.class) {
        return U.getLong(obj, o);
      } else if (t == float.class) {
        return Float.floatToRawIntBits(U.getFloat(obj, o));
      }
      return Double.doubleToRawLongBits(U.getDouble(obj, o));
    }

    private void write(int i, long v) {
      Class<?> t = fields[i].getType();
      long o = offsets[i];
      if (t == boolean.class) {
        U.putBoolean(obj, o, v != 0);
      } else if (t == byte.class) {
        U.putByte(obj, o, (byte) v);
      } else if (t == char.class) {
        U.putChar(obj, o, (char) v);
      } else if (t == short.class) {
        U.putShort(obj, o, (short) v);
      } else if (t == int.class) {
        U.putInt(obj, o, (int) v);
      } else if (t == long.class) {
        U.putLong(obj, o, v);
      } else if (t == float.class) {
        U.putFloat(obj, o, Float.intBitsToFloat((int) v));
      } else {
        U.putDouble(obj, o, Double.longBitsToDouble(v));
      }
    }

    /**
     * @return whether a reference field changed
     */
    boolean diff(List<Violation> out) {
      boolean confused = false;
      for (int i = 0; i < fields.length; i++) {
        String what = null;
        if (fields[i].getType().isPrimitive()) {
          long now = read(i);
          if (now != prims[i]) {
            what = "was " + prims[i] + ", is " + now;
          }
        } else {
          Object now = U.getObject(obj, offsets[i]);
          if (now != null && !fields[i].getType().isInstance(now)) {
            confused = true;
            out.add(
                new Violation(
                    "I1",
                    "I1 type confusion: a "
                        + family
                        + " field holds an"
                        + " object of another type",
                    label
                        + ": field "
                        + fields[i].getName()
                        + " of type "
                        + fields[i].getType().getName()
                        + " now holds a "
                        + now.getClass().getName()
                        + " (memory unsafety: the JVM may crash)"));
          }
          if (now != refs[i]) {
            confused = true;
            what =
                "now refers to another object"
                    + (now == null ? " (null)" : " (a " + now.getClass().getName() + ")");
          } else if (contents[i] != null && !sameContents(now, contents[i])) {
            what = "array contents changed";
          }
        }
        if (what != null) {
          out.add(
              new Violation(
                  "I1",
                  "I1 write into "
                      + family
                      + ": field "
                      + fields[i].getDeclaringClass().getSimpleName()
                      + "."
                      + fields[i].getName(),
                  label + ": field " + fields[i].getName() + " " + what));
        }
      }
      return confused;
    }

    private static boolean sameContents(Object a, Object b) {
      if (a instanceof Object[] x) {
        Object[] y = (Object[]) b;
        if (x.length != y.length) {
          return false;
        }
        for (int i = 0; i < x.length; i++) {
          if (x[i] != y[i]) {
            return false;
          }
        }
        return true;
      }
      return Objects.deepEquals(a, b);
    }

    void restore() {
      for (int i = 0; i < fields.length; i++) {
        if (fields[i].getType().isPrimitive()) {
          if (read(i) != prims[i]) {
            write(i, prims[i]);
          }
        } else {
          if (U.getObject(obj, offsets[i]) != refs[i]) {
            U.putObject(obj, offsets[i], refs[i]);
          }
          if (contents[i] != null && !sameContents(refs[i], contents[i])) {
            System.arraycopy(
                contents[i], 0, refs[i], 0, java.lang.reflect.Array.getLength(contents[i]));
          }
        }
      }
    }
  }

  private static sun.misc.Unsafe unsafe() {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
