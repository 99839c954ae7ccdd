package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Test;

/**
 * Objects of one class whose fields refer to "late" objects (records, made in the finish phase): in
 * a stream segment, where loops set every field, they are set one by one, since a loop would store
 * into the field before the finish phase stores the record (two stores into one field, which the
 * program check refuses); in a snapshot they stay in loops over data. Many such objects in one
 * snapshot (a loop from 32 on), objects whose every field refers to a record, and one object per
 * stream segment (a loop from one on).
 */
class LateSlotsTest {
  record Rec(int x, String s) implements Serializable {}

  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    int i;
    Rec rec;
    Holder other;
    Object none;

    /** A record for even {@code i}, a string for odd: a column of late and other objects. */
    Object mixed;
  }

  private static Holder[] holders(int n) {
    Holder[] h = new Holder[n];
    for (int i = 0; i < n; i++) {
      h[i] = new Holder();
      h[i].i = i;
      h[i].rec = new Rec(i, "r" + i);
      h[i].mixed = i % 2 == 0 ? new Rec(-i, "m") : "m" + i;
    }
    for (int i = 0; i < n; i++) {
      h[i].other = h[(i + 1) % n];
    }
    return h;
  }

  private static void check(Holder h, int i, Holder other) {
    assertEquals(i, h.i);
    assertEquals(new Rec(i, "r" + i), h.rec);
    assertSame(other, h.other);
    assertNull(h.none);
    assertEquals(i % 2 == 0 ? new Rec(-i, "m") : "m" + i, h.mixed);
  }

  @Test
  void manyObjectsReferringToRecordsInOneSnapshot() throws Exception {
    Holder[] copy = (Holder[]) Codese.fromBytes(Codese.toBytes(holders(100)));
    for (int i = 0; i < copy.length; i++) {
      check(copy[i], i, copy[(i + 1) % copy.length]);
    }
  }

  static final class OnlyRecords implements Serializable {
    private static final long serialVersionUID = 1L;
    Rec first;
    Rec second;
  }

  @Test
  void manyObjectsWhoseEveryFieldIsARecord() throws Exception {
    OnlyRecords[] all = new OnlyRecords[100];
    for (int i = 0; i < all.length; i++) {
      all[i] = new OnlyRecords();
      all[i].first = new Rec(i, "a");
      all[i].second = new Rec(-i, "b");
    }
    OnlyRecords[] copy = (OnlyRecords[]) Codese.fromBytes(Codese.toBytes(all));
    for (int i = 0; i < copy.length; i++) {
      assertEquals(new Rec(i, "a"), copy[i].first);
      assertEquals(new Rec(-i, "b"), copy[i].second);
    }
  }

  @Test
  void oneObjectReferringToARecordPerSegment() throws Exception {
    Holder[] h = holders(10);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      for (Holder x : h) {
        x.other = null;
        out.writeObject(x);
      }
    }
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      for (int i = 0; i < h.length; i++) {
        check((Holder) in.readObject(), i, null);
      }
    }
  }

  /** A class whose every field holds a value in every object: no field the capacity leaves over. */
  static final class Full implements Serializable {
    private static final long serialVersionUID = 1L;
    int a;
    Object more;
  }

  /** A value restored through {@code readResolve}: made late, like a record. */
  static final class Resolved implements Serializable {
    private static final long serialVersionUID = 1L;
    final int n;

    Resolved(int n) {
      this.n = n;
    }

    private Object readResolve() {
      return new Resolved(n + 0);
    }
  }

  /**
   * A loop that sets every field of every object stores null where the value is made late (a
   * record, what {@code readResolve} returns, one of them shared by two objects), and the finish
   * program stores the value again: two stores into one field, which the count of stores against
   * the allocated fields must admit (it refused Codese's own snapshot of this graph).
   */
  @Test
  void loopsThatSetEveryFieldOfEveryObjectWithLateValuesAmongThem() throws Exception {
    for (int n : new int[] {3, 40, 100}) {
      List<Full> list = new ArrayList<>();
      Rec shared = new Rec(-1, "shared");
      for (int i = 0; i < n; i++) {
        Full f = new Full();
        f.a = i + 1;
        f.more =
            switch (i % 4) {
              case 0 -> new Rec(i, "r");
              case 1 -> new Resolved(i);
              case 2 -> shared;
              default -> "s" + i;
            };
        list.add(f);
      }
      Object copy = Codese.fromBytes(Codese.toBytes(list));
      assertArrayEquals(JdkBytes.serialize(list), JdkBytes.serialize(copy), n + " objects");
    }
  }
}
