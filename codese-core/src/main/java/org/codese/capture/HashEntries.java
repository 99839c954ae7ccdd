package org.codese.capture;

import java.io.IOException;
import java.util.ConcurrentModificationException;
import java.util.Map;
import java.util.function.BiConsumer;
import org.codese.program.Tape;

/**
 * Takes the references of a {@code HashMap}'s keys and values, or only its keys (a {@code
 * HashSet}'s elements), into a tape's items in the order its {@code writeObject} writes them: that
 * of {@code forEach}, the table's (or a {@code LinkedHashMap}'s links), as {@code
 * internalWriteEntries} and the key set's iterator walk them. Likewise a {@code
 * ConcurrentHashMap}'s, whose {@code forEach} and {@code writeObject} walk its table alike. {@code
 * forEach} rather than an iterator: it leaves the map's cached entry and key sets as they were.
 */
final class HashEntries implements BiConsumer<Object, Object> {
  private final Capturer capturer;
  private final ChildList children;
  private final int id;
  private int[] items;
  private final boolean keysOnly;

  /** Whether {@link #items} grows for more entries than it has room for ({@link #takeAll}). */
  private boolean grows;

  private int at;
  private int written;

  private HashEntries(
      Capturer capturer, ChildList children, int id, int[] items, int at, boolean keysOnly) {
    this.capturer = capturer;
    this.children = children;
    this.id = id;
    this.items = items;
    this.at = at;
    this.keysOnly = keysOnly;
  }

  /**
   * Fills {@code items} from index {@code at} to its end with an {@link Tape#OBJECT} item per key
   * and value (per key if {@code keysOnly}) of {@code map}.
   *
   * @throws IOException what taking a reference throws
   * @throws ConcurrentModificationException if the map's size is not what {@code items} has room
   *     for
   */
  static void take(
      Capturer capturer,
      ChildList children,
      int id,
      Map<?, ?> map,
      int[] items,
      int at,
      boolean keysOnly)
      throws IOException {
    HashEntries entries = new HashEntries(capturer, children, id, items, at, keysOnly);
    try {
      map.forEach(entries);
    } catch (Failed f) {
      throw f.failure;
    }
    if (entries.at != items.length) {
      throw changed(map);
    }
  }

  /**
   * Takes every key and value of {@code map}, however many there are when its {@code forEach} walks
   * it: a {@code ConcurrentHashMap}'s, which its {@code writeObject} walks the same way while other
   * threads may change it.
   *
   * @param items the items so far, {@code at} of them, and room for more
   * @param tail how many ints to leave at the end, for the items that follow
   * @return the items, each key and value's {@link Tape#OBJECT} item appended, then {@code tail}
   *     zeros
   * @throws IOException what taking a reference throws
   */
  static int[] takeAll(
      Capturer capturer, ChildList children, int id, Map<?, ?> map, int[] items, int at, int tail)
      throws IOException {
    HashEntries entries = new HashEntries(capturer, children, id, items, at, false);
    entries.grows = true;
    try {
      map.forEach(entries);
    } catch (Failed f) {
      throw f.failure;
    }
    return java.util.Arrays.copyOf(entries.items, entries.at + tail);
  }

  @Override
  public void accept(Object key, Object value) {
    if (at + (keysOnly ? 2 : 4) > items.length) {
      if (!grows) {
        throw changed(null);
      }
      items = java.util.Arrays.copyOf(items, Math.max(at + 4, 2 * items.length));
    }
    try {
      items[at] = Tape.OBJECT;
      items[at + 1] = capturer.referenceNow(children, id, key, null, written++, false);
      at += 2;
      if (!keysOnly) {
        items[at] = Tape.OBJECT;
        items[at + 1] = capturer.referenceNow(children, id, value, null, written++, false);
        at += 2;
      }
    } catch (IOException e) {
      throw new Failed(e);
    }
  }

  private static ConcurrentModificationException changed(Object map) {
    return new ConcurrentModificationException(
        "a "
            + (map == null ? "hash map or set" : map.getClass().getName())
            + " changed while it was captured; capture a graph no other thread changes");
  }

  /** Carries an {@link IOException} out of {@code forEach}. */
  private static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final IOException failure;

    Failed(IOException failure) {
      super(failure.getMessage(), failure, false, false);
      this.failure = failure;
    }
  }
}
