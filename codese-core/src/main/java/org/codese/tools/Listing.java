package org.codese.tools;

import static org.objectweb.asm.Opcodes.*;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.codese.ProgramListener;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Factories;
import org.codese.program.Fills;
import org.codese.program.Grammar;
import org.codese.program.Placement;
import org.codese.program.RuntimeContract;
import org.codese.program.Tape;
import org.codese.program.Values;
import org.objectweb.asm.Type;

/**
 * Reads a snapshot's restore program without running it, for {@link
 * org.codese.SnapshotContents#list}: a symbolic interpreter over the instructions of the restore
 * grammar ({@link Grammar}). Objects are table slots with a class name; constants come from the
 * snapshot's constant table; loops run with their real counts, since all their data is in the
 * constants. Each effect of the program goes to a {@link ProgramListener}.
 *
 * <p>Anything outside the grammar (an unknown instruction or call, a value of the wrong kind, an
 * index out of range, a program that does not end) is reported as a {@link DecodeException}.
 */
public final class Listing {
  /** The program does not follow the restore grammar, or cannot be read. */
  public static final class DecodeException extends Exception {
    private static final long serialVersionUID = 1L;

    DecodeException(String message) {
      super(message);
    }
  }

  /** The names of the phases, by {@code Grammar} phase number. */
  private static final String[] PHASES = {"create", "set", "finish"};

  private sealed interface V {}

  private record TableV() implements V {}

  private record ConstsV() implements V {}

  private record Num(char type, long bits) implements V {}

  private record Str(String value) implements V {}

  private record K(int index, Constant c) implements V {}

  private record Ref(int id) implements V {}

  private record Null() implements V {}

  private record Uninit(String owner) implements V {}

  private record Made(String type, String expr) implements V {}

  /** The most tape items a hook's description lists. */
  private static final int MAX_PARTS = 32;

  private static final V TABLE = new TableV();
  private static final V CONSTS = new ConstsV();
  private static final V NULL = new Null();

  private final ProgramListener sink;
  private final Map<Integer, String> types = new HashMap<>();
  private SnapshotFile file;
  private String where;
  private long steps;
  private long budget;

  /**
   * @param listener what receives the program's statements
   */
  public Listing(ProgramListener listener) {
    this.sink = listener;
  }

  /**
   * Decodes one snapshot.
   *
   * @param f the parsed snapshot
   * @throws DecodeException naming the class, method and instruction
   */
  public void run(SnapshotFile f) throws DecodeException {
    this.file = f;
    this.steps = 0;
    this.budget = 1_000_000L + 64L * f.bytes().length;
    List<byte[]> classes = f.classFiles();
    for (int i = 0; i < classes.size(); i++) {
      Code cn;
      where = "generated class " + i;
      try {
        cn = Code.read(classes.get(i));
      } catch (RuntimeException e) {
        throw fail("malformed class file (" + e + ")");
      }
      Placement p = f.placements().get(i);
      String host = p.codeseHosted() ? null : f.classes().get(p.host()).name();
      where = "class " + cn.name;
      sink.generatedClass(i, cn.name.replace('/', '.'), PHASES[p.phase().ordinal()], host);
      runClass(cn);
    }
  }

  private void runClass(Code cn) throws DecodeException {
    Map<String, Code.Method> methods = new HashMap<>();
    for (Code.Method m : cn.methods) {
      methods.put(m.name() + m.descriptor(), m);
    }
    Code.Method accept = methods.get("accept(Ljava/lang/Object;Ljava/lang/Object;)V");
    if (accept == null) {
      throw fail("no accept method");
    }
    for (Code.Ins call : accept.code()) {
      if (call.opcode() >= INVOKEVIRTUAL && call.opcode() <= INVOKEINTERFACE) {
        Code.Method chunk = methods.get(call.name() + call.descriptor());
        if (call.opcode() != INVOKESTATIC
            || !call.owner().equals(cn.name)
            || chunk == null
            || !call.descriptor().equals(Grammar.CHUNK_DESCRIPTOR)) {
          throw fail(
              "accept calls "
                  + call.owner()
                  + "."
                  + call.name()
                  + call.descriptor()
                  + ", which is not one of its chunk methods");
        }
        String outer = where;
        where = outer + " method " + chunk.name();
        runChunk(chunk);
        where = outer;
      }
    }
  }

