package org.codese.capture;

import org.codese.program.Tape;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.List;
import org.codese.jvm.FieldTable;
import org.codese.jvm.FieldValues;
import org.codese.jvm.SerialField;
import org.codese.jvm.Slot;
import org.codese.jvm.SlotFields;
import org.codese.jvm.Types;

/**
 * The stream a class's own {@code writeObject} or {@code writeExternal} writes to during capture.
 * It records what is written as a {@link Tape}; objects are only assigned ids here and captured
 * later by the traversal, so nothing recurses.
 */
final class CaptureStream extends ObjectOutputStream {
  private final Capturer capturer;
  private final int id;
  private final Object obj;
  private final Slot slot;
  private final TapeBuilder tape = new TapeBuilder();
  private FieldTable putFields;
  private int written;

  CaptureStream(Capturer capturer, int id, Object obj, Slot slot) throws IOException {
    super();
    this.capturer = capturer;
    this.id = id;
    this.obj = obj;
    this.slot = slot;
  }

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
    tape.object(capturer.ref(o, id, label(), false));
  }

  @Override
  public void writeUnshared(Object o) throws IOException {
    tape.object(capturer.ref(o, id, label(), true));
  }

  private String label() {
    String owner = slot == null ? "writeExternal" : "writeObject";
    return "<" + owner + " object " + written++ + ">";
  }

  @Override
  public void defaultWriteObject() throws IOException {
    requireSlot("defaultWriteObject");
    writeFields(SlotFields.read(slot, obj));
  }

  @Override
  public PutField putFields() throws IOException {
    requireSlot("putFields");
    if (putFields == null) {
      putFields = new FieldTable(slot);
    }
    return putFields.putField();
  }

  @Override
  public void writeFields() throws IOException {
    if (putFields == null) {
      throw new java.io.NotActiveException("writeFields without putFields");
    }
    writeFields(putFields.values());
  }

  private void writeFields(FieldValues values) throws IOException {
    List<SerialField> fields = slot.fields();
    int nPrims = values.prims().length;
    tape.fields(values.refs().length);
    for (int i = 0; i < nPrims; i++) {
      Types.write(tape.data(), Types.primitiveCode(fields.get(i).type()), values.prims()[i]);
    }
    tape.endFieldPrimitives();
    for (int i = 0; i < values.refs().length; i++) {
      tape.object(capturer.ref(values.refs()[i], id, fields.get(nPrims + i).name(), false));
    }
  }

  private void requireSlot(String what) throws IOException {
    if (slot == null) {
      throw new java.io.NotActiveException(what + " outside writeObject");
    }
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
