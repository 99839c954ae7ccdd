package org.codese.capture;

import java.util.Arrays;

/**
 * Object identity to id: an open-addressing table with linear probing, keyed by reference and
 * {@link System#identityHashCode}, holding {@code int} values, so that a capture of many objects
 * neither boxes ids nor makes an entry object per key as {@code IdentityHashMap<Object, Integer>}
 * did (the largest single cost of capture in the profile, Section 3 of docs/DESIGN.md).
 *
 * <p>Contract: keys are non-null; values are at least 0 ({@link #get} answers -1 for an absent
 * key). Not thread-safe.
 */
final class IdentityIds {
  /** Keys, or {@code null} for a free slot; the length is a power of two. */
  private Object[] keys;

  private int[] values;

  private int size;

  /**
   * The key {@link #get} last missed and the free slot where its probe ended, so that the {@link
   * #put} that mostly follows does not probe again; {@code null} when no such slot is known.
   */
  private Object missed;

  private int missedSlot;

  /** Size at which the table grows: two thirds of its length. */
  private int limit;

  /** 32 minus the base-2 logarithm of the length: a hash's top bits index the table. */
  private int shift;

  IdentityIds() {
    this(0);
  }

  /**
   * How many keys a table is made for at first, whatever the expected number: a small graph
   * captured after a large one should not allocate the large one's table.
   */
  static final int FIRST_KEYS = 1_024;

  /**
   * The capacity the table grows to when it first outgrows {@link #FIRST_KEYS} keys: enough for the
   * expected number, so that a large graph captured again rehashes once, not at every doubling.
   */
  private int expectedCapacity;

  /**
   * @param expected how many keys the table is likely to hold: it starts large enough for {@link
   *     #FIRST_KEYS} of them and, once it holds more, grows at once to hold {@code expected}
   */
  IdentityIds(int expected) {
    expectedCapacity = capacityFor(Capturer.withRoom(expected));
    allocate(capacityFor(Math.min(expected, FIRST_KEYS)));
  }

  private static int capacityFor(int keys) {
    int capacity = 64;
    while (capacity / 3 * 2 < keys && capacity < 1 << 30) {
      capacity <<= 1;
    }
    return capacity;
  }

  private void allocate(int capacity) {
    keys = new Object[capacity];
    values = new int[capacity];
    limit = capacity / 3 * 2;
    missed = null;
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
  }

  /**
   * @return how many keys the table holds
   */
  int size() {
    return size;
  }

  /**
   * @return the value of {@code key}, or -1 if absent
   */
  int get(Object key) {
    Object[] k = keys;
    int mask = k.length - 1;
    int hash = System.identityHashCode(key);
    for (int i = index(hash); ; i = (i + 1) & mask) {
      Object o = k[i];
      if (o == key) {
        return values[i];
      } else if (o == null) {
        missed = key;
        missedSlot = i;
        return -1;
      }
    }
  }

  /** Maps {@code key} to {@code value} (at least 0), replacing any earlier value. */
  /**
   * Reads the first slot of each of {@code n} keys' probes and each key's header, without changing
   * anything, so that the {@link #get} calls that follow find both in the cache: one object's
   * references read one after another let the processor fetch their lines at once, where a {@link
   * #get} per reference, each a long way of instructions, waits for one line after another.
   *
   * @param keys the keys, {@code null} entries skipped
   * @param n how many of {@code keys} to read
   * @return a value that depends on what was read (for the caller to keep, so that the reads are
   *     not dropped as dead)
   */
  int touch(Object[] keys, int n) {
    Object[] k = this.keys;
    int seen = 0;
    for (int i = 0; i < n; i++) {
      Object key = keys[i];
      if (key != null) {
        seen += k[index(System.identityHashCode(key))] == null ? 0 : 1;
      }
    }
    return seen;
  }

  void put(Object key, int value) {
    // the slot the last miss ended at is still where key goes while it is free: inserts only fill
    // free slots, and growing the table or clearing it forgets the miss
    if (key == missed && keys[missedSlot] == null) {
      missed = null;
      keys[missedSlot] = key;
      values[missedSlot] = value;
      if (++size > limit) {
        rehash(keys.length * 2);
      }
      return;
    }
    insert(key, value);
  }

  private void insert(Object key, int value) {
    Object[] k = keys;
    int mask = k.length - 1;
    int i = index(System.identityHashCode(key));
    for (Object o = k[i]; o != null; o = k[i]) {
      if (o == key) {
        values[i] = value;
        return;
      }
      i = (i + 1) & mask;
    }
    k[i] = key;
    values[i] = value;
    if (++size > limit) {
      rehash(k.length * 2);
    }
  }

  /** Removes every key whose value is at least {@code from}. */
  void removeFrom(int from) {
    Object[] oldKeys = keys;
    int[] oldValues = values;
    allocate(oldKeys.length);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null && oldValues[i] < from) {
        insert(oldKeys[i], oldValues[i]);
      }
    }
  }

  /** Removes every key. */
  void clear() {
    Arrays.fill(keys, null);
    missed = null;
    size = 0;
  }

  private void rehash(int capacity) {
    capacity = Math.max(capacity, expectedCapacity);
    expectedCapacity = 0; // once: later growth doubles
    Object[] oldKeys = keys;
    int[] oldValues = values;
    allocate(capacity);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        insert(oldKeys[i], oldValues[i]);
      }
    }
  }

  /** The slot a probe starts at: the top bits of an identity hash times 2^32/phi. */
  private int index(int hash) {
    return (hash * 0x9E3779B9) >>> shift;
  }
}
