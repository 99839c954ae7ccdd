package org.codese;

import java.io.ObjectInputFilter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.codese.load.AllowList;

/**
 * Immutable settings for capture and restore.
 *
 * <p>Start from {@link #defaults()} and derive variants with the {@code with...} methods; every
 * method returns a new instance and never changes the receiver, so one options object may be shared
 * freely between threads.
 */
public final class CodeseOptions {
  private static final CodeseOptions DEFAULTS = new CodeseOptions(new Draft());

  /** {@code null} until set: then each writer applies its own default. */
  private final Boolean requireSerializable;

  private final int restoreThreads;
  private final ClassLoader classLoader;
  private final ObjectInputFilter filter;
  private final CodeseLimits limits;
  private final byte[] signingKey;
  private final AllowList allowed;
  private final boolean compressed;

  /** Whether global references to static final fields are captured and admitted at load. */
  private final boolean staticConstants;

  /** The objects named with {@link #withGlobal}, unmodifiable, in the order named. */
  private final Map<String, Object> globals;

  private CodeseOptions(Draft d) {
    this.requireSerializable = d.requireSerializable;
    this.restoreThreads = d.restoreThreads;
    this.classLoader = d.classLoader;
    this.filter = d.filter;
    this.limits = d.limits;
    this.signingKey = d.signingKey;
    this.allowed = d.allowed;
    this.compressed = d.compressed;
    this.staticConstants = d.staticConstants;
    this.globals = d.globals;
  }

  /**
   * The settings of an options object being derived: {@link #draft} copies the receiver's, a {@code
   * with...} method changes one and makes the new, immutable options from it.
   */
  private static final class Draft {
    Boolean requireSerializable;
    int restoreThreads = 1;
    ClassLoader classLoader;
    ObjectInputFilter filter;
    CodeseLimits limits = CodeseLimits.defaults();
    byte[] signingKey;
    AllowList allowed = AllowList.NONE;
    boolean compressed;
    boolean staticConstants;
    Map<String, Object> globals = Map.of();
  }

  /** A draft holding these options' settings. */
  private Draft draft() {
    Draft d = new Draft();
    d.requireSerializable = requireSerializable;
    d.restoreThreads = restoreThreads;
    d.classLoader = classLoader;
    d.filter = filter;
    d.limits = limits;
    d.signingKey = signingKey;
    d.allowed = allowed;
    d.compressed = compressed;
    d.staticConstants = staticConstants;
    d.globals = globals;
    return d;
  }

  /**
   * The defaults: {@code Serializable} not required by {@link Codese}'s capture but required by
   * {@link CodeseOutputStream} (as by {@link java.io.ObjectOutputStream}), restore on the calling
   * thread only, classes resolved through the thread's context class loader (falling back to
   * Codese's own loader), no classes admitted beyond what {@link java.io.ObjectInputStream} would
   * restore.
   *
   * @return the default options
   */
  public static CodeseOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Whether capture insists that every captured class implements {@link java.io.Serializable}, as
   * {@link java.io.ObjectOutputStream} does. When required, a class that does not is reported with
   * a {@link java.io.NotSerializableException}. Until this is set, {@link Codese}'s capture does
   * not require it and {@link CodeseOutputStream} does, as a drop-in for the JDK's stream.
   *
   * @param required {@code true} to require {@code Serializable}
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withRequireSerializable(boolean required) {
    Draft d = draft();
    d.requireSerializable = required;
    return new CodeseOptions(d);
  }

