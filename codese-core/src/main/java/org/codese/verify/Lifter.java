package org.codese.verify;

import static org.codese.verify.Opcodes.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.program.TypeNames;

/**
 * Reads a chunk's instructions back into {@link Stmt statements}: the chunk must be exactly a
 * sequence of the statement shapes the emitter writes, ending in {@code return}. Anything else,
 * even instructions the whitelist admits one by one, is rejected, so that every value a statement
 * stores, every object it writes to and every constant it reads is known by index before the code
 * runs.
 *
 * <p>Locals: 0 the table, 1 the constants, 2 the target, 3 a loop's id array, 4 its counter, 5 and
 * up its other data, each loaded from a constant just before the loop.
 */
final class Lifter {
  /** A chunk that is not a sequence of statements; {@code at} is the instruction index. */
  static final class NotAStatement extends Exception {
    private static final long serialVersionUID = 1L;
    final int at;

    NotAStatement(int at, String what) {
      super(what, null, false, false);
      this.at = at;
    }
  }

  static final int TABLE = Grammar.LOCAL_TABLE;
  static final int CONSTANTS = Grammar.LOCAL_CONSTANTS;
  static final int TARGET = Grammar.LOCAL_TARGET;
  static final int IDS = Grammar.LOCAL_IDS;
  static final int INDEX = Grammar.LOCAL_INDEX;
  static final int FIRST_DATA = Grammar.LOCAL_FIRST_DATA;

  private static final String CONSTRUCTOR = "java/lang/reflect/Constructor";

  /** The type of an allocator loaded as loop data, which has no cast. */
  private static final String OBJECT = "java/lang/Object";

  private static final String STRING = "java/lang/String";
  private static final String NEW_INSTANCE = "([Ljava/lang/Object;)Ljava/lang/Object;";
  private static final Map<String, Character> BOXES =
      Map.of(
          "java/lang/Integer",
          'I',
          "java/lang/Long",
          'J',
          "java/lang/Boolean",
          'Z',
          "java/lang/Byte",
          'B',
          "java/lang/Character",
          'C',
          "java/lang/Short",
          'S',
          "java/lang/Float",
          'F',
          "java/lang/Double",
          'D');
  private static final Map<String, Character> SETTERS =
      Map.of(
          "set",
          'L',
          "setBoolean",
          'Z',
          "setByte",
          'B',
          "setChar",
          'C',
          "setShort",
          'S',
          "setInt",
          'I',
          "setLong",
          'J',
          "setFloat",
          'F',
          "setDouble",
          'D');
  private static final Set<String> PRIMITIVE_ARRAYS =
      Set.of("[Z", "[B", "[C", "[S", "[I", "[J", "[F", "[D");

  private final List<Insn> code;
  private final List<String> names;
  private final Map<String, Integer> indices;
  private int[] out = new int[64];
  private int size;

  /** Locals 3 and up loaded since the last statement: local -> {constant, cast}. */
  private final Map<Integer, Object[]> loopData = new HashMap<>();

  private int at;

  /**
   * What of Codese the code may call, by format version: whether allocations call {@code
   * Grammar.ALLOCATE_METHOD} rather than {@code Constructor.newInstance} ({@link
   * RuntimeContract#allocates}), and the owners of both entries.
   */
  private final RuntimeContract contract;

  /** {@code contract.setterOwner()}: the class of the setter constants the code may cast to. */
  private final String setterOwner;

  /** {@code contract.allocates()}. */
  private final boolean allocate;

  private Lifter(
      List<Insn> code, List<String> names, Map<String, Integer> indices, RuntimeContract contract) {
    this.code = code;
    this.names = names;
    this.indices = indices;
    this.contract = contract;
    this.allocate = contract.allocates();
    this.setterOwner = contract.setterOwner();
  }

  /**
   * @param code a chunk's instructions, labels included
   * @param names the class's names so far; the names the statements refer to are added
   * @param indices the index of each of {@code names}, kept with it
   * @param contract the runtime contract of the snapshot's format version
   * @return its statements, in order, as {@link Stmt} codes
   * @throws NotAStatement if the chunk is not a sequence of grammar statements
   */
  static int[] lift(
      List<Insn> code, List<String> names, Map<String, Integer> indices, RuntimeContract contract)
      throws NotAStatement {
    return new Lifter(code, names, indices, contract).run();
  }

