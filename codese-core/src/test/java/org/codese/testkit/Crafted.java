package org.codese.testkit;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Grammar;
import org.codese.program.Phase;
import org.codese.program.Placement;
import org.codese.program.RuntimeContract;
import org.codese.program.Tape;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Builds snapshots the way an attacker would: class entries, constants and generated classes
 * written by hand with ASM in the shapes of the restore grammar, encoded by the format's own
 * writer, so every checksum is valid. The root is table slot 0 unless {@link #root} says otherwise.
 */
public final class Crafted {
  private final List<ClassEntry> classes = new ArrayList<>();
  private final List<Constant> constants = new ArrayList<>();
  private final List<byte[]> classFiles = new ArrayList<>();
  private final List<Placement> placements = new ArrayList<>();
  private int tableSize = 1;
  private int first;
  private int root;
  private int version = SnapshotFile.VERSION;

  /**
   * @return the class-table index of a new entry for {@code name}, with no fields
   */
  public int type(String name) {
    return type(new ClassEntry(name, List.of(), 0, false));
  }

  /**
   * @return the class-table index of {@code entry}
   */
  public int type(ClassEntry entry) {
    classes.add(entry);
    return classes.size() - 1;
  }

  /**
   * @return the index of a new constant
   */
  public int constant(Constant c) {
    constants.add(c);
    return constants.size() - 1;
  }

  /** Sets the number of table slots (ids 0 to {@code n - 1}). */
  public Crafted slots(int n) {
    tableSize = n;
    return this;
  }

  /**
   * Makes this snapshot a later segment of an object stream whose earlier segments filled ids 0 to
   * {@code id - 1}; its own slots then start at {@code id}.
   */
  public Crafted first(int id) {
    first = id;
    return this;
  }

  /**
   * Writes the file in format {@code version} (the current one by default); the chunks of later
   * {@link #code} calls then allocate in that version's form ({@link Chunk#alloc}, {@link
   * Chunk#allocLoop}).
   */
  public Crafted version(int version) {
    this.version = version;
    return this;
  }

  /** Makes table slot {@code id} the root. */
  public Crafted root(int id) {
    root = id;
    return this;
  }

  /** Adds a generated class of {@code phase} hosted by Codese, with one chunk. */
  public Crafted code(int phase, Consumer<Chunk> body) {
    return code(phase, -1, body);
  }

  /** Adds a generated class of {@code phase} in the nest of class {@code host}, with one chunk. */
  public Crafted code(int phase, int host, Consumer<Chunk> body) {
    return code(phase, host, body, 16, 256);
  }

  /** As {@link #code(int, int, Consumer)}, with the chunk's {@code max_stack} and locals given. */
  public Crafted code(int phase, int host, Consumer<Chunk> body, int maxStack, int maxLocals) {
    String pkg =
        host < 0 ? RuntimeContract.of(version).hostPackage() : packageOf(classes.get(host).name());
    String name = (pkg.isEmpty() ? "" : pkg + "/") + Grammar.CLASS_PREFIX + classFiles.size();
    ClassWriter cw =
        new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
          @Override
          protected String getCommonSuperClass(String a, String b) {
            return "java/lang/Object";
          }
        };
    cw.visit(
        V17,
        ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC,
        name,
        null,
        "java/lang/Object",
        new String[] {Grammar.ENTRY_INTERFACE});
    MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    MethodVisitor m = cw.visitMethod(ACC_STATIC, "m0", Grammar.CHUNK_DESCRIPTOR, null, null);
    m.visitCode();
    body.accept(new Chunk(m, version));
    m.visitInsn(RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    MethodVisitor a =
        cw.visitMethod(ACC_PUBLIC, "accept", "(Ljava/lang/Object;Ljava/lang/Object;)V", null, null);
    a.visitCode();
    a.visitVarInsn(ALOAD, 1);
    a.visitTypeInsn(CHECKCAST, "[Ljava/lang/Object;");
    a.visitVarInsn(ASTORE, 3);
    a.visitVarInsn(ALOAD, 2);
    a.visitTypeInsn(CHECKCAST, "[Ljava/lang/Object;");
    a.visitVarInsn(ASTORE, 4);
    a.visitVarInsn(ALOAD, 3);
    a.visitVarInsn(ALOAD, 4);
    a.visitMethodInsn(INVOKESTATIC, name, "m0", Grammar.CHUNK_DESCRIPTOR, false);
    a.visitInsn(RETURN);
    a.visitMaxs(0, 0);
    a.visitEnd();
    cw.visitEnd();
    byte[] bytes = cw.toByteArray();
    if (maxStack != 16 || maxLocals != 256) {
      bytes = MaxsOverride.patch(bytes, maxStack, maxLocals);
    }
    classFiles.add(bytes);
    placements.add(new Placement(Phase.of(phase), host));
    return this;
  }

  /**
   * @return the snapshot's bytes, with valid checksums
   */
  public byte[] bytes() {
    Tape items = new Tape(new byte[0], new int[] {Tape.OBJECT, root});
    return new SnapshotFile(
            version,
            Runtime.version().toString(),
            first,
            tableSize,
            1,
            List.copyOf(classes),
            List.copyOf(constants),
            List.copyOf(classFiles),
            List.copyOf(placements),
            items)
        .bytes();
  }

  private static String packageOf(String binaryName) {
    int dot = binaryName.lastIndexOf('.');
    return dot < 0 ? "" : binaryName.substring(0, dot).replace('.', '/');
  }

  /** Writes statements of the restore grammar into a chunk. */
  public static final class Chunk {
    /** The chunk's visitor, for hand-written instructions outside the statement helpers. */
    public final MethodVisitor mv;

    /** The format version of the file: which allocation form {@link #alloc} writes. */
    private final int version;

    Chunk(MethodVisitor mv, int version) {
      this.mv = mv;
      this.version = version;
    }

    /** Pushes an int. */
    public Chunk push(int v) {
      mv.visitLdcInsn(v);
      return this;
    }

    /** {@code table[id] = constants[k]}. */
    public Chunk storeConstant(int id, int k) {
      mv.visitVarInsn(ALOAD, 0);
      push(id);
      constant(k, null);
      mv.visitInsn(AASTORE);
      return this;
    }

    /** {@code table[id] = Box.valueOf(v)} for an int-like box such as {@code java/lang/Integer}. */
    public Chunk storeCachedBox(int id, String box, char type, int v) {
      mv.visitVarInsn(ALOAD, 0);
      push(id);
      push(v);
      mv.visitMethodInsn(INVOKESTATIC, box, "valueOf", "(" + type + ")L" + box + ";", false);
      mv.visitInsn(AASTORE);
      return this;
    }

    /**
     * {@code table[id] = Allocation.allocate(constants[k])}, or in a file of format version 1
     * {@code table[id] = ((Constructor) constants[k]).newInstance(null)}.
     */
    public Chunk alloc(int id, int k) {
      mv.visitVarInsn(ALOAD, 0);
      push(id);
      if (version >= Grammar.ALLOCATE_VERSION) {
        constant(k, null);
      } else {
        constant(k, "java/lang/reflect/Constructor");
      }
      allocate(version);
      mv.visitInsn(AASTORE);
      return this;
    }

    /**
     * The call that allocates from the allocator on the stack, in the form of format {@code
     * formVersion}: its runtime contract's {@code allocate}, or {@code aconst_null;
     * Constructor.newInstance}.
     */
    public Chunk allocate(int formVersion) {
      if (RuntimeContract.of(formVersion).allocates()) {
        mv.visitMethodInsn(
            INVOKESTATIC,
            RuntimeContract.of(formVersion).allocateOwner(),
            Grammar.ALLOCATE_METHOD,
            Grammar.ALLOCATE_DESCRIPTOR,
            false);
      } else {
        mv.visitInsn(ACONST_NULL);
        mv.visitMethodInsn(
            INVOKEVIRTUAL,
            "java/lang/reflect/Constructor",
            "newInstance",
            "([Ljava/lang/Object;)Ljava/lang/Object;",
            false);
      }
      return this;
    }

    /** {@code table[id] = new String(literal)}. */
    public Chunk newString(int id, String literal) {
      mv.visitVarInsn(ALOAD, 0);
      push(id);
      mv.visitTypeInsn(NEW, "java/lang/String");
      mv.visitInsn(DUP);
      mv.visitLdcInsn(literal);
      mv.visitMethodInsn(
          INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
      mv.visitInsn(AASTORE);
      return this;
    }

    /**
     * The grammar's allocation loop: {@code table[ids[i]] = Allocation.allocate(allocator)} (format
     * version 1: {@code allocator.newInstance(null)}) over the {@code int[]} constant {@code ids}
     * and the allocator constant {@code k}.
     */
    public Chunk allocLoop(int ids, int k) {
      loadData(ids, "[I", 3)
          .loadData(
              k, version >= Grammar.ALLOCATE_VERSION ? null : "java/lang/reflect/Constructor", 5);
      return loop(
          () -> {
            mv.visitVarInsn(ALOAD, 0);
            mv.visitVarInsn(ALOAD, 3);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitInsn(IALOAD);
            mv.visitVarInsn(ALOAD, 5);
            allocate(version);
            mv.visitInsn(AASTORE);
          });
    }

    /**
     * The grammar's cluster loop with one {@code int} column set by {@code putfield}: {@code t =
     * (owner) table[ids[i]]; t.field = values[i]}, over the {@code int[]} constants {@code ids} and
     * {@code values}. Must be in a class of {@code owner}'s nest.
     */
    public Chunk clusterInt(int ids, int values, String owner, String field) {
      loadData(ids, "[I", 3).loadData(values, "[I", 5);
      return loop(
          () -> {
            mv.visitVarInsn(ALOAD, 0);
            mv.visitVarInsn(ALOAD, 3);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitInsn(IALOAD);
            mv.visitInsn(AALOAD);
            mv.visitTypeInsn(CHECKCAST, owner);
            mv.visitVarInsn(ASTORE, 2);
            mv.visitVarInsn(ALOAD, 2);
            mv.visitVarInsn(ALOAD, 5);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitInsn(IALOAD);
            mv.visitFieldInsn(PUTFIELD, owner, field, "I");
          });
    }

    /** The grammar's string loop: {@code table[ids[i]] = new String(texts[i])}. */
    public Chunk stringLoop(int ids, int texts) {
      loadData(ids, "[I", 3).loadData(texts, "[Ljava/lang/String;", 5);
      return loop(
          () -> {
            mv.visitVarInsn(ALOAD, 0);
            mv.visitVarInsn(ALOAD, 3);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitInsn(IALOAD);
            mv.visitTypeInsn(NEW, "java/lang/String");
            mv.visitInsn(DUP);
            mv.visitVarInsn(ALOAD, 5);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitInsn(AALOAD);
            mv.visitMethodInsn(
                INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false);
            mv.visitInsn(AASTORE);
          });
    }

    /**
     * The grammar's box loop: {@code table[ids[i]] = new Box(values[i])}, or {@code
     * Box.valueOf(values[i])} when {@code cached}, over the {@code int[]} constant {@code ids} and
     * the constant {@code values}, loaded as the array type {@code array} and read with {@code
     * load} (an array-load opcode) into a box of primitive kind {@code type}.
     */
    public Chunk boxLoop(
        int ids, int values, String array, int load, String box, char type, boolean cached) {
      loadData(ids, "[I", 3).loadData(values, array, 5);
      return loop(
          () -> {
            mv.visitVarInsn(ALOAD, 0);
            mv.visitVarInsn(ALOAD, 3);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitInsn(IALOAD);
            if (!cached) {
              mv.visitTypeInsn(NEW, box);
              mv.visitInsn(DUP);
            }
            mv.visitVarInsn(ALOAD, 5);
            mv.visitVarInsn(ILOAD, 4);
            mv.visitInsn(load);
            if (cached) {
              mv.visitMethodInsn(
                  INVOKESTATIC, box, "valueOf", "(" + type + ")L" + box + ";", false);
            } else {
              mv.visitMethodInsn(INVOKESPECIAL, box, "<init>", "(" + type + ")V", false);
            }
            mv.visitInsn(AASTORE);
          });
    }

    /** {@code table[id] = new Object[length]}. */
    public Chunk newObjectArray(int id, int length) {
      mv.visitVarInsn(ALOAD, 0);
      push(id);
      push(length);
      mv.visitTypeInsn(ANEWARRAY, "java/lang/Object");
      mv.visitInsn(AASTORE);
      return this;
    }

    /** {@code target = (cast) table[id]}; no cast if {@code cast} is null. */
    public Chunk select(int id, String cast) {
      mv.visitVarInsn(ALOAD, 0);
      push(id);
      mv.visitInsn(AALOAD);
      if (cast != null) {
        mv.visitTypeInsn(CHECKCAST, cast);
      }
      mv.visitVarInsn(ASTORE, 2);
      return this;
    }

    /** {@code ((Field) constants[k]).setInt(target, v)}. */
    public Chunk setInt(int k, int v) {
      constant(k, org.codese.program.RuntimeContract.current().setterOwner());
      mv.visitVarInsn(ALOAD, 2);
      push(v);
      mv.visitMethodInsn(
          INVOKEVIRTUAL,
          org.codese.program.RuntimeContract.current().setterOwner(),
          "setInt",
          "(Ljava/lang/Object;I)V",
          false);
      return this;
    }

    /** {@code ((Field) constants[k]).set(target, table[ref])}. */
    public Chunk setRef(int k, int ref) {
      constant(k, org.codese.program.RuntimeContract.current().setterOwner());
      mv.visitVarInsn(ALOAD, 2);
      tableAt(ref);
      mv.visitMethodInsn(
          INVOKEVIRTUAL,
          org.codese.program.RuntimeContract.current().setterOwner(),
          "set",
          "(Ljava/lang/Object;Ljava/lang/Object;)V",
          false);
      return this;
    }

    /** {@code target.name = v} with {@code putfield owner.name:I}. */
    public Chunk putInt(String owner, String name, int v) {
      mv.visitVarInsn(ALOAD, 2);
      push(v);
      mv.visitFieldInsn(PUTFIELD, owner, name, "I");
      return this;
    }

    /** {@code target[index] = table[ref]}. */
    public Chunk putElement(int index, int ref) {
      mv.visitVarInsn(ALOAD, 2);
      push(index);
      tableAt(ref);
      mv.visitInsn(AASTORE);
      return this;
    }

    /** {@code runSteps(table, constants, program)} of the file version's runtime contract. */
    public Chunk runSteps(int program) {
      mv.visitVarInsn(ALOAD, 0);
      mv.visitVarInsn(ALOAD, 1);
      push(program);
      mv.visitMethodInsn(
          INVOKESTATIC,
          RuntimeContract.of(version).stepsOwner(),
          Grammar.STEPS_METHOD,
          Grammar.STEPS_DESCRIPTOR,
          false);
      return this;
    }

    /** {@code local = (cast) constants[k]}: loop data. */
    public Chunk loadData(int k, String cast, int local) {
      constant(k, cast);
      mv.visitVarInsn(ASTORE, local);
      return this;
    }

    /**
     * In a {@link #loop} body, the start of a reflective column: {@code t = table[ids[i]]} into
     * local 2, then the {@code Field} of local 5 and {@code t} pushed for its setter.
     */
    public Chunk reflectiveTarget() {
      mv.visitVarInsn(ALOAD, 0);
      mv.visitVarInsn(ALOAD, 3);
      mv.visitVarInsn(ILOAD, 4);
      mv.visitInsn(IALOAD);
      mv.visitInsn(AALOAD);
      mv.visitVarInsn(ASTORE, 2);
      mv.visitVarInsn(ALOAD, 5);
      mv.visitVarInsn(ALOAD, 2);
      return this;
    }

    /**
     * An element loop: {@code target[i] = table[ids[i]]} for the array selected into local 2 and
     * the ids of {@code int[]} constant {@code ids}.
     */
    public Chunk elementLoop(int ids) {
      return loadData(ids, "[I", 3)
          .loop(
              () -> {
                mv.visitVarInsn(ALOAD, 2);
                mv.visitVarInsn(ILOAD, 4);
                mv.visitVarInsn(ALOAD, 0);
                mv.visitVarInsn(ALOAD, 3);
                mv.visitVarInsn(ILOAD, 4);
                mv.visitInsn(IALOAD);
                mv.visitInsn(AALOAD);
                mv.visitInsn(AASTORE);
              });
    }

    /** The grammar's counted loop over the {@code int[]} in local 3 around {@code body}. */
    public Chunk loop(Runnable body) {
      Label test = new Label();
      Label top = new Label();
      mv.visitInsn(ICONST_0);
      mv.visitVarInsn(ISTORE, 4);
      mv.visitJumpInsn(GOTO, test);
      mv.visitLabel(top);
      body.run();
      mv.visitIincInsn(4, 1);
      mv.visitLabel(test);
      mv.visitVarInsn(ILOAD, 4);
      mv.visitVarInsn(ALOAD, 3);
      mv.visitInsn(ARRAYLENGTH);
      mv.visitJumpInsn(IF_ICMPLT, top);
      return this;
    }

    /** Pushes {@code table[ref]}. */
    public Chunk tableAt(int ref) {
      mv.visitVarInsn(ALOAD, 0);
      push(ref);
      mv.visitInsn(AALOAD);
      return this;
    }

    private void constant(int k, String cast) {
      mv.visitVarInsn(ALOAD, 1);
      push(k);
      mv.visitInsn(AALOAD);
      if (cast != null) {
        mv.visitTypeInsn(CHECKCAST, cast);
      }
    }
  }

  /** Rewrites the {@code max_stack} and {@code max_locals} of chunk {@code m0}. */
  private static final class MaxsOverride {
    private MaxsOverride() {}

    static byte[] patch(byte[] bytes, int stack, int locals) {
      org.objectweb.asm.ClassReader r = new org.objectweb.asm.ClassReader(bytes);
      ClassWriter w = new ClassWriter(0);
      r.accept(
          new org.objectweb.asm.ClassVisitor(ASM9, w) {
            @Override
            public MethodVisitor visitMethod(
                int access, String name, String desc, String sig, String[] ex) {
              MethodVisitor mv = super.visitMethod(access, name, desc, sig, ex);
              if (!name.equals("m0")) {
                return mv;
              }
              return new MethodVisitor(ASM9, mv) {
                @Override
                public void visitMaxs(int s, int l) {
                  super.visitMaxs(stack, locals);
                }
              };
            }
          },
          0);
      return w.toByteArray();
    }
  }
}
