package org.codese.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.codese.Codese;
import org.codese.CorruptSnapshotException;
import org.codese.UnsafeSnapshotException;
import org.codese.format.SnapshotFile;
import org.codese.load.StreamReader;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Changes a legitimate snapshot the way an attacker would: decodes it with the format's own types,
 * replaces class entries and constants, and encodes it again with the format's own writer, so every
 * checksum is valid.
 *
 * <pre>{@code
 * byte[] hostile = SnapshotEdit.of(Codese.toBytes(new Decoy()))
 *     .rename(Decoy.class, "java.util.Timer").bytes();
 * }</pre>
 */
public final class SnapshotEdit {
  private final SnapshotFile file;
  private final List<ClassEntry> classes;
  private final List<Constant> constants;
  private Tape items;
  private final List<byte[]> classFiles;

  private SnapshotEdit(SnapshotFile file) {
    this.file = file;
    this.classFiles = new ArrayList<>(file.classFiles());
    this.classes = new ArrayList<>(file.classes());
    this.constants = new ArrayList<>(file.constants());
    this.items = file.items();
  }

  /**
   * @param root a graph
   * @return an editor over the parsed content of its snapshot
   */
  public static SnapshotEdit ofGraph(Object root) throws IOException {
    return of(Codese.toBytes(root));
  }

  /**
   * @param snapshot a snapshot's bytes, as {@code Codese.toBytes} makes them
   * @return an editor over its parsed content
   */
  public static SnapshotEdit of(byte[] snapshot) {
    try {
      return new SnapshotEdit(SnapshotFile.parse(snapshot));
    } catch (CorruptSnapshotException e) {
      throw new IllegalArgumentException("not a snapshot: " + e.getMessage(), e);
    }
  }

  /**
   * @return the class-table index of {@code c}
   */
  public int classIndex(Class<?> c) {
    for (int i = 0; i < classes.size(); i++) {
      if (classes.get(i).name().equals(c.getName())) {
        return i;
      }
    }
    throw new IllegalArgumentException(c.getName() + " is not in the class table " + classes);
  }

  /**
   * @return the current entry at class-table index {@code i}
   */
  public ClassEntry classEntry(int i) {
    return classes.get(i);
  }

  /** Replaces class entry {@code i}. */
  public SnapshotEdit setClass(int i, ClassEntry entry) {
    classes.set(i, entry);
    return this;
  }

  /**
   * Makes the entry of {@code c} name {@code newName} instead, with no recorded {@code
   * serialVersionUID} and its fields as they were.
   */
  public SnapshotEdit rename(Class<?> c, String newName) {
    int i = classIndex(c);
    ClassEntry e = classes.get(i);
    classes.set(i, new ClassEntry(newName, e.fields(), 0, false));
    return this;
  }

  /**
   * The same snapshot labelled as format {@code version}: its content as it is, encoded by the
   * format's own writer in that version's form, every checksum valid. What an old reader, or an
   * attacker relabelling a file, would give a loader.
   *
   * @param f a parsed snapshot
   * @param version the format version to label it with
   * @return the relabelled snapshot, to encode with {@link SnapshotFile#bytes()}
   */
  public static SnapshotFile relabel(SnapshotFile f, int version) {
    String from = org.codese.program.RuntimeContract.of(f.version()).setterOwner();
    String to = org.codese.program.RuntimeContract.of(version).setterOwner();
    // an older writer stored fields through the setter owner of its own format
    return withCode(
        f, version, from.equals(to) ? f.classFiles() : renameOwner(f.classFiles(), from, to));
  }

  /**
   * The snapshot with other class files, labelled as format {@code version}: everything else as it
   * is.
   *
   * @param f a parsed snapshot
   * @param version the format version to label it with
   * @param code the class files, one per placement
   * @return the snapshot, to encode with {@link SnapshotFile#bytes()}
   */
  public static SnapshotFile withCode(SnapshotFile f, int version, List<byte[]> code) {
    return new SnapshotFile(
        version,
        f.jdk(),
        f.firstId(),
        f.tableSize(),
        f.depth(),
        f.classes(),
        f.constants(),
        List.copyOf(code),
        f.placements(),
        f.items());
  }

  /**
   * The class files with every cast to, call of and frame entry of {@code from} naming {@code to}
   * instead.
   */
  public static List<byte[]> renameOwner(List<byte[]> code, String from, String to) {
    List<byte[]> renamed = new ArrayList<>();
    for (byte[] b : code) {
      renamed.add(rewriteMethods(b, mv -> new OwnerRenamer(mv, from, to)));
    }
    return renamed;
  }