  private int[] run() throws NotAStatement {
    while (!(peek(RETURN) && at == code.size() - 1)) {
      statement();
    }
    if (!loopData.isEmpty()) {
      throw new NotAStatement(at, "loads loop data but no loop follows");
    }
    return java.util.Arrays.copyOf(out, size);
  }

  private void emit(int... values) {
    if (size + values.length > out.length) {
      out = java.util.Arrays.copyOf(out, Math.max(out.length * 2, size + values.length));
    }
    System.arraycopy(values, 0, out, size, values.length);
    size += values.length;
  }

  /**
   * @return the index of {@code name} among the class's names, or -1 for {@code null}
   */
  private int name(String name) {
    if (name == null) {
      return -1;
    }
    Integer i = indices.get(name);
    if (i == null) {
      names.add(name);
      i = names.size() - 1;
      indices.put(name, i);
    }
    return i;
  }

  private void statement() throws NotAStatement {
    int start = at;
    if (at >= code.size()) {
      throw new NotAStatement(code.size() - 1, "ends without return");
    }
    if (!loopData.isEmpty() && !peek(ALOAD, CONSTANTS) && !peek(ICONST_0)) {
      throw new NotAStatement(at, "loads loop data but no loop follows");
    }
    if (peek(ALOAD, TABLE)) {
      tableStatement();
    } else if (peek(ALOAD, CONSTANTS)) {
      constantStatement();
    } else if (peek(ALOAD, TARGET)) {
      targetStatement();
    } else if (peek(ICONST_0)) {
      loop();
    } else {
      throw new NotAStatement(start, "does not start a statement of the restore grammar");
    }
  }

  /** {@code table[id] = value}, {@code target = table[id]} or the finish program. */
  private void tableStatement() throws NotAStatement {
    expect(ALOAD, TABLE);
    if (peek(ALOAD, CONSTANTS)) {
      at++;
      int program = intPush();
      Insn call = next(INVOKESTATIC);
      if (!call.owner().equals(contract.stepsOwner())
          || !call.name().equals(Grammar.STEPS_METHOD)
          || !call.descriptor().equals(Grammar.STEPS_DESCRIPTOR)) {
        throw new NotAStatement(at - 1, "is not the finish-program call");
      }
      emit(Stmt.RUN_STEPS, program);
      return;
    }
    int id = intPush();
    if (peek(AALOAD)) {
      at++;
      String cast = peek(CHECKCAST) ? code.get(at++).owner() : null;
      expect(ASTORE, TARGET);
      emit(Stmt.SELECT, id, name(cast));
      return;
    }
    value(id);
    expect(AASTORE);
  }