  private void runChunk(Code.Method m) throws DecodeException {
    V[] locals = new V[Math.max(m.maxLocals(), 3) + 1];
    locals[0] = TABLE;
    locals[1] = CONSTS;
    Deque<V> stack = new ArrayDeque<>();
    List<Code.Ins> code = m.code();
    int pc = 0;
    while (pc < code.size()) {
      if (++steps > budget) {
        throw fail("the program runs longer than a snapshot of its size can");
      }
      Code.Ins insn = code.get(pc);
      int next = pc + 1;
      int op = insn.opcode();
      String at = " at instruction " + pc;
      try {
        if (op < 0) {
          pc = next;
          continue;
        }
        switch (op) {
          case ALOAD -> stack.push(local(locals, insn.operand()));
          case ILOAD -> stack.push(num(local(locals, insn.operand())));
          case ASTORE, ISTORE -> store(locals, insn.operand(), stack.pop());
          case IINC -> {
            Num n = num(local(locals, insn.operand()));
            store(locals, insn.operand(), new Num('I', (int) n.bits + insn.increment()));
          }
          case ICONST_M1, ICONST_0, ICONST_1, ICONST_2, ICONST_3, ICONST_4, ICONST_5 ->
              stack.push(new Num('I', op - ICONST_0));
          case BIPUSH, SIPUSH -> stack.push(new Num('I', insn.operand()));
          case LCONST_0, LCONST_1 -> stack.push(new Num('J', op - LCONST_0));
          case FCONST_0, FCONST_1, FCONST_2 ->
              stack.push(new Num('F', Float.floatToRawIntBits(op - FCONST_0)));
          case DCONST_0, DCONST_1 ->
              stack.push(new Num('D', Double.doubleToRawLongBits(op - DCONST_0)));
          case ACONST_NULL -> stack.push(NULL);
          case LDC -> stack.push(ldc(insn.constant()));
          case DUP -> stack.push(stack.peek());
          case CHECKCAST -> {
            if (stack.isEmpty()) {
              throw fail("checkcast on an empty stack" + at);
            }
          }
          case AALOAD -> stack.push(aaload(num(stack.pop()), stack.pop()));
          case IALOAD, BALOAD, CALOAD, SALOAD, LALOAD, FALOAD, DALOAD ->
              stack.push(primLoad(num(stack.pop()), stack.pop()));
          case ARRAYLENGTH -> stack.push(new Num('I', Array.getLength(data(stack.pop()))));
          case NEW -> stack.push(new Uninit(insn.owner()));
          case NEWARRAY -> {
            Num len = num(stack.pop());
            String elem = newarrayType(insn.operand());
            stack.push(new Made("[" + elem, "new " + Names.primitive(elem) + "[" + len.bits + "]"));
          }
          case ANEWARRAY -> {
            Num len = num(stack.pop());
            String elem = insn.owner().replace('/', '.');
            stack.push(
                new Made("[L" + elem + ";", "new " + Names.simple(elem) + "[" + len.bits + "]"));
          }
          case INVOKESPECIAL, INVOKESTATIC, INVOKEVIRTUAL -> call(insn, stack);
          case AASTORE, IASTORE, BASTORE, CASTORE, SASTORE, LASTORE, FASTORE, DASTORE -> {
            V value = stack.pop();
            Num index = num(stack.pop());
            arrayStore(op, stack.pop(), (int) index.bits, value);
          }
          case PUTFIELD -> {
            V value = stack.pop();
            int target = ref(stack.pop());
            setField(target, insn.name(), insn.descriptor(), value);
          }
          case GOTO -> {
            V ids = locals.length > 3 ? locals[3] : null;
            sink.loop(ids instanceof K k ? Array.getLength(data(k)) : -1);
            next = insn.target();
          }
          case IF_ICMPLT -> {
            long b = num(stack.pop()).bits;
            long a = num(stack.pop()).bits;
            if (a < b) {
              next = insn.target();
            }
          }
          case RETURN -> {
            return;
          }
          default -> throw fail("opcode " + op + " is not in the restore grammar" + at);
        }
      } catch (java.util.NoSuchElementException e) {
        throw fail("stack underflow" + at);
      } catch (ClassCastException | IllegalArgumentException e) {
        throw fail("a value of the wrong kind" + at + " (" + e.getMessage() + ")");
      } catch (DecodeException e) {
        if (e.getMessage().contains(" at instruction ")) {
          throw e;
        }
        throw new DecodeException(e.getMessage() + at);
      }
      pc = next;
    }
    throw fail("method " + m.name() + " ends without return");
  }

  private V local(V[] locals, int var) throws DecodeException {
    if (var < 0 || var >= locals.length || locals[var] == null) {
      throw fail("reads local " + var + " before it is set");
    }
    return locals[var];
  }

  private void store(V[] locals, int var, V value) throws DecodeException {
    if (var < 2 || var >= locals.length) {
      throw fail("stores into local " + var);
    }
    locals[var] = value;
  }

  private Num num(V v) throws DecodeException {
    if (v instanceof Num n) {
      return n;
    }
    throw fail("expected a number but found " + kind(v));
  }

