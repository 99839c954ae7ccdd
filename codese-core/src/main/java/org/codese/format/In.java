package org.codese.format;

import org.codese.CorruptSnapshotException;

/**
 * Big-endian reader over a snapshot that checks every length against the bytes that remain before
 * trusting it, so no length field can cause a large allocation or a read past the end.
 */
final class In {
  /** The elements {@link #deltaInts} reads per call of its loop method. */
  private static final int DELTA_CHUNK = 64;

  private final byte[] buf;
  private int pos;
  private final int end;
  private final boolean compact;
  private String section = "header";

  /**
   * How many more {@code int}s ranges may make ({@link #allowRanges}); -1 where the format has no
   * ranges.
   */
  private long rangesLeft = -1;

  In(byte[] buf, int start, int end) {
    this(buf, start, end, false);
  }

  /**
   * @param compact whether {@link #u4}, {@link #u8} and {@link #str} read the compact form that
   *     {@link Out} writes in compact mode
   */
  In(byte[] buf, int start, int end, boolean compact) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
    this.compact = compact;
  }

  boolean compact() {
    return compact;
  }

  /**
   * Lets this reader read ranges ({@code int} arrays as first element and step) of at most {@code
   * n} elements in all: the bound that replaces, for ranges, the bytes that each element of an
   * array would otherwise cost.
   */
  void allowRanges(long n) {
    rangesLeft = n;
  }

  /**
   * Reads a range's length and takes it from what {@link #allowRanges} allowed.
   *
   * @throws CorruptSnapshotException if ranges are not allowed, the length is negative or beyond
   *     what is left
   */
  int rangeLength() throws CorruptSnapshotException {
    if (rangesLeft < 0) {
      throw corrupt(
          "an int range, which only format version "
              + SnapshotFile.PACKED_VERSION
              + " and later snapshots hold");
    }
    int n = u4();
    if (n < 0 || n > rangesLeft) {
      throw corrupt(
          "an int range of "
              + n
              + " elements, beyond the "
              + rangesLeft
              + " that ranges may still make in a snapshot of this size");
    }
    rangesLeft -= n;
    return n;
  }

  /**
   * Reads {@code len} {@code int}s written as zigzag differences from the one before, each a
   * variable-length integer of at most six bytes, as {@link Out} writes {@code int} arrays in
   * compact mode. One loop over the buffer with a one-byte fast path and no call per element: the
   * arrays of ids and columns are most of a snapshot's data, read in a cold JVM by the interpreter.
   *
   * @throws CorruptSnapshotException if an element is longer, runs past the end or does not fit 32
   *     bits
   */
  int[] deltaInts(int len) throws CorruptSnapshotException {
    int[] a = new int[len];
    long prev = 0;
    for (int from = 0; from < len; from += DELTA_CHUNK) {
      prev = deltaChunk(a, from, Math.min(len, from + DELTA_CHUNK), prev);
    }
    return a;
  }

  /**
   * Elements {@code [from, to)} of {@link #deltaInts}, after the element {@code prev}; returns the
   * last. A method called per chunk rather than one loop: HotSpot compiles a method called a
   * hundred times with a few thousand loop rounds, but a single long loop only after tens of
   * thousands of rounds run interpreted.
   */
  private long deltaChunk(int[] a, int from, int to, long prev) throws CorruptSnapshotException {
    byte[] b = buf;
    int p = pos;
    for (int i = from; i < to; i++) {
      if (p >= end) {
        pos = p;
        throw corrupt("int array element " + i + " runs past the end");
      }
      int x = b[p++];
      long z;
      if (x >= 0) {
        z = x;
      } else {
        z = x & 0x7F;
        int shift = 7;
        while (true) {
          if (p >= end || shift > 35) {
            pos = p;
            throw corrupt("int array element " + i + " is cut short or longer than 6 bytes");
          }
          int y = b[p++];
          z |= (long) (y & 0x7F) << shift;
          if (y >= 0) {
            break;
          }
          shift += 7;
        }
      }
      long v = prev + ((z >>> 1) ^ -(z & 1));
      if (v != (int) v) {
        pos = p;
        throw corrupt("int array element " + i + " (" + v + ") does not fit 32 bits");
      }
      a[i] = (int) v;
      prev = v;
    }
    pos = p;
    return prev;
  }

  /**
   * Reads a zigzag variable-length integer of at most {@code maxBytes} bytes.
   *
   * @throws CorruptSnapshotException if it is longer or runs past the end
   */
  long varint(int maxBytes) throws CorruptSnapshotException {
    long z = 0;
    for (int i = 0; i < maxBytes; i++) {
      int b = u1();
      z |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        return (z >>> 1) ^ -(z & 1);
      }
    }
    throw corrupt("variable-length integer longer than " + maxBytes + " bytes");
  }

  /** Reads four big-endian bytes, whatever the mode. */
  int fixed4() throws CorruptSnapshotException {
    need(4);
    int v =
        ((buf[pos] & 0xFF) << 24)
            | ((buf[pos + 1] & 0xFF) << 16)
            | ((buf[pos + 2] & 0xFF) << 8)
            | (buf[pos + 3] & 0xFF);
    pos += 4;
    return v;
  }

  void section(String name) {
    this.section = name;
  }

  String section() {
    return section;
  }

  /**
   * @return the length of the whole buffer (the snapshot file)
   */
  int fileLength() {
    return buf.length;
  }

  int pos() {
    return pos;
  }

  int remaining() {
    return end - pos;
  }

  CorruptSnapshotException corrupt(String problem) {
    return new CorruptSnapshotException(section, pos, problem);
  }

  private void need(long n) throws CorruptSnapshotException {
    if (n < 0 || n > end - pos) {
      throw corrupt("needs " + n + " more bytes but only " + (end - pos) + " remain");
    }
  }

  /**
   * @return the next byte, not consumed
   */
  int peek() throws CorruptSnapshotException {
    need(1);
    return buf[pos] & 0xFF;
  }

  int u1() throws CorruptSnapshotException {
    need(1);
    return buf[pos++] & 0xFF;
  }

  int u2() throws CorruptSnapshotException {
    need(2);
    int v = ((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF);
    pos += 2;
    return v;
  }

  int u4() throws CorruptSnapshotException {
    if (compact) {
      long v = varint(5);
      if (v != (int) v) {
        throw corrupt("integer " + v + " does not fit 32 bits");
      }
      return (int) v;
    }
    return fixed4();
  }

  long u8() throws CorruptSnapshotException {
    if (compact) {
      return varint(10);
    }
    long hi = u4() & 0xFFFFFFFFL;
    return (hi << 32) | (u4() & 0xFFFFFFFFL);
  }

  /**
   * Reads a count of items that each take at least {@code minBytes} bytes (at least one byte in
   * compact mode, where integers shrink).
   */
  int count(int minBytes) throws CorruptSnapshotException {
    return rawCount(compact ? 1 : minBytes);
  }

  /**
   * Reads a count of items that each take exactly {@code bytesEach} bytes in every mode (the
   * elements of a raw primitive array).
   */
  int rawCount(int bytesEach) throws CorruptSnapshotException {
    int n = u4();
    if (n < 0 || (long) n * bytesEach > end - pos) {
      throw corrupt("count " + n + " is impossible with " + (end - pos) + " bytes left");
    }
    return n;
  }

  /** Reads an index that must lie in {@code [min, limit)}. */
  int index(int min, int limit, String what) throws CorruptSnapshotException {
    int v = u4();
    if (v < min || v >= limit) {
      throw corrupt(what + " " + v + " is out of range [" + min + ", " + limit + ")");
    }
    return v;
  }

  /**
   * A reader of the next {@code n} bytes, in the same mode, named {@code name}; this one skips
   * them.
   *
   * @throws CorruptSnapshotException if fewer remain
   */
  In part(int n, String name) throws CorruptSnapshotException {
    need(n);
    In in = new In(buf, pos, pos + n, compact);
    in.section(name);
    pos += n;
    return in;
  }

  /**
   * Skips {@code n} bytes that another reader reads.
   *
   * @throws CorruptSnapshotException if fewer remain
   */
  void skip(int n) throws CorruptSnapshotException {
    need(n);
    pos += n;
  }

  byte[] raw(int n) throws CorruptSnapshotException {
    need(n);
    byte[] b = new byte[n];
    System.arraycopy(buf, pos, b, 0, n);
    pos += n;
    return b;
  }

  /**
   * Reads {@code n} bytes as booleans, nonzero as {@code true}: an array loop rather than a loop
   * over a buffer view, whose per-element calls a cold JVM runs interpreted several times slower.
   */
  boolean[] booleans(int n) throws CorruptSnapshotException {
    need(n);
    boolean[] a = new boolean[n];
    byte[] b = buf;
    for (int i = 0, at = pos; i < n; i++, at++) {
      a[i] = b[at] != 0;
    }
    pos += n;
    return a;
  }

  /**
   * Reads {@code n} bytes as a big-endian view of the snapshot, without copying them: for bulk
   * reads into primitive arrays, which copy out of it.
   */
  java.nio.ByteBuffer view(int n) throws CorruptSnapshotException {
    need(n);
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(buf, pos, n).slice();
    pos += n;
    return b;
  }

  byte[] bytes() throws CorruptSnapshotException {
    return raw(count(1));
  }

  String str() throws CorruptSnapshotException {
    int n = count(2);
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = compact ? unit() : (char) u2();
    }
    return new String(c);
  }

  /** One UTF-16 unit of a compact string: unsigned, 7 bits a byte, at most three bytes. */
  private char unit() throws CorruptSnapshotException {
    int u = 0;
    for (int i = 0; i < 3; i++) {
      int b = u1();
      u |= (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (u > 0xFFFF) {
          throw corrupt("string unit " + u + " is not a UTF-16 code unit");
        }
        return (char) u;
      }
    }
    throw corrupt("string unit longer than 3 bytes");
  }
}