  /** Reads the value a store puts into {@code table[id]} and emits the store. */
  private void value(int id) throws NotAStatement {
    int start = at;
    if (peek(ALOAD, CONSTANTS)) {
      at++;
      int k = intPush();
      expect(AALOAD);
      if (peek(AASTORE)) {
        emit(Stmt.STORE_CONSTANT, id, k);
        return;
      }
      if (allocate && peek(INVOKESTATIC)) {
        emit(allocation() ? Stmt.STORE_COLLECTION : Stmt.STORE_ALLOC, id, k);
        return;
      }
      String cast = next(CHECKCAST).owner();
      if (cast.equals(CONSTRUCTOR) && !allocate) {
        expect(ACONST_NULL);
        call(INVOKEVIRTUAL, CONSTRUCTOR, "newInstance", NEW_INSTANCE);
        emit(Stmt.STORE_ALLOC, id, k);
        return;
      } else if (cast.equals("java/lang/Class")) {
        int length = length();
        call(
            INVOKESTATIC,
            "java/lang/reflect/Array",
            "newInstance",
            "(Ljava/lang/Class;I)Ljava/lang/Object;");
        emit(Stmt.STORE_ARRAY, id, 'L', k, length);
        return;
      } else if (PRIMITIVE_ARRAYS.contains(cast)) {
        call(INVOKEVIRTUAL, cast, "clone", "()Ljava/lang/Object;");
        emit(Stmt.STORE_CLONE, id, k, name(cast));
        return;
      }
      throw new NotAStatement(start, "is not a value the restore grammar stores");
    } else if (peek(NEW)) {
      newValue(id);
      return;
    } else if (intPushNext() && (peekAt(at + 1, NEWARRAY) || peekAt(at + 1, ANEWARRAY))) {
      int length = length();
      Insn make = code.get(at++);
      if (make.opcode() == NEWARRAY) {
        emit(Stmt.STORE_ARRAY, id, primitiveOfArrayCode(make.operand(), start), -1, length);
        return;
      } else if (!"java/lang/Object".equals(make.owner())) {
        throw new NotAStatement(start, "creates an array of a class other than Object");
      }
      emit(Stmt.STORE_ARRAY, id, 'L', -1, length);
      return;
    }
    boolean narrow = intPushNext();
    int value = narrow ? intValue(code.get(at)) : 0;
    char type = primitivePush();
    Insn call = next(INVOKESTATIC);
    Character box = BOXES.get(call.owner());
    if (box == null
        || stackKind(box) != type
        || !call.name().equals("valueOf")
        || !call.descriptor().equals("(" + box + ")L" + call.owner() + ";")) {
      throw new NotAStatement(start, "is not a box's valueOf");
    }
    if (narrow && !fits(box, value)) {
      // the JVM passes the int unchanged, and the boxes' caches index arrays with it
      throw new NotAStatement(
          start,
          "passes "
              + value
              + " to "
              + call.owner()
              + ".valueOf, which is outside its type's range");
    }
    emit(Stmt.STORE_BOX, id, box, 1);
  }

  /** {@code new String(...)} or {@code new Box(...)}. */
  private void newValue(int id) throws NotAStatement {
    int start = at;
    String owner = next(NEW).owner();
    expect(DUP);
    if (owner.equals(STRING)) {
      String literal = null;
      int text = -1;
      if (peek(LDC) && code.get(at).constant() instanceof String s) {
        literal = s;
        at++;
      } else {
        expect(ALOAD, CONSTANTS);
        text = intPush();
        expect(AALOAD);
        if (!STRING.equals(next(CHECKCAST).owner())) {
          throw new NotAStatement(at - 1, "casts a text constant to another class than String");
        }
      }
      call(INVOKESPECIAL, STRING, "<init>", "(Ljava/lang/String;)V");
      emit(Stmt.STORE_STRING, id, text);
      return;
    }
    Character box = BOXES.get(owner);
    if (box == null) {
      throw new NotAStatement(start, "creates an object of a class other than String and boxes");
    }
    if (primitivePush() != stackKind(box)) {
      throw new NotAStatement(at - 1, "pushes a value of another kind than the box holds");
    }
    call(INVOKESPECIAL, owner, "<init>", "(" + box + ")V");
    emit(Stmt.STORE_BOX, id, box, 0);
  }

  /** {@code field.setX(target, value)}, or a constant loaded as loop data. */
  private void constantStatement() throws NotAStatement {
    int start = at;
    expect(ALOAD, CONSTANTS);
    int k = intPush();
    expect(AALOAD);
    // an allocator is loop data as it is, every other constant through its cast
    String cast = allocate && peek(ASTORE) ? OBJECT : next(CHECKCAST).owner();
    if (peek(ASTORE)) {
      int local = code.get(at++).operand();
      if (local < IDS || local == INDEX || loopData.containsKey(local)) {
        throw new NotAStatement(at - 1, "loads loop data into a local the grammar does not");
      }
      loopData.put(local, new Object[] {k, cast});
      return;
    }
    if (!cast.equals(setterOwner) || !loopData.isEmpty()) {
      throw new NotAStatement(start, "is not a field set through a Field constant");
    }
    expect(ALOAD, TARGET);
    long value = operand();
    char setter = setter(type(value));
    emit(Stmt.SET_FIELD, k, setter, ref(value));
  }

