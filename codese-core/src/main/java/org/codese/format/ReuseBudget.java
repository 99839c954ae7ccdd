package org.codese.format;

/**
 * How much of what earlier segments sent the segments of one object stream may reuse, against the
 * bytes the stream's segments took: the same rule at both ends (stream format 3).
 *
 * <p>A segment may refer to class entries, symbolic constants, class files and whole shapes that
 * earlier segments sent, for a byte or two each, and the reader checks and runs what it refers to
 * again for this segment: the program check over the code, the constants' resolution, the filter
 * per class, the restore's straight-line code. Without a bound, a segment of a dozen bytes could
 * refer to a shape of megabytes of code, again and again, and reading would cost unbounded work per
 * byte. So every reference has a <em>weight</em>, the bytes the reader works through again because
 * of it: a class entry weighs its encoded bytes, a class file its bytes, a symbolic constant {@link
 * #SYMBOL_WEIGHT} (its resolution is a look-up whatever its length: the names it holds were decoded
 * once and hash once), a shape the sum of all of its parts. Over a whole stream, resets included,
 * the weights of all segments' references may add up to at most {@link #ALLOWANCE} plus {@link
 * #FACTOR} times the bytes of all its segments so far, this one's included. The writer keeps the
 * same account and, where a segment would go over it, sends that segment's parts again instead of
 * referring to them (the reader still skips the grammar check of a class file it has seen, by its
 * bytes), so no stream Codese writes is ever refused; a segment that goes over it was crafted or
 * damaged, and is a {@code CorruptSnapshotException}.
 *
 * <p>So reading a stream of {@code B} bytes of segments reworks at most {@code ALLOWANCE + FACTOR ×
 * B} bytes of earlier parts: work proportional to the bytes read, as with {@code
 * ObjectInputStream}. Not thread-safe: one per stream end.
 */
public final class ReuseBudget {
  /** Weight any stream may reuse before its segments' bytes pay for it: the 16 KB of small code. */
  public static final long ALLOWANCE = 16 * 1024;

  /** Weight each byte of a segment pays for. */
  public static final int FACTOR = 32;

  /** The weight of a reference to a symbolic constant. */
  public static final int SYMBOL_WEIGHT = 8;

  private long received;
  private long reused;

  /**
   * @param weight the weight of a segment's references
   * @param length the segment's length in bytes
   * @return whether the stream may take the segment
   */
  boolean allows(long weight, int length) {
    return reused + weight <= limit(length);
  }

  /**
   * @return the most the stream may have reused once a segment of {@code length} bytes is in
   */
  long limit(int length) {
    return ALLOWANCE + FACTOR * (received + length);
  }

  /** Takes a segment the stream {@link #allows}. */
  void charge(long weight, int length) {
    reused += weight;
    received += length;
  }

  /**
   * @return the bytes of the segments taken so far
   */
  public long received() {
    return received;
  }

  /**
   * @return the weight their references reused
   */
  public long reused() {
    return reused;
  }
}
