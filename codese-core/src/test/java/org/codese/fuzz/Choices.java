package org.codese.fuzz;

import java.util.List;

/**
 * The decisions of one structured mutation, read from the fuzzer's bytes. Every structural choice
 * the mutator makes (which seed, which section, which entry, which value) is one call here, so the
 * same bytes always give the same mutated snapshot, and the fuzzer's byte-level mutations become
 * changes of structure.
 *
 * <p>The bytes are read front to back; an exhausted input answers the minimum of every request (0,
 * {@code false}, the first element), as Jazzer's {@code FuzzedDataProvider} does, so a short input
 * means "few and simple mutations", and the empty input means "the first seed, unchanged". The
 * plain-Java driver ({@link StructureCampaign}) feeds random bytes through the same decoder, so an
 * input file found by either Jazzer or the driver replays identically in both.
 */
final class Choices {
  private final byte[] data;
  private int pos;

  Choices(byte[] data) {
    this.data = data;
  }

  /**
   * @return the bytes this decoder reads
   */
  byte[] data() {
    return data;
  }

  /**
   * @return how many bytes were read so far
   */
  int used() {
    return Math.min(pos, data.length);
  }

  private int nextByte() {
    return pos < data.length ? data[pos++] & 0xFF : 0;
  }

  /**
   * @return a value in {@code [0, n)}; 0 if {@code n <= 1}
   */
  int below(int n) {
    if (n <= 1) {
      return 0;
    }
    long v;
    if (n <= 0x100) {
      v = nextByte();
    } else if (n <= 0x10000) {
      v = (nextByte() << 8) | nextByte();
    } else {
      v = anyInt() & 0xFFFFFFFFL;
    }
    return (int) (v % n);
  }

  /**
   * @return a value in {@code [lo, hi]}
   */
  int between(int lo, int hi) {
    return lo + below(hi - lo + 1);
  }

  /**
   * @return true with probability about {@code 1/n}; false on an exhausted input (n > 1)
   */
  boolean oneIn(int n) {
    return below(n) == n - 1;
  }

  boolean bool() {
    return (nextByte() & 1) != 0;
  }

  int anyInt() {
    return (nextByte() << 24) | (nextByte() << 16) | (nextByte() << 8) | nextByte();
  }

  long anyLong() {
    return ((long) anyInt() << 32) | (anyInt() & 0xFFFFFFFFL);
  }

  /**
   * @return {@code n} bytes
   */
  byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) nextByte();
    }
    return b;
  }

  <T> T pick(List<T> values) {
    return values.get(below(values.size()));
  }

  @SafeVarargs
  final <T> T pick(T... values) {
    return values[below(values.length)];
  }

  /**
   * @return an int that is often an edge or a small value
   */
  int interestingInt() {
    return switch (below(12)) {
      case 0 -> 0;
      case 1 -> 1;
      case 2 -> -1;
      case 3 -> 7;
      case 4 -> 1337;
      case 5 -> Integer.MAX_VALUE;
      case 6 -> Integer.MIN_VALUE;
      case 7 -> 1 << 27;
      case 8 -> 65535;
      case 9 -> between(0, 300);
      case 10 -> 1 << 20;
      default -> anyInt();
    };
  }
}
