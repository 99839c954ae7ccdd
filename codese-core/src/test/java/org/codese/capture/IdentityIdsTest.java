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
}
