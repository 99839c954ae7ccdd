package org.codese;

import java.io.ObjectInputFilter;
import java.util.Objects;

/**
 * Immutable settings for capture and restore.
 *
 * <p>Start from {@link #defaults()} and derive variants with the {@code with...} methods; every
 * method returns a new instance and never changes the receiver, so one options object may be
 * shared freely between threads.
 */
public final class CodeseOptions {
  private static final CodeseOptions DEFAULTS =
      new CodeseOptions(false, 1, null, null, CodeseLimits.defaults(), null);

  private final boolean requireSerializable;
  private final int restoreThreads;
  private final ClassLoader classLoader;
  private final ObjectInputFilter filter;
  private final CodeseLimits limits;
  private final byte[] signingKey;

  private CodeseOptions(boolean requireSerializable, int restoreThreads, ClassLoader classLoader,
      ObjectInputFilter filter, CodeseLimits limits, byte[] signingKey) {
    this.signingKey = signingKey;
    this.requireSerializable = requireSerializable;
    this.restoreThreads = restoreThreads;
    this.classLoader = classLoader;
    this.filter = filter;
    this.limits = limits;
  }

  /**
   * The defaults: {@code Serializable} not required, restore on the calling thread only, classes
   * resolved through the thread's context class loader (falling back to Codese's own loader).
   *
   * @return the default options
   */
  public static CodeseOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Whether capture insists that every captured class implements {@link java.io.Serializable}, as
   * {@link java.io.ObjectOutputStream} does. When required, a class that does not is reported with
   * a {@link java.io.NotSerializableException}.
   *
   * @param required {@code true} to require {@code Serializable}
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withRequireSerializable(boolean required) {
    return new CodeseOptions(required, restoreThreads, classLoader, filter, limits, signingKey);
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
    return new CodeseOptions(requireSerializable, threads, classLoader, filter, limits, signingKey);
  }

  /**
   * The class loader used to resolve the classes a snapshot names when it is loaded.
   *
   * @param loader the loader, or {@code null} for the thread's context class loader
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withClassLoader(ClassLoader loader) {
    return new CodeseOptions(requireSerializable, restoreThreads, loader, filter, limits, signingKey);
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
    return new CodeseOptions(requireSerializable, restoreThreads, classLoader, filter, limits, signingKey);
  }

  /**
   * @param limits bounds on what a loaded snapshot may create
   * @return options that differ from these only in this setting
   */
  public CodeseOptions withLimits(CodeseLimits limits) {
    return new CodeseOptions(requireSerializable, restoreThreads, classLoader, filter,
        Objects.requireNonNull(limits, "limits"), signingKey);
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
      throw new IllegalArgumentException("a signing key needs at least 16 bytes, got "
          + key.length);
    }
    return new CodeseOptions(requireSerializable, restoreThreads, classLoader, filter, limits,
        key == null ? null : key.clone());
  }

  /** @return a copy of the signing key, or {@code null} */
  public byte[] signingKey() {
    return signingKey == null ? null : signingKey.clone();
  }

  /** @return the per-call serialization filter, or {@code null} */
  public ObjectInputFilter objectInputFilter() {
    return filter;
  }

  /** @return the load limits */
  public CodeseLimits limits() {
    return limits;
  }

  /** @return whether capture requires {@code Serializable} */
  public boolean requireSerializable() {
    return requireSerializable;
  }

  /** @return the default number of restore threads, at least 1 */
  public int restoreThreads() {
    return restoreThreads;
  }

  /** @return the configured class loader, or {@code null} for the context class loader */
  public ClassLoader classLoader() {
    return classLoader;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CodeseOptions other
        && requireSerializable == other.requireSerializable
        && restoreThreads == other.restoreThreads
        && classLoader == other.classLoader
        && filter == other.filter
        && limits.equals(other.limits)
        && java.util.Arrays.equals(signingKey, other.signingKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(requireSerializable, restoreThreads, classLoader, filter, limits, signingKey);
  }

  @Override
  public String toString() {
    return "CodeseOptions[requireSerializable=" + requireSerializable
        + ", restoreThreads=" + restoreThreads + "]";
  }
}
