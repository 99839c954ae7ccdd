package org.codese.load;

import java.io.EOFException;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.NotActiveException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.StreamCorruptedException;
import java.util.BitSet;
import java.util.List;
import org.codese.jvm.FieldTable;
import org.codese.jvm.FieldValues;
import org.codese.jvm.Jvm;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.SlotFields;
import org.codese.jvm.Types;
import org.codese.program.Tape;

/**
 * The stream a class's own {@code readObject} or {@code readExternal} reads from on restore: it
 * replays the {@link Tape} its {@code writeObject} wrote at capture, handing out objects of the
 * restore table. Reading past the end of primitive data behaves as in the JDK ({@code -1}, {@link
 * EOFException}, {@link java.io.OptionalDataException}).
 *
 * <p>For the {@code readObject} or {@code readExternal} of a JDK class, it is also its own
 * serialization filter ({@link #checkInput}). The JDK's collections ({@code ArrayList}, {@code
 * HashMap}, {@code HashSet}, {@code Hashtable}, {@code PriorityQueue}, {@code ArrayDeque}, {@code
 * IdentityHashMap}, {@code CopyOnWriteArrayList}, the immutable collections, ...) read a length
 * from the data and, before allocating an array of that length, call {@code
 * ObjectInputStream.checkArray} through {@code SharedSecrets}; that private method asks the
 * stream's filter. So every such array is checked against {@code CodeseLimits.maxArrayLength} and
 * the filter the snapshot was loaded under before it is allocated, as {@code ObjectInputStream}
 * checks it against its own filter.
 */
final class ReplayStream extends ObjectInputStream implements ObjectInputFilter {
  private final Object[] table;
  private byte[] data;
  private static final String UNFOLLOWED =
      "back references in the stream's data are not followed by the object that makes them";
  private int[] items;
  private Object obj;
  private Slot slot;

  /** Whether the current hook's method is the JDK's own, which alone reaches checkArray. */
  private boolean checksArrays;

  private final RestoreRun run;
  private final ObjectInputFilter filter;
  private final int maxArrayLength;
  private int item;
  private int pos;
  private int blockLeft;

  /**
   * A stream over one hook's data.
   *
   * @param table the restore table
   * @param tape the data the hook reads
   * @param obj the object whose {@code readObject} or {@code readExternal} reads, or {@code null}
   *     (a record's fields, the top level of an object stream)
   * @param slot the class whose {@code readObject} reads, or {@code null} ({@code readExternal},
   *     the top level)
   * @param run the restore this stream belongs to
   * @param filter the serialization filter the snapshot was loaded under, or {@code null}
   * @param maxArrayLength the longest array a class's own method may allocate from this data
   * @param checksArrays whether the reading method is the JDK's own {@code readObject} or {@code
   *     readExternal} ({@link HookCall#checksArrays}), which alone reach {@code
   *     ObjectInputStream.checkArray}: then the stream gets the filter; a stream that {@link
   *     #reset} may later serve such a method is made with {@code true}
   * @throws IOException never in practice ({@code ObjectInputStream}'s constructor declares it)
   * @throws IllegalStateException if the JVM-wide filter factory refuses the stream's filter, as it
   *     would refuse {@code ObjectInputStream.setObjectInputFilter}
   */
  ReplayStream(
      Object[] table,
      Tape tape,
      Object obj,
      Slot slot,
      RestoreRun run,
      ObjectInputFilter filter,
      int maxArrayLength,
      boolean checksArrays)
      throws IOException {
    super();
    this.table = table;
    this.data = tape.data();
    this.items = tape.items();
    this.obj = obj;
    this.slot = slot;
    this.run = run;
    this.filter = filter;
    this.maxArrayLength = maxArrayLength;
    this.checksArrays = checksArrays;
    // Only the JDK's own classes reach ObjectInputStream.checkArray: it is private, called through
    // jdk.internal.access.SharedSecrets, which is not exported to applications; so the streams of
    // other classes' methods, of default field reading, of records and of the top level need no
    // filter, and skip the filter factory's cost (about 10 ns a stream).
    if (checksArrays) {
      // through the filter factory, as for any ObjectInputStream; the built-in one returns this
      setObjectInputFilter(this);
    }
  }

  /**
   * @return whether this stream hands out objects of {@code table}
   */
  boolean reads(Object[] table) {
    return this.table == table;
  }