  private int ref(V v) throws DecodeException {
    if (v instanceof Ref r) {
      return r.id;
    }
    throw fail("expected a table object but found " + kind(v));
  }

  private Object data(V v) throws DecodeException {
    if (v instanceof K k) {
      if (k.c instanceof Constant.PrimArray p) {
        return p.array();
      } else if (k.c instanceof Constant.Texts t) {
        return t.values();
      }
    }
    throw fail("expected array data but found " + kind(v));
  }

  private static String kind(V v) {
    if (v instanceof K k) {
      return "constant #" + k.index + " (" + k.c.getClass().getSimpleName() + ")";
    }
    return v == null ? "nothing" : v.getClass().getSimpleName();
  }

  private V ldc(Object cst) throws DecodeException {
    if (cst instanceof Integer i) {
      return new Num('I', i);
    } else if (cst instanceof Long l) {
      return new Num('J', l);
    } else if (cst instanceof Float f) {
      return new Num('F', Float.floatToRawIntBits(f));
    } else if (cst instanceof Double d) {
      return new Num('D', Double.doubleToRawLongBits(d));
    } else if (cst instanceof String s) {
      return new Str(s);
    }
    throw fail("loads constant " + cst + ", which is not in the restore grammar");
  }

  private V aaload(Num index, V array) throws DecodeException {
    int i = (int) index.bits;
    if (array == TABLE) {
      if (i < 0 || i > file.tableSize()) {
        throw fail("table index " + i + " is out of range");
      }
      return new Ref(i);
    } else if (array == CONSTS) {
      if (i < 0 || i >= file.constants().size()) {
        throw fail("constant index " + i + " is out of range");
      }
      return new K(i, file.constants().get(i));
    } else if (array instanceof K k && k.c instanceof Constant.Texts t) {
      return new Str(t.values()[i]);
    }
    throw fail("aaload from " + kind(array));
  }

  private V primLoad(Num index, V array) throws DecodeException {
    Object data = data(array);
    int i = (int) index.bits;
    if (i < 0 || i >= Array.getLength(data)) {
      throw fail("loop data index " + i + " is out of range");
    }
    if (data instanceof int[] a) {
      return new Num('I', a[i]);
    } else if (data instanceof long[] a) {
      return new Num('J', a[i]);
    } else if (data instanceof byte[] a) {
      return new Num('B', a[i]);
    } else if (data instanceof boolean[] a) {
      return new Num('Z', a[i] ? 1 : 0);
    } else if (data instanceof char[] a) {
      return new Num('C', a[i]);
    } else if (data instanceof short[] a) {
      return new Num('S', a[i]);
    } else if (data instanceof float[] a) {
      return new Num('F', Float.floatToRawIntBits(a[i]));
    } else if (data instanceof double[] a) {
      return new Num('D', Double.doubleToRawLongBits(a[i]));
    }
    throw fail("primitive load from " + kind(array));
  }