  /** Checks the {@code Field.setX} call that ends a set; returns its value kind. */
  private char setter(char pushed) throws NotAStatement {
    Insn call = next(INVOKEVIRTUAL);
    Character kind = SETTERS.get(call.name());
    if (!setterOwner.equals(call.owner())
        || kind == null
        || !call.descriptor()
            .equals(
                "(Ljava/lang/Object;"
                    + (kind == 'L' ? "Ljava/lang/Object;" : String.valueOf(kind))
                    + ")V")
        || stackKind(kind) != stackKind(pushed)) {
      throw new NotAStatement(at - 1, "is not the Field setter for the value pushed");
    }
    return kind;
  }

  /** {@code target.f = value} or {@code target[i] = value}. */
  private void targetStatement() throws NotAStatement {
    int start = at;
    expect(ALOAD, TARGET);
    if (!peek(ALOAD, TABLE) && intPushNext() && !peekAt(at + 1, PUTFIELD)) {
      int index = intPush();
      long value = operand();
      Insn store = code.get(at++);
      char kind = storeKind(store.opcode());
      if (kind == 0 || stackKind(kind) != type(value)) {
        throw new NotAStatement(at - 1, "is not the array store for the value pushed");
      }
      emit(Stmt.PUT_ELEMENT, index, kind, ref(value));
      return;
    }
    long value = operand();
    String cast = type(value) == 'L' && peek(CHECKCAST) ? code.get(at++).owner() : null;
    Insn put = next(PUTFIELD);
    char field = put.descriptor().length() == 1 ? put.descriptor().charAt(0) : 'L';
    if (stackKind(field) != type(value)) {
      throw new NotAStatement(start, "puts a value of another kind than the field holds");
    }
    emit(
        Stmt.PUT_FIELD,
        name(put.owner()),
        name(put.name()),
        name(put.descriptor()),
        name(cast),
        type(value),
        ref(value));
  }

  /**
   * {@code table[ref]}, or a primitive constant: returns the value's stack kind in the high int and
   * the table id (-1 for primitives) in the low int.
   */
  private long operand() throws NotAStatement {
    if (peek(ALOAD, TABLE)) {
      at++;
      int ref = intPush();
      expect(AALOAD);
      return ((long) 'L' << 32) | (ref & 0xFFFFFFFFL);
    }
    return ((long) primitivePush() << 32) | 0xFFFFFFFFL;
  }

  private static char type(long operand) {
    return (char) (operand >>> 32);
  }

  private static int ref(long operand) {
    return (int) operand;
  }

  /**
   * A counted loop, with its data loaded into locals just before: {@code i = 0; goto test; top:
   * body; i++; test: if (i < ids.length) goto top}.
   */
  private void loop() throws NotAStatement {
    int start = at;
    expect(ICONST_0);
    expect(ISTORE, INDEX);
    Object test = next(GOTO).label();
    Object top = next(Insn.LABEL).label();
    Object[] ids = loopData.get(IDS);
    if (ids == null || !"[I".equals(ids[1])) {
      throw new NotAStatement(start, "a loop without an int[] id array in local " + IDS);
    }
    int idsConstant = (int) ids[0];
    int[] body;
    if (peek(ALOAD, TARGET)) {
      body = elementLoop(idsConstant);
    } else {
      expect(ALOAD, TABLE);
      expect(ALOAD, IDS);
      expect(ILOAD, INDEX);
      expect(IALOAD);
      if (peek(AALOAD)) {
        body = clusterLoop(idsConstant);
      } else if (peek(NEW) && STRING.equals(code.get(at).owner())) {
        body = stringLoop(idsConstant);
      } else if (peek(NEW) || primitiveData()) {
        body = boxLoop(idsConstant);
      } else {
        body = allocLoop(idsConstant);
      }
    }
    Insn inc = next(IINC);
    if (inc.operand() != INDEX * 65536 + 1) {
      throw new NotAStatement(at - 1, "does not count the loop's index up by one");
    }
    if (!java.util.Objects.equals(next(Insn.LABEL).label(), test)) {
      throw new NotAStatement(at - 1, "the loop's first jump does not reach its test");
    }
    expect(ILOAD, INDEX);
    expect(ALOAD, IDS);
    expect(ARRAYLENGTH);
    if (!java.util.Objects.equals(next(IF_ICMPLT).label(), top)) {
      throw new NotAStatement(at - 1, "the loop's test does not jump back to its top");
    }
    loopData.clear();
    emit(body);
  }