  /**
   * The number of threads {@link Snapshot#restore()} uses. One restores on the calling thread.
   *
   * @param threads at least 1
   * @return options that differ from these only in this setting
   * @throws IllegalArgumentException if {@code threads < 1}
   */
  public CodeseOptions withRestoreThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("restore threads must be at least 1, got " + threads);
    }
    Draft d = draft();
    d.restoreThreads = threads;
    return new CodeseOptions(d);
  }

  /**
   * The class loader used to resolve the classes a snapshot names when it is loaded.
   *
   * @param loader the loader, or {@code null} for the thread's context class loader
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withClassLoader(ClassLoader loader) {
    Draft d = draft();
    d.classLoader = loader;
    return new CodeseOptions(d);
  }

  /**
   * A serialization filter for loading, combined with the JVM-wide filter through the filter
   * factory exactly as {@link java.io.ObjectInputStream#setObjectInputFilter} does (JEP 290 and
   * 415). The filter sees every class, array length, the object count and the recorded depth of a
   * snapshot before any of its code runs.
   *
   * @param filter the filter, or {@code null} for the JVM-wide filter only
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withObjectInputFilter(ObjectInputFilter filter) {
    Draft d = draft();
    d.filter = filter;
    return new CodeseOptions(d);
  }

  /**
   * Returns options with other load limits.
   *
   * @param limits bounds on what a loaded snapshot may create
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withLimits(CodeseLimits limits) {
    Draft d = draft();
    d.limits = Objects.requireNonNull(limits, "limits");
    return new CodeseOptions(d);
  }

  /**
   * A key for HMAC-SHA256 signatures: with a key, capture signs every snapshot (and every stream
   * segment) and loading rejects, with {@link AuthenticityException}, any snapshot that is unsigned
   * or signed with another key, before parsing it.
   *
   * @param key the secret key bytes (at least 16), or {@code null} for no signing
   * @return options that differ from these only in this setting
   * @throws IllegalArgumentException if the key is shorter than 16 bytes
   */
  public CodeseOptions withSigningKey(byte[] key) {
    if (key != null && key.length < 16) {
      throw new IllegalArgumentException(
          "a signing key needs at least 16 bytes, got " + key.length);
    }
    Draft d = draft();
    d.signingKey = key == null ? null : key.clone();
    return new CodeseOptions(d);
  }

  /**
   * Whether written snapshots are compressed. With compression, {@link Codese#write}, {@link
   * Codese#toBytes}, {@link Snapshot#toBytes()} and {@link Snapshot#writeTo} wrap the finished
   * snapshot in a compression envelope (magic {@code "CDSZ"}, the uncompressed length, then the
   * snapshot as {@link java.util.zip.Deflater} compresses it); with a signing key as well, the
   * signature covers the compressed envelope, so loading checks it before inflating anything.
   *
   * <p>Loading needs no setting: every method that reads a snapshot recognises the envelope and
   * inflates it, after the signature check and before every other check, and only up to {@link
   * CodeseLimits#maxBytes()} (the declared length is checked before anything is allocated). Off by
   * default. Compression costs capture time and saves bytes where a snapshot repeats itself, as
   * snapshots of many objects of few classes do; a snapshot captured with {@link Snapshot#capture}
   * and restored in the same JVM is never compressed. {@link CodeseOutputStream} ignores the
   * setting: its segments, one per {@code writeObject}, are not compressed.
   *
   * @param compress {@code true} to compress written snapshots
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withCompression(boolean compress) {
    Draft d = draft();
    d.compressed = compress;
    return new CodeseOptions(d);
  }

  /**
   * Classes that loading admits beyond what {@link java.io.ObjectInputStream} would restore. By
   * default a snapshot may instantiate and write only what {@code ObjectInputStream} would for the
   * same classes: {@code Serializable} classes allocated through the no-arg constructor of their
   * first non-serializable superclass, {@code Externalizable} classes through their public no-arg
   * constructor, {@code Serializable} records through their canonical constructor, enum constants
   * and arrays. Any other class a snapshot instantiates or writes is rejected with {@link
   * ClassNotAllowedException} when it is loaded, before any class it names is initialised.
   *
   * <p>A class these patterns admit may also be restored the way Codese captures classes that are
   * not {@code Serializable}: allocated without running any constructor, with its declared instance
   * fields set (also those of its superclasses that are admitted), and, for a record, through its
   * canonical constructor. Admit classes only for snapshots from a trusted source: an admitted
   * class's fields take whatever values the snapshot holds, and its methods (such as {@code
   * hashCode} or {@code compareTo}, called by the collections it is restored into) then run on
   * them. Capture needs no admission: this setting only concerns loading.
   *
   * <p>Patterns, one per argument (JEP 290's class patterns, without modules and negation): {@code
   * "com.example.Foo"} admits that class ({@code "com.example.Outer$Inner"} a nested one), {@code
   * "com.example.*"} the classes of a package, {@code "com.example.**"} those of a package and its
   * subpackages, {@code "com.example.Foo*"} every class whose name starts so, and {@code "**"}
   * every class, an explicit choice to trust the snapshot's source entirely. {@link
   * Codese#classesToAllow} and {@link Snapshot#classesToAllow()} give the classes a snapshot needs;
   * the rejection's message gives them as a ready-to-paste line.
   *
   * @param patterns class patterns; none to admit nothing beyond {@code ObjectInputStream}'s
   *     surface
   * @return options that differ from these only in this setting (the patterns replace any given
   *     before)
   * @throws IllegalArgumentException if a pattern is empty or malformed (whitespace, {@code ;},
   *     {@code ,}, {@code /}, {@code !}, or a {@code *} that does not end it)
   * @throws NullPointerException if {@code patterns} or one of them is {@code null}
   */
  public CodeseOptions withAllowedClasses(String... patterns) {
    Draft d = draft();
    d.allowed = AllowList.of(List.of(patterns));
    return new CodeseOptions(d);
  }

  /**
   * Returns the patterns of the classes admitted beyond what {@code ObjectInputStream} would
   * restore.
   *
   * @return the allowed-class patterns, in the order given; empty by default
   */
  public List<String> allowedClasses() {
    return allowed.patterns();
  }

  /**
   * Global references to static constants (snapshot format 5; off by default). Objects that are a
   * class's own constants then restore as the same instance, not as copies, as enum constants
   * always do: for example a library's key objects held in an {@code IdentityHashMap}, which a copy
   * would no longer find.
   *
   * <p>At capture, with this on: every object of the graph that is, by identity, the value of a
   * {@code static final} reference field of a class of the graph (the class of an object of it) or
   * of one of that class's superclasses is captured as a reference to that field, not by its
   * contents; its own fields are not captured. Each class is scanned once per capture, when an
   * object of it is first seen; fields that are neither public nor made accessible by {@code
   * trySetAccessible} are skipped, and so are strings, boxes, enum constants and {@code Class}
   * objects, which restore as they always do. An object the graph reaches before the class that
   * holds it as a constant is seen is captured by its contents, as without this option. A
   * constant's {@code writeReplace} is not called.
   *
   * <p>At load, with this on: a snapshot may refer to static final fields; each is read (which
   * initialises its class, as any use of the class would) once the serialization filter and the
   * allowed classes accepted every class, and must still be a {@code static final} reference field
   * with a value, else {@link ClassMismatchException}. The restored graph then holds that live
   * object of this JVM, which the restore never writes to. With this off (the default), a snapshot
   * that refers to any static constant is rejected with {@link ClassNotAllowedException} before
   * anything of it runs and before any class it names is initialised: load such a snapshot with
   * this option only if it comes from a trusted source, since it may name any static final field of
   * the classes it names, private ones included where their package is open to Codese.
   *
   * @param on {@code true} to capture and admit references to static constants
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withStaticConstants(boolean on) {
    Draft d = draft();
    d.staticConstants = on;
    return new CodeseOptions(d);
  }

  /**
   * Returns whether global references to static constants are captured and admitted.
   *
   * @return the value set with {@link #withStaticConstants}; {@code false} by default
   */
  public boolean staticConstants() {
    return staticConstants;
  }

  /**
   * Names an object as a global (snapshot format 5), on both sides. At capture, the object, found
   * in the graph by identity, is captured as a reference to {@code name}, not by its contents
   * (named globals are looked up before static constants). At load, a reference to {@code name}
   * restores as the object these options give for it; a snapshot that refers to a name the load
   * options do not give is rejected with {@link java.io.InvalidObjectException} before anything of
   * it runs. The restore never writes to the object. Naming an object is the loading side's choice
   * of what the snapshot may refer to, so unlike {@link #withStaticConstants} it admits nothing
   * else.
   *
   * @param name the name, not empty
   * @param value the object, not {@code null}
   * @return options that differ from these only in naming {@code value} {@code name} (replacing any
   *     object named so before)
   * @throws IllegalArgumentException if {@code name} is empty, or {@code value} is named already
   *     under another name
   * @throws NullPointerException if {@code name} or {@code value} is {@code null}
   */
  public CodeseOptions withGlobal(String name, Object value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a global's name is empty");
    }
    for (Map.Entry<String, Object> e : globals.entrySet()) {
      if (e.getValue() == value && !e.getKey().equals(name)) {
        throw new IllegalArgumentException(
            "the object is named \"" + e.getKey() + "\" already; give each global one name");
      }
    }
    Map<String, Object> named = new LinkedHashMap<>(globals);
    named.put(name, value);
    Draft d = draft();
    d.globals = java.util.Collections.unmodifiableMap(named);
    return new CodeseOptions(d);
  }

  /**
   * Returns the objects named with {@link #withGlobal}.
   *
   * @return the globals by name, unmodifiable, in the order named; empty by default
   */
  public Map<String, Object> globals() {
    return globals;
  }

  /** The allow-list for the loader, with the global references these options admit. */
  AllowList allowList() {
    return staticConstants || !globals.isEmpty()
        ? allowed.withGlobals(staticConstants, globals)
        : allowed;
  }

  /**
   * Returns the key that signs written snapshots and must have signed loaded ones.
   *
   * @return a copy of the signing key, or {@code null}
   */
  public byte[] signingKey() {
    return signingKey == null ? null : signingKey.clone();
  }

  /**
   * Returns whether written snapshots are compressed.
   *
   * @return the value set with {@link #withCompression}, {@code false} by default
   */
  public boolean compressed() {
    return compressed;
  }

  /**
   * Returns the serialization filter for loading, combined with the JVM-wide filter.
   *
   * @return the per-call serialization filter, or {@code null}
   */
  public ObjectInputFilter objectInputFilter() {
    return filter;
  }

  /**
   * Returns the bounds on what a loaded snapshot may create.
   *
   * @return the load limits
   */
  public CodeseLimits limits() {
    return limits;
  }

  /**
   * Returns whether capture refuses objects whose classes are not {@code Serializable}.
   *
   * @return whether capture requires {@code Serializable}: the value set with {@link
   *     #withRequireSerializable}, or {@code false} (the default of {@link Codese}'s capture)
   */
  public boolean requireSerializable() {
    return requireSerializable != null && requireSerializable;
  }

  /**
   * These options with {@code Serializable} required unless {@link #withRequireSerializable} set
   * it: the options {@link CodeseOutputStream} captures with.
   */
  CodeseOptions forStream() {
    return requireSerializable != null ? this : withRequireSerializable(true);
  }

  /**
   * Returns how many threads a restore uses unless told otherwise.
   *
   * @return the default number of restore threads, at least 1
   */
  public int restoreThreads() {
    return restoreThreads;
  }

  /**
   * Returns the class loader that resolves the classes a snapshot names.
   *
   * @return the configured class loader, or {@code null} for the context class loader
   */
  public ClassLoader classLoader() {
    return classLoader;
  }

  /**
   * Two options are equal when every setting is: the same flags (compression among them), thread
   * count and limits, signing keys of the same bytes (or both none), the same allowed-class
   * patterns, the same names of the very same global objects, and the very same class loader and
   * filter objects (compared by identity, not by their own {@code equals}).
   *
   * @param o any object
   * @return whether {@code o} is options with the same settings
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof CodeseOptions other
        && Objects.equals(requireSerializable, other.requireSerializable)
        && restoreThreads == other.restoreThreads
        && classLoader == other.classLoader
        && filter == other.filter
        && limits.equals(other.limits)
        && java.util.Arrays.equals(signingKey, other.signingKey)
        && allowed.equals(other.allowed)
        && compressed == other.compressed
        && staticConstants == other.staticConstants
        && sameGlobals(globals, other.globals);
  }

  /** Whether two maps of globals name the very same objects by the same names. */
  private static boolean sameGlobals(Map<String, Object> a, Map<String, Object> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (Map.Entry<String, Object> e : a.entrySet()) {
      if (b.get(e.getKey()) != e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /**
   * A hash consistent with {@link #equals}: equal options have equal hashes. The signing key is
   * hashed by its bytes, the class loader and the filter by identity.
   *
   * @return the hash
   */
  @Override
  public int hashCode() {
    return Objects.hash(
        requireSerializable,
        restoreThreads,
        System.identityHashCode(classLoader),
        System.identityHashCode(filter),
        limits,
        java.util.Arrays.hashCode(signingKey),
        allowed,
        compressed,
        staticConstants,
        globals.keySet());
  }

  /**
   * @return the settings, without the signing key's bytes
   */
  @Override
  public String toString() {
    return "CodeseOptions[requireSerializable="
        + (requireSerializable == null ? "default" : requireSerializable)
        + ", restoreThreads="
        + restoreThreads
        + ", classLoader="
        + classLoader
        + ", objectInputFilter="
        + filter
        + ", limits="
        + limits
        + ", signingKey="
        + (signingKey == null ? "none" : "set")
        + ", allowedClasses="
        + allowed.patterns()
        + ", compressed="
        + compressed
        + ", staticConstants="
        + staticConstants
        + ", globals="
        + globals.keySet()
        + "]";
  }
}
