package org.codese.load;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.BiConsumer;

/**
 * The generated classes this JVM defined for snapshots, so that a later snapshot with the same code
 * reuses the class, and with it the machine code the JIT compiled for it. A hidden class defined
 * afresh runs interpreted until the JIT has seen it run again: a model checker that restores a new
 * snapshot of the same 100,000-node tree every few steps paid five times the time of a restore of a
 * snapshot loaded before.
 *
 * <p>Kept per class the generated class was defined in: the host class whose nest it joined, or the
 * class of the lookup whose package it was defined in. A class file is reused only for the same
 * bytes, compared in full, and the same such class: exactly what a second definition would give.
 * Nothing is skipped but the definition: every load still parses, checks and resolves its own
 * snapshot before it asks here. The classes are kept by the host class (a {@link ClassValue}), so
 * they never keep another class loader alive than the host's own; at most {@link #KEPT_PER_CLASS}
 * per host, the least recently used dropped first. Thread-safe.
 */
final class DefinedCode
    extends ClassValue<LinkedHashMap<ByteBuffer, BiConsumer<Object[], Object[]>>> {
  /** The most generated classes kept per host class. */
  static final int KEPT_PER_CLASS = 32;

  private static final DefinedCode BY_HOST = new DefinedCode();

  private DefinedCode() {}

  /**
   * @param host the class whose nest or package the class file would join
   * @param bytes a class file that passed every load check
   * @return the instance a load defined from the same bytes in {@code host}, or {@code null}
   */
  static BiConsumer<Object[], Object[]> find(Class<?> host, byte[] bytes) {
    LinkedHashMap<ByteBuffer, BiConsumer<Object[], Object[]>> recent = BY_HOST.get(host);
    synchronized (recent) {
      return recent.get(ByteBuffer.wrap(bytes));
    }
  }

  /**
   * Keeps an instance defined from {@code bytes} in {@code host} for later loads.
   *
   * @param host the class whose nest or package it joined
   * @param bytes its class file, which no one changes afterwards
   * @param instance the instance
   */
  static void keep(Class<?> host, byte[] bytes, BiConsumer<Object[], Object[]> instance) {
    LinkedHashMap<ByteBuffer, BiConsumer<Object[], Object[]>> recent = BY_HOST.get(host);
    synchronized (recent) {
      recent.put(ByteBuffer.wrap(bytes), instance);
      if (recent.size() > KEPT_PER_CLASS) {
        Iterator<ByteBuffer> eldest = recent.keySet().iterator();
        eldest.next();
        eldest.remove();
      }
    }
  }

  /**
   * @param host a class
   * @return how many generated classes are kept for it
   */
  static int kept(Class<?> host) {
    LinkedHashMap<ByteBuffer, BiConsumer<Object[], Object[]>> recent = BY_HOST.get(host);
    synchronized (recent) {
      return recent.size();
    }
  }

  /**
   * One host's classes, by content, in the order of their last use (a {@code LinkedHashMap} in
   * access order, not a subclass: each class costs a cold load). Guarded by itself.
   */
  @Override
  protected LinkedHashMap<ByteBuffer, BiConsumer<Object[], Object[]>> computeValue(Class<?> host) {
    return new LinkedHashMap<>(16, 0.75f, true);
  }
}