  private int[] elementLoop(int ids) throws NotAStatement {
    if (loopData.size() != 1) {
      throw new NotAStatement(at, "an element loop loads data it does not use");
    }
    expect(ALOAD, TARGET);
    expect(ILOAD, INDEX);
    expect(ALOAD, TABLE);
    expect(ALOAD, IDS);
    expect(ILOAD, INDEX);
    expect(IALOAD);
    expect(AALOAD);
    expect(AASTORE);
    return new int[] {Stmt.ELEMENT_LOOP, ids};
  }

  private int[] allocLoop(int ids) throws NotAStatement {
    int data;
    int op = Stmt.ALLOC_LOOP;
    if (allocate) {
      data = dataLocal(OBJECT);
      if (allocation()) {
        op = Stmt.COLLECTION_LOOP;
      }
    } else {
      data = dataLocal(CONSTRUCTOR);
      expect(ACONST_NULL);
      call(INVOKEVIRTUAL, CONSTRUCTOR, "newInstance", NEW_INSTANCE);
    }
    expect(AASTORE);
    requireUsed(1);
    return new int[] {op, ids, data};
  }

  /**
   * The call that allocates: {@code allocate(allocator)} of the contract's allocation owner, or
   * from format version {@code Grammar.COLLECTION_VERSION} on its {@code newCollection(maker)}.
   *
   * @return whether it is the collection entry
   */
  private boolean allocation() throws NotAStatement {
    boolean collection =
        contract.separatesCollections()
            && peek(INVOKESTATIC)
            && Grammar.NEW_COLLECTION_METHOD.equals(code.get(at).name());
    call(
        INVOKESTATIC,
        contract.allocateOwner(),
        collection ? Grammar.NEW_COLLECTION_METHOD : Grammar.ALLOCATE_METHOD,
        Grammar.ALLOCATE_DESCRIPTOR);
    return collection;
  }

  /** Called at a {@code new java/lang/String}, which {@link #loop} has seen. */
  private int[] stringLoop(int ids) throws NotAStatement {
    at++;
    expect(DUP);
    int texts = dataLocal("[Ljava/lang/String;");
    expect(ILOAD, INDEX);
    expect(AALOAD);
    call(INVOKESPECIAL, STRING, "<init>", "(Ljava/lang/String;)V");
    expect(AASTORE);
    requireUsed(1);
    return new int[] {Stmt.STRING_LOOP, ids, texts};
  }

  /**
   * @return whether the next instruction loads loop data that is a primitive array
   */
  private boolean primitiveData() {
    Object[] data = peek(ALOAD) ? loopData.get(code.get(at).operand()) : null;
    return data != null && PRIMITIVE_ARRAYS.contains(data[1]);
  }

  /** {@code new Box(values[i])} or {@code Box.valueOf(values[i])}, stored into the table. */
  private int[] boxLoop(int ids) throws NotAStatement {
    String made = null;
    if (peek(NEW)) {
      made = code.get(at++).owner();
      expect(DUP);
    }
    if (!primitiveData()) {
      throw new NotAStatement(at, "a loop that boxes values from no primitive array");
    }
    String array = (String) loopData.get(code.get(at).operand())[1];
    char type = array.charAt(1);
    int values = dataLocal(array);
    expect(ILOAD, INDEX);
    expect(Grammar.arrayLoadOpcode(type));
    Insn call = next(made == null ? INVOKESTATIC : INVOKESPECIAL);
    Character box = BOXES.get(call.owner());
    String expected = made == null ? "(" + type + ")L" + call.owner() + ";" : "(" + type + ")V";
    if (box == null
        || box != type
        || (made != null && !made.equals(call.owner()))
        || !call.name().equals(made == null ? "valueOf" : "<init>")
        || !call.descriptor().equals(expected)) {
      throw new NotAStatement(
          at - 1, "is not the constructor or valueOf of the box of the" + " values loaded");
    }
    expect(AASTORE);
    requireUsed(1);
    return new int[] {Stmt.BOX_LOOP, ids, values, type, made == null ? 1 : 0};
  }