  /** Passes every method of a class file through the visitor {@code wrap} makes of the writer's. */
  private static byte[] rewriteMethods(
      byte[] classFile, java.util.function.UnaryOperator<MethodVisitor> wrap) {
    ClassReader r = new ClassReader(classFile);
    ClassWriter w = new ClassWriter(r, 0);
    r.accept(
        new ClassVisitor(Opcodes.ASM9, w) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String desc, String sig, String[] exceptions) {
            return wrap.apply(super.visitMethod(access, name, desc, sig, exceptions));
          }
        },
        0);
    return w.toByteArray();
  }

  /** Renames one class in casts, calls and frames. */
  private static final class OwnerRenamer extends MethodVisitor {
    private final String from;
    private final String to;

    OwnerRenamer(MethodVisitor mv, String from, String to) {
      super(Opcodes.ASM9, mv);
      this.from = from;
      this.to = to;
    }

    @Override
    public void visitTypeInsn(int op, String type) {
      super.visitTypeInsn(op, type.equals(from) ? to : type);
    }

    @Override
    public void visitMethodInsn(int op, String owner, String called, String d, boolean itf) {
      super.visitMethodInsn(op, owner.equals(from) ? to : owner, called, d, itf);
    }

    @Override
    public void visitFrame(int type, int nLocal, Object[] local, int nStack, Object[] stack) {
      super.visitFrame(type, nLocal, rename(local), nStack, rename(stack));
    }

    private Object[] rename(Object[] types) {
      if (types == null) {
        return null;
      }
      Object[] out = types.clone();
      for (int i = 0; i < out.length; i++) {
        if (from.equals(out[i])) {
          out[i] = to;
        }
      }
      return out;
    }
  }

  /**
   * @return the index of the only constant {@code which} accepts
   */
  public int constantIndex(Predicate<Constant> which) {
    int found = -1;
    for (int i = 0; i < constants.size(); i++) {
      if (which.test(constants.get(i))) {
        if (found >= 0) {
          throw new IllegalArgumentException("more than one constant matches: " + found + ", " + i);
        }
        found = i;
      }
    }
    if (found < 0) {
      throw new IllegalArgumentException("no constant matches among " + constants);
    }
    return found;
  }

  /**
   * @return the current constant {@code i}
   */
  public Constant constant(int i) {
    return constants.get(i);
  }

  /**
   * @param step the first step of a program ({@code Grammar.STEP_*})
   * @return the index of the only {@code int[]} program constant that starts with {@code step}
   */
  public int programIndex(int step) {
    return constantIndex(
        c ->
            c instanceof Constant.PrimArray p
                && p.array() instanceof int[] a
                && a.length > 0
                && a[0] == step);
  }

  /**
   * @return the index of the only fill program ({@code Grammar.STEP_FILL})
   */
  public int fillProgram() {
    return programIndex(Grammar.STEP_FILL);
  }

  /**
   * @return the index of the only constant of a collection made to be filled ({@code
   *     Constant.Sized})
   */
  public int sizedIndex() {
    return constantIndex(c -> c instanceof Constant.Sized);
  }

  /**
   * Loads the edited snapshot, which must be refused as unsafe.
   *
   * @return the message of the {@code UnsafeSnapshotException} it is refused with
   */
  public String unsafeRejection() {
    return assertThrows(UnsafeSnapshotException.class, () -> Codese.load(bytes())).getMessage();
  }

  /**
   * @return a copy of the {@code int[]} program held by constant {@code i}
   */
  public int[] program(int i) {
    return ((int[]) ((Constant.PrimArray) constants.get(i)).array()).clone();
  }

  /** Replaces constant {@code i}. */
  public SnapshotEdit setConstant(int i, Constant c) {
    constants.set(i, c);
    return this;
  }

  /** Makes every allocator of class {@code type} allocate in {@code mode}. */
  public SnapshotEdit allocateAs(int type, Constant.Mode mode) {
    for (int i = 0; i < constants.size(); i++) {
      if (constants.get(i) instanceof Constant.Allocator a && a.type() == type) {
        constants.set(i, new Constant.Allocator(type, mode));
      }
    }
    return this;
  }

  /**
   * Replaces the top-level items: what a stream segment's reader is told comes first, primitive
   * data or the object, and which objects of earlier segments the object refers back to.
   */
  public SnapshotEdit setItems(Tape tape) {
    items = tape;
    return this;
  }

  /**
   * Passes every generated class file through {@code edit} (an ASM rewrite, usually), keeping their
   * order and placements.
   *
   * @param edit gives the new bytes of a class file
   * @return this editor
   */
  public SnapshotEdit editCode(java.util.function.UnaryOperator<byte[]> edit) {
    classFiles.replaceAll(edit);
    return this;
  }

  /**
   * Makes every call of the static method {@code from} in the generated classes call the method
   * {@code to} of the same owner and descriptor instead: code the emitter would not write, which
   * the format's writer encodes like any other.
   */
  public SnapshotEdit renameCalls(String from, String to) {
    classFiles.replaceAll(
        b ->
            rewriteMethods(
                b,
                mv ->
                    new MethodVisitor(Opcodes.ASM9, mv) {
                      @Override
                      public void visitMethodInsn(
                          int op, String owner, String called, String d, boolean itf) {
                        super.visitMethodInsn(op, owner, called.equals(from) ? to : called, d, itf);
                      }
                    }));
    return this;
  }

  /**
   * @return the edited snapshot, encoded with valid checksums
   */
  public byte[] bytes() {
    return new SnapshotFile(
            file.jdk(),
            file.firstId(),
            file.tableSize(),
            file.depth(),
            List.copyOf(classes),
            List.copyOf(constants),
            List.copyOf(classFiles),
            file.placements(),
            items)
        .bytes();
  }

  /** The last stream format version whose segments are whole snapshots. */
  public static final int FULL_SEGMENTS_VERSION = 2;

  /**
   * @param segments snapshots, the first starting at object 0 and each later one where the one
   *     before it ended
   * @return a Codese object stream holding them as its segments, in order, as {@code
   *     CodeseInputStream} reads it: stream format version 2, whose segments are whole snapshots
   *     (version 3 writes them in the compact form with references to earlier segments)
   */
  public static byte[] stream(byte[]... segments) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(StreamReader.STREAM_MAGIC);
      out.writeShort(FULL_SEGMENTS_VERSION);
      for (byte[] segment : segments) {
        out.writeInt(segment.length);
        out.write(segment);
      }
      out.writeInt(0);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
