package org.codese.fuzz;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * One generated class as ASM's tree, with its chunk methods cut into statements: runs of
 * instructions that start and end with an empty operand stack (a table store, a select, a field
 * store, a finish-program call), a counted loop with the loads of its data counting as one. The
 * structure fuzzer duplicates, deletes, moves and inserts statements, so that edited code mostly
 * still verifies and reaches the loader's checks and the restore, rather than failing in the JVM's
 * verifier. Also builds grammar-shaped statements and whole generated classes.
 */
final class CodeEditor {
  static final int TABLE = 0;
  static final int CONSTANTS = 1;
  static final int TARGET = 2;
  static final int IDS = 3;
  static final int INDEX = 4;

  final ClassNode cn;

  CodeEditor(byte[] classFile) {
    cn = new ClassNode();
    new ClassReader(classFile).accept(cn, ClassReader.SKIP_FRAMES);
  }

  private CodeEditor(ClassNode cn) {
    this.cn = cn;
  }

  /** A statement: instructions {@code first..last} of one method. */
  record Stmt(MethodNode method, AbstractInsnNode first, AbstractInsnNode last, boolean loop) {}

  /**
   * @return the chunk methods {@code m0, m1, ...}
   */
  List<MethodNode> chunks() {
    List<MethodNode> out = new ArrayList<>();
    for (MethodNode m : cn.methods) {
      if (m.name.startsWith("m") && m.desc.equals(Grammar.CHUNK_DESCRIPTOR)) {
        out.add(m);
      }
    }
    return out;
  }