  private int[] clusterLoop(int ids) throws NotAStatement {
    expect(AALOAD);
    String owner = peek(CHECKCAST) ? code.get(at++).owner() : null;
    expect(ASTORE, TARGET);
    List<int[]> columns = new ArrayList<>();
    int used = 0;
    while (!peek(IINC)) {
      int[] col = column(owner);
      columns.add(col);
      used += col[2] >= 0 ? 2 : 1;
    }
    requireUsed(used);
    int[] loop = new int[4 + columns.size() * Stmt.COLUMN_SIZE];
    loop[0] = Stmt.CLUSTER_LOOP;
    loop[1] = name(owner);
    loop[2] = ids;
    loop[3] = columns.size();
    for (int c = 0; c < columns.size(); c++) {
      System.arraycopy(columns.get(c), 0, loop, 4 + c * Stmt.COLUMN_SIZE, Stmt.COLUMN_SIZE);
    }
    return loop;
  }

  /**
   * One column, {@code [field] target values[i] (putfield | Field.setX)}, as {@code t values field
   * name descriptor cast}.
   */
  private int[] column(String owner) throws NotAStatement {
    int field = -1;
    if (peek(ALOAD) && code.get(at).operand() != TARGET) {
      field = dataLocal(setterOwner);
    }
    expect(ALOAD, TARGET);
    char type;
    int values;
    String cast = null;
    if (peek(ALOAD, TABLE)) {
      at++;
      values = dataLocal("[I");
      expect(ILOAD, INDEX);
      expect(IALOAD);
      expect(AALOAD);
      if (field < 0 && peek(CHECKCAST)) {
        cast = code.get(at++).owner();
      }
      type = 'L';
    } else {
      int local = at;
      Object[] data = loopData.get(peek(ALOAD) ? code.get(at).operand() : -1);
      if (data == null || !PRIMITIVE_ARRAYS.contains(data[1])) {
        throw new NotAStatement(local, "a column that does not read a primitive array");
      }
      type = ((String) data[1]).charAt(1);
      values = dataLocal((String) data[1]);
      expect(ILOAD, INDEX);
      Insn load = code.get(at++);
      if (load.opcode() != Grammar.arrayLoadOpcode(type)) {
        throw new NotAStatement(at - 1, "reads a column with the wrong array load");
      }
    }
    if (field >= 0) {
      setter(type);
      return new int[] {type, values, field, -1, -1, -1};
    }
    Insn put = next(PUTFIELD);
    if (owner == null || !owner.equals(put.owner())) {
      throw new NotAStatement(at - 1, "a column stores into a class the loop did not cast to");
    }
    return new int[] {type, values, -1, name(put.name()), name(put.descriptor()), name(cast)};
  }

  /** Reads {@code aload local} of loop data cast to {@code cast}; returns its constant. */
  private int dataLocal(String cast) throws NotAStatement {
    if (!peek(ALOAD)) {
      throw new NotAStatement(at, "expected a load of loop data");
    }
    Object[] data = loopData.get(code.get(at).operand());
    if (code.get(at).operand() < FIRST_DATA || data == null || !cast.equals(data[1])) {
      throw new NotAStatement(at, "reads a local that holds no loop data of type " + cast);
    }
    at++;
    return (int) data[0];
  }

  private void requireUsed(int dataLocals) throws NotAStatement {
    if (loopData.size() != dataLocals + 1) {
      throw new NotAStatement(at, "a loop loads data it does not use");
    }
  }

  /** The kind a value of {@code type} has on the operand stack: booleans to shorts are ints. */
  private static char stackKind(char type) {
    return "ZBCS".indexOf(type) >= 0 ? 'I' : type;
  }

  private static char storeKind(int opcode) {
    return switch (opcode) {
      case BASTORE -> 'B';
      case CASTORE -> 'C';
      case SASTORE -> 'S';
      case IASTORE -> 'I';
      case LASTORE -> 'J';
      case FASTORE -> 'F';
      case DASTORE -> 'D';
      case AASTORE -> 'L';
      default -> 0;
    };
  }

