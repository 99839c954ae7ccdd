package org.codese.load;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.codese.ClassMismatchException;
import org.codese.CorruptSnapshotException;
import org.codese.format.SnapshotFile;

/**
 * The fields generated classes set with {@code putfield}: every field reference of a class in the
 * nest of a snapshot class that names that class must name a field {@link
 * ClassTable#writableField} allows. The restore grammar reads no fields, so in a class that passed
 * the grammar check every field reference is a {@code putfield} target (or unused, which is
 * checked all the same). Reads only the constant pool of each class file.
 */
final class FieldWrites {
  private static final int UTF8 = 1;
  private static final int CLASS = 7;
  private static final int FIELDREF = 9;
  private static final int NAME_AND_TYPE = 12;

  private FieldWrites() {}

  /**
   * @param file a snapshot whose code passed the grammar check
   * @param table its classes, accepted by {@link Surface} and the filter
   * @throws ClassMismatchException if generated code sets a field the snapshot may not set
   * @throws CorruptSnapshotException if a class file's constant pool cannot be read
   */
  static void check(SnapshotFile file, ClassTable table)
      throws ClassMismatchException, CorruptSnapshotException {
    for (int i = 0; i < file.classFiles().size(); i++) {
      int host = file.placements().get(i)[1];
      if (host >= 0) {
        checkClass(file.classFiles().get(i), i, host, table);
      }
    }
  }

  private static void checkClass(byte[] bytes, int index, int host, ClassTable table)
      throws ClassMismatchException, CorruptSnapshotException {
    String owner = table.get(host).getName().replace('.', '/');
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      int count = b.getShort(8) & 0xffff;
      int[] offsets = new int[count];
      byte[] tags = new byte[count];
      int at = 10;
      for (int k = 1; k < count; k++) {
        tags[k] = b.get(at);
        offsets[k] = at + 1;
        at += 1 + entrySize(b, at);
        if (tags[k] == 5 || tags[k] == 6) {
          k++;
        }
      }
      for (int k = 1; k < count; k++) {
        if (tags[k] != FIELDREF) {
          continue;
        }
        int classIndex = b.getShort(offsets[k]) & 0xffff;
        int nat = b.getShort(offsets[k] + 2) & 0xffff;
        String refOwner = utf8(b, tags, offsets, ref(b, tags, offsets, classIndex, CLASS));
        if (refOwner.equals(owner)) {
          String name = utf8(b, tags, offsets, ref(b, tags, offsets, nat, NAME_AND_TYPE));
          table.writableField(host, name);
        }
      }
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new CorruptSnapshotException("code", 0, "generated class " + index
          + " has a constant pool that cannot be read: " + e);
    }
  }

  /** The size of the constant-pool entry at {@code at} after its tag. */
  private static int entrySize(ByteBuffer b, int at) {
    int tag = b.get(at);
    return switch (tag) {
      case UTF8 -> 2 + (b.getShort(at + 1) & 0xffff);
      case 3, 4, 9, 10, 11, 12, 17, 18 -> 4;
      case 5, 6 -> 8;
      case 7, 8, 16, 19, 20 -> 2;
      case 15 -> 3;
      default -> throw new IllegalArgumentException("constant-pool tag " + tag);
    };
  }

  /** The first u2 of entry {@code k}, which must have tag {@code tag}. */
  private static int ref(ByteBuffer b, byte[] tags, int[] offsets, int k, int tag) {
    if (k <= 0 || k >= tags.length || tags[k] != tag) {
      throw new IllegalArgumentException("constant-pool entry " + k + " is not of tag " + tag);
    }
    return b.getShort(offsets[k]) & 0xffff;
  }

  private static String utf8(ByteBuffer b, byte[] tags, int[] offsets, int k) {
    if (k <= 0 || k >= tags.length || tags[k] != UTF8) {
      throw new IllegalArgumentException("constant-pool entry " + k + " is not a string");
    }
    int len = b.getShort(offsets[k]) & 0xffff;
    try {
      return new DataInputStream(new ByteArrayInputStream(b.array(), offsets[k], len + 2))
          .readUTF();
    } catch (IOException e) {
      throw new IllegalArgumentException("constant-pool entry " + k + " is not modified UTF-8");
    }
  }
}