  /**
   * Cuts a chunk into statements.
   *
   * @param bodies {@code false} for the top-level statements (a loop is one), {@code true} for the
   *     statements inside loop bodies
   */
  static List<Stmt> statements(MethodNode m, boolean bodies) {
    List<Stmt> top = new ArrayList<>();
    List<Stmt> body = new ArrayList<>();
    AbstractInsnNode start = null;
    AbstractInsnNode loopStart = null;
    boolean inTail = false;
    int depth = 0;
    for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
      if (n.getOpcode() < 0) {
        continue;
      }
      if (loopStart == null && depth == 0 && isLoopStart(n)) {
        loopStart = n;
        start = null;
        // merge the loads of the loop's data (astore to locals >= 2) that precede it
        while (!top.isEmpty()
            && top.get(top.size() - 1).last() instanceof VarInsnNode v
            && v.getOpcode() == ASTORE
            && v.var >= TARGET) {
          loopStart = top.remove(top.size() - 1).first();
        }
        n = nextReal(nextReal(n));
        continue;
      }
      if (loopStart != null) {
        if (n instanceof IincInsnNode i && i.var == INDEX) {
          inTail = true;
          continue;
        }
        if (inTail) {
          if (n.getOpcode() == IF_ICMPLT) {
            top.add(new Stmt(m, loopStart, n, true));
            loopStart = null;
            inTail = false;
            depth = 0;
            start = null;
          }
          continue;
        }
      }
      if (n.getOpcode() == RETURN) {
        break;
      }
      if (start == null) {
        start = n;
      }
      depth += effect(n);
      if (depth < 0) {
        return bodies ? body : top;
      }
      if (depth == 0) {
        (loopStart != null ? body : top).add(new Stmt(m, start, n, false));
        start = null;
      }
    }
    return bodies ? body : top;
  }

  private static boolean isLoopStart(AbstractInsnNode n) {
    AbstractInsnNode store = nextReal(n);
    AbstractInsnNode go = nextReal(store);
    return n.getOpcode() == ICONST_0
        && store instanceof VarInsnNode v
        && v.getOpcode() == ISTORE
        && v.var == INDEX
        && go != null
        && go.getOpcode() == GOTO;
  }

  private static AbstractInsnNode nextReal(AbstractInsnNode n) {
    if (n == null) {
      return null;
    }
    AbstractInsnNode x = n.getNext();
    while (x != null && x.getOpcode() < 0) {
      x = x.getNext();
    }
    return x;
  }

  /** The change in the number of values (not slots) on the operand stack. */
  static int effect(AbstractInsnNode n) {
    int op = n.getOpcode();
    if (n instanceof MethodInsnNode mi) {
      int in = Type.getArgumentTypes(mi.desc).length + (op == INVOKESTATIC ? 0 : 1);
      return (Type.getReturnType(mi.desc) == Type.VOID_TYPE ? 0 : 1) - in;
    }
    if (n instanceof FieldInsnNode) {
      return switch (op) {
        case PUTFIELD -> -2;
        case PUTSTATIC -> -1;
        case GETSTATIC -> 1;
        default -> 0;
      };
    }
    if (n instanceof VarInsnNode) {
      return op >= ISTORE && op <= ASTORE ? -1 : 1;
    }
    if (n instanceof LdcInsnNode) {
      return 1;
    }
    if (n instanceof IntInsnNode) {
      return op == NEWARRAY ? 0 : 1;
    }
    if (n instanceof TypeInsnNode) {
      return op == NEW ? 1 : 0;
    }
    if (n instanceof JumpInsnNode) {
      return op == GOTO ? 0 : op >= IF_ICMPEQ && op <= IF_ACMPNE ? -2 : -1;
    }
    if (n instanceof IincInsnNode) {
      return 0;
    }
    if (op >= ACONST_NULL && op <= DCONST_1) {
      return 1;
    }
    if (op >= IALOAD && op <= SALOAD) {
      return -1;
    }
    if (op >= IASTORE && op <= SASTORE) {
      return -3;
    }
    return switch (op) {
      case DUP -> 1;
      case POP -> -1;
      case POP2 -> -2;
      case DUP_X1, DUP_X2 -> 1;
      case DUP2 -> 2;
      case SWAP, ARRAYLENGTH, RETURN, NOP, CHECKCAST -> 0;
      case IADD, ISUB, IMUL, IDIV, IREM, ISHL, ISHR, IUSHR, IAND, IOR, IXOR -> -1;
      case ATHROW, ARETURN, IRETURN -> -1;
      default -> 0;
    };
  }

  /**
   * @return a copy of the statement's instructions, with fresh labels
   */
  static InsnList copy(Stmt s) {
    Map<LabelNode, LabelNode> labels = new HashMap<>();
    for (AbstractInsnNode n = s.first(); n != null; n = n.getNext()) {
      if (n instanceof LabelNode l) {
        labels.put(l, new LabelNode());
      }
      if (n == s.last()) {
        break;
      }
    }
    InsnList out = new InsnList();
    for (AbstractInsnNode n = s.first(); n != null; n = n.getNext()) {
      if (!(n instanceof FrameNode) && !(n instanceof LineNumberNode)) {
        AbstractInsnNode c = n.clone(labels);
        if (c != null) {
          out.add(c);
        }
      }
      if (n == s.last()) {
        break;
      }
    }
    return out;
  }

  /** Removes the statement's instructions. */
  static void delete(Stmt s) {
    List<AbstractInsnNode> gone = new ArrayList<>();
    for (AbstractInsnNode n = s.first(); n != null; n = n.getNext()) {
      gone.add(n);
      if (n == s.last()) {
        break;
      }
    }
    for (AbstractInsnNode n : gone) {
      s.method().instructions.remove(n);
    }
  }

  /** Inserts {@code code} before statement {@code at}, or before the final return if null. */
  static void insert(MethodNode m, Stmt at, InsnList code) {
    if (at != null) {
      m.instructions.insertBefore(at.first(), code);
      return;
    }
    AbstractInsnNode ret = m.instructions.getLast();
    while (ret != null && ret.getOpcode() != RETURN) {
      ret = ret.getPrevious();
    }
    if (ret == null) {
      m.instructions.add(code);
    } else {
      m.instructions.insertBefore(ret, code);
    }
  }

  /** Renames the class, and its own chunk calls in {@code accept}. */
  void rename(String internalName) {
    String old = cn.name;
    cn.name = internalName;
    for (MethodNode m : cn.methods) {
      for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
        if (n instanceof MethodInsnNode mi && mi.owner.equals(old)) {
          mi.owner = internalName;
        }
      }
    }
  }

  /**
   * @return the class file, frames and maxima recomputed; with maxima only if frames cannot be
   *     computed; {@code null} if ASM cannot write it at all
   */
  byte[] write() {
    try {
      ClassWriter w =
          new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
              return "java/lang/Object";
            }
          };
      cn.accept(w);
      return w.toByteArray();
    } catch (RuntimeException e) {
      try {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(w);
        return w.toByteArray();
      } catch (RuntimeException e2) {
        return null;
      }
    }
  }

  /**
   * @return {@code classFile} with the given {@code max_stack} and {@code max_locals} in one method
   */
  static byte[] withMaxs(byte[] classFile, String method, int maxStack, int maxLocals) {
    ClassReader r = new ClassReader(classFile);
    ClassWriter w = new ClassWriter(r, 0);
    r.accept(
        new ClassVisitor(ASM9, w) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String desc, String sig, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, desc, sig, exceptions);
            if (!name.equals(method)) {
              return mv;
            }
            return new MethodVisitor(ASM9, mv) {
              @Override
              public void visitMaxs(int s, int l) {
                super.visitMaxs(maxStack >= 0 ? maxStack : s, maxLocals >= 0 ? maxLocals : l);
              }
            };
          }
        },
        0);
    return w.toByteArray();
  }

  /**
   * A generated class in the grammar's shape: public final, implements {@code BiConsumer}, the
   * plain constructor, {@code accept} calling {@code m0, m1, ...}, and the given chunk bodies.
   */
  static CodeEditor synth(String internalName, List<InsnList> chunkBodies) {
    ClassNode c = new ClassNode();
    c.version = V17;
    c.access = ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC;
    c.name = internalName;
    c.superName = "java/lang/Object";
    c.interfaces = new ArrayList<>(List.of(Grammar.ENTRY_INTERFACE));
    MethodNode init = new MethodNode(ACC_PUBLIC, "<init>", "()V", null, null);
    init.instructions.add(new VarInsnNode(ALOAD, 0));
    init.instructions.add(
        new MethodInsnNode(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false));
    init.instructions.add(new InsnNode(RETURN));
    c.methods.add(init);
    for (int i = 0; i < chunkBodies.size(); i++) {
      MethodNode m = new MethodNode(ACC_STATIC, "m" + i, Grammar.CHUNK_DESCRIPTOR, null, null);
      m.instructions.add(chunkBodies.get(i));
      m.instructions.add(new InsnNode(RETURN));
      c.methods.add(m);
    }
    MethodNode accept =
        new MethodNode(ACC_PUBLIC, "accept", "(Ljava/lang/Object;Ljava/lang/Object;)V", null, null);
    InsnList a = accept.instructions;
    a.add(new VarInsnNode(ALOAD, 1));
    a.add(new TypeInsnNode(CHECKCAST, "[Ljava/lang/Object;"));
    a.add(new VarInsnNode(ASTORE, 3));
    a.add(new VarInsnNode(ALOAD, 2));
    a.add(new TypeInsnNode(CHECKCAST, "[Ljava/lang/Object;"));
    a.add(new VarInsnNode(ASTORE, 4));
    for (int i = 0; i < chunkBodies.size(); i++) {
      a.add(new VarInsnNode(ALOAD, 3));
      a.add(new VarInsnNode(ALOAD, 4));
      a.add(
          new MethodInsnNode(INVOKESTATIC, internalName, "m" + i, Grammar.CHUNK_DESCRIPTOR, false));
    }
    a.add(new InsnNode(RETURN));
    c.methods.add(accept);
    return new CodeEditor(c);
  }

  // ---- grammar-shaped statements ----

  static AbstractInsnNode push(int v) {
    if (v >= -1 && v <= 5) {
      return new InsnNode(ICONST_0 + v);
    } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      return new IntInsnNode(BIPUSH, v);
    } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      return new IntInsnNode(SIPUSH, v);
    }
    return new LdcInsnNode(v);
  }

  /**
   * @return the int an instruction pushes, or null if it pushes no int constant
   */
  static Integer pushed(AbstractInsnNode n) {
    int op = n.getOpcode();
    if (op >= ICONST_M1 && op <= ICONST_5) {
      return op - ICONST_0;
    } else if (op == BIPUSH || op == SIPUSH) {
      return ((IntInsnNode) n).operand;
    } else if (n instanceof LdcInsnNode l && l.cst instanceof Integer i) {
      return i;
    }
    return null;
  }

  /** {@code table[id] = <value>}, where {@code value} pushes one reference. */
  static InsnList store(int id, InsnList value) {
    InsnList l = new InsnList();
    l.add(new VarInsnNode(ALOAD, TABLE));
    l.add(push(id));
    l.add(value);
    l.add(new InsnNode(AASTORE));
    return l;
  }

  /** Pushes {@code constants[k]}, cast unless {@code cast} is null. */
  static InsnList constant(int k, String cast) {
    InsnList l = new InsnList();
    l.add(new VarInsnNode(ALOAD, CONSTANTS));
    l.add(push(k));
    l.add(new InsnNode(AALOAD));
    if (cast != null) {
      l.add(new TypeInsnNode(CHECKCAST, cast));
    }
    return l;
  }

  /** Pushes {@code table[id]}. */
  static InsnList tableAt(int id) {
    InsnList l = new InsnList();
    l.add(new VarInsnNode(ALOAD, TABLE));
    l.add(push(id));
    l.add(new InsnNode(AALOAD));
    return l;
  }

  /** {@code target = (cast) table[id]}. */
  static InsnList select(int id, String cast) {
    InsnList l = tableAt(id);
    if (cast != null) {
      l.add(new TypeInsnNode(CHECKCAST, cast));
    }
    l.add(new VarInsnNode(ASTORE, TARGET));
    return l;
  }

  /** Pushes a box from the JVM's cache: {@code Box.valueOf(v)}. */
  static InsnList valueOf(char type, long v) {
    String owner =
        switch (type) {
          case 'Z' -> "java/lang/Boolean";
          case 'B' -> "java/lang/Byte";
          case 'C' -> "java/lang/Character";
          case 'S' -> "java/lang/Short";
          case 'J' -> "java/lang/Long";
          default -> "java/lang/Integer";
        };
    InsnList l = new InsnList();
    l.add(primitive(type, v));
    l.add(
        new MethodInsnNode(INVOKESTATIC, owner, "valueOf", "(" + type + ")L" + owner + ";", false));
    return l;
  }

  /** Pushes a primitive constant of JVM type {@code type}. */
  static AbstractInsnNode primitive(char type, long v) {
    return switch (type) {
      case 'J' -> new LdcInsnNode(v);
      case 'F' -> new LdcInsnNode((float) v);
      case 'D' -> new LdcInsnNode((double) v);
      default -> push((int) v);
    };
  }

  /** {@code ((Field) constants[k]).setX(target, value)}. */
  static InsnList fieldSet(int k, char type, InsnList value) {
    InsnList l = constant(k, org.codese.program.RuntimeContract.current().setterOwner());
    l.add(new VarInsnNode(ALOAD, TARGET));
    l.add(value);
    if (type == 'L') {
      l.add(
          new MethodInsnNode(
              INVOKEVIRTUAL,
              org.codese.program.RuntimeContract.current().setterOwner(),
              "set",
              "(Ljava/lang/Object;Ljava/lang/Object;)V",
              false));
    } else {
      String suffix =
          switch (type) {
            case 'Z' -> "Boolean";
            case 'B' -> "Byte";
            case 'C' -> "Char";
            case 'S' -> "Short";
            case 'I' -> "Int";
            case 'J' -> "Long";
            case 'F' -> "Float";
            default -> "Double";
          };
      l.add(
          new MethodInsnNode(
              INVOKEVIRTUAL,
              org.codese.program.RuntimeContract.current().setterOwner(),
              "set" + suffix,
              "(Ljava/lang/Object;" + type + ")V",
              false));
    }
    return l;
  }

  /** {@code target.name = value} with {@code putfield owner.name desc}. */
  static InsnList putField(String owner, String name, String desc, InsnList value) {
    InsnList l = new InsnList();
    l.add(new VarInsnNode(ALOAD, TARGET));
    l.add(value);
    l.add(new FieldInsnNode(PUTFIELD, owner, name, desc));
    return l;
  }

  /** {@code table[id] = allocate(constants[k])}, the current format's allocation. */
  static InsnList allocate(int id, int k) {
    InsnList v = constant(k, null);
    v.add(
        new MethodInsnNode(
            INVOKESTATIC,
            RuntimeContract.current().allocateOwner(),
            Grammar.ALLOCATE_METHOD,
            Grammar.ALLOCATE_DESCRIPTOR,
            false));
    return store(id, v);
  }

  /** {@code runSteps(table, constants, k)} of the current format. */
  static InsnList runSteps(int k) {
    InsnList l = new InsnList();
    l.add(new VarInsnNode(ALOAD, TABLE));
    l.add(new VarInsnNode(ALOAD, CONSTANTS));
    l.add(push(k));
    l.add(
        new MethodInsnNode(
            INVOKESTATIC,
            RuntimeContract.current().stepsOwner(),
            Grammar.STEPS_METHOD,
            Grammar.STEPS_DESCRIPTOR,
            false));
    return l;
  }

  /** Pushes a new array: {@code new T[len]} for a primitive code, or {@code new Object[len]}. */
  static InsnList newArray(char elem, int len) {
    InsnList l = new InsnList();
    l.add(push(len));
    if (elem == 'L') {
      l.add(new TypeInsnNode(ANEWARRAY, "java/lang/Object"));
    } else {
      l.add(
          new IntInsnNode(
              NEWARRAY,
              switch (elem) {
                case 'Z' -> T_BOOLEAN;
                case 'B' -> T_BYTE;
                case 'C' -> T_CHAR;
                case 'S' -> T_SHORT;
                case 'J' -> T_LONG;
                case 'F' -> T_FLOAT;
                case 'D' -> T_DOUBLE;
                default -> T_INT;
              }));
    }
    return l;
  }

  /**
   * {@code ids = new int[n]; for (i = 0; i < ids.length; i++) body} in the grammar's loop shape;
   * the ids are all 0.
   */
  static InsnList loopOverFreshIds(int n, InsnList body) {
    InsnList l = newArray('I', n);
    l.add(new VarInsnNode(ASTORE, IDS));
    LabelNode test = new LabelNode();
    LabelNode top = new LabelNode();
    l.add(new InsnNode(ICONST_0));
    l.add(new VarInsnNode(ISTORE, INDEX));
    l.add(new JumpInsnNode(GOTO, test));
    l.add(top);
    l.add(body);
    l.add(new IincInsnNode(INDEX, 1));
    l.add(test);
    l.add(new VarInsnNode(ILOAD, INDEX));
    l.add(new VarInsnNode(ALOAD, IDS));
    l.add(new InsnNode(ARRAYLENGTH));
    l.add(new JumpInsnNode(IF_ICMPLT, top));
    return l;
  }

  /** Inside a loop body: {@code table[ids[i]] = value}. */
  static InsnList storeAtLoopId(InsnList value) {
    InsnList l = new InsnList();
    l.add(new VarInsnNode(ALOAD, TABLE));
    l.add(new VarInsnNode(ALOAD, IDS));
    l.add(new VarInsnNode(ILOAD, INDEX));
    l.add(new InsnNode(IALOAD));
    l.add(value);
    l.add(new InsnNode(AASTORE));
    return l;
  }
}
