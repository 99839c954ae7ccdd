package org.codese.plan;

import java.util.Arrays;
import org.codese.capture.ClassRows;

/**
 * Direct slots of one class of slot, one entry per object in the order taken: the object's id and
 * where its fields are in the {@link ClassRows} of its class (a slot's class may be the superclass
 * of several captured classes, each with rows of its own). Growable parallel arrays: no object per
 * entry.
 */
final class SlotEntries {
  /** The capacity of the first arrays, made at the first entry: most sets stay empty or small. */
  private static final int FIRST_CAPACITY = 8;

  private int[] ids = new int[0];

  /**
   * Each entry's rows, or {@code null} while every entry is in {@link #only}: made when a second
   * class's rows come (a cluster of one class's objects, the common case, stores no reference per
   * entry).
   */
  private ClassRows[] rows;

  private int[] primBases = new int[0];
  private int[] refBases = new int[0];
  private int size;

  /** The rows every entry is in, or {@code null} if they are in more than one. */
  private ClassRows only;

  /** Whether the entries grow at once to as many as the rows they are taken from hold. */
  private final boolean byRows;

  /**
   * @param byRows whether the entries grow at once to as many as the rows they are taken from hold:
   *     for a cluster, which mostly takes every row of one class; not for entries taken one here
   *     and one there
   */
  SlotEntries(boolean byRows) {
    this.byRows = byRows;
  }

  void add(int id, ClassRows in, int primBase, int refBase) {
    if (size == ids.length) {
      int n = Math.max(FIRST_CAPACITY, 2 * size);
      if (byRows && in.size() > n) {
        // every row of in: mostly a cluster's objects are one class's, so it grows once
        n = in.size();
      }
      ids = Arrays.copyOf(ids, n);
      if (rows != null) {
        rows = Arrays.copyOf(rows, n);
      }
      primBases = Arrays.copyOf(primBases, n);
      refBases = Arrays.copyOf(refBases, n);
    }
    ids[size] = id;
    if (rows == null && size > 0 && in != only) {
      // a second class's rows: from now on each entry's rows are kept
      rows = new ClassRows[ids.length];
      Arrays.fill(rows, 0, size, only);
    }
    if (rows != null) {
      rows[size] = in;
    }
    only = size == 0 || only == in ? in : null;
    primBases[size] = primBase;
    refBases[size] = refBase;
    size++;
  }

  int size() {
    return size;
  }

  /** The object id of entry {@code j}. */
  int id(int j) {
    return ids[j];
  }

  /** The ids of all entries, in order. */
  int[] ids() {
    return Arrays.copyOf(ids, size);
  }

  /** The raw bits of entry {@code j}'s primitive field {@code f} (counted within the slot). */
  /**
   * @return the rows every entry is in, or {@code null} if the entries are in more than one (or
   *     there are none)
   */
  ClassRows only() {
    return size == 0 ? null : only;
  }

  /**
   * @return entry {@code j}'s offset in its rows' primitive values (add a field's index)
   */
  int primBase(int j) {
    return primBases[j];
  }

  /**
   * @return entry {@code j}'s offset in its rows' references (add a reference field's index)
   */
  int refBase(int j) {
    return refBases[j];
  }

  long prim(int j, int f) {
    return (rows == null ? only : rows[j]).prim(primBases[j] + f);
  }

  /** The id held by entry {@code j}'s reference field {@code r} (counted from the first), or -1. */
  int ref(int j, int r) {
    return (rows == null ? only : rows[j]).ref(refBases[j] + r);
  }
}
