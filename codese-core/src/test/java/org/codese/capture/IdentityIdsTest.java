package org.codese.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The capturer's identity table: identity, not equality; growth; rollback; clearing. */
class IdentityIdsTest {
  @Test
  void equalButDistinctObjectsAreDistinctKeys() {
    IdentityIds ids = new IdentityIds();
    String a = new String("same");
    String b = new String("same");
    ids.put(a, 1);
    assertEquals(1, ids.get(a));
    assertEquals(-1, ids.get(b), "an equal object that is not the same is absent");
    ids.put(b, 2);
    assertEquals(1, ids.get(a));
    assertEquals(2, ids.get(b));
    ids.put(a, 3);
    assertEquals(3, ids.get(a), "put replaces the value of a present key");
    assertEquals(2, ids.size());
  }

  @Test
  void growsThroughManyKeysKeepingEveryValue() {
    IdentityIds ids = new IdentityIds();
    List<Object> keys = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      Object k = new Object();
      keys.add(k);
      ids.put(k, i);
    }
    assertEquals(200_000, ids.size());
    for (int i = 0; i < keys.size(); i++) {
      assertEquals(i, ids.get(keys.get(i)));
    }
    assertEquals(-1, ids.get(new Object()));
  }

  @Test
  void removeFromForgetsTheIdsOfAFailedWrite() {
    IdentityIds ids = new IdentityIds();
    List<Object> keys = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      Object k = new Object();
      keys.add(k);
      ids.put(k, i);
    }
    ids.removeFrom(600);
    assertEquals(600, ids.size());
    for (int i = 0; i < keys.size(); i++) {
      assertEquals(i < 600 ? i : -1, ids.get(keys.get(i)));
    }
    ids.clear();
    assertEquals(0, ids.size());
    assertEquals(-1, ids.get(keys.get(0)));
  }

  @Test
  void aPutAfterAMissStaysRightWhateverHappenedBetween() {
    // many keys in a small table, so that probes collide and the slot a miss ended at is taken
    for (int round = 0; round < 200; round++) {
      IdentityIds ids = new IdentityIds(round % 2 == 0 ? 0 : 40);
      List<Object> keys = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        Object a = new Object();
        Object b = new Object();
        assertEquals(-1, ids.get(a));
        if (i % 3 == 0) {
          assertEquals(-1, ids.get(b));
          ids.put(b, 2 * i + 1); // may take the slot a's miss ended at
          keys.add(b);
        }
        ids.put(a, 2 * i);
        keys.add(a);
        if (i % 50 == 49) {
          ids.removeFrom(2 * i - 10); // forgets the last few and rebuilds the table
          keys.removeIf(k -> ids.get(k) < 0);
        }
      }
      for (Object k : keys) {
        assertEquals(true, ids.get(k) >= 0, "every key put and kept is found");
      }
      assertEquals(keys.size(), ids.size());
      Object c = new Object();
      assertEquals(-1, ids.get(c));
      ids.clear();
      ids.put(new Object(), 7);
      ids.put(c, 8);
      assertEquals(8, ids.get(c), "a miss before clear() does not place a later put");
      assertEquals(2, ids.size());
    }
  }

  @Test
  void aTableSizedForManyKeysHoldsThemAndMore() {
    IdentityIds ids = new IdentityIds(10_000);
    List<Object> keys = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      Object k = new Object();
      keys.add(k);
      assertEquals(-1, ids.get(k));
      ids.put(k, i);
    }
    for (int i = 0; i < keys.size(); i++) {
      assertEquals(i, ids.get(keys.get(i)));
    }
  }
}
