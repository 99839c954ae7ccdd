package org.codese.capture;

import java.lang.ref.SoftReference;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.codese.jvm.SerialClass;
import org.codese.jvm.Slot;

/**
 * The default field values of the direct slots ({@link Slot#direct()}) of the captured objects of
 * one class, one row per object, captured straight into two arrays shared by all of them (Fuel's
 * clusters): primitive fields as raw bits, reference fields as ids. A capture of many objects of a
 * class thus makes no arrays per object, and the planner reads each field's column from one place.
 *
 * <p>A row holds the direct slots' fields one slot after the other, superclass first, primitives
 * and references apart; {@link #primBase} and {@link #refBase} give where a slot's fields start.
 *
 * <p>Contract: rows are added by the capturer only, and the arrays may be replaced as they grow;
 * readers use indices, never the arrays. Not thread-safe.
 */
public final class ClassRows {
  private final SerialClass type;
  private final int[] primStart;
  private final int[] refStart;
  private final int primWidth;
  private final int refWidth;
  private final boolean allDirect;

  /**
   * For a class whose slots are all direct: its nodes' slot data, the same array of {@code null}s
   * for every object. Never written.
   */
  private final Node.SlotData[] noData;

  /**
   * For a {@link #plain()} class, what {@link Nodes} holds for each of its objects (id and row -1),
   * else {@code null}.
   */
  private final Node.Instance template;

  /** Each slot's generated field reader once {@link FieldAccessors} gave one, else {@code null}. */
  private final FieldAccess[] access;

  /**
   * How many rows the last snapshot's capture in this JVM gave each class: a class's rows, once
   * they outgrow {@link #FIRST_ROWS}, grow at once to as many (a graph captured again copies its
   * rows by doubling no more). Racy by design: any value is a valid size.
   */
  private static final ClassValue<Last> LAST_ROWS =
      new ClassValue<>() {
        @Override
        protected Last computeValue(Class<?> type) {
          return new Last();
        }
      };

  /**
   * What the last snapshot's capture in this JVM left for a class: its number of rows, and its
   * arrays once the plan no longer read them ({@link #recycle}), for the next capture whose rows
   * grow to about as many to take instead of allocating (a graph captured again and again, issue
   * 9's model checker). The arrays are taken and given back atomically, so they have one capture at
   * a time.
   */
  private static final class Last {
    /** Racy by design: any value is a valid size. */
    int rows;

    /** Softly held: a JVM short of memory takes it back. */
    final AtomicReference<SoftReference<Spare>> spare = new AtomicReference<>();
  }

  /** A class's row arrays given back by a finished capture; their contents are of no use. */
  private static final class Spare {
    final long[] prims;
    final int[] refs;

    Spare(long[] prims, int[] refs) {
      this.prims = prims;
      this.refs = refs;
    }
  }

  /** The most bytes of row arrays a class keeps as its spare. */
  private static final long MAX_SPARE_BYTES = 32L << 20;

  /** This class's {@link Last}. */
  private final Last last;

  /** Rows a class's rows grow to by doubling before they grow to the last snapshot's number. */
  static final int FIRST_ROWS = 1_024;

  /** The last snapshot's number of rows of this class, until the rows first outgrow it. */
  private int expectedRows;

  private long[] prims;
  private int[] refs;
  private int size;

  ClassRows(SerialClass type) {
    this.type = type;
    List<Slot> slots = type.slots();
    this.primStart = new int[slots.size()];
    this.refStart = new int[slots.size()];
    int p = 0;
    int r = 0;
    boolean all = true;
    for (int s = 0; s < slots.size(); s++) {
      Slot slot = slots.get(s);
      primStart[s] = p;
      refStart[s] = r;
      if (slot.direct()) {
        p += slot.primitiveCount();
        r += slot.fields().size() - slot.primitiveCount();
      }
      all &= slot.direct();
    }
    this.primWidth = p;
    this.refWidth = r;
    this.allDirect = all;
    this.noData = all ? new Node.SlotData[slots.size()] : null;
    this.template = all && isPlain(type) ? new Node.Instance(-1, type, noData, this, -1) : null;
    this.access = new FieldAccess[slots.size()];
    this.last = LAST_ROWS.get(type.type());
    this.expectedRows = last.rows;
    this.prims = new long[16 * p];
    this.refs = new int[16 * r];
  }