  private void call(Code.Ins insn, Deque<V> stack) throws DecodeException {
    Call m = new Call(insn.opcode(), insn.owner(), insn.name(), insn.descriptor());
    String sig = m.owner + "." + m.name + m.desc;
    if (m.opcode == INVOKESPECIAL && m.name.equals("<init>")) {
      Type[] args = Type.getArgumentTypes(m.desc);
      if (args.length != 1) {
        throw fail("calls " + sig + ", which is not in the restore grammar");
      }
      V arg = stack.pop();
      stack.pop();
      V made = stack.pop();
      if (!(made instanceof Uninit u) || !u.owner.equals(m.owner)) {
        throw fail("constructor call " + sig + " on " + kind(made));
      }
      String type = m.owner.replace('/', '.');
      if (m.owner.equals("java/lang/String")) {
        stack.push(new Made(type, "new String(" + text(arg) + ")"));
      } else {
        Num n = num(arg);
        stack.push(
            new Made(
                type,
                "new "
                    + Names.simple(type)
                    + "("
                    + Names.literal(args[0].getDescriptor().charAt(0), n.bits)
                    + ")"));
      }
    } else if (m.opcode == INVOKESTATIC
        && m.name.equals("valueOf")
        && m.owner.startsWith("java/lang/")) {
      Num n = num(stack.pop());
      String type = m.owner.replace('/', '.');
      stack.push(
          new Made(
              type,
              Names.simple(type)
                  + ".valueOf("
                  + Names.literal(
                      Type.getArgumentTypes(m.desc)[0].getDescriptor().charAt(0), n.bits)
                  + ")"));
    } else if (sig.equals(
        "java/lang/reflect/Array.newInstance" + "(Ljava/lang/Class;I)Ljava/lang/Object;")) {
      Num len = num(stack.pop());
      V maker = stack.pop();
      if (!(maker instanceof K k && k.c instanceof Constant.ArrayMaker a)) {
        throw fail("Array.newInstance with " + kind(maker));
      }
      String type = className(a.type());
      stack.push(
          new Made(type, "new " + Names.simple(type).replaceFirst("\\[\\]", "[" + len.bits + "]")));
    } else if (m.owner.equals(RuntimeContract.of(file.version()).stepsOwner())
        && m.name.equals(Grammar.STEPS_METHOD)
        && m.desc.equals(Grammar.STEPS_DESCRIPTOR)) {
      Num program = num(stack.pop());
      V consts = stack.pop();
      V table = stack.pop();
      int k = (int) program.bits;
      if (table != TABLE
          || consts != CONSTS
          || k < 0
          || k >= file.constants().size()
          || !(file.constants().get(k) instanceof Constant.PrimArray p
              && p.array() instanceof int[])) {
        throw fail("runSteps with " + kind(table) + ", " + kind(consts) + ", " + k);
      }
      steps((int[]) ((Constant.PrimArray) file.constants().get(k)).array());
    } else if (sig.equals(
        "java/lang/reflect/Constructor.newInstance" + "([Ljava/lang/Object;)Ljava/lang/Object;")) {
      V args = stack.pop();
      V ctor = stack.pop();
      if (args != NULL) {
        throw fail("Constructor.newInstance with arguments " + kind(args));
      }
      stack.push(allocation(ctor, "Constructor.newInstance"));
    } else if (m.owner.equals(RuntimeContract.of(file.version()).allocateOwner())
        && (m.name.equals(Grammar.ALLOCATE_METHOD) || m.name.equals(Grammar.NEW_COLLECTION_METHOD))
        && m.desc.equals(Grammar.ALLOCATE_DESCRIPTOR)) {
      stack.push(allocation(stack.pop(), m.name));
    } else if (m.name.equals("clone") && m.owner.startsWith("[")) {
      V src = stack.pop();
      Object data = data(src);
      stack.push(new Made(data.getClass().getName(), arrayLiteral(data)));
    } else if (m.owner.equals(RuntimeContract.of(file.version()).setterOwner())
        && m.name.startsWith("set")) {
      V value = stack.pop();
      int target = ref(stack.pop());
      V field = stack.pop();
      if (!(field instanceof K k && k.c instanceof Constant.Setter s)) {
        throw fail("Field." + m.name + " on " + kind(field));
      }
      setField(target, s.field(), s.descriptor(), value);
    } else {
      throw fail("calls " + sig + ", which is not in the restore grammar");
    }
  }

  /** A method call's operands, named as in ASM's tree API. */
  private record Call(int opcode, String owner, String name, String desc) {}

  /** The object an allocator constant creates, as {@code new Type()}. */
  private Made allocation(V allocator, String call) throws DecodeException {
    if (allocator instanceof K k && k.c instanceof Constant.Sized z) {
      String type = className(z.type());
      String argument =
          type.equals("java.util.EnumMap")
              ? Names.simple(className(z.capacity())) + ".class"
              : z.capacity() < 0 ? "" : String.valueOf(z.capacity());
      return new Made(type, "new " + Names.simple(type) + "(" + argument + ")");
    }
    if (!(allocator instanceof K k && k.c instanceof Constant.Allocator a)) {
      throw fail(call + " with " + kind(allocator));
    }
    String type = className(a.type());
    ClassEntry entry = file.classes().get(a.type());
    return new Made(
        type,
        "new "
            + (entry.isProxy() ? proxyName(entry) : Names.simple(type))
            + "()"
            + (a.mode() == Constant.Mode.SERIAL
                ? ""
                : " /* " + a.mode().name().toLowerCase(java.util.Locale.ROOT) + " */"));
  }

