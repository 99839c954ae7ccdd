package org.codese;

/**
 * Upper bounds on what a snapshot may ask the loader to create, checked before anything is
 * allocated or any code runs; a snapshot over a limit is rejected with an {@link
 * java.io.InvalidObjectException} naming the limit. Immutable; start from {@link #defaults()}.
 *
 * <p>Defaults: 100,000,000 objects per snapshot, 2^27 array elements (in all the arrays a snapshot
 * creates or carries together, and so in its longest; and in each array a class's own {@code
 * readObject} allocates from the snapshot's data), 1 GiB of snapshot bytes, 100,000 classes, depth
 * 100,000,000.
 */
public final class CodeseLimits {
  private static final CodeseLimits DEFAULTS =
      new CodeseLimits(100_000_000, 1 << 27, 1L << 30, 100_000, 100_000_000);

  private final int maxObjects;
  private final int maxArrayLength;
  private final long maxBytes;
  private final int maxClasses;
  private final int maxDepth;

  private CodeseLimits(
      int maxObjects, int maxArrayLength, long maxBytes, int maxClasses, int maxDepth) {
    this.maxObjects = maxObjects;
    this.maxArrayLength = maxArrayLength;
    this.maxBytes = maxBytes;
    this.maxClasses = maxClasses;
    this.maxDepth = maxDepth;
  }

  /**
   * Returns the default limits (see the class description for their values).
   *
   * @return the default limits
   */
  public static CodeseLimits defaults() {
    return DEFAULTS;
  }

  private static int positive(long v, String what) {
    if (v < 1 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          what + " must be between 1 and " + Integer.MAX_VALUE + ", got " + v);
    }
    return (int) v;
  }

  /**
   * Returns limits with another bound on the number of objects.
   *
   * @param n the most objects one snapshot (or stream segment) may create
   * @return limits that differ from these only in this bound
   */
  public CodeseLimits withMaxObjects(int n) {
    return new CodeseLimits(
        positive(n, "maxObjects"), maxArrayLength, maxBytes, maxClasses, maxDepth);
  }

  /**
   * Returns limits with another bound on array elements.
   *
   * @param n the most array elements a snapshot (or stream segment) may create or carry, in all its
   *     arrays together; also the longest array a class's own {@code readObject} or {@code
   *     readExternal} may allocate from the snapshot's data (a length checked through {@code
   *     ObjectInputStream}'s array check, as the JDK's collections do, before the array exists)
   * @return limits that differ from these only in this bound
   */
  public CodeseLimits withMaxArrayLength(int n) {
    return new CodeseLimits(
        maxObjects, positive(n, "maxArrayLength"), maxBytes, maxClasses, maxDepth);
  }

  /**
   * Returns limits with another bound on a snapshot's size in bytes.
   *
   * @param n the largest snapshot, in bytes, that is read at all; for a compressed snapshot ({@link
   *     CodeseOptions#withCompression}) also the largest it may inflate to, checked against the
   *     length its envelope declares before anything is inflated
   * @return limits that differ from these only in this bound
   */
  public CodeseLimits withMaxBytes(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxBytes must be positive, got " + n);
    }
    return new CodeseLimits(maxObjects, maxArrayLength, n, maxClasses, maxDepth);
  }

  /**
   * Returns limits with another bound on the number of classes.
   *
   * @param n the most classes a snapshot may name
   * @return limits that differ from these only in this bound
   */
  public CodeseLimits withMaxClasses(int n) {
    return new CodeseLimits(
        maxObjects, maxArrayLength, maxBytes, positive(n, "maxClasses"), maxDepth);
  }

  /**
   * Returns limits with another bound on the graph's depth.
   *
   * @param n the greatest graph depth a snapshot may record
   * @return limits that differ from these only in this bound
   */
  public CodeseLimits withMaxDepth(int n) {
    return new CodeseLimits(
        maxObjects, maxArrayLength, maxBytes, maxClasses, positive(n, "maxDepth"));
  }

  /**
   * Returns the bound on the number of objects.
   *
   * @return the most objects per snapshot
   */
  public int maxObjects() {
    return maxObjects;
  }

  /**
   * Returns the bound on array elements.
   *
   * @return the most array elements a snapshot may create or carry, in all its arrays together, and
   *     the longest array a class's own restore code may allocate from its data (see {@link
   *     #withMaxArrayLength})
   */
  public int maxArrayLength() {
    return maxArrayLength;
  }

  /**
   * Returns the bound on a snapshot's size.
   *
   * @return the largest snapshot in bytes, compressed or once inflated
   */
  public long maxBytes() {
    return maxBytes;
  }

  /**
   * Returns the bound on the number of classes.
   *
   * @return the most classes
   */
  public int maxClasses() {
    return maxClasses;
  }

  /**
   * Returns the bound on the graph's depth.
   *
   * @return the greatest depth
   */
  public int maxDepth() {
    return maxDepth;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CodeseLimits l
        && l.maxObjects == maxObjects
        && l.maxArrayLength == maxArrayLength
        && l.maxBytes == maxBytes
        && l.maxClasses == maxClasses
        && l.maxDepth == maxDepth;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(maxObjects, maxArrayLength, maxBytes, maxClasses, maxDepth);
  }

  @Override
  public String toString() {
    return "CodeseLimits[maxObjects="
        + maxObjects
        + ", maxArrayLength="
        + maxArrayLength
        + ", maxBytes="
        + maxBytes
        + ", maxClasses="
        + maxClasses
        + ", maxDepth="
        + maxDepth
        + "]";
  }
}