  /**
   * Makes this stream, made with {@code checksArrays} for a restore's hooks ({@link
   * RestoreRun#replay}), the stream of the next hook: the JDK reads a whole graph with one stream,
   * and making an {@code ObjectInputStream} per hooked object costs the filter factory's call (and
   * its trace logging) each time. Hooks run one after the other, never nested.
   *
   * @return this stream, at the start of {@code tape}
   */
  ReplayStream reset(Tape tape, Object obj, Slot slot, boolean checksArrays) {
    this.data = tape.data();
    this.items = tape.items();
    this.obj = obj;
    this.slot = slot;
    this.checksArrays = checksArrays;
    this.item = 0;
    this.pos = 0;
    this.blockLeft = 0;
    return this;
  }

  /**
   * Checks an array a class's own {@code readObject} or {@code readExternal} is about to allocate
   * with a length from the data ({@code ObjectInputStream.checkArray} asks the stream's filter;
   * nothing else does for this stream, whose {@code readObject} is overridden).
   *
   * @param info the array class and length ({@code ObjectInputStream} reports no depth, references
   *     or bytes for a stream whose {@code readObject} is overridden)
   * @return the status of the filter the snapshot was loaded under, or {@link Status#UNDECIDED}
   *     without one; {@link Status#REJECTED} makes {@code checkArray} throw {@code
   *     InvalidClassException("filter status: REJECTED")}, as the JDK does
   * @throws java.io.InvalidObjectException (undeclared, and passed through {@code checkArray},
   *     which declares {@code ObjectStreamException}) if the array is longer than {@code
   *     CodeseLimits.maxArrayLength}: thrown before the array is allocated, with the limit's
   *     message
   */
  @Override
  public Status checkInput(FilterInfo info) {
    if (!checksArrays) {
      return Status.UNDECIDED; // not reached: only the JDK's own methods call checkArray
    }
    Class<?> c = info.serialClass();
    if (c != null && c.isArray() && info.arrayLength() > maxArrayLength) {
      throw ReplayStream.<RuntimeException>unchecked(
          new java.io.InvalidObjectException(
              "snapshot rejected: "
                  + reader()
                  + " asks for an array of "
                  + info.arrayLength()
                  + " elements ("
                  + c.getComponentType().getTypeName()
                  + "[]) whose length its data gives,"
                  + " beyond the limit of "
                  + maxArrayLength
                  + "; raise it with"
                  + " CodeseLimits.withMaxArrayLength if the snapshot is trusted"));
    }
    return filter == null ? Status.UNDECIDED : filter.checkInput(info);
  }

  /**
   * Throws a checked exception where the signature declares none: {@link #checkInput} cannot
   * declare the {@code ObjectStreamException} that its caller, {@code checkArray}, declares, and
   * {@code ObjectInputStream} would wrap a {@code RuntimeException} into an {@code
   * InvalidClassException} that loses the message.
   */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T unchecked(Throwable t) throws T {
    throw (T) t;
  }

  /**
   * @return the method reading this stream, for messages
   */
  private String reader() {
    if (slot != null) {
      return slot.type().getName() + (obj == null ? " (record)" : ".readObject");
    }
    return obj != null ? obj.getClass().getName() + ".readExternal" : "the object stream";
  }

  /**
   * @return whether every item and every byte has been read
   */
  boolean exhausted() {
    return blockLeft == 0 && item >= items.length;
  }

  private boolean fillBlock() {
    if (blockLeft > 0) {
      return true;
    }
    if (item < items.length && items[item] == Tape.BLOCK) {
      blockLeft = items[item + 1];
      item += 2;
      return true;
    }
    return false;
  }

  @Override
  protected Object readObjectOverride() throws IOException {
    int id = nextObject();
    if (id >= 0 && run.unshared() != null && run.unshared().get(id)) {
      throw new InvalidObjectException("cannot read back reference to unshared object");
    }
    return id < 0 ? null : table[id];
  }

  /**
   * Inside a class's own {@code readObject} or {@code readExternal}: the object, which no later
   * read of the stream may return again. Codese restores a top-level object's graph as a whole, not
   * in stream order, so what it can tell is what later top-level objects and hook reads refer to
   * (see {@link #readTopLevel}); within an object stream only.
   */
  @Override
  public Object readUnshared() throws IOException {
    int id = nextObject();
    if (id < 0) {
      return null;
    }
    BitSet unshared = run.unshared();
    if (unshared != null) {
      if (unshared.get(id)) {
        throw new InvalidObjectException("cannot read back reference as unshared");
      }
      unshared.set(id);
    }
    return table[id];
  }

