package org.codese.capture;

import java.io.IOException;
import java.io.NotActiveException;
import java.io.ObjectOutputStream;
import java.util.List;
import org.codese.jvm.FieldTable;
import org.codese.jvm.FieldValues;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.Types;
import org.codese.program.Tape;

/**
 * The stream a class's own {@code writeObject} or {@code writeExternal} writes to during capture.
 * It records what is written as a {@link Tape}; objects are only noted here (assigned ids, or for a
 * stream's capture taken when the traversal reaches them) and captured later by the traversal, so
 * nothing recurses.
 *
 * <p>One instance serves one class's {@code writeObject} for one object (or one {@code
 * writeExternal}), and enforces the rules {@code ObjectOutputStream} enforces there: the fields are
 * written once, by {@code defaultWriteObject} or by {@code putFields} and {@code writeFields}, else
 * {@code NotActiveException}; {@code putFields} returns the same {@code PutField} each time; the
 * default field writing refuses fields no declared field backs.
 */
final class CaptureStream extends ObjectOutputStream {
  private final Capturer capturer;
  private final int id;
  private final Object obj;
  private final Slot slot;
  private final ChildList children;
  private final TapeBuilder tape = new TapeBuilder();

  /** Whether this class's fields were written or put: see {@link #claimFields}. */
  private boolean fieldsClaimed;

  /** What {@link #putFields()} returned, and the table behind it; {@code null} before. */
  private PutField put;

  private FieldTable putTable;
  private int written;

  CaptureStream(Capturer capturer, int id, Object obj, Slot slot, ChildList children)
      throws IOException {
    super();
    this.capturer = capturer;
    this.id = id;
    this.obj = obj;
    this.slot = slot;
    this.children = children;
  }

  /**
   * Runs the class's {@code writeObject} on this stream.
   *
   * @throws IOException what {@code writeObject} throws, or wrapping a checked exception it throws
   */
  void runWriteObject() throws IOException {
    try {
      slot.writeObject().invoke(obj, (ObjectOutputStream) this);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IOException("writeObject of " + slot.type().getName() + " failed", t);
    }
  }

  Tape finish() {
    return tape.build();
  }

  @Override
  protected void writeObjectOverride(Object o) throws IOException {
    writeWritten(o, false);
  }

  @Override
  public void writeUnshared(Object o) throws IOException {
    writeWritten(o, true);
  }

  /**
   * {@link #writeRef} for an object the class's own method writes, labelled in paths by its
   * position among the objects written here.
   */
  private void writeWritten(Object o, boolean unshared) throws IOException {
    writeRef(
        o, slot == null ? PathLog.Written.EXTERNAL : PathLog.Written.OBJECT, written++, unshared);
  }

  /**
   * Writes an object reference into the tape: its id, or a place for it the traversal fills; {@code
   * name} and {@code number} label it ({@link PathLog#record}).
   */
  private void writeRef(Object o, Object name, int number, boolean unshared) throws IOException {
    if (capturer.lazy()) {
      capturer.reference(children, id, o, name, number, unshared, null, tape.object(-1));
    } else {
      tape.object(capturer.referenceNow(children, id, o, name, number, unshared));
    }
  }

  /**
   * Writes the fields of the current class as {@code ObjectOutputStream} does, once per class.
   *
   * @throws NotActiveException outside {@code writeObject}, or if this class's fields were already
   *     written or put ({@link #claimFields})
   * @throws java.io.InvalidClassException if the class's {@code serialPersistentFields} name fields
   *     no declared field backs ({@link Capturer#defaultFields})
   */
  @Override
  public void defaultWriteObject() throws IOException {
    claimFields("defaultWriteObject");
    writeFields(capturer.defaultFields(id, slot, obj));
  }

  /**
   * Returns the current class's {@code PutField}: the same one on every call in one {@code
   * writeObject}, as the JDK's.
   *
   * @throws NotActiveException outside {@code writeObject}, or on the first call if {@code
   *     defaultWriteObject} already wrote the fields ({@link #claimFields})
   */
  @Override
  public PutField putFields() throws IOException {
    if (put == null) {
      claimFields("putFields");
      putTable = new FieldTable(slot);
      put = putTable.putField();
    }
    return put;
  }

