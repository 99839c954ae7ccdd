package org.codese.load;

import java.io.InvalidObjectException;
import java.io.NotActiveException;
import java.io.ObjectInputValidation;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * State of one restore on the thread that runs its finish phase: the validations registered by
 * {@code readObject} methods, which run once the graph is complete; and, for a segment of an object
 * stream, the stream's unshared objects and the objects this restore replaced with a {@code
 * readResolve} result.
 *
 * <p>A run is <em>active</em> from {@link #begin} until {@link #finish} or {@link #abandon}: only
 * then does it take validations, as {@code ObjectInputStream} takes them only while one of its
 * {@code readObject} calls is under way. Runs nest on a thread: a restore begun by a class's own
 * code while another runs (a {@code readObject} that reads another stream) ends by making the run
 * around it current again.
 */
final class RestoreRun {
  private static final ThreadLocal<RestoreRun> CURRENT = new ThreadLocal<>();

  private record Entry(ObjectInputValidation validation, int priority) {}

  /** In the order they run: highest priority first, among equal ones the last registered first. */
  private final List<Entry> validations = new ArrayList<>();

  /** The object stream's ids read with {@code readUnshared}, or {@code null} outside a stream. */
  private final BitSet unshared;

  /** Ids whose {@code readResolve} returned another object; {@code null} until one did. */
  private BitSet replaced;

  /** Whether this run began and has not ended. */
  private boolean active;

  /** The stream's {@code resolveObject} over this segment, or {@code null}. */
  private ObjectResolution resolution;

  /** The run that was current on this thread when this one began, while this one is active. */
  private RestoreRun outer;

  /** The stream every hook of this restore reads from, reset for each ({@link #replay}). */
  private ReplayStream replay;

  /**
   * The serialization filter of a snapshot's restore, or {@code null} (none, or an object stream
   * segment, which makes nothing by a finish step).
   */
  private final java.io.ObjectInputFilter filter;

  /**
   * A restore outside an object stream.
   *
   * @param filter the filter the snapshot was loaded under, or {@code null}
   */
  RestoreRun(java.io.ObjectInputFilter filter) {
    this.unshared = null;
    this.filter = filter;
  }

  /**
   * A restore of one object stream segment.
   *
   * @param unshared the stream's ids read with {@code readUnshared}, or {@code null}
   */
  RestoreRun(BitSet unshared) {
    this.unshared = unshared;
    this.filter = null;
  }

  /**
   * @return the filter to ask about what a finish step makes in place of a {@code readResolve}
   *     result, or {@code null}
   */
  java.io.ObjectInputFilter filter() {
    return filter;
  }

  /**
   * @return the active run of this thread, the innermost if runs nest
   * @throws NotActiveException if no restore is running on this thread (generated code runs only
   *     inside one)
   */
  /**
   * The stream hook {@code h} reads from, for {@code obj} and {@code slot}: one per restore and
   * table, reset for each hook.
   *
   * @throws IOException never in practice ({@code ObjectInputStream}'s constructor declares it)
   */
  ReplayStream replay(Object[] table, HookCall h, Object obj, org.codese.jvm.Slot slot)
      throws java.io.IOException {
    if (replay == null || !replay.reads(table)) {
      replay =
          new ReplayStream(table, h.tape(), obj, slot, this, h.filter(), h.maxArrayLength(), true);
    }
    return replay.reset(h.tape(), obj, slot, h.checksArrays());
  }

  static RestoreRun current() throws NotActiveException {
    RestoreRun r = CURRENT.get();
    if (r == null) {
      throw new NotActiveException("no restore is running on this thread");
    }
    return r;
  }

  /** Makes {@code r} active and current on this thread, inside the run current until now. */
  static RestoreRun begin(RestoreRun r) {
    r.outer = CURRENT.get();
    r.active = true;
    CURRENT.set(r);
    return r;
  }

  /**
   * Registers a validation as {@code ObjectInputStream.registerValidation} does: with this run if
   * it is active, else with an active run of the same object stream on this thread (a stream a
   * {@code readObject} kept, used while a later object of the stream is read).
   *
   * @throws NotActiveException if no such run is active ("stream inactive"), checked first
   * @throws InvalidObjectException if {@code v} is {@code null}
   */
  void register(ObjectInputValidation v, int priority)
      throws NotActiveException, InvalidObjectException {
    RestoreRun r = this;
    if (!active) {
      r = CURRENT.get();
      while (r != null && !(unshared != null && r.unshared == unshared)) {
        r = r.outer;
      }
      if (r == null) {
        throw new NotActiveException("stream inactive");
      }
    }
    if (v == null) {
      throw new InvalidObjectException("null validation");
    }
    // ObjectInputStream.ValidationList.register: before the first of no higher priority
    List<Entry> list = r.validations;
    int at = 0;
    while (at < list.size() && priority < list.get(at).priority()) {
      at++;
    }
    list.add(at, new Entry(v, priority));
  }

  /**
   * @return the object stream's ids read with {@code readUnshared}, or {@code null}
   */
  BitSet unshared() {
    return unshared;
  }

  /** Makes this segment's restore call {@code resolveObject} as {@code r} says. */
  void resolveObjects(ObjectResolution r) {
    resolution = r;
  }

  /**
   * @return the stream's {@code resolveObject} over this segment, or {@code null}
   */
  ObjectResolution resolution() {
    return resolution;
  }

  /**
   * Records that the {@code readResolve} (or the stream's {@code resolveObject}) of object {@code
   * id} returned another object.
   */
  void replaced(int id) {
    if (unshared == null) {
      return; // only readUnshared asks
    }
    if (replaced == null) {
      replaced = new BitSet();
    }
    replaced.set(id);
  }

  /**
   * @return whether the {@code readResolve} of object {@code id} returned another object
   */
  boolean wasReplaced(int id) {
    return replaced != null && replaced.get(id);
  }

  /**
   * Runs the registered validations. An {@code InvalidObjectException} leaves as it is, anything
   * else inside a {@link HookFailure}, as {@code ObjectInputStream} lets it through.
   */
  void finish() throws InvalidObjectException {
    end();
    for (Entry e : validations) {
      try {
        e.validation().validateObject();
      } catch (InvalidObjectException x) {
        throw x;
      } catch (Throwable t) {
        throw new HookFailure(t);
      }
    }
  }

  /** Ends this run, if it has not ended, without running its validations. */
  void abandon() {
    end();
  }

  /** Makes this run inactive and the run it began inside current again. */
  private void end() {
    if (!active) {
      return;
    }
    active = false;
    if (outer == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(outer);
      outer = null;
    }
  }
}