  /** Replays a finish program: hook calls and deferred reference stores, in order. */
  private void steps(int[] p) throws DecodeException {
    for (int i = 0; i < p.length; ) {
      // a long: a count near Integer.MAX_VALUE must not wrap the size around to a negative one
      long size =
          p[i] == Grammar.STEP_HOOK
              ? 2
              : p[i] == Grammar.STEP_FILL && i + 2 < p.length
                  ? 3L + Math.max(0, p[i + 2])
                  : p[i] == Grammar.STEP_IMMUTABLE || p[i] == Grammar.STEP_FACTORY
                      ? (i + 4 < p.length ? 5L + Math.max(0, p[i + 4]) : 5)
                      : p[i] == Grammar.STEP_ARRAYS && i + 3 < p.length
                          ? 4L + 3L * Math.max(0, p[i + 3])
                          : p[i] == Grammar.STEP_VALUES && i + 3 < p.length
                              ? 4L + 2L * Math.max(0, p[i + 3])
                              : 4;
      if (i + size > p.length) {
        throw fail("finish program step at " + i + " is truncated");
      }
      if (p[i] == Grammar.STEP_HOOK) {
        if (!(constant(p[i + 1]) instanceof Constant.Hook h)) {
          throw fail("finish program runs constant #" + p[i + 1] + ", which is not a hook");
        }
        hook(h);
      } else if (p[i] == Grammar.STEP_FIELD) {
        if (!(constant(p[i + 1]) instanceof Constant.Setter f)) {
          throw fail("finish program sets through constant #" + p[i + 1] + ", not a field");
        }
        setField(tableRef(p[i + 2]), f.field(), f.descriptor(), value(p[i + 3]));
      } else if (p[i] == Grammar.STEP_ELEMENT) {
        V value = value(p[i + 3]);
        sink.element(
            tableRef(p[i + 1]), types.get(p[i + 1]), p[i + 2], refText(value), true, value != NULL);
      } else if (p[i] == Grammar.STEP_FILL) {
        fill(p, i);
      } else if (p[i] == Grammar.STEP_IMMUTABLE) {
        immutable(p, i);
      } else if (p[i] == Grammar.STEP_FACTORY) {
        factory(p, i);
      } else if (p[i] == Grammar.STEP_ARRAYS) {
        arrays(p, i);
      } else if (p[i] == Grammar.STEP_VALUES) {
        values(p, i);
      } else {
        throw fail("unknown finish program step " + p[i] + " at " + i);
      }
      i += (int) size; // at most p.length - i
    }
  }

  /** The most elements a fill's statement shows. */
  private static final int FILL_SHOWN = 4;

  /** Reports the fill step at {@code i}: {@code o3.put(o4, o5); ...}, the first few elements. */
  private void fill(int[] p, int i) throws DecodeException {
    int target = tableRef(p[i + 1]);
    String type = types.get(target);
    int fill = type == null ? Fills.NONE : Fills.kind(type);
    boolean map = fill != Fills.NONE && Fills.width(fill) == 2;
    int width = map ? 2 : 1;
    int n = p[i + 2];
    StringBuilder text = new StringBuilder();
    int references = 0;
    for (int k = 0; k < n; k++) {
      if (value(p[i + 3 + k]) != NULL) {
        references++;
      }
    }
    for (int e = 0; e < Math.min(n / width, FILL_SHOWN); e++) {
      text.append(e == 0 ? "" : " ").append('o').append(target).append(map ? ".put(" : ".add(");
      for (int w = 0; w < width; w++) {
        text.append(w == 0 ? "" : ", ").append(refText(value(p[i + 3 + e * width + w])));
      }
      text.append(");");
    }
    if (n / width > FILL_SHOWN) {
      text.append(" // and ").append(n / width - FILL_SHOWN).append(" more");
    } else if (n == 0) {
      text.append("// o").append(target).append(" stays empty");
    }
    sink.fill(target, type, text.toString(), references);
  }

  /**
   * Reports the immutable collection the step at {@code i} makes, as {@code List.of(o4, o5)}, the
   * first few elements shown.
   */
  private void immutable(int[] p, int i) throws DecodeException {
    int tag = p[i + 2];
    int target = tableRef(p[i + 3]);
    int n = p[i + 4];
    String factory =
        tag == Grammar.IMMUTABLE_LIST
            ? "List"
            : tag == Grammar.IMMUTABLE_SET ? "Set" : tag == Grammar.IMMUTABLE_MAP ? "Map" : null;
    if (factory == null) {
      throw fail("immutable collection step at " + i + " has unknown tag " + tag);
    }
    StringBuilder text = new StringBuilder(factory).append(".of(");
    for (int k = 0; k < Math.min(n, 2 * FILL_SHOWN); k++) {
      text.append(k == 0 ? "" : ", ").append(refText(value(p[i + 5 + k])));
    }
    text.append(n > 2 * FILL_SHOWN ? ", ... /* " + n + " in all */)" : ")");
    String type = "java.util." + factory;
    types.put(target, type);
    sink.create(target, type, text + " /* as java.util.CollSer */");
  }

  /**
   * Reports the object the factory step at {@code i} makes, as {@code
   * Collections.unmodifiableList(o4)} followed by its class in a comment.
   */
  private void factory(int[] p, int i) throws DecodeException {
    int kind = p[i + 2];
    int target = tableRef(p[i + 3]);
    int n = p[i + 4];
    if (kind < 1 || kind > Factories.LAST) {
      throw fail("factory step at " + i + " has unknown kind " + kind);
    }
    StringBuilder text = new StringBuilder(Factories.factory(kind)).append('(');
    for (int k = 0; k < n; k++) {
      // an EnumSet: noneOf(type) with the elements of an array added
      text.append(k == 0 ? "" : kind == Factories.ENUM_SET ? ").addAll(" : ", ")
          .append(refText(value(p[i + 5 + k])));
    }
    String type = Factories.className(kind);
    types.put(target, type);
    sink.create(target, type, text + ") /* as " + type + " */");
  }

