package org.codese.load;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.codese.jvm.Types;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Class evolution (Java Object Serialization Specification, section 5.6): the stores a snapshot's
 * code makes into fields removed from their class since capture are taken out of the code before it
 * is defined, so no class that names such a field is ever defined, and what {@code
 * ObjectInputStream} skips is skipped. {@link ClassTable} decides which recorded fields were
 * removed; a setter constant of such a field resolves to {@link #REMOVED}, which {@link
 * ProgramCheck} accepts for any value and {@link Hooks} skips. A class removed since capture from
 * the hierarchy of every object the snapshot allocates ({@link ClassTable#detach}) has all its
 * recorded fields removed; the cast of a selected object to it becomes {@code null}, and its {@code
 * readObject} hooks resolve to {@link #REMOVED} too, which {@link Hooks} skips.
 *
 * <p>The code is adapted after the grammar check accepted it (the adapted code, with its {@code
 * pop}s, is outside the grammar), and only for a snapshot whose class table has a removed field:
 * the code of an unchanged class is defined as it is.
 */
final class Evolution {
  /**
   * The setter a field removed since capture resolves to ({@link Hooks#removedField}, which {@link
   * Hooks} recognises by its declaring class without loading this class): never set, only compared
   * with. This class is loaded only for a snapshot with a removed field.
   */
  static final Field REMOVED;

  static {
    try {
      REMOVED = Hooks.class.getDeclaredField("removedField");
    } catch (NoSuchFieldException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The setter owner before format 10 ({@link RuntimeContract#RUNTIME_SETTER} from it on). */
  private static final String FIELD = RuntimeContract.REFLECTIVE_SETTER;

  private Evolution() {}

  /**
   * The removed fields of a class table as {@code owner-internal-name.field} keys, as a {@code
   * putfield} names them, and the internal name alone of each class removed from the hierarchy of
   * the snapshot's objects ({@link ClassTable#detach}), every store into whose fields is taken out
   * and every cast to which, of an object about to be stored into, becomes {@code null}.
   */
  static Set<String> removedPutfields(ClassTable table) {
    Set<String> keys = new HashSet<>();
    for (Class<?> c : table.detachedClasses()) {
      keys.add(Types.internalName(c));
    }
    for (Map.Entry<Integer, Set<String>> e : table.removedFields().entrySet()) {
      if (table.gone(e.getKey())) {
        continue; // only the left-out classes of its nest put into its fields (GoneClasses)
      }
      String owner = Types.internalName(table.get(e.getKey()));
      for (String name : e.getValue()) {
        keys.add(owner + "." + name);
      }
    }
    return keys;
  }

  /**
   * Returns {@code classFile} without its stores into removed fields: each {@code putfield} into
   * one becomes pops of its target and value (with the cast of the value before it), each call of a
   * {@code Field} setter whose field constant resolved to {@link #REMOVED} pops of the field,
   * target and value.
   *
   * @param classFile a generated class the grammar check accepted
   * @param putfields the removed fields, {@link #removedPutfields}
   * @param constants the resolved constants
   * @return the adapted class file
   */
  static byte[] adapt(byte[] classFile, Set<String> putfields, Object[] constants) {
    return adapt(classFile, putfields, constants, null, -1);
  }

  /**
   * {@link #adapt(byte[], Set, Object[])}, also taking out the stores {@code drops} recorded per
   * object: a store into a field of a class on an object whose class no longer has it is popped
   * (the cast of the object to that class, {@code null}), and a cluster loop whose rows {@code
   * drops} filtered reads the filtered copies of its constants instead.
   *
   * @param drops the stores dropped per object, or {@code null}
   * @param index the class file's index in the snapshot
   */
  static byte[] adapt(
      byte[] classFile, Set<String> putfields, Object[] constants, ObjectDrops drops, int index) {
    ClassReader reader = new ClassReader(classFile);
    ClassWriter writer = new ClassWriter(0); // a new constant pool: no entry names a removed field
    reader.accept(new Adapter(writer, putfields, constants, drops, index), 0);
    return writer.toByteArray();
  }

  /** Hands each method to a {@link Drop}. */
  private static final class Adapter extends ClassVisitor {
    private final Set<String> putfields;
    private final Object[] constants;
    private final ObjectDrops drops;
    private final int index;

    Adapter(
        ClassVisitor next,
        Set<String> putfields,
        Object[] constants,
        ObjectDrops drops,
        int index) {
      super(Opcodes.ASM9, next);
      this.putfields = putfields;
      this.constants = constants;
      this.drops = drops;
      this.index = index;
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
      int chunk = -1;
      if (drops != null && descriptor.equals(Grammar.CHUNK_DESCRIPTOR) && name.startsWith("m")) {
        try {
          chunk = Integer.parseInt(name.substring(1));
        } catch (NumberFormatException e) {
          chunk = -1; // no chunk: its loops read the snapshot's constants
        }
      }
      return new Drop(next, putfields, constants, drops, index, chunk);
    }
  }

  /**
   * Replaces the stores into removed fields by pops. The grammar's statement shapes make the
   * tracking exact: a setter's field is {@code constants[k]} cast to {@code Field}, on the stack or
   * kept in a local before a loop, and is the last {@code Field} loaded before its setter call; a
   * {@code putfield}'s value is cast, if at all, just before it.
   */
  private static final class Drop extends MethodVisitor {
    private final Set<String> putfields;
    private final Object[] constants;

    /** The locals holding a field constant, by local, with the constant's index. */
    private final Map<Integer, Integer> fieldLocals = new HashMap<>();

    /** The int the previous instruction pushed, or -1. */
    private int pushed = -1;

    /** The constant index the previous {@code aaload} loaded from a pushed int, or -1. */
    private int loaded = -1;

    /** The constant index of the last {@code Field} loaded, or -1. */
    private int field = -1;

    /** Whether the previous instruction was the cast of a field constant. */
    private boolean castField;

    /** A reference cast held back until the next instruction shows whether it is dropped. */
    private String heldCast;

    /** The stores dropped per object, or null; the class file's index and the chunk's, or -1. */
    private final ObjectDrops drops;

    private final int classFile;
    private final int chunk;

    /** The instructions seen, and where the last {@code aload}, int push, {@code aaload} were. */
    private int insn;

    private int aloadAt = -2;
    private int aloadLocal = -1;
    private int pushAt = -2;
    private int pushFrom = -1;
    private int aaloadAt = -2;
    private int aaloadFrom = -1;
    private int aaloadIndex = -1;
    private int castAt = -2;
    private String castType;

    /** The table id of the object the last select chose, or -1 (a loop's row, or none). */
    private int selected = -1;

    /** The loops of this chunk seen so far. */
    private int loops;

    /** The constants the current loop's header reads instead, until the loop begins; or null. */
    private Map<Integer, Integer> swap;

    Drop(
        MethodVisitor next,
        Set<String> putfields,
        Object[] constants,
        ObjectDrops drops,
        int classFile,
        int chunk) {
      super(Opcodes.ASM9, next);
      this.putfields = putfields;
      this.constants = constants;
      this.drops = drops;
      this.classFile = classFile;
      this.chunk = chunk;
    }

    /**
     * The table id or constant index the value on the stack was loaded by, {@code local[k]} with
     * {@code k} pushed, possibly cast since; -1 if it was loaded otherwise.
     *
     * @param local the local of the array loaded from
     */
    private int loadedFrom(int local) {
      boolean loadedNow = aaloadAt == insn - 1 || (aaloadAt == insn - 2 && castAt == insn - 1);
      return loadedNow && aaloadFrom == local ? aaloadIndex : -1;
    }

    /** Emits the held cast, and forgets what the previous instruction pushed. */
    private void flush() {
      if (heldCast != null) {
        super.visitTypeInsn(Opcodes.CHECKCAST, heldCast);
        heldCast = null;
      }
      pushed = -1;
      loaded = -1;
      castField = false;
    }

    @Override
    public void visitInsn(int opcode) {
      int k =
          opcode >= Opcodes.ICONST_0 && opcode <= Opcodes.ICONST_5 ? opcode - Opcodes.ICONST_0 : -1;
      int from = pushed;
      flush();
      if (opcode == Opcodes.AALOAD) {
        loaded = from;
        if (pushAt == insn - 1) {
          aaloadAt = insn;
          aaloadFrom = pushFrom;
          aaloadIndex = from;
        }
      }
      super.visitInsn(opcode);
      pushed = k;
      if (k >= 0) {
        pushedNow();
      }
      insn++;
    }

    /** Records that the instruction just seen pushed an int ({@link #pushed}). */
    private void pushedNow() {
      pushAt = insn;
      pushFrom = aloadAt == insn - 1 ? aloadLocal : -1;
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      flush();
      super.visitIntInsn(opcode, operand);
      pushed = opcode == Opcodes.NEWARRAY ? -1 : operand;
      if (pushed >= 0) {
        pushedNow();
      }
      insn++;
    }

    @Override
    public void visitLdcInsn(Object value) {
      flush();
      super.visitLdcInsn(value);
      pushed = value instanceof Integer i ? i : -1;
      if (pushed >= 0) {
        pushedNow();
      }
      insn++;
    }

    @Override
    public void visitVarInsn(int opcode, int local) {
      boolean cast = castField;
      int id = opcode == Opcodes.ASTORE ? loadedFrom(Grammar.LOCAL_TABLE) : -1;
      int constant = opcode == Opcodes.ASTORE ? loadedFrom(Grammar.LOCAL_CONSTANTS) : -1;
      if (opcode == Opcodes.ASTORE
          && heldCast != null
          && (putfields.contains(heldCast)
              || (drops != null && local == Grammar.LOCAL_TARGET && drops.dropped(heldCast, id)))) {
        // the selected object's cast to a detached class (or to one removed from this object's
        // hierarchy only), whose fields are only stored into, and those stores taken out: null
        // instead, of any class to the verifier
        heldCast = null;
        super.visitInsn(Opcodes.POP);
        super.visitInsn(Opcodes.ACONST_NULL);
      }
      String typeCast = opcode == Opcodes.ASTORE && castAt == insn - 1 ? castType : null;
      flush();
      if (opcode == Opcodes.ASTORE && local == Grammar.LOCAL_TARGET) {
        selected = id;
      }
      if (drops != null && opcode == Opcodes.ASTORE && local == Grammar.LOCAL_IDS) {
        swap = chunk < 0 ? null : drops.loop(classFile, chunk, loops);
        loops++;
      }
      if (swap != null && opcode == Opcodes.ASTORE && swap.containsKey(constant)) {
        // a loop's rows without the dropped ones: the filtered copy of the constant instead
        super.visitInsn(Opcodes.POP);
        super.visitVarInsn(Opcodes.ALOAD, Grammar.LOCAL_CONSTANTS);
        super.visitLdcInsn(swap.get(constant));
        super.visitInsn(Opcodes.AALOAD);
        if (typeCast != null) {
          super.visitTypeInsn(Opcodes.CHECKCAST, typeCast);
        }
      }
      if (opcode == Opcodes.ALOAD) {
        aloadAt = insn;
        aloadLocal = local;
      }
      if (opcode == Opcodes.ASTORE) {
        if (cast) {
          fieldLocals.put(local, field);
        } else {
          fieldLocals.remove(local);
        }
      } else if (opcode == Opcodes.ALOAD && fieldLocals.containsKey(local)) {
        field = fieldLocals.get(local);
      }
      super.visitVarInsn(opcode, local);
      insn++;
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      int from = loaded;
      flush();
      if (opcode == Opcodes.CHECKCAST) {
        castAt = insn;
        castType = type;
      }
      insn++;
      if (opcode == Opcodes.CHECKCAST
          && (type.equals(FIELD) || type.equals(RuntimeContract.RUNTIME_SETTER))) {
        field = from;
        super.visitTypeInsn(opcode, type);
        castField = true;
      } else if (opcode == Opcodes.CHECKCAST) {
        heldCast = type;
      } else {
        super.visitTypeInsn(opcode, type);
      }
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      insn++;
      if (opcode == Opcodes.PUTFIELD
          && (putfields.contains(owner + "." + name)
              || putfields.contains(owner)
              || (drops != null && drops.dropped(owner, selected)))) {
        heldCast = null; // the cast of a value that is dropped
        flush();
        popValue(descriptor);
        super.visitInsn(Opcodes.POP); // the target
        return;
      }
      flush();
      super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      flush();
      insn++;
      if (opcode == Opcodes.INVOKEVIRTUAL
          && (owner.equals(FIELD) || owner.equals(RuntimeContract.RUNTIME_SETTER))
          && name.startsWith("set")
          && field >= 0
          && field < constants.length
          && (constants[field] == REMOVED || droppedSetter(constants[field]))) {
        popValue(descriptor.substring(descriptor.indexOf(';') + 1, descriptor.indexOf(')')));
        super.visitInsn(Opcodes.POP); // the target
        super.visitInsn(Opcodes.POP); // the field
        return;
      }
      super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    /**
     * Whether a store through setter constant {@code setter} into the selected object is dropped
     * per object ({@link ObjectDrops}).
     */
    private boolean droppedSetter(Object setter) {
      return drops != null
          && selected >= 0
          && setter instanceof Field f
          && drops.dropped(Types.internalName(f.getDeclaringClass()), selected);
    }

    /** Pops a value of type {@code descriptor}: two slots for {@code long} and {@code double}. */
    private void popValue(String descriptor) {
      boolean wide = descriptor.equals("J") || descriptor.equals("D");
      super.visitInsn(wide ? Opcodes.POP2 : Opcodes.POP);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      flush();
      super.visitJumpInsn(opcode, label);
      insn++;
    }

    @Override
    public void visitLabel(Label label) {
      flush();
      swap = null; // a loop's header ends where its body begins
      super.visitLabel(label);
    }

    @Override
    public void visitIincInsn(int local, int increment) {
      flush();
      super.visitIincInsn(local, increment);
      insn++;
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
      flush();
      super.visitFrame(type, numLocal, local, numStack, stack);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      flush();
      super.visitMaxs(maxStack, maxLocals);
    }
  }
}
