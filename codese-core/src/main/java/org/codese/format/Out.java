package org.codese.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Big-endian writer for the snapshot format. Strings are stored as UTF-16 code units.
 *
 * <p>A <em>compact</em> writer (the segments of stream format 3) writes every {@link #u4} and
 * {@link #u8} as a zigzag variable-length integer (7 bits a byte, low bits first) and every string
 * as such a count and one unsigned variable-length integer per UTF-16 unit (one byte for ASCII);
 * {@link In} in compact mode reads them.
 */
final class Out {
  /**
   * The bytes written, {@link #size} of them: a plain array rather than a stream (whose writes are
   * synchronized and declare {@code IOException}), since capture writes every constant through
   * here.
   */
  private byte[] buf = new byte[64];

  private int size;
  private final boolean compact;

  /**
   * The bytes the buffer grows to at once once it outgrows {@link #FIRST_BYTES} ({@link
   * #expecting}), else 0.
   */
  private int expected;

  /** The buffer's size up to which it grows by doubling whatever {@link #expecting} said. */
  static final int FIRST_BYTES = 64 * 1024;

  /**
   * How many {@code int} array elements a compact snapshot or segment writes as variable-length
   * differences; the arrays after them are raw. Decoding variable-length integers costs a cold JVM
   * about 10 ns an element until the JIT compiles the loop, where raw arrays are one bulk copy:
   * read, load and restore in a fresh JVM, medians of 9, JDK 17, rbt-100000 (500,000 elements) 5 ms
   * slower with every array compact, rbt-10000 (50,000) 2 ms; a small graph's data, which fits the
   * budget, shrinks to a quarter to half.
   */
  static final int COMPACT_INTS = 16_384;

  private int compactIntsLeft = COMPACT_INTS;

  /** Whether {@code int} arrays that are arithmetic progressions are written as ranges. */
  private boolean ranges;

  /** The elements of the ranges written. */
  private long rangeElements;

  Out() {
    this(false);
  }

  /**
   * @param compact whether integers and strings are written in the compact form
   */
  Out(boolean compact) {
    this.compact = compact;
  }

  /**
   * @param compact whether integers and strings are written in the compact form
   * @param capacity the bytes to make room for at first
   */
  Out(boolean compact, int capacity) {
    this.compact = compact;
    this.buf = new byte[capacity];
  }

  /**
   * Notes that this buffer is likely to hold about {@code bytes}: once it outgrows {@link
   * #FIRST_BYTES} it grows at once to as many, not by doubling (a large snapshot's data copied
   * once, not ten times). What was written is the same either way.
   *
   * @return this
   */
  Out expecting(int bytes) {
    expected = bytes;
    return this;
  }

  boolean compact() {
    return compact;
  }

  /**
   * Takes {@code n} elements from the budget of {@link #COMPACT_INTS}.
   *
   * @return whether an {@code int} array of {@code n} elements is written compact
   */
  boolean takeCompactInts(int n) {
    if (n > compactIntsLeft) {
      return false;
    }
    compactIntsLeft -= n;
    return true;
  }

  /**
   * Lets {@code int} arrays that are arithmetic progressions be written as ranges (the constants of
   * the packed form, format version {@link SnapshotFile#PACKED_VERSION}).
   */
  Out withRanges() {
    this.ranges = true;
    return this;
  }

  /**
   * @return whether an arithmetic progression of {@code n} elements is written as a range; if so,
   *     counts its elements
   */
  boolean takeRange(int n) {
    if (ranges) {
      rangeElements += n;
    }
    return ranges;
  }

  /**
   * @return the elements of the ranges written
   */
  long rangeElements() {
    return rangeElements;
  }

  /** Elements {@link #varints} and {@link #intDeltas} make room for at a time. */
  private static final int BULK = 4_096;

  /** The most bytes a zigzag variable-length {@code long} takes. */
  private static final int MAX_VARINT = 10;

  /** Writes {@code v} as a zigzag variable-length integer, whatever the mode. */
  Out varint(long v) {
    ensure(MAX_VARINT);
    size = put(buf, size, v);
    return this;
  }

  /** How many bytes {@link #varint} writes for {@code v}. */
  static int varintSize(long v) {
    long z = (v << 1) ^ (v >> 63);
    int n = 1;
    while ((z & ~0x7FL) != 0) {
      z >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code v} at {@code b[at]} as {@link #varint} does; returns the index after it. */
  private static int put(byte[] b, int at, long v) {
    long z = (v << 1) ^ (v >> 63);
    while ((z & ~0x7FL) != 0) {
      b[at++] = (byte) ((z & 0x7F) | 0x80);
      z >>>= 7;
    }
    b[at++] = (byte) z;
    return at;
  }

  /** Writes each element of {@code a} as {@link #varint} writes it, making room once a block. */
  Out varints(long[] a) {
    for (int from = 0; from < a.length; from += BULK) {
      int to = Math.min(a.length, from + BULK);
      ensure(MAX_VARINT * (to - from));
      byte[] b = buf;
      int at = size;
      for (int i = from; i < to; i++) {
        at = put(b, at, a[i]);
      }
      size = at;
    }
    return this;
  }

  /**
   * Writes each element of {@code a} as {@link #varint} writes its difference from the element
   * before (the first's from 0), making room once a block.
   */
  Out intDeltas(int[] a) {
    int prev = 0;
    for (int from = 0; from < a.length; from += BULK) {
      int to = Math.min(a.length, from + BULK);
      ensure(MAX_VARINT * (to - from));
      byte[] b = buf;
      int at = size;
      for (int i = from; i < to; i++) {
        at = put(b, at, (long) a[i] - prev);
        prev = a[i];
      }
      size = at;
    }
    return this;
  }

  /** Writes {@code v} as four big-endian bytes, whatever the mode. */
  Out fixed4(int v) {
    write(v >>> 24);
    write(v >>> 16);
    write(v >>> 8);
    write(v);
    return this;
  }

  Out u1(int v) {
    write(v);
    return this;
  }

  Out u2(int v) {
    write(v >>> 8);
    write(v);
    return this;
  }

  Out u4(int v) {
    return compact ? varint(v) : fixed4(v);
  }

  Out u8(long v) {
    return compact ? varint(v) : fixed4((int) (v >>> 32)).fixed4((int) v);
  }

  Out raw(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
    return this;
  }

  /** Appends what {@code other} holds. */
  Out raw(Out other) {
    ensure(other.size);
    System.arraycopy(other.buf, 0, buf, size, other.size);
    size += other.size;
    return this;
  }

  /**
   * Appends {@code other}'s size as a {@link #varint}, then what it holds, making room for exactly
   * that: a buffer made for a known total is then filled without growing.
   */
  Out sized(Out other) {
    ensure(varintSize(other.size) + other.size);
    size = put(buf, size, other.size);
    return raw(other);
  }

  /**
   * Appends the checksum trailer that {@link SnapshotFile#checkTrailer} checks (CRC32C of all
   * written before, four big-endian bytes) and returns the whole: the buffer itself when it is
   * exactly full, so that a caller that made room for it ({@link #Out(boolean, int)}) copies
   * nothing.
   */
  byte[] withTrailer() {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(buf, 0, size);
    fixed4((int) crc.getValue());
    return size == buf.length ? buf : toByteArray();
  }

  Out bytes(byte[] b) {
    u4(b.length);
    return raw(b);
  }

  Out str(String s) {
    int n = s.length();
    u4(n);
    if (compact) {
      ensure(3 * n); // unsigned, 7 bits a byte: one byte for ASCII, at most three
      byte[] b = buf;
      int at = size;
      for (int i = 0; i < n; i++) {
        char u = s.charAt(i);
        while (u >= 0x80) {
          b[at++] = (byte) ((u & 0x7F) | 0x80);
          u >>>= 7;
        }
        b[at++] = (byte) u;
      }
      size = at;
      return this;
    }
    ensure(2 * n);
    for (int i = 0; i < n; i++) {
      char u = s.charAt(i);
      buf[size++] = (byte) (u >>> 8);
      buf[size++] = (byte) u;
    }
    return this;
  }

  int size() {
    return size;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  private void write(int b) {
    if (size == buf.length) {
      ensure(1);
    }
    buf[size++] = (byte) b;
  }

  private void ensure(int more) {
    if (buf.length - size < more) {
      int n = Math.max(buf.length * 2, size + more);
      if (expected > n && buf.length >= FIRST_BYTES) {
        n = expected;
        expected = 0; // once: later growth doubles
      }
      buf = Arrays.copyOf(buf, n);
    }
  }

  /**
   * Big-endian {@code int}s in a {@code byte[]}: one store each, not four. In a class of its own,
   * made at the first raw {@code int} column (a large graph's), not whenever a writer is.
   */
  private static final class Ints {
    static final VarHandle BIG_ENDIAN =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  }

  /**
   * Appends each of {@code a} as four big-endian bytes, in place: what a {@code ByteBuffer}'s
   * {@code asIntBuffer().put(a)} holds, without that buffer and its copy.
   */
  Out ints(int[] a) {
    ensure(4 * a.length);
    byte[] b = buf;
    int at = size;
    for (int v : a) {
      Ints.BIG_ENDIAN.set(b, at, v);
      at += 4;
    }
    size = at;
    return this;
  }

  /**
   * A large buffer an earlier writer gave back ({@link #recycle}), for the next large section: a
   * snapshot captured again and again (issue 9's model checker) writes its constants into the same
   * array each time instead of allocating and growing a new one. Taken and given back atomically,
   * so each buffer has one writer at a time; held softly, so that a JVM short of memory takes it
   * back rather than keeping a big graph's buffer for a capture that may never come.
   */
  private static final AtomicReference<SoftReference<byte[]>> SPARE = new AtomicReference<>();

  /** The largest buffer kept as {@link #SPARE}: a larger one is left to the collector. */
  static final int MAX_SPARE = 32 << 20;

  /**
   * A writer that starts with the spare buffer if there is one ({@link #recycle}); what it writes
   * is the same either way.
   *
   * @param compact whether integers and strings are written in the compact form
   * @return the writer
   */
  static Out reusing(boolean compact) {
    Out out = new Out(compact);
    SoftReference<byte[]> kept = SPARE.getAndSet(null);
    byte[] spare = kept == null ? null : kept.get();
    if (spare != null) {
      out.buf = spare;
    }
    return out;
  }

  /**
   * Gives this writer's buffer to the next {@link #reusing} writer, if it is large and not too
   * large. The caller has copied what it needed: this writer must not be used again.
   */
  void recycle() {
    byte[] b = buf;
    buf = null;
    if (b.length >= FIRST_BYTES && b.length <= MAX_SPARE) {
      SPARE.set(new SoftReference<>(b));
    }
  }

  /** Appends each of {@code a} as a byte, 1 or 0. */
  Out booleans(boolean[] a) {
    ensure(a.length);
    byte[] b = buf;
    int at = size;
    for (boolean v : a) {
      b[at++] = (byte) (v ? 1 : 0);
    }
    size = at;
    return this;
  }
}