  /** The component of an array class's name: {@code a.B} for {@code [La.B;}. */
  private static String componentOf(String arrayName) {
    return arrayName.startsWith("[L") && arrayName.endsWith(";")
        ? arrayName.substring(2, arrayName.length() - 1)
        : arrayName.startsWith("[") ? arrayName.substring(1) : arrayName;
  }

  /** Reports the arrays a create program's step at {@code i} makes, as {@code new int[3]}. */
  private void arrays(int[] p, int i) throws DecodeException {
    char kind = (char) p[i + 1];
    String component;
    if (kind == 'L') {
      component =
          p[i + 2] < 0
              ? "java.lang.Object"
              : constant(p[i + 2]) instanceof Constant.ArrayMaker m
                  ? componentOf(className(m.type()))
                  : "?";
    } else {
      component = org.codese.jvm.Types.primitiveClass(kind).getName();
    }
    for (int at = i + 4; at < i + 4 + 3 * p[i + 3]; at += 3) {
      int id = tableRef(p[at]);
      String type = kind == 'L' ? "[L" + component + ";" : "[" + kind;
      types.put(id, type);
      String simple = component.substring(component.lastIndexOf('.') + 1);
      sink.create(
          id,
          type,
          "new "
              + simple
              + "["
              + p[at + 1]
              + "]"
              + (p[at + 2] >= 0 ? " /* elements from data at " + p[at + 2] + " */" : ""));
    }
  }

  /**
   * Reports the values step at {@code i}: {@code LocalDate.of(15000)} and the like, {@code new
   * Date(ms)}, and {@code new BigDecimal(o12, 2)} for a {@code BigDecimal} of the {@code
   * BigInteger} of slot 12 and scale 2.
   */
  private void values(int[] p, int i) throws DecodeException {
    int kind = p[i + 1];
    if (!Values.isKind(kind)) {
      throw fail("values step at " + i + " has unknown kind " + kind);
    }
    if (!(constant(p[i + 2]) instanceof Constant.PrimArray d && d.array() instanceof long[] data)) {
      throw fail("values step at " + i + " takes its data from constant #" + p[i + 2]);
    }
    String type = Values.type(kind).getName();
    String simple = type.substring(type.lastIndexOf('.') + 1);
    int arity = Values.arity(kind);
    for (int at = i + 4; at < i + 4 + 2 * p[i + 3]; at += 2) {
      int id = tableRef(p[at]);
      int from = p[at + 1];
      if (from < 0
          || from + arity > data.length
          || from + Values.length(kind, data, from) > data.length
          || Values.length(kind, data, from) < arity) {
        throw fail("value data at " + from + " is outside its constant");
      }
      if (kind == 'M') {
        types.put(id, type);
        sink.create(id, type, "new BigInteger(" + bigText(data, from) + ") /* from data */");
        continue;
      }
      types.put(id, type);
      StringBuilder args = new StringBuilder();
      // a zone region's id, packed into four longs, alone or after a ZonedDateTime's numbers
      boolean region = kind == 'G' || (kind == 'W' && data[from + 3] == Long.MIN_VALUE);
      int shown = !region ? arity : kind == 'G' ? 0 : 3; // not a region's marker
      for (int k = 0; k < shown; k++) {
        args.append(k == 0 ? "" : ", ");
        if (k == 0 && Values.referredKind(kind) != 0) {
          args.append('o').append(data[from]); // the table slot of the value it refers to
        } else {
          args.append(data[from + k]);
        }
      }
      if (region) {
        args.append(shown == 0 ? "\"" : ", \"")
            .append(Values.unpackZoneId(data, from + arity - 4))
            .append('"');
      }
      boolean constructed = kind == 'J' || kind == 'N';
      sink.create(
          id,
          type,
          (constructed ? "new " + simple + "(" : simple + ".of(") + args + ") /* from data */");
    }
  }

  /** The number a {@code 'M'} value's data make, or its size where it is long. */
  private static String bigText(long[] data, int from) {
    long words = data[from + 1];
    if (words > FILL_SHOWN) {
      return "/* " + words + " words */";
    }
    // signum 1 and the sign after: a hostile signum shows, it does not throw
    java.math.BigInteger b = new java.math.BigInteger(1, Values.magnitudeBytes(data, from));
    return "\"" + (data[from] < 0 ? b.negate() : b) + "\", signum " + data[from];
  }

