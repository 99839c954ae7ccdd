package org.codese.fuzz;

import static org.objectweb.asm.Opcodes.*;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.ClassEntry.FieldEntry;
import org.codese.program.Constant;
import org.codese.program.Factories;
import org.codese.program.Grammar;
import org.codese.program.Phase;
import org.codese.program.Placement;
import org.codese.program.RuntimeContract;
import org.codese.program.Tape;
import org.codese.samples.SampleGraphs;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The structure fuzzer's mutator: decodes a seed snapshot with the format's own types ({@link
 * SnapshotFile}, {@link ClassEntry}, {@link Constant}, {@link Tape}), changes its structure as the
 * {@link Choices} say, and encodes it again with {@link SnapshotFile#bytes()}, so every checksum is
 * valid and every input reaches the loader's checks. Mutations are of two sorts:
 *
 * <ul>
 *   <li>atomic: class entries (rename, add/remove/retype fields, toggle and change the suid),
 *       constants (kind, class index, allocator mode, hook id/kind/class/tape, enum name, setter
 *       field, text, arrays, finish programs), placements (phase, host), the header and the items,
 *       and the generated code through ASM (constant operands, table ids, casts, field owners;
 *       statements duplicated, deleted, moved; grammar-shaped statements inserted; class files
 *       removed, duplicated, reordered);
 *   <li>compound ones that build what issue 15 describes in one step, with random parts: a write
 *       into an object the restore did not create (a cached box, an interned literal, an enum
 *       constant, a class descriptor) through a SLOT hook, a Setter or {@code putfield}; an
 *       allocator of an odd class (not Serializable, abstract, primitive, array, JDK internals); a
 *       class entry naming a canary with a suid; {@code checkcast} to a class no entry names; a
 *       loop over fresh ids that allocates in its body; a flood of classes; huge {@code max_stack}.
 * </ul>
 *
 * Seeds are decoded once; each mutation works on copies.
 */
final class StructureMutator {
  /** A seed: a valid snapshot, decoded. */
  record Seed(String name, SnapshotFile file) {}

  /** A mutated snapshot, what was done to it, and the class names its entries hold. */
  record Mutant(String seed, byte[] bytes, List<String> log, Set<String> classNames) {}

  private static final List<String> DESCRIPTORS =
      List.of(
          "Z",
          "B",
          "C",
          "S",
          "I",
          "J",
          "F",
          "D",
          "Ljava/lang/Object;",
          "Ljava/lang/String;",
          "[B",
          "[I",
          "Ljava/util/List;");
  private static final List<String> ODD_CLASSES =
      List.of(
          "java.lang.Runtime",
          "java.util.Timer",
          "java.util.logging.FileHandler",
          StructureSeeds.CtorCanary.class.getName(),
          StructureSeeds.NonSerial.class.getName(),
          StructureSeeds.HashCanary.class.getName(),
          StructureSeeds.CompareCanary.class.getName(),
          StructureSeeds.INIT_CANARY_PLAIN,
          StructureSeeds.INIT_CANARY,
          "java.lang.ProcessBuilder",
          "java.net.URLClassLoader",
          "sun.misc.Unsafe",
          "jdk.internal.misc.Unsafe",
          "int",
          "void",
          "[I",
          "[Ljava.lang.Object;",
          "java.lang.Runnable",
          "java.util.AbstractList",
          "java.lang.Number",
          "java.lang.Thread",
          StructureSeeds.NonSerRecord.class.getName(),
          "org.codese.load.HookCall",
          "java.lang.String",
          "java.lang.Boolean",
          "java.lang.Integer",
          "java.lang.Class",
          "java.lang.Enum",
          "java.io.ObjectStreamClass",
          "java.util.concurrent.TimeUnit",
          StructureSeeds.CanaryEnum.class.getName(),
          "java.lang.Object");
  private static final List<String> DESCRIPTOR_TARGETS =
      List.of(
          StructureSeeds.NonSerial.class.getName(),
          "java.util.ArrayList",
          StructureSeeds.Point.class.getName(),
          StructureSeeds.CanaryEnum.class.getName(),
          "java.lang.String",
          "java.lang.Integer",
          "java.util.concurrent.TimeUnit");

  private final List<Seed> seeds;
  private final ClassLoader loader;
  private final List<String> enumNames = new ArrayList<>();
  private final List<String> fieldNames;
  private final Map<String, List<FieldEntry>> realFields = new HashMap<>();
  private final Map<String, Long> suids = new HashMap<>();

  StructureMutator(List<Seed> seeds, ClassLoader loader) {
    this.seeds = seeds;
    this.loader = loader;
    for (TimeUnit u : TimeUnit.values()) {
      enumNames.add(u.name());
    }
    for (SampleGraphs.Category c : SampleGraphs.Category.values()) {
      enumNames.add(c.name());
    }
    enumNames.addAll(List.of("A", "B", "RED", "", "nope", "$VALUES"));
    Set<String> names =
        new LinkedHashSet<>(
            List.of(
                "value",
                "hash",
                "coder",
                "hashIsZero",
                "name",
                "ordinal",
                "scale",
                "size",
                "elementData",
                "modCount",
                "threshold",
                "loadFactor",
                "code",
                "label",
                "hits",
                "serializable",
                "externalizable",
                "suid",
                "cons",
                "fields",
                "x",
                "y",
                "a",
                "b",
                "s",
                "ref",
                "command",
                "override",
                "queue",
                "comparator",
                "table"));
    for (String c : StructureSeeds.CLASS_NAMES) {
      for (FieldEntry f : realFields(c)) {
        names.add(f.name());
      }
    }
    fieldNames = List.copyOf(names);
  }

  /**
   * @return the seeds
   */
  List<Seed> seeds() {
    return seeds;
  }

  /** Applies the mutations the choices describe to one seed. */
  Mutant mutate(Choices c) {
    Seed seed = seeds.get(c.below(seeds.size()));
    Draft d = new Draft(seed.file());
    List<String> log = new ArrayList<>();
    if (c.data().length > 0) {
      int n = 1 + c.below(3) + (c.oneIn(3) ? c.below(6) : 0);
      for (int i = 0; i < n; i++) {
        try {
          mutateOnce(c, d, log);
        } catch (RuntimeException e) {
          // a mutation that does not fit this draft (an empty list, an odd class file): skipped
          log.add("(skipped: " + e + ")");
        }
      }
    }
    byte[] out = d.encode();
    if (c.oneIn(60)) {
      int flips = 1 + c.below(4);
      out = out.clone();
      for (int i = 0; i < flips; i++) {
        int at = 6 + c.below(Math.max(1, out.length - 10));
        out[at] ^= (byte) (1 + c.below(255));
      }
      out = FuzzSupport.fixedSnapshot(out);
      log.add("flipped " + flips + " bytes, checksums recomputed");
    }
    return new Mutant(seed.name(), out, log, d.classNames());
  }

  private void mutateOnce(Choices c, Draft d, List<String> log) {
    int w = c.below(100);
    if (w < 7) {
      writeIntoPreexisting(c, d, log);
    } else if (w < 11) {
      allocateOdd(c, d, log);
    } else if (w < 15) {
      renameToOdd(c, d, log);
    } else if (w < 18) {
      classInit(c, d, log);
    } else if (w < 19) {
      loopAmplify(c, d, log);
    } else if (w < 20) {
      classFlood(c, d, log);
    } else if (w < 21) {
      hugeMaxs(c, d, log);
    } else if (w < 24) {
      checkcastTo(c, d, log);
    } else if (w < 28) {
      finishSteps(c, d, log);
    } else if (w < 36) {
      classEntry(c, d, log);
    } else if (w < 50) {
      constant(c, d, log);
    } else if (w < 54) {
      placement(c, d, log);
    } else if (w < 57) {
      header(c, d, log);
    } else if (w < 69) {
      operand(c, d, log);
    } else if (w < 80) {
      statement(c, d, log);
    } else if (w < 93) {
      insertStatement(c, d, log);
    } else {
      classFiles(c, d, log);
    }
  }

  // ---- compound mutations ----

  /** A write into an object the restore reaches without allocating it. */
  private void writeIntoPreexisting(Choices c, Draft d, List<String> log) {
    int kind = c.below(9);
    String cls;
    InsnList value;
    String what;
    switch (kind) {
      case 0 -> {
        boolean v = c.bool();
        cls = "java.lang.Boolean";
        value = CodeEditor.valueOf('Z', v ? 1 : 0);
        what = "Boolean.valueOf(" + v + ")";
      }
      case 1 -> {
        int v = c.pick(7, 0, 1, -1, 127, 100);
        cls = "java.lang.Integer";
        value = CodeEditor.valueOf('I', v);
        what = "Integer.valueOf(" + v + ")";
      }
      case 2 -> {
        cls = c.bool() ? "java.lang.Long" : "java.lang.Character";
        value =
            CodeEditor.valueOf(cls.endsWith("Long") ? 'J' : 'C', cls.endsWith("Long") ? 7 : 'c');
        what = cls + ".valueOf";
      }
      case 3 -> {
        String lit = c.pick(StructureSeeds.LITERALS);
        cls = "java.lang.String";
        value = new InsnList();
        value.add(new LdcInsnNode(lit));
        what = "the interned literal \"" + lit + "\"";
      }
      case 4 -> {
        String name = c.pick(enumNames.subList(0, TimeUnit.values().length));
        cls = "java.util.concurrent.TimeUnit";
        value = CodeEditor.constant(d.addConstant(new Constant.EnumRef(d.entry(cls), name)), null);
        what = "TimeUnit." + name;
      }
      case 5 -> {
        String name = c.pick("A", "B");
        cls = StructureSeeds.CanaryEnum.class.getName();
        value = CodeEditor.constant(d.addConstant(new Constant.EnumRef(d.entry(cls), name)), null);
        what = "CanaryEnum." + name;
      }
      case 6 -> {
        String of = c.pick(DESCRIPTOR_TARGETS);
        cls = "java.io.ObjectStreamClass";
        value = CodeEditor.constant(d.addConstant(new Constant.StreamClassRef(d.entry(of))), null);
        what = "the ObjectStreamClass of " + of;
      }
      case 7 -> {
        String of = c.pick(StructureSeeds.CLASS_NAMES);
        cls = "java.lang.Class";
        value = CodeEditor.constant(d.addConstant(new Constant.TypeRef(d.entry(of))), null);
        what = "the Class " + of;
      }
      default -> {
        cls = c.bool() ? "java.lang.reflect.Constructor" : "java.lang.reflect.Field";
        int k = d.anyConstant(c);
        value = CodeEditor.constant(Math.max(k, 0), null);
        what = "constants[" + k + "] (a " + cls + " if the kind fits)";
      }
    }
    int id =
        c.bool() && d.tableSize > d.firstId
            ? d.firstId + c.below(d.tableSize - d.firstId)
            : d.tableSize++;
    d.insert(c, d.slotFor(c, 0, -1), CodeEditor.store(id, value));
    String how = writeInto(c, d, id, cls);
    log.add("write into pre-existing: table[" + id + "] = " + what + "; " + how);
  }

  /** Makes the restore write into {@code table[id]} as an object of class {@code cls}. */
  private String writeInto(Choices c, Draft d, int id, String cls) {
    List<FieldEntry> real = realFields(cls);
    int e = d.entry(cls);
    int how = c.below(6);
    if (how <= 1 || real.isEmpty()) {
      List<FieldEntry> fields =
          real.isEmpty() || c.oneIn(5) ? randomFields(c, 1 + c.below(3)) : subset(c, real);
      d.setFields(e, fields);
      Tape tape = fieldsTape(c, d, fields);
      Constant.HookKind kind =
          how == 0 || c.oneIn(6) ? Constant.HookKind.SLOT : c.pick(Constant.HookKind.values());
      int h = d.addConstant(new Constant.Hook(kind, e, id, tape));
      d.addSteps(c, new int[] {Grammar.STEP_HOOK, h});
      return kind + " hook on class entry " + cls + " fields " + names(fields);
    }
    FieldEntry f = c.pick(real);
    if (how <= 3) {
      int s = d.addConstant(new Constant.Setter(e, f.name(), f.descriptor()));
      if (how == 2) {
        int valueId = d.tableSize++;
        d.insert(c, d.slotFor(c, 0, -1), CodeEditor.store(valueId, boxFor(c, d, f.descriptor())));
        d.addSteps(c, new int[] {Grammar.STEP_FIELD, s, id, valueId});
        return "finish step Field.set(" + f.name() + ") through a Setter";
      }
      InsnList code = CodeEditor.select(id, null);
      char t = f.descriptor().charAt(0) == '[' ? 'L' : f.descriptor().charAt(0);
      code.add(
          CodeEditor.fieldSet(
              s, t, valueFor(c, d, t == 'L' ? "Ljava/lang/Object;" : f.descriptor())));
      d.insert(c, d.slotFor(c, 1, -1), code);
      return "Field.set" + t + "(" + f.name() + ") in generated code";
    }
    String owner = internal(cls);
    InsnList code = CodeEditor.select(id, owner);
    code.add(CodeEditor.putField(owner, f.name(), f.descriptor(), valueFor(c, d, f.descriptor())));
    d.synth(1, e, code);
    return "putfield " + f.name() + " from a class in the nest of " + cls;
  }

  /** An allocator of a class Java serialization would not instantiate this way. */
  private void allocateOdd(Choices c, Draft d, List<String> log) {
    String cls = c.pick(ODD_CLASSES);
    int e = d.entry(cls);
    if (c.oneIn(3)) {
      d.setFields(e, subset(c, realFields(cls)));
    }
    if (c.oneIn(4)) {
      d.setSuid(e, suid(c, cls));
    }
    Constant.Mode mode = c.pick(Constant.Mode.values());
    int k = d.addConstant(new Constant.Allocator(e, mode));
    int id =
        c.bool() && d.tableSize > d.firstId
            ? d.firstId + c.below(d.tableSize - d.firstId)
            : d.tableSize++;
    d.insert(c, d.slotFor(c, 0, -1), CodeEditor.allocate(id, k));
    String extra = "";
    if (c.bool()) {
      d.items = new Tape(new byte[0], new int[] {Tape.OBJECT, id});
      extra += "; it is the root";
    }
    if (c.oneIn(3)) {
      List<FieldEntry> fields = d.classes.get(e).fields();
      Constant.HookKind kind = c.bool() ? Constant.HookKind.RECORD : Constant.HookKind.SLOT;
      int h = d.addConstant(new Constant.Hook(kind, e, id, fieldsTape(c, d, fields)));
      d.addSteps(c, new int[] {Grammar.STEP_HOOK, h});
      extra += "; then a " + kind + " hook on it";
    }
    log.add("allocate " + cls + " (" + mode + ") into table[" + id + "]" + extra);
  }

  private void renameToOdd(Choices c, Draft d, List<String> log) {
    if (d.classes.isEmpty()) {
      allocateOdd(c, d, log);
      return;
    }
    int i = c.below(d.classes.size());
    String to = c.bool() ? c.pick(ODD_CLASSES) : c.pick(StructureSeeds.CLASS_NAMES);
    ClassEntry old = d.classes.get(i);
    List<FieldEntry> fields = c.bool() ? old.fields() : subset(c, realFields(to));
    boolean hasSuid = c.bool() ? old.hasSuid() : c.bool();
    d.classes.set(i, new ClassEntry(to, fields, hasSuid ? suid(c, to) : 0, hasSuid));
    log.add(
        "rename class entry "
            + i
            + " "
            + old.name()
            + " -> "
            + to
            + " fields "
            + names(fields)
            + (hasSuid ? " with suid" : ""));
  }

  private void classInit(Choices c, Draft d, List<String> log) {
    String to = c.pick(StructureSeeds.INIT_CANARY, StructureSeeds.INIT_CANARY_PLAIN);
    long suid = c.oneIn(3) ? c.anyLong() : to.equals(StructureSeeds.INIT_CANARY) ? 42 : 43;
    boolean hasSuid = !c.oneIn(5);
    ClassEntry e = new ClassEntry(to, c.bool() ? List.of() : realFields(to), suid, hasSuid);
    if (c.bool() && !d.classes.isEmpty()) {
      int i = c.below(d.classes.size());
      d.classes.set(i, e);
      log.add(
          "class entry "
              + i
              + " renamed to the canary "
              + to
              + (hasSuid ? " with suid " + suid : ""));
    } else {
      d.classes.add(e);
      log.add("class entry added for the canary " + to + (hasSuid ? " with suid " + suid : ""));
    }
  }

  private void loopAmplify(Choices c, Draft d, List<String> log) {
    // mostly sizes that finish in well under a second; now and then one that cannot
    boolean huge = c.oneIn(256);
    int n = huge ? c.pick(1 << 20, 1_000_000, 1 << 27) : c.pick(3, 100, 1_000, 1 << 12);
    int len = huge ? c.pick(1 << 20, 1 << 24, 1 << 27) : c.pick(0, 16, 1 << 10, 1 << 16);
    char elem = c.pick('J', 'L', 'B', 'I');
    InsnList body;
    if (c.oneIn(4)) {
      int k =
          d.addConstant(
              new Constant.ArrayMaker(d.entry(c.pick("[J", "[Ljava.lang.Object;", "[[I"))));
      InsnList v = CodeEditor.constant(k, "java/lang/Class");
      v.add(CodeEditor.push(len));
      v.add(
          new MethodInsnNode(
              INVOKESTATIC,
              "java/lang/reflect/Array",
              "newInstance",
              "(Ljava/lang/Class;I)Ljava/lang/Object;",
              false));
      body = CodeEditor.storeAtLoopId(v);
    } else {
      body = CodeEditor.storeAtLoopId(CodeEditor.newArray(elem, len));
    }
    d.insert(c, d.slotFor(c, c.below(2), -1), CodeEditor.loopOverFreshIds(n, body));
    log.add(
        "loop over new int["
            + n
            + "] allocating an array of "
            + len
            + " ("
            + elem
            + ") per iteration");
  }

  private void classFlood(Choices c, Draft d, List<String> log) {
    if (d.files.isEmpty()) {
      return;
    }
    int i = c.below(d.files.size());
    int copies = c.oneIn(10) ? 2000 : c.pick(2, 8, 64, 200);
    Draft.Slot s = d.files.get(i);
    for (int k = 0; k < copies; k++) {
      d.files.add(i, s.copy());
    }
    log.add("class file " + i + " duplicated " + copies + " times");
  }

  private void hugeMaxs(Choices c, Draft d, List<String> log) {
    if (d.files.isEmpty()) {
      return;
    }
    Draft.Slot s = d.files.get(c.below(d.files.size()));
    List<MethodNode> chunks = d.editor(s).chunks();
    if (chunks.isEmpty()) {
      return;
    }
    s.maxsMethod = c.pick(chunks).name;
    s.maxStack = c.pick(65535, 4096, -1, 0);
    s.maxLocals = c.pick(65535, 255, -1, 0);
    log.add("max_stack " + s.maxStack + ", max_locals " + s.maxLocals + " in " + s.maxsMethod);
  }

  private void checkcastTo(Choices c, Draft d, List<String> log) {
    String to =
        c.oneIn(3)
            ? c.pick(StructureSeeds.INIT_CANARY, StructureSeeds.INIT_CANARY_PLAIN)
            : c.pick(StructureSeeds.CLASS_NAMES);
    String desc = to.startsWith("[") ? to.replace('.', '/') : internal(to);
    if (to.equals("int") || to.equals("void") || to.equals("long") || to.equals("boolean")) {
      desc = "java/lang/Integer";
    }
    // checkcast resolves its class only for an object that is not null: mostly an id the seed fills
    int id =
        d.tableSize > d.firstId && !c.oneIn(4)
            ? d.firstId + c.below(d.tableSize - d.firstId)
            : d.randomId(c);
    InsnList code = CodeEditor.select(id, desc);
    if (c.bool()) {
      String host =
          c.pick(
              StructureSeeds.INIT_CANARY,
              StructureSeeds.INIT_CANARY_PLAIN,
              StructureSeeds.CanaryEnum.class.getName(),
              StructureSeeds.Point.class.getName());
      d.synth(1 + c.below(2), d.entry(host), code);
      log.add("checkcast " + to + " in a class in the nest of " + host);
    } else {
      d.insert(c, d.anySlot(c), code);
      log.add("checkcast " + to);
    }
  }

  private void finishSteps(Choices c, Draft d, List<String> log) {
    int n = 1 + c.below(3);
    int[] steps = new int[0];
    for (int i = 0; i < n; i++) {
      int[] step =
          switch (c.below(8)) {
            case 0 -> new int[] {Grammar.STEP_HOOK, d.anyConstant(c)};
            case 1 ->
                new int[] {Grammar.STEP_FIELD, d.anyConstant(c), d.randomId(c), d.randomId(c)};
            case 2 ->
                new int[] {Grammar.STEP_ELEMENT, d.randomId(c), c.interestingInt(), d.randomId(c)};
            case 3 -> new int[] {Grammar.STEP_HOOK, d.hookConstant(c)};
            // a fill or an immutable collection whose count may be anything, up to the largest
            // int, with a few references after it
            case 4 ->
                new int[] {
                  Grammar.STEP_FILL,
                  d.randomId(c),
                  c.oneIn(2) ? c.interestingInt() : 2,
                  d.randomId(c),
                  d.randomId(c)
                };
            case 5 ->
                new int[] {
                  Grammar.STEP_IMMUTABLE,
                  c.below(Math.max(1, d.classes.size())),
                  c.oneIn(2) ? c.interestingInt() : 1 + c.below(3),
                  d.randomId(c),
                  c.oneIn(2) ? c.interestingInt() : 2,
                  d.randomId(c),
                  d.randomId(c)
                };
            // a factory step of any kind and count, as any class of the table
            case 6 ->
                new int[] {
                  Grammar.STEP_FACTORY,
                  c.below(Math.max(1, d.classes.size())),
                  c.oneIn(3) ? c.interestingInt() : 1 + c.below(Factories.LAST),
                  d.randomId(c),
                  c.oneIn(2) ? c.interestingInt() : c.below(3),
                  d.randomId(c),
                  d.randomId(c)
                };
            default -> new int[] {c.interestingInt(), c.interestingInt()};
          };
      steps = concat(steps, step);
    }
    d.addSteps(c, steps);
    log.add("finish steps " + Arrays.toString(steps));
  }

  // ---- atomic mutations ----

  private void classEntry(Choices c, Draft d, List<String> log) {
    if (d.classes.isEmpty() || c.oneIn(10)) {
      String name = c.pick(StructureSeeds.CLASS_NAMES);
      d.classes.add(new ClassEntry(name, c.bool() ? List.of() : realFields(name), 0, false));
      log.add("class entry added: " + name);
      return;
    }
    int i = c.below(d.classes.size());
    ClassEntry e = d.classes.get(i);
    List<FieldEntry> fields = new ArrayList<>(e.fields());
    String what;
    switch (c.below(8)) {
      case 0 -> {
        String to =
            c.bool()
                ? c.pick(StructureSeeds.CLASS_NAMES)
                : d.classes.get(c.below(d.classes.size())).name();
        d.classes.set(i, new ClassEntry(to, e.fields(), e.suid(), e.hasSuid()));
        what = "renamed to " + to;
      }
      case 1 -> {
        List<FieldEntry> real = realFields(e.name());
        FieldEntry f =
            !real.isEmpty() && c.bool()
                ? c.pick(real)
                : new FieldEntry(c.pick(fieldNames), c.pick(DESCRIPTORS), c.below(4) != 0);
        fields.add(c.below(fields.size() + 1), f);
        what = "field added " + f.name() + ":" + f.descriptor();
      }
      case 2 -> {
        if (fields.isEmpty()) {
          return;
        }
        what = "field removed " + fields.remove(c.below(fields.size())).name();
      }
      case 3 -> {
        if (fields.isEmpty()) {
          return;
        }
        int k = c.below(fields.size());
        FieldEntry f = fields.get(k);
        fields.set(k, new FieldEntry(f.name(), c.pick(DESCRIPTORS), f.real()));
        what = "field retyped " + f.name() + " -> " + fields.get(k).descriptor();
      }
      case 4 -> {
        if (fields.isEmpty()) {
          return;
        }
        int k = c.below(fields.size());
        FieldEntry f = fields.get(k);
        fields.set(
            k, new FieldEntry(c.bool() ? f.name() : c.pick(fieldNames), f.descriptor(), !f.real()));
        what = "field " + f.name() + " real -> " + !f.real();
      }
      case 5 -> {
        d.classes.set(i, new ClassEntry(e.name(), e.fields(), e.suid(), !e.hasSuid()));
        what = "suid toggled to " + !e.hasSuid();
      }
      case 6 -> {
        long s = suid(c, e.name());
        d.classes.set(i, new ClassEntry(e.name(), e.fields(), s, true));
        what = "suid set to " + s;
      }
      default -> {
        if (fields.size() < 2) {
          return;
        }
        int a = c.below(fields.size());
        int b = c.below(fields.size());
        FieldEntry t = fields.get(a);
        fields.set(a, fields.get(b));
        fields.set(b, t);
        what = "fields " + a + " and " + b + " swapped";
      }
    }
    if (d.classes.get(i) == e) {
      d.classes.set(i, new ClassEntry(e.name(), List.copyOf(fields), e.suid(), e.hasSuid()));
    }
    log.add("class entry " + i + " (" + e.name() + "): " + what);
  }

  private void constant(Choices c, Draft d, List<String> log) {
    if (d.constants.isEmpty() || c.oneIn(8)) {
      Constant k = randomConstant(c, d);
      int at = d.addConstant(k);
      log.add("constant " + at + " added: " + show(k));
      return;
    }
    int i = c.below(d.constants.size());
    Constant old = d.constants.get(i);
    Constant k;
    if (c.oneIn(4)) {
      k = randomConstant(c, d);
    } else if (old instanceof Constant.TypeRef) {
      k = new Constant.TypeRef(d.anyClass(c));
    } else if (old instanceof Constant.StreamClassRef) {
      k = new Constant.StreamClassRef(d.anyClass(c));
    } else if (old instanceof Constant.ArrayMaker) {
      k = new Constant.ArrayMaker(d.anyClass(c));
    } else if (old instanceof Constant.EnumRef e) {
      k =
          c.bool()
              ? new Constant.EnumRef(e.type(), c.pick(enumNames))
              : new Constant.EnumRef(d.anyClass(c), e.name());
    } else if (old instanceof Constant.Allocator a) {
      k =
          c.bool()
              ? new Constant.Allocator(a.type(), c.pick(Constant.Mode.values()))
              : new Constant.Allocator(d.anyClass(c), a.mode());
    } else if (old instanceof Constant.Setter s) {
      k =
          switch (c.below(3)) {
            case 0 -> new Constant.Setter(d.anyClass(c), s.field(), s.descriptor());
            case 1 -> new Constant.Setter(s.type(), c.pick(fieldNames), s.descriptor());
            default -> new Constant.Setter(s.type(), s.field(), c.pick(DESCRIPTORS));
          };
    } else if (old instanceof Constant.Text) {
      k = new Constant.Text(c.bool() ? c.pick(StructureSeeds.LITERALS) : "t" + c.anyInt());
    } else if (old instanceof Constant.Texts t) {
      String[] v = t.values().clone();
      if (v.length > 0) {
        v[c.below(v.length)] = c.pick(StructureSeeds.LITERALS);
      }
      k = new Constant.Texts(v);
    } else if (old instanceof Constant.PrimArray p) {
      k = new Constant.PrimArray(mutateArray(c, d, p.array()));
    } else if (old instanceof Constant.Hook h) {
      k =
          switch (c.below(5)) {
            case 0 ->
                new Constant.Hook(c.pick(Constant.HookKind.values()), h.type(), h.id(), h.tape());
            case 1 -> new Constant.Hook(h.kind(), d.anyClass(c), h.id(), h.tape());
            case 2 -> new Constant.Hook(h.kind(), h.type(), d.randomId(c), h.tape());
            case 3 -> new Constant.Hook(h.kind(), h.type(), h.id(), mutateTape(c, d, h.tape()));
            default ->
                new Constant.Hook(
                    h.kind(),
                    h.type(),
                    h.id(),
                    fieldsTape(
                        c, d, d.classes.isEmpty() ? List.of() : d.classes.get(h.type()).fields()));
          };
    } else {
      k = randomConstant(c, d);
    }
    d.constants.set(i, k);
    log.add("constant " + i + ": " + show(old) + " -> " + show(k));
  }

  private Constant randomConstant(Choices c, Draft d) {
    return switch (c.below(10)) {
      case 0 -> new Constant.TypeRef(d.anyClass(c));
      case 1 -> new Constant.StreamClassRef(d.anyClass(c));
      case 2 -> new Constant.EnumRef(d.anyClass(c), c.pick(enumNames));
      case 3 -> new Constant.Allocator(d.anyClass(c), c.pick(Constant.Mode.values()));
      case 4 -> new Constant.ArrayMaker(d.anyClass(c));
      case 5 -> new Constant.Setter(d.anyClass(c), c.pick(fieldNames), c.pick(DESCRIPTORS));
      case 6 -> new Constant.Text(c.pick(StructureSeeds.LITERALS));
      case 7 -> new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, d.hookConstant(c)});
      case 8 -> new Constant.Texts(new String[] {c.pick(StructureSeeds.LITERALS)});
      default -> {
        int type = d.anyClass(c);
        yield new Constant.Hook(
            c.pick(Constant.HookKind.values()),
            type,
            d.randomId(c),
            c.oneIn(5) ? null : fieldsTape(c, d, d.classes.get(type).fields()));
      }
    };
  }

  private Object mutateArray(Choices c, Draft d, Object array) {
    if (array instanceof int[] a) {
      int[] b = a.clone();
      switch (c.below(5)) {
        case 0 -> {
          if (b.length > 0) {
            b[c.below(b.length)] = c.bool() ? d.randomId(c) : c.interestingInt();
          }
        }
        case 1 -> {
          if (b.length > 0) {
            b[c.below(b.length)] = d.anyConstant(c);
          }
        }
        case 2 -> b = concat(b, new int[] {Grammar.STEP_HOOK, d.hookConstant(c)});
        case 3 -> b = Arrays.copyOf(b, Math.max(0, b.length - 1 - c.below(3)));
        default ->
            b = concat(b, new int[] {c.below(3), d.anyConstant(c), d.randomId(c), d.randomId(c)});
      }
      return b;
    }
    int n = java.lang.reflect.Array.getLength(array);
    if (c.oneIn(3)) {
      return new int[] {Grammar.STEP_HOOK, d.hookConstant(c)};
    }
    Object copy =
        java.lang.reflect.Array.newInstance(
            array.getClass().getComponentType(), c.bool() ? n : c.pick(0, 1, n + 1, 1 << 16));
    System.arraycopy(array, 0, copy, 0, Math.min(n, java.lang.reflect.Array.getLength(copy)));
    return copy;
  }

  private Tape mutateTape(Choices c, Draft d, Tape t) {
    if (t == null) {
      return new Tape(c.bytes(c.below(9)), new int[] {Tape.FIELDS, 0});
    }
    byte[] data = t.data().clone();
    int[] items = t.items().clone();
    switch (c.below(6)) {
      case 0 -> {
        if (data.length > 0) {
          data[c.below(data.length)] = (byte) c.anyInt();
        }
      }
      case 1 -> data = Arrays.copyOf(data, c.pick(0, data.length / 2, data.length + 4, 1));
      case 2 -> {
        if (items.length >= 2) {
          int p = 2 * c.below(items.length / 2);
          items[p + 1] = items[p] == Tape.OBJECT ? d.randomId(c) : c.below(items.length / 2 + 2);
        }
      }
      case 3 -> items = concat(items, new int[] {Tape.OBJECT, d.randomId(c)});
      case 4 -> {
        if (items.length >= 2) {
          int p = 2 * c.below(items.length / 2);
          items[p] = c.below(3);
        }
      }
      default -> items = Arrays.copyOf(items, Math.max(0, items.length - 2));
    }
    return new Tape(data, items);
  }

  private void placement(Choices c, Draft d, List<String> log) {
    if (d.files.isEmpty()) {
      return;
    }
    int i = c.below(d.files.size());
    Draft.Slot s = d.files.get(i);
    if (c.bool()) {
      int old = s.phase;
      s.phase = c.below(Grammar.PHASES);
      if (!c.oneIn(4)) {
        d.sortByPhase();
      }
      log.add("class file " + i + " phase " + old + " -> " + s.phase);
    } else {
      int old = s.host;
      s.host = c.oneIn(3) ? -1 : d.anyClass(c);
      if (!c.oneIn(4)) {
        d.editor(s).rename(d.newClassName(s.host));
      }
      log.add("class file " + i + " host " + old + " -> " + s.host);
    }
  }

  private void header(Choices c, Draft d, List<String> log) {
    switch (c.below(4)) {
      case 0 -> {
        d.tableSize = Math.max(0, d.tableSize + c.between(-3, 3));
        log.add("table size -> " + d.tableSize);
      }
      case 1 -> {
        d.depth = c.interestingInt() & Integer.MAX_VALUE;
        log.add("depth -> " + d.depth);
      }
      case 2 -> {
        d.items = new Tape(new byte[0], new int[] {Tape.OBJECT, d.randomId(c)});
        log.add("root -> table[" + d.items.items()[1] + "]");
      }
      default -> {
        d.items = mutateTape(c, d, d.items);
        log.add("items tape mutated");
      }
    }
  }

  /** Changes one operand: a table id, a constant index, a value, a literal, a cast, a field. */
  private void operand(Choices c, Draft d, List<String> log) {
    if (d.files.isEmpty()) {
      return;
    }
    Draft.Slot s = d.anySlotOf(c);
    List<MethodNode> chunks = d.editor(s).chunks();
    if (chunks.isEmpty()) {
      return;
    }
    MethodNode m = c.pick(chunks);
    List<AbstractInsnNode> candidates = new ArrayList<>();
    for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
      if (CodeEditor.pushed(n) != null
          || n instanceof LdcInsnNode
          || n.getOpcode() == CHECKCAST
          || n instanceof FieldInsnNode) {
        candidates.add(n);
      }
    }
    if (candidates.isEmpty()) {
      return;
    }
    AbstractInsnNode n = c.pick(candidates);
    AbstractInsnNode prev = n.getPrevious();
    String what;
    Integer v = CodeEditor.pushed(n);
    if (v != null) {
      int to;
      if (prev instanceof VarInsnNode pv && pv.getOpcode() == ALOAD && pv.var == 0) {
        to = d.randomId(c);
        what = "table id " + v + " -> " + to;
      } else if (prev instanceof VarInsnNode pv && pv.getOpcode() == ALOAD && pv.var == 1) {
        to = d.anyConstant(c);
        what = "constant index " + v + " -> " + to;
      } else {
        to = c.bool() ? v + c.between(-2, 2) : c.interestingInt();
        what = "int " + v + " -> " + to;
      }
      m.instructions.set(n, CodeEditor.push(to));
    } else if (n instanceof LdcInsnNode l) {
      Object old = l.cst;
      if (old instanceof String) {
        l.cst = c.pick(StructureSeeds.LITERALS);
      } else if (old instanceof Long) {
        l.cst = c.bool() ? 7L : (long) c.interestingInt();
      } else if (old instanceof Float) {
        l.cst = c.bool() ? Float.NaN : (float) c.interestingInt();
      } else if (old instanceof Double) {
        l.cst = c.bool() ? Double.NaN : (double) c.interestingInt();
      } else if (old instanceof Type) {
        l.cst = Type.getObjectType(internal(c.pick(StructureSeeds.CLASS_NAMES)));
      }
      what = "ldc " + old + " -> " + l.cst;
    } else if (n instanceof TypeInsnNode t) {
      String old = t.desc;
      String to = c.pick(StructureSeeds.CLASS_NAMES);
      t.desc = to.startsWith("[") ? to.replace('.', '/') : internal(to);
      what = "checkcast " + old + " -> " + t.desc;
    } else {
      FieldInsnNode f = (FieldInsnNode) n;
      String old = f.owner + "." + f.name + ":" + f.desc;
      switch (c.below(3)) {
        case 0 -> f.owner = internal(c.pick(StructureSeeds.CLASS_NAMES));
        case 1 -> f.name = c.pick(fieldNames);
        default -> f.desc = c.pick(DESCRIPTORS);
      }
      what = "putfield " + old + " -> " + f.owner + "." + f.name + ":" + f.desc;
    }
    log.add("operand in class file " + d.files.indexOf(s) + " " + m.name + ": " + what);
  }

  /** Duplicates, deletes, swaps or moves statements, at top level or inside a loop body. */
  private void statement(Choices c, Draft d, List<String> log) {
    if (d.files.isEmpty()) {
      return;
    }
    Draft.Slot s = d.anySlotOf(c);
    List<MethodNode> chunks = d.editor(s).chunks();
    if (chunks.isEmpty()) {
      return;
    }
    MethodNode m = c.pick(chunks);
    boolean bodies = c.oneIn(4);
    List<CodeEditor.Stmt> st = CodeEditor.statements(m, bodies);
    if (st.isEmpty()) {
      return;
    }
    CodeEditor.Stmt a = c.pick(st);
    String what;
    switch (c.below(4)) {
      case 0 -> {
        int times = c.oneIn(4) ? c.pick(2, 10, 100) : 1;
        for (int i = 0; i < times; i++) {
          CodeEditor.insert(m, c.pick(st), CodeEditor.copy(a));
        }
        what = "duplicated " + times + "x";
      }
      case 1 -> {
        CodeEditor.delete(a);
        what = "deleted";
      }
      case 2 -> {
        CodeEditor.Stmt b = c.pick(st);
        if (a == b) {
          return;
        }
        InsnList ca = CodeEditor.copy(a);
        InsnList cb = CodeEditor.copy(b);
        CodeEditor.insert(m, a, cb);
        CodeEditor.insert(m, b, ca);
        CodeEditor.delete(a);
        CodeEditor.delete(b);
        what = "swapped with another";
      }
      default -> {
        InsnList ca = CodeEditor.copy(a);
        CodeEditor.delete(a);
        List<CodeEditor.Stmt> rest = CodeEditor.statements(m, bodies);
        CodeEditor.insert(m, rest.isEmpty() || c.oneIn(4) ? null : c.pick(rest), ca);
        what = "moved";
      }
    }
    log.add(
        "statement "
            + (bodies ? "in a loop body " : "")
            + "of class file "
            + d.files.indexOf(s)
            + " "
            + m.name
            + " "
            + what);
  }

  /** Inserts one grammar-shaped statement. */
  private void insertStatement(Choices c, Draft d, List<String> log) {
    InsnList code;
    String what;
    int id = d.randomId(c);
    switch (c.below(12)) {
      case 0 -> {
        int k = d.anyConstant(c);
        code = CodeEditor.store(id, CodeEditor.constant(k, null));
        what = "table[" + id + "] = constants[" + k + "]";
      }
      case 1 -> {
        char t = c.pick('Z', 'I', 'J', 'C', 'S', 'B');
        long v = c.pick(1L, 0L, 7L, 127L, -128L);
        code = CodeEditor.store(id, CodeEditor.valueOf(t, v));
        what = "table[" + id + "] = valueOf(" + t + " " + v + ")";
      }
      case 2 -> {
        String lit = c.pick(StructureSeeds.LITERALS);
        InsnList v = new InsnList();
        v.add(new LdcInsnNode(lit));
        code = CodeEditor.store(id, v);
        what = "table[" + id + "] = \"" + lit + "\"";
      }
      case 3 -> {
        String to = c.pick(StructureSeeds.CLASS_NAMES);
        code = CodeEditor.select(id, to.startsWith("[") ? to.replace('.', '/') : internal(to));
        what = "select (" + to + ") table[" + id + "]";
      }
      case 4 -> {
        String owner = internal(c.pick(StructureSeeds.CLASS_NAMES));
        String desc = c.pick(DESCRIPTORS);
        code = CodeEditor.select(id, null);
        code.add(CodeEditor.putField(owner, c.pick(fieldNames), desc, valueFor(c, d, desc)));
        what = "putfield into " + owner;
      }
      case 5 -> {
        int k = d.anyConstant(c);
        char t = c.pick('L', 'I', 'Z', 'J');
        code = CodeEditor.select(id, null);
        code.add(
            CodeEditor.fieldSet(
                k, t, valueFor(c, d, t == 'L' ? "Ljava/lang/Object;" : String.valueOf(t))));
        what = "Field.set" + t + " with constants[" + k + "] on table[" + id + "]";
      }
      case 6 -> {
        int k = d.anyConstant(c);
        code = CodeEditor.allocate(id, k);
        what = "table[" + id + "] = Allocation.allocate(constants[" + k + "])";
      }
      case 7 -> {
        char e = c.pick('L', 'I', 'J', 'B');
        int len =
            c.oneIn(8)
                ? c.pick(1 << 20, 1 << 27, Integer.MAX_VALUE)
                : c.pick(0, 1, 16, 1 << 10, 1 << 16);
        code = CodeEditor.store(id, CodeEditor.newArray(e, len));
        what = "table[" + id + "] = new " + e + "[" + len + "]";
      }
      case 8 -> {
        int k = d.anyConstant(c);
        code = CodeEditor.runSteps(k);
        what = "runSteps(constants[" + k + "])";
      }
      case 9 -> {
        int n = c.pick(0, 1, 5, 1000);
        InsnList body =
            c.bool()
                ? CodeEditor.storeAtLoopId(CodeEditor.valueOf('Z', 1))
                : CodeEditor.storeAtLoopId(CodeEditor.constant(d.anyConstant(c), null));
        code = CodeEditor.loopOverFreshIds(n, body);
        what = "loop over new int[" + n + "]";
      }
      case 10 -> {
        InsnList v = CodeEditor.tableAt(d.randomId(c));
        code = CodeEditor.store(id, v);
        what = "table[" + id + "] = table[...]";
      }
      default -> {
        InsnList v = new InsnList();
        v.add(new TypeInsnNode(NEW, "java/lang/String"));
        v.add(new InsnNode(DUP));
        v.add(new LdcInsnNode(c.pick(StructureSeeds.LITERALS)));
        v.add(
            new MethodInsnNode(
                INVOKESPECIAL, "java/lang/String", "<init>", "(Ljava/lang/String;)V", false));
        code = CodeEditor.store(id, v);
        what = "table[" + id + "] = new String(...)";
      }
    }
    Draft.Slot s = d.files.isEmpty() || c.oneIn(6) ? d.slotFor(c, c.below(3), -1) : d.anySlot(c);
    if (c.oneIn(5)) {
      List<MethodNode> chunks = d.editor(s).chunks();
      if (!chunks.isEmpty()) {
        MethodNode m = c.pick(chunks);
        List<CodeEditor.Stmt> body = CodeEditor.statements(m, true);
        if (!body.isEmpty()) {
          CodeEditor.insert(m, c.pick(body), code);
          log.add("inserted into a loop body of class file " + d.files.indexOf(s) + ": " + what);
          return;
        }
      }
    }
    d.insert(c, s, code);
    log.add("inserted into class file " + d.files.indexOf(s) + ": " + what);
  }

  private void classFiles(Choices c, Draft d, List<String> log) {
    if (d.files.isEmpty()) {
      return;
    }
    int i = c.below(d.files.size());
    switch (c.below(3)) {
      case 0 -> {
        d.files.remove(i);
        log.add("class file " + i + " removed");
      }
      case 1 -> {
        d.files.add(c.below(d.files.size() + 1), d.files.get(i).copy());
        log.add("class file " + i + " duplicated");
      }
      default -> {
        int j = c.below(d.files.size());
        Draft.Slot t = d.files.get(i);
        d.files.set(i, d.files.get(j));
        d.files.set(j, t);
        log.add("class files " + i + " and " + j + " swapped");
      }
    }
  }

  // ---- helpers ----

  /** The real instance fields a class declares, primitives first, as class entries list them. */
  List<FieldEntry> realFields(String name) {
    return realFields.computeIfAbsent(
        name,
        n -> {
          if (n.startsWith(StructureSeeds.CANARY_PACKAGE)) {
            return List.of(
                new FieldEntry("a", "I", true), new FieldEntry("b", "Ljava/lang/Object;", true));
          }
          try {
            Class<?> c = Class.forName(n, false, loader);
            List<FieldEntry> prims = new ArrayList<>();
            List<FieldEntry> refs = new ArrayList<>();
            for (Field f : c.getDeclaredFields()) {
              if (!Modifier.isStatic(f.getModifiers())) {
                String desc = Type.getDescriptor(f.getType());
                (desc.length() == 1 ? prims : refs).add(new FieldEntry(f.getName(), desc, true));
              }
            }
            prims.addAll(refs);
            return List.copyOf(prims);
          } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return List.of();
          }
        });
  }

  private long suid(Choices c, String cls) {
    if (c.oneIn(4)) {
      return c.pick(0L, 1L, -1L, c.anyLong());
    }
    Long s =
        suids.computeIfAbsent(
            cls,
            n -> {
              Long v = StructureSeeds.declaredSuid(n, loader);
              return v == null ? 0L : v;
            });
    return s;
  }

  private static List<FieldEntry> subset(Choices c, List<FieldEntry> real) {
    if (real.isEmpty()) {
      return List.of();
    }
    List<FieldEntry> out = new ArrayList<>();
    if (c.bool()) {
      out.add(c.pick(real));
      return List.copyOf(out);
    }
    for (FieldEntry f : real) {
      if (c.bool()) {
        out.add(f);
      }
    }
    if (out.isEmpty()) {
      out.add(c.pick(real));
    }
    return List.copyOf(out);
  }

  private List<FieldEntry> randomFields(Choices c, int n) {
    List<FieldEntry> prims = new ArrayList<>();
    List<FieldEntry> refs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String desc = c.pick(DESCRIPTORS);
      (desc.length() == 1 ? prims : refs)
          .add(new FieldEntry(c.pick(fieldNames), desc, c.below(3) != 0));
    }
    prims.addAll(refs);
    return List.copyOf(prims);
  }

  /** A tape holding one default-field record for {@code fields}, with chosen values. */
  private static Tape fieldsTape(Choices c, Draft d, List<FieldEntry> fields) {
    java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
    List<Integer> refs = new ArrayList<>();
    for (FieldEntry f : fields) {
      if (f.primitive()) {
        int size =
            switch (f.descriptor().charAt(0)) {
              case 'Z', 'B' -> 1;
              case 'C', 'S' -> 2;
              case 'J', 'D' -> 8;
              default -> 4;
            };
        long v = c.pick(0L, 1L, 1337L, -1L, (long) c.anyInt());
        for (int i = size - 1; i >= 0; i--) {
          data.write((int) (v >>> (8 * i)));
        }
      } else {
        refs.add(c.oneIn(4) ? -1 : d.randomId(c));
      }
    }
    if (c.oneIn(8)) {
      data.write(c.anyInt());
    }
    int[] items = new int[2 + 2 * refs.size()];
    items[0] = Tape.FIELDS;
    items[1] = refs.size();
    for (int i = 0; i < refs.size(); i++) {
      items[2 + 2 * i] = Tape.OBJECT;
      items[3 + 2 * i] = refs.get(i);
    }
    return new Tape(data.toByteArray(), items);
  }

  /** Pushes a value for a field of JVM type {@code desc}. */
  private static InsnList valueFor(Choices c, Draft d, String desc) {
    InsnList l = new InsnList();
    char t = desc.charAt(0);
    if (t == 'L' || t == '[') {
      switch (c.below(3)) {
        case 0 -> l.add(new InsnNode(ACONST_NULL));
        case 1 -> l.add(CodeEditor.tableAt(d.randomId(c)));
        default -> l.add(new LdcInsnNode(c.pick(StructureSeeds.LITERALS)));
      }
      if (!desc.equals("Ljava/lang/Object;") && l.getLast().getOpcode() != ACONST_NULL) {
        l.add(new TypeInsnNode(CHECKCAST, t == '[' ? desc : desc.substring(1, desc.length() - 1)));
      }
      return l;
    }
    l.add(CodeEditor.primitive(t, c.pick(0L, 1L, 1337L, -1L, 7L)));
    return l;
  }

  /** Pushes a box suitable for a field of type {@code desc}, or a table object for a reference. */
  private static InsnList boxFor(Choices c, Draft d, String desc) {
    char t = desc.charAt(0);
    if (t == 'L' || t == '[') {
      return CodeEditor.tableAt(d.randomId(c));
    }
    if (t == 'F' || t == 'D') {
      t = 'I';
    }
    return CodeEditor.valueOf(t, c.pick(0L, 1L, 1337L, -1L));
  }

  static String internal(String binaryName) {
    return binaryName.replace('.', '/');
  }

  private static String names(List<FieldEntry> fields) {
    StringBuilder s = new StringBuilder("[");
    for (FieldEntry f : fields) {
      s.append(s.length() > 1 ? ", " : "").append(f.name()).append(':').append(f.descriptor());
    }
    return s.append(']').toString();
  }

  static String show(Constant k) {
    if (k instanceof Constant.PrimArray p) {
      return "PrimArray"
          + (p.array() instanceof int[] a && a.length <= 16
              ? Arrays.toString(a)
              : "["
                  + p.array().getClass().getSimpleName()
                  + " of "
                  + java.lang.reflect.Array.getLength(p.array())
                  + "]");
    } else if (k instanceof Constant.Hook h) {
      return "Hook["
          + h.kind()
          + ", class "
          + h.type()
          + ", id "
          + h.id()
          + ", tape "
          + (h.tape() == null
              ? "none"
              : Arrays.toString(h.tape().items()) + " + " + h.tape().data().length + " bytes")
          + "]";
    } else if (k instanceof Constant.Texts t) {
      return "Texts" + Arrays.toString(t.values());
    }
    return String.valueOf(k);
  }

  static int[] concat(int[] a, int[] b) {
    int[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  // ---- the mutable form of a snapshot ----

  /** A snapshot being mutated: the file's parts as mutable lists. */
  static final class Draft {
    /** A generated class file with its placement; parsed into an editor when code changes. */
    static final class Slot {
      byte[] bytes;
      CodeEditor editor;
      int phase;
      int host;
      String maxsMethod;
      int maxStack = -1;
      int maxLocals = -1;

      Slot(byte[] bytes, int phase, int host) {
        this.bytes = bytes;
        this.phase = phase;
        this.host = host;
      }

      Slot copy() {
        Slot s = new Slot(encoded(), phase, host);
        return s;
      }

      byte[] encoded() {
        byte[] b = bytes;
        if (editor != null) {
          byte[] w = editor.write();
          if (w != null) {
            b = w;
          }
        }
        if (maxsMethod != null) {
          b = CodeEditor.withMaxs(b, maxsMethod, maxStack, maxLocals);
        }
        return b;
      }
    }

    final String jdk;
    final int firstId;
    int tableSize;
    int depth;
    final List<ClassEntry> classes;
    final List<Constant> constants;
    final List<Slot> files = new ArrayList<>();
    Tape items;

    Draft(SnapshotFile f) {
      jdk = f.jdk();
      firstId = f.firstId();
      tableSize = f.tableSize();
      depth = f.depth();
      classes = new ArrayList<>(f.classes());
      constants = new ArrayList<>(f.constants());
      for (int i = 0; i < f.classFiles().size(); i++) {
        Placement p = f.placements().get(i);
        files.add(new Slot(f.classFiles().get(i), p.phase().ordinal(), p.host()));
      }
      items = f.items();
    }

    byte[] encode() {
      List<byte[]> code = new ArrayList<>();
      List<Placement> placements = new ArrayList<>();
      for (Slot s : files) {
        code.add(s.encoded());
        placements.add(new Placement(Phase.of(s.phase), s.host));
      }
      return new SnapshotFile(
              jdk,
              firstId,
              tableSize,
              depth,
              List.copyOf(classes),
              List.copyOf(constants),
              code,
              placements,
              items)
          .bytes();
    }

    Set<String> classNames() {
      Set<String> out = new java.util.HashSet<>();
      for (ClassEntry e : classes) {
        out.add(e.name());
      }
      return out;
    }

    CodeEditor editor(Slot s) {
      if (s.editor == null) {
        s.editor = new CodeEditor(s.bytes);
      }
      return s.editor;
    }

    /**
     * @return the index of the class entry named {@code name}, added if missing
     */
    int entry(String name) {
      for (int i = 0; i < classes.size(); i++) {
        if (classes.get(i).name().equals(name)) {
          return i;
        }
      }
      classes.add(new ClassEntry(name, List.of(), 0, false));
      return classes.size() - 1;
    }

    void setFields(int e, List<FieldEntry> fields) {
      ClassEntry old = classes.get(e);
      classes.set(e, new ClassEntry(old.name(), fields, old.suid(), old.hasSuid()));
    }

    void setSuid(int e, long suid) {
      ClassEntry old = classes.get(e);
      classes.set(e, new ClassEntry(old.name(), old.fields(), suid, true));
    }

    int addConstant(Constant k) {
      constants.add(k);
      return constants.size() - 1;
    }

    int anyClass(Choices c) {
      if (classes.isEmpty() || c.oneIn(6)) {
        return entry(c.pick(StructureSeeds.CLASS_NAMES));
      }
      return c.below(classes.size());
    }

    int anyConstant(Choices c) {
      return constants.isEmpty() ? 0 : c.below(constants.size());
    }

    int hookConstant(Choices c) {
      List<Integer> hooks = new ArrayList<>();
      for (int i = 0; i < constants.size(); i++) {
        if (constants.get(i) instanceof Constant.Hook) {
          hooks.add(i);
        }
      }
      return hooks.isEmpty() ? anyConstant(c) : c.pick(hooks);
    }

    int randomId(Choices c) {
      return switch (c.below(10)) {
        case 0 -> -1;
        case 1 -> tableSize;
        case 2 -> c.interestingInt();
        default -> tableSize <= 0 ? 0 : c.below(tableSize);
      };
    }

    Slot anySlotOf(Choices c) {
      return files.get(c.below(files.size()));
    }

    Slot anySlot(Choices c) {
      return files.isEmpty() ? slotFor(c, 0, -1) : anySlotOf(c);
    }

    /**
     * @return a class of {@code phase} and {@code host}, made if there is none
     */
    Slot slotFor(Choices c, int phase, int host) {
      List<Slot> fit = new ArrayList<>();
      for (Slot s : files) {
        if (s.phase == phase && s.host == host) {
          fit.add(s);
        }
      }
      if (!fit.isEmpty() && !c.oneIn(10)) {
        return c.pick(fit);
      }
      return synth(phase, host, new InsnList());
    }

    /** Adds a new generated class of one chunk holding {@code code}. */
    Slot synth(int phase, int host, InsnList code) {
      CodeEditor e = CodeEditor.synth(newClassName(host), List.of(code));
      byte[] b = e.write();
      Slot s = new Slot(b, phase, host);
      s.editor = e;
      int at = 0;
      while (at < files.size() && files.get(at).phase <= phase) {
        at++;
      }
      files.add(at, s);
      return s;
    }

    String newClassName(int host) {
      String pkg = RuntimeContract.current().hostPackage();
      if (host >= 0 && host < classes.size()) {
        String n = classes.get(host).name();
        int dot = n.lastIndexOf('.');
        pkg = dot < 0 ? "" : internal(n.substring(0, dot));
      }
      return (pkg.isEmpty() ? "" : pkg + "/") + Grammar.CLASS_PREFIX + (100 + files.size());
    }

    void sortByPhase() {
      files.sort((a, b) -> Integer.compare(a.phase, b.phase));
    }

    /** Inserts {@code code} at a statement boundary of a chunk of {@code s}. */
    void insert(Choices c, Slot s, InsnList code) {
      List<MethodNode> chunks = editor(s).chunks();
      if (chunks.isEmpty()) {
        return;
      }
      MethodNode m = c.pick(chunks);
      List<CodeEditor.Stmt> st = CodeEditor.statements(m, false);
      CodeEditor.insert(m, st.isEmpty() || c.bool() ? null : c.pick(st), code);
    }

    /**
     * Makes the finish phase run {@code steps}: appended to a finish program the code already runs,
     * or as a new program run by a new statement or class.
     */
    void addSteps(Choices c, int[] steps) {
      List<Integer> programs = new ArrayList<>();
      for (Slot s : files) {
        if (s.host >= 0) {
          continue;
        }
        for (MethodNode m : editor(s).chunks()) {
          for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext()) {
            if (n instanceof MethodInsnNode mi && mi.name.equals(Grammar.STEPS_METHOD)) {
              Integer k = CodeEditor.pushed(n.getPrevious());
              if (k != null
                  && k >= 0
                  && k < constants.size()
                  && constants.get(k) instanceof Constant.PrimArray p
                  && p.array() instanceof int[]) {
                programs.add(k);
              }
            }
          }
        }
      }
      if (!programs.isEmpty() && !c.oneIn(4)) {
        int k = c.pick(programs);
        int[] old = (int[]) ((Constant.PrimArray) constants.get(k)).array();
        constants.set(
            k, new Constant.PrimArray(c.bool() ? concat(old, steps) : concat(steps, old)));
        return;
      }
      int k = addConstant(new Constant.PrimArray(steps));
      if (c.bool()) {
        insert(c, slotFor(c, Grammar.PHASES - 1, -1), CodeEditor.runSteps(k));
      } else {
        synth(Grammar.PHASES - 1, -1, CodeEditor.runSteps(k));
      }
    }
  }
}