  /** The id of the next object item (-1 for {@code null}), or the JDK's exception for none. */
  private int nextObject() throws IOException {
    if (fillBlock()) {
      java.io.OptionalDataException e = Jvm.optionalData(false);
      e.length = blockLeft;
      throw e;
    }
    if (item >= items.length) {
      throw Jvm.optionalData(true);
    }
    if (items[item] != Tape.OBJECT) {
      throw new StreamCorruptedException(
          "readObject called where "
              + slot()
              + " wrote its default fields; readObject must mirror writeObject");
    }
    int id = items[item + 1];
    item += 2;
    return id;
  }

  /**
   * @return whether the next item of the top-level stream is an object (no data before it)
   */
  boolean objectNext() {
    return blockLeft == 0 && item < items.length && items[item] != Tape.BLOCK;
  }

  /**
   * Checks, before the segment's code runs, that every run of back references among the top-level
   * items still to come is followed by the object that makes them, as {@link #readTopLevel}
   * requires when it reaches them.
   *
   * @throws StreamCorruptedException if a run is not
   */
  void checkTopLevel() throws StreamCorruptedException {
    for (int i = item; i < items.length; i = backReferencesEnd(i) + 2) {
      // each run checked; the item after it (an object, data or none) skipped
    }
  }

  /**
   * @param i a top-level item
   * @return the end of the run of back references from {@code i} (at {@code i} if there is none)
   * @throws StreamCorruptedException if a run is not followed by an object
   */
  private int backReferencesEnd(int i) throws StreamCorruptedException {
    int end = i;
    while (end < items.length && items[end] == Tape.BACK_REFERENCE) {
      end += 2;
    }
    if (end > i && (end >= items.length || items[end] != Tape.OBJECT)) {
      throw new StreamCorruptedException(UNFOLLOWED);
    }
    return end;
  }

  /**
   * Reads the next top-level object of an object stream, with the checks {@code ObjectInputStream}
   * makes of back references ({@code readHandle}) and of {@code readUnshared} ({@code
   * readOrdinaryObject}): an object may not be read unshared if an earlier {@code writeObject}
   * wrote it, and no object may refer back to one read unshared. The item is consumed either way.
   * As with the JDK, an object whose {@code readResolve} returned another object stays readable
   * through back references, and a {@code readResolve} result that is an array is returned, and
   * kept for those references, as a copy.
   *
   * @param unshared whether {@code readUnshared} asks
   * @param lost the stream's objects lost to a class not found, or {@code null} if none
   * @return the object
   * @throws InvalidObjectException for a back reference to an unshared object, or one read unshared
   * @throws ClassNotFoundException if the object, or a back reference before it, is a lost one
   */
  Object readTopLevel(boolean unshared, LostObjects lost)
      throws IOException, ClassNotFoundException {
    int from = item;
    if (blockLeft == 0) {
      item = backReferencesEnd(item);
    }
    int refsEnd = item;
    int id = nextObject();
    if (id < 0) {
      return null;
    }
    if (lost != null) {
      ClassNotFoundException x = lost.cause(id);
      for (int i = from; x == null && i < refsEnd; i += 2) {
        x = lost.backReference(items[i + 1]);
      }
      if (x != null) {
        throw x; // as ObjectInputStream.readObject throws a handle's exception
      }
    }
    BitSet invalid = run.unshared();
    boolean back = invalid.get(id);
    for (int i = from; i < refsEnd; i += 2) {
      back |= items[i + 1] == id;
    }
    if (unshared && back) {
      throw new InvalidObjectException("cannot read back reference as unshared");
    }
    if (invalid.get(id)) {
      throw new InvalidObjectException("cannot read back reference to unshared object");
    }
    for (int i = from; i < refsEnd; i += 2) {
      if (invalid.get(items[i + 1])) {
        throw new InvalidObjectException("cannot read back reference to unshared object");
      }
    }
    Object o = table[id];
    if (unshared) {
      if (!run.wasReplaced(id)) {
        invalid.set(id);
      } else if (o != null && o.getClass().isArray()) {
        o = Types.cloneArray(o);
        table[id] = o;
      }
    }
    return o;
  }

  private String slot() {
    return slot != null
        ? slot.type().getName()
        : obj != null ? obj.getClass().getName() : "the object stream";
  }