  private Constant constant(int index) throws DecodeException {
    if (index < 0 || index >= file.constants().size()) {
      throw fail("constant index " + index + " is out of range");
    }
    return file.constants().get(index);
  }

  private int tableRef(int id) throws DecodeException {
    if (id < 0 || id >= file.tableSize()) {
      throw fail("table index " + id + " is out of range");
    }
    return id;
  }

  private V value(int id) throws DecodeException {
    return id == file.tableSize() ? NULL : new Ref(tableRef(id));
  }

  /** A proxy class as {@code Proxy[Greeter, Counter]}: the interfaces it is made for on load. */
  private static String proxyName(ClassEntry proxy) {
    StringBuilder s = new StringBuilder("Proxy[");
    for (int i = 0; i < proxy.interfaces().size(); i++) {
      s.append(i == 0 ? "" : ", ").append(Names.simple(proxy.interfaces().get(i)));
    }
    return s.append(']').toString();
  }

  private String className(int index) throws DecodeException {
    if (index < 0 || index >= file.classes().size()) {
      throw fail("class index " + index + " is out of range");
    }
    return file.classes().get(index).name();
  }

  private String text(V v) throws DecodeException {
    if (v instanceof Str s) {
      return Names.string(s.value);
    } else if (v instanceof K k && k.c instanceof Constant.Text t) {
      return Names.string(t.value());
    }
    throw fail("expected a string but found " + kind(v));
  }

  private static String arrayLiteral(Object data) {
    int n = Array.getLength(data);
    String type = Names.simple(data.getClass().getName());
    StringBuilder b = new StringBuilder("new ").append(type).append(" {");
    char code = data.getClass().getName().charAt(1);
    int shown = Math.min(n, 8);
    for (int i = 0; i < shown; i++) {
      b.append(i == 0 ? "" : ", ").append(Names.literal(code, bits(Array.get(data, i))));
    }
    if (n > shown) {
      b.append(", ... ").append(n - shown).append(" more");
    }
    return b.append('}').toString();
  }

  private static long bits(Object box) {
    if (box instanceof Boolean z) {
      return z ? 1 : 0;
    } else if (box instanceof Character c) {
      return c;
    } else if (box instanceof Float f) {
      return Float.floatToRawIntBits(f);
    } else if (box instanceof Double d) {
      return Double.doubleToRawLongBits(d);
    }
    return ((Number) box).longValue();
  }

  private void arrayStore(int op, V array, int index, V value) throws DecodeException {
    if (array == TABLE) {
      if (op != AASTORE) {
        throw fail("primitive store into the table");
      }
      if (index < 0 || index > file.tableSize()) {
        throw fail("table index " + index + " is out of range");
      }
      create(index, value);
      return;
    }
    int target = ref(array);
    String type = types.get(target);
    char code =
        switch (op) {
          case IASTORE -> 'I';
          case LASTORE -> 'J';
          case FASTORE -> 'F';
          case DASTORE -> 'D';
          case CASTORE -> 'C';
          case SASTORE -> 'S';
          case BASTORE -> "[Z".equals(type) ? 'Z' : 'B';
          default -> 'L';
        };
    if (code == 'L') {
      sink.element(target, types.get(target), index, refText(value), true, value != NULL);
    } else {
      Num n = num(value);
      sink.element(
          target, types.get(target), index, Names.literal(code, n.bits), false, n.bits != 0);
    }
  }

  private void create(int id, V value) throws DecodeException {
    String type;
    String expr;
    if (value instanceof Made m) {
      type = m.type;
      expr = m.expr;
    } else if (value instanceof K k) {
      if (k.c instanceof Constant.EnumRef e) {
        type = className(e.type());
        expr = Names.simple(type) + "." + e.name();
      } else if (k.c instanceof Constant.TypeRef t) {
        type = "java.lang.Class";
        expr = Names.simple(className(t.type())) + ".class";
      } else if (k.c instanceof Constant.StaticRef r) {
        // a static constant: its class is what the field holds at load, unknown here
        String owner = className(r.type());
        types.put(id, "java.lang.Object");
        sink.global(
            id, owner, r.field(), Names.simple(owner) + "." + r.field() + " /* static constant */");
        return;
      } else if (k.c instanceof Constant.NamedRef n) {
        types.put(id, "java.lang.Object");
        sink.global(
            id, null, n.name(), "global(" + Names.string(n.name()) + ") /* named global */");
        return;
      } else if (k.c instanceof Constant.Text t) {
        type = "java.lang.String";
        expr = Names.string(t.value());
      } else {
        throw fail("stores " + kind(value) + " into the table");
      }
    } else {
      throw fail("stores " + kind(value) + " into the table");
    }
    types.put(id, type);
    sink.create(id, type, expr);
  }