  /**
   * Writes the values put into {@link #putFields()}'s {@code PutField}.
   *
   * @throws NotActiveException if {@code putFields} was not called in this {@code writeObject}
   */
  @Override
  public void writeFields() throws IOException {
    if (put == null) {
      throw new NotActiveException(
          "writeFields without putFields in "
              + owner()
              + "; call putFields first and put the fields' values into the PutField it returns");
    }
    writeFields(putTable.values());
  }

  private void writeFields(FieldValues values) throws IOException {
    List<SerialField> fields = slot.fields();
    int nPrims = values.prims().length;
    int nRefs = values.refs().length;
    tape.fields(nRefs);
    for (int i = 0; i < nPrims; i++) {
      Types.write(tape.data(), Types.primitiveCode(fields.get(i).type()), values.prims()[i]);
    }
    tape.endFieldPrimitives();
    for (int i = 0; i < nRefs; i++) {
      SerialField f = fields.get(nPrims + i);
      writeRef(values.refs()[i], f.name(), 0, f.unshared());
    }
  }

  /**
   * Claims the current class's fields for {@code what}, as the JDK's {@code
   * SerialCallbackContext.checkAndSetUsed}: JOSS 2.3 lets a class's {@code writeObject} write its
   * fields once, with {@code defaultWriteObject} or with {@code putFields} and {@code writeFields}.
   *
   * @throws NotActiveException outside {@code writeObject}, or if the fields were already claimed
   */
  private void claimFields(String what) throws NotActiveException {
    requireSlot(what);
    if (fieldsClaimed) {
      throw new NotActiveException(
          what
              + " in "
              + owner()
              + " after its fields were already "
              + "written or put; a writeObject writes its class's fields once, with "
              + "defaultWriteObject or with putFields and writeFields");
    }
    fieldsClaimed = true;
  }

  private void requireSlot(String what) throws NotActiveException {
    if (slot == null) {
      throw new NotActiveException(what + " outside writeObject, in " + owner());
    }
  }

  /**
   * @return the writeObject running, and where its object is, for messages
   */
  private String owner() {
    String method =
        slot == null
            ? "writeExternal of " + obj.getClass().getName()
            : "writeObject of " + slot.type().getName();
    return method + " (at " + capturer.path(id) + ")";
  }

  @Override
  public void write(int b) throws IOException {
    tape.data().write(b);
  }

  @Override
  public void write(byte[] b) throws IOException {
    tape.data().write(b, 0, b.length);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    tape.data().write(b, off, len);
  }

  @Override
  public void writeBoolean(boolean v) throws IOException {
    tape.data().writeBoolean(v);
  }

  @Override
  public void writeByte(int v) throws IOException {
    tape.data().writeByte(v);
  }

  @Override
  public void writeShort(int v) throws IOException {
    tape.data().writeShort(v);
  }

  @Override
  public void writeChar(int v) throws IOException {
    tape.data().writeChar(v);
  }

  @Override
  public void writeInt(int v) throws IOException {
    tape.data().writeInt(v);
  }

  @Override
  public void writeLong(long v) throws IOException {
    tape.data().writeLong(v);
  }

  @Override
  public void writeFloat(float v) throws IOException {
    tape.data().writeFloat(v);
  }

  @Override
  public void writeDouble(double v) throws IOException {
    tape.data().writeDouble(v);
  }

  @Override
  public void writeBytes(String s) throws IOException {
    tape.data().writeBytes(s);
  }

  @Override
  public void writeChars(String s) throws IOException {
    tape.data().writeChars(s);
  }

  @Override
  public void writeUTF(String s) throws IOException {
    tape.data().writeUTF(s);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  @Override
  public void reset() throws IOException {
    throw new IOException("reset() may not be called inside writeObject");
  }
}