  FieldValues nextFields() throws IOException {
    if (slot == null) {
      throw new NotActiveException("not in a call of readObject");
    }
    if (fillBlock() || item >= items.length || items[item] != Tape.FIELDS) {
      throw new StreamCorruptedException(
          slot()
              + ".readObject reads default fields that its"
              + " writeObject did not write; readObject must mirror writeObject");
    }
    int nRefs = items[item + 1];
    List<SerialField> fields = slot.fields();
    int nPrims = fields.size() - nRefs;
    if (nRefs < 0 || nPrims < 0 || item + 2 + 2L * nRefs > items.length) {
      throw new StreamCorruptedException(
          slot()
              + ": a default-fields record of "
              + nRefs
              + " references does not fit the class's "
              + fields.size()
              + " fields or the data");
    }
    for (int i = 0; i < fields.size(); i++) {
      boolean primitive = fields.get(i).type().isPrimitive();
      if (primitive != (i < nPrims)
          || (i >= nPrims && items[item + 2 + 2 * (i - nPrims)] != Tape.OBJECT)) {
        throw new StreamCorruptedException(
            slot()
                + ": a default-fields record does not match"
                + " the class's fields (primitives first, then one reference each)");
      }
    }
    item += 2;
    long[] prims = new long[nPrims];
    for (int i = 0; i < nPrims; i++) {
      char code = Types.primitiveCode(fields.get(i).type());
      prims[i] = readBits(code);
    }
    Object[] refs = new Object[nRefs];
    for (int i = 0; i < nRefs; i++) {
      int id = items[item + 1];
      item += 2;
      refs[i] = id < 0 ? null : table[id];
    }
    return new FieldValues(prims, refs);
  }

  private long readBits(char code) throws IOException {
    int n = Types.size(code);
    if (pos + n > data.length) {
      throw new EOFException("field data truncated");
    }
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = (v << 8) | (data[pos++] & 0xFF);
    }
    return switch (code) {
      case 'B', 'Z' -> (byte) v;
      case 'S' -> (short) v;
      case 'I', 'F' -> (int) v;
      default -> v;
    };
  }

  @Override
  public void defaultReadObject() throws IOException {
    SlotFields.write(slot, obj, nextFields());
  }

  @Override
  public GetField readFields() throws IOException {
    return new FieldTable(slot, nextFields()).getField();
  }

  @Override
  public void registerValidation(ObjectInputValidation validation, int priority)
      throws NotActiveException, java.io.InvalidObjectException {
    run.register(validation, priority);
  }

  @Override
  public int read() {
    if (!fillBlock() || pos >= data.length) {
      return -1;
    }
    blockLeft--;
    return data[pos++] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (!fillBlock()) {
      return -1;
    }
    int n = Math.min(len, Math.min(blockLeft, data.length - pos));
    if (n <= 0) {
      return -1;
    }
    System.arraycopy(data, pos, b, off, n);
    pos += n;
    blockLeft -= n;
    return n;
  }

  @Override
  public int available() {
    return blockLeft;
  }

  @Override
  public void readFully(byte[] b) throws IOException {
    readFully(b, 0, b.length);
  }

  @Override
  public void readFully(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      int n = read(b, off, len);
      if (n < 0) {
        throw new EOFException();
      }
      off += n;
      len -= n;
    }
  }

  private int next() throws IOException {
    int v = read();
    if (v < 0) {
      throw new EOFException();
    }
    return v;
  }

  @Override
  public int skipBytes(int n) {
    int skipped = 0;
    while (skipped < n && fillBlock()) {
      int k = Math.min(n - skipped, Math.min(blockLeft, data.length - pos));
      if (k <= 0) {
        break;
      }
      pos += k;
      blockLeft -= k;
      skipped += k;
    }
    return skipped;
  }

  @Override
  public boolean readBoolean() throws IOException {
    return next() != 0;
  }

  @Override
  public byte readByte() throws IOException {
    return (byte) next();
  }

  @Override
  public int readUnsignedByte() throws IOException {
    return next();
  }

  @Override
  public short readShort() throws IOException {
    return (short) readUnsignedShort();
  }

  @Override
  public int readUnsignedShort() throws IOException {
    return (next() << 8) | next();
  }

  @Override
  public char readChar() throws IOException {
    return (char) readUnsignedShort();
  }

  @Override
  public int readInt() throws IOException {
    return (next() << 24) | (next() << 16) | (next() << 8) | next();
  }

  @Override
  public long readLong() throws IOException {
    return ((long) readInt() << 32) | (readInt() & 0xFFFFFFFFL);
  }

  @Override
  public float readFloat() throws IOException {
    return Float.intBitsToFloat(readInt());
  }

  @Override
  public double readDouble() throws IOException {
    return Double.longBitsToDouble(readLong());
  }

  @Override
  public String readUTF() throws IOException {
    return java.io.DataInputStream.readUTF(this);
  }

  @Override
  @Deprecated
  public String readLine() throws IOException {
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = read()) >= 0 && c != '\n') {
      if (c != '\r') {
        sb.append((char) c);
      }
    }
    return c < 0 && sb.length() == 0 ? null : sb.toString();
  }

  @Override
  public void close() {}
}