  /**
   * @param type a class of kind {@code INSTANCE}
   * @return whether any of its slots is direct, so that its objects have rows
   */
  static boolean hasDirect(SerialClass type) {
    for (Slot s : type.slots()) {
      if (s.direct()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the objects of a class whose slots are all direct need nothing but their rows: no
   * {@code readResolve} (late objects), and no collection fill, factory or immutable-collection
   * form that the planner would make of their node.
   */
  private static boolean isPlain(SerialClass type) {
    Class<?> c = type.type();
    return !type.resolves()
        && org.codese.program.Fills.kind(c) == org.codese.program.Fills.NONE
        && org.codese.program.Factories.kind(c) == org.codese.program.Factories.NONE
        && !c.getName().equals("java.util.CollSer");
  }

  /**
   * @return whether this class is plain: every slot direct, and its objects need nothing but their
   *     rows ({@link #isPlain}), so that a snapshot's capture keeps them as columns ({@link Nodes})
   */
  boolean plain() {
    return template != null;
  }

  /**
   * @return for a {@link #plain()} class the node {@link Nodes} stores for each of its objects (id
   *     and row -1), else {@code null}
   */
  Node.Instance template() {
    return template;
  }

  /**
   * @return the class
   */
  public SerialClass type() {
    return type;
  }

  /** The slot data for a new node of this class: shared when every slot is direct. */
  Node.SlotData[] slotData() {
    return allDirect ? noData : new Node.SlotData[primStart.length];
  }

  /** Adds a row, which the capturer fills field by field; returns its number. */
  /**
   * {@link FieldAccessors#of} for slot {@code s}, asked of this segment's rows until it gives one:
   * not a class-value lookup per object.
   */
  FieldAccess access(int s, Slot slot) {
    FieldAccess a = access[s];
    if (a == null) {
      a = FieldAccessors.of(slot);
      access[s] = a;
    }
    return a;
  }

  int add() {
    if ((size + 1) * primWidth > prims.length || (size + 1) * refWidth > refs.length) {
      grow();
    }
    return size++;
  }

  private void grow() {
    int rows = Math.max(16, 2 * (size + 1));
    if (size >= FIRST_ROWS && Capturer.withRoom(expectedRows) > rows) {
      rows = Capturer.withRoom(expectedRows);
      expectedRows = 0; // once: later growth doubles
      SoftReference<Spare> kept = last.spare.getAndSet(null);
      Spare spare = kept == null ? null : kept.get();
      if (spare != null
          && spare.prims.length >= rows * primWidth
          && spare.refs.length >= rows * refWidth) {
        System.arraycopy(prims, 0, spare.prims, 0, size * primWidth);
        System.arraycopy(refs, 0, spare.refs, 0, size * refWidth);
        prims = spare.prims;
        refs = spare.refs;
        return;
      }
    }
    if ((size + 1) * primWidth > prims.length) {
      prims = Arrays.copyOf(prims, rows * primWidth);
    }
    if ((size + 1) * refWidth > refs.length) {
      refs = Arrays.copyOf(refs, rows * refWidth);
    }
  }

  /** Notes this segment's number of rows for the class's next snapshot capture. */
  void remember() {
    last.rows = size;
  }

  /**
   * Gives the row arrays to the class's next capture if they are large (grown past {@link
   * #FIRST_ROWS} rows) and not too large; these rows must not be read again.
   */
  void recycle() {
    if (size >= FIRST_ROWS && 8L * prims.length + 4L * refs.length <= MAX_SPARE_BYTES) {
      last.spare.set(new SoftReference<>(new Spare(prims, refs)));
    }
    prims = null;
    refs = null;
  }

  /**
   * @return how many rows (objects of the class) the segment holds
   */
  public int size() {
    return size;
  }

  /**
   * @param row a row
   * @param slot a slot's index in the class's slots
   * @return the index of the slot's first primitive field in {@link #prim}
   */
  public int primBase(int row, int slot) {
    return row * primWidth + primStart[slot];
  }

  /**
   * @param row a row
   * @param slot a slot's index in the class's slots
   * @return the index of the slot's first reference field in {@link #ref}
   */
  public int refBase(int row, int slot) {
    return row * refWidth + refStart[slot];
  }

  /**
   * @param index a primitive field's index ({@link #primBase} plus the field's position)
   * @return its value's raw bits
   */
  /**
   * @return the primitive values of every row, {@link #primBase} indexing them: to be read, not
   *     written, and only until the next row is added
   */
  public long[] prims() {
    return prims;
  }

  /**
   * @return the reference ids of every row, {@link #refBase} indexing them: to be read, not
   *     written, and only until the next row is added
   */
  public int[] refs() {
    return refs;
  }

  public long prim(int index) {
    return prims[index];
  }

  /**
   * @param index a reference field's index ({@link #refBase} plus its position among the slot's
   *     reference fields)
   * @return the id of its value, or -1 for {@code null}
   */
  public int ref(int index) {
    return refs[index];
  }

  void setPrim(int index, long bits) {
    prims[index] = bits;
  }

  void setRef(int index, int id) {
    refs[index] = id;
  }

  /** The number of reference fields in a row. */
  int refWidth() {
    return refWidth;
  }
}