  private void setField(int target, String name, String desc, V value) throws DecodeException {
    if (desc.length() == 1) {
      Num n = num(value);
      sink.field(
          target,
          types.get(target),
          name,
          Names.literal(desc.charAt(0), n.bits),
          false,
          n.bits != 0);
    } else {
      sink.field(target, types.get(target), name, refText(value), true, value != NULL);
    }
  }

  private String refText(V v) throws DecodeException {
    if (v == NULL) {
      return "null";
    } else if (v instanceof Ref r) {
      return "o" + r.id;
    }
    throw fail("expected a table object or null but found " + kind(v));
  }

  private void hook(Constant.Hook h) throws DecodeException {
    String type = className(h.type());
    int[] counts = new int[2];
    String args = describeTape(h.tape(), file.classes().get(h.type()), counts);
    String o = "o" + h.id();
    switch (h.kind()) {
      case SLOT ->
          sink.hook(
              h.id(),
              types.get(h.id()),
              o + ".readObject(" + args + ");" + " // as " + Names.simple(type),
              counts[0],
              counts[1]);
      case EXTERNAL ->
          sink.hook(
              h.id(), types.get(h.id()), o + ".readExternal(" + args + ");", counts[0], counts[1]);
      case RECORD -> {
        types.put(h.id(), type);
        sink.create(h.id(), type, "new " + Names.simple(type) + "(" + args + ")");
        sink.hook(h.id(), type, null, counts[0], counts[1]);
      }
      case RESOLVE -> sink.hook(h.id(), types.get(h.id()), o + " = " + o + ".readResolve();", 0, 0);
    }
  }

  /**
   * Describes a hook's tape: default-field records as {@code name=value} lists, blocks by size,
   * objects by table slot; counts non-default reference and primitive field values.
   */
  private String describeTape(Tape tape, ClassEntry cls, int[] counts) throws DecodeException {
    if (tape == null) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    ByteBuffer data = ByteBuffer.wrap(tape.data());
    int[] items = tape.items();
    List<ClassEntry.FieldEntry> prims = new ArrayList<>();
    List<ClassEntry.FieldEntry> refs = new ArrayList<>();
    for (ClassEntry.FieldEntry f : cls.fields()) {
      (f.primitive() ? prims : refs).add(f);
    }
    try {
      for (int i = 0; i + 1 < items.length; i += 2) {
        int kind = items[i];
        int arg = items[i + 1];
        if (kind == Tape.BLOCK) {
          data.position(data.position() + arg);
          parts.add("data(" + arg + " bytes)");
        } else if (kind == Tape.OBJECT) {
          parts.add(arg < 0 ? "null" : "o" + arg);
        } else if (kind == Tape.FIELDS) {
          List<String> fs = new ArrayList<>();
          for (ClassEntry.FieldEntry f : prims) {
            char c = f.descriptor().charAt(0);
            long bits =
                switch (c) {
                  case 'Z', 'B' -> data.get();
                  case 'C' -> data.getChar();
                  case 'S' -> data.getShort();
                  case 'I', 'F' -> data.getInt();
                  default -> data.getLong();
                };
            if (c == 'F') {
              bits &= 0xFFFFFFFFL;
            }
            counts[1] += bits != 0 ? 1 : 0;
            fs.add(f.name() + "=" + Names.literal(c, bits));
          }
          for (int r = 0; r < arg; r++) {
            i += 2;
            if (i + 1 >= items.length || items[i] != Tape.OBJECT) {
              throw fail("a field record lacks its reference values");
            }
            int id = items[i + 1];
            counts[0] += id >= 0 ? 1 : 0;
            String name = r < refs.size() ? refs.get(r).name() : "field" + (prims.size() + r);
            fs.add(name + "=" + (id < 0 ? "null" : "o" + id));
          }
          parts.add("fields{" + String.join(", ", fs) + "}");
        } else {
          throw fail("tape item kind " + kind + " is unknown");
        }
      }
    } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
      throw fail("a hook's data is shorter than its records say");
    }
    if (parts.size() > MAX_PARTS) {
      int more = parts.size() - MAX_PARTS;
      parts = new ArrayList<>(parts.subList(0, MAX_PARTS));
      parts.add("... " + more + " more");
    }
    return String.join(", ", parts);
  }

  private static String newarrayType(int operand) {
    return switch (operand) {
      case T_BOOLEAN -> "Z";
      case T_BYTE -> "B";
      case T_CHAR -> "C";
      case T_SHORT -> "S";
      case T_INT -> "I";
      case T_LONG -> "J";
      case T_FLOAT -> "F";
      default -> "D";
    };
  }

  private DecodeException fail(String problem) {
    return new DecodeException(where + ": " + problem);
  }
}