  private char primitiveOfArrayCode(int code, int where) throws NotAStatement {
    return switch (code) {
      case 4 -> 'Z';
      case 5 -> 'C';
      case 6 -> 'F';
      case 7 -> 'D';
      case 8 -> 'B';
      case 9 -> 'S';
      case 10 -> 'I';
      case 11 -> 'J';
      default -> throw new NotAStatement(where, "an unknown primitive array type " + code);
    };
  }

  /** Reads a primitive constant push; returns its kind ({@code 'I'} for all int pushes). */
  private char primitivePush() throws NotAStatement {
    Insn i = code.get(at);
    char kind =
        switch (i.opcode()) {
          case ICONST_M1,
              ICONST_0,
              ICONST_1,
              ICONST_2,
              ICONST_3,
              ICONST_4,
              ICONST_5,
              BIPUSH,
              SIPUSH ->
              'I';
          case LCONST_0, LCONST_1 -> 'J';
          case FCONST_0, FCONST_1, FCONST_2 -> 'F';
          case DCONST_0, DCONST_1 -> 'D';
          case LDC ->
              i.constant() instanceof Integer
                  ? 'I'
                  : i.constant() instanceof Long
                      ? 'J'
                      : i.constant() instanceof Float
                          ? 'F'
                          : i.constant() instanceof Double ? 'D' : 0;
          default -> 0;
        };
    if (kind == 0) {
      throw new NotAStatement(at, "expected a primitive constant");
    }
    at++;
    return kind;
  }

  private boolean intPushNext() {
    if (at >= code.size()) {
      return false;
    }
    Insn i = code.get(at);
    int op = i.opcode();
    return (op >= ICONST_M1 && op <= ICONST_5)
        || op == BIPUSH
        || op == SIPUSH
        || (op == LDC && i.constant() instanceof Integer);
  }

  /** Reads an array length: a non-negative int constant. */
  private int length() throws NotAStatement {
    int length = intPush();
    if (length < 0) {
      throw new NotAStatement(at - 1, "creates an array of negative length " + length);
    }
    return length;
  }

  /**
   * @return whether {@code v} is a value of primitive kind {@code type} ({@code 'I'} for all)
   */
  private static boolean fits(char type, int v) {
    return switch (type) {
      case 'Z' -> v == 0 || v == 1;
      case 'B' -> v == (byte) v;
      case 'C' -> v == (char) v;
      case 'S' -> v == (short) v;
      default -> true;
    };
  }

  private static int intValue(Insn i) {
    int op = i.opcode();
    if (op >= ICONST_M1 && op <= ICONST_5) {
      return op - ICONST_0;
    }
    return op == LDC ? (Integer) i.constant() : i.operand();
  }

  /** Reads an int constant push and returns its value. */
  private int intPush() throws NotAStatement {
    if (!intPushNext()) {
      throw new NotAStatement(at, "expected an int constant");
    }
    return intValue(code.get(at++));
  }

  private void call(int opcode, String owner, String name, String descriptor) throws NotAStatement {
    Insn i = next(opcode);
    if (!owner.equals(i.owner()) || !name.equals(i.name()) || !descriptor.equals(i.descriptor())) {
      throw new NotAStatement(
          at - 1,
          "expected a call of "
              + TypeNames.javaMethod(TypeNames.javaName(owner) + "." + name, descriptor));
    }
  }

  private Insn next(int opcode) throws NotAStatement {
    if (!peek(opcode)) {
      throw new NotAStatement(
          Math.min(at, code.size() - 1),
          "expected " + (opcode == Insn.LABEL ? "a loop label" : Opcodes.name(opcode)));
    }
    return code.get(at++);
  }

  private void expect(int opcode) throws NotAStatement {
    next(opcode);
  }

  private void expect(int opcode, int operand) throws NotAStatement {
    if (!peek(opcode, operand)) {
      throw new NotAStatement(
          Math.min(at, code.size() - 1), "expected " + Opcodes.name(opcode) + " " + operand);
    }
    at++;
  }

  private boolean peek(int opcode) {
    return peekAt(at, opcode);
  }

  private boolean peekAt(int index, int opcode) {
    return index < code.size() && code.get(index).opcode() == opcode;
  }

  private boolean peek(int opcode, int operand) {
    return peek(opcode) && code.get(at).operand() == operand;
  }
}
