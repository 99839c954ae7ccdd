package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.AALOAD;
import static org.objectweb.asm.Opcodes.AASTORE;
import static org.objectweb.asm.Opcodes.ACONST_NULL;
import static org.objectweb.asm.Opcodes.ALOAD;
import static org.objectweb.asm.Opcodes.ICONST_0;
import static org.objectweb.asm.Opcodes.INVOKESTATIC;

import java.io.IOException;
import java.io.Serializable;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.runtime.Entry;
import org.codese.testkit.Crafted;
import org.codese.testkit.RoundTrip;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * The runtime contract of generated code ({@link RuntimeContract}): each format version's code may
 * name only its own version's classes of Codese, format 3 names only {@code org.codese.runtime},
 * and files of every earlier version still load through the names they were written with.
 */
class RuntimeContractTest {
  /** A plain serializable class. */
  static final class Plain implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Every name of Codese in the code the emitter writes is in the runtime contract's package: the
   * classes' own names, their supertypes and every owner and type an instruction names.
   */
  @Test
  void theCodeTheEmitterWritesNamesOnlyTheRuntimePackage() throws IOException {
    Map<String, List<Integer>> graph = new TreeMap<>(Map.of("a", new ArrayList<>(List.of(1, 2))));
    SnapshotFile file = SnapshotFile.parse(Codese.toBytes(graph));
    assertEquals(RuntimeContract.current().version(), file.version());
    Set<String> named = new TreeSet<>();
    for (byte[] bytes : file.classFiles()) {
      ClassNode cn = new ClassNode();
      new ClassReader(bytes).accept(cn, 0);
      named.add(cn.name);
      named.add(cn.superName);
      named.addAll(cn.interfaces);
      for (MethodNode m : cn.methods) {
        for (AbstractInsnNode i : m.instructions) {
          if (i instanceof MethodInsnNode mi) {
            named.add(mi.owner);
          } else if (i instanceof FieldInsnNode fi) {
            named.add(fi.owner);
          } else if (i instanceof TypeInsnNode ti) {
            named.add(ti.desc);
          }
        }
      }
    }
    assertTrue(named.contains(RuntimeContract.current().stepsOwner()), named::toString);
    assertTrue(named.contains(RuntimeContract.current().allocateOwner()), named::toString);
    for (String name : named) {
      if (name.startsWith("org/codese/")) {
        assertTrue(name.startsWith(RuntimeContract.RUNTIME_PACKAGE + "/"), name);
      }
    }
  }

  @Test
  void eachVersionAllocatesThroughItsOwnOwnerOnly() throws IOException {
    for (int v = Grammar.ALLOCATE_VERSION; v <= SnapshotFile.VERSION; v++) {
      for (int w = Grammar.ALLOCATE_VERSION; w <= SnapshotFile.VERSION; w++) {
        String owner = RuntimeContract.of(w).allocateOwner();
        byte[] file = allocating(v, owner);
        if (owner.equals(RuntimeContract.of(v).allocateOwner())) {
          assertInstanceOf(Plain.class, Codese.fromBytes(file), "version " + v + ", " + owner);
        } else {
          String why =
              assertThrows(UnsafeSnapshotException.class, () -> Codese.load(file)).getMessage();
          assertTrue(why.contains(owner), why);
        }
      }
    }
  }

  @Test
  void eachVersionRunsFinishProgramsThroughItsOwnOwnerOnly() throws IOException {
    for (int v = 1; v <= SnapshotFile.VERSION; v++) {
      for (int w = 1; w <= SnapshotFile.VERSION; w++) {
        String owner = RuntimeContract.of(w).stepsOwner();
        byte[] file = finishing(v, owner);
        if (owner.equals(RuntimeContract.of(v).stepsOwner())) {
          Object[] root = (Object[]) Codese.fromBytes(file);
          assertEquals(List.of("x"), List.of(root), "version " + v + ", " + owner);
        } else {
          String why =
              assertThrows(UnsafeSnapshotException.class, () -> Codese.load(file)).getMessage();
          assertTrue(why.contains(owner), why);
        }
      }
    }
  }

  @Test
  void aFormat3ClassInTheLoadersPackageIsRejected() throws IOException {
    Crafted c = new Crafted().version(Grammar.ALLOCATE_VERSION);
    int alloc = c.type(Plain.class.getName());
    int k = c.constant(new Constant.Allocator(alloc, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, k));
    byte[] v2 = c.bytes();
    SnapshotFile f = SnapshotFile.parse(v2);
    // the same class files, relabelled as format 3: their classes are named in org/codese/load
    byte[] relabelled = SnapshotEdit.relabel(f, RuntimeContract.RUNTIME_VERSION).bytes();
    String why =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(relabelled)).getMessage();
    assertTrue(why.contains("its name is not org.codese.runtime.CodeseRestoreN"), why);
  }

  /**
   * Generated code may call {@code Entry}'s two entries only; its public {@code install} would
   * replace the runner of every later restore's finish programs.
   */
  @Test
  void generatedCodeCannotInstallARunner() throws IOException {
    Crafted c = new Crafted();
    c.code(
        2,
        ch -> {
          ch.mv.visitInsn(ACONST_NULL);
          ch.mv.visitMethodInsn(
              INVOKESTATIC,
              RuntimeContract.RUNTIME_PACKAGE + "/Entry",
              "install",
              "(L" + RuntimeContract.RUNTIME_PACKAGE + "/Entry$Steps;)V",
              false);
        });
    String why =
        assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes())).getMessage();
    assertTrue(why.contains("install"), why);
    // the runner is still the loader's: hooks still run
    RoundTrip.of(new ArrayList<>(List.of(new TreeMap<>(Map.of(1, "a"))))).run();
  }

  @Test
  void theRunnerIsInstalledOnceAndTheEntriesAreNotPublic() throws Exception {
    Codese.fromBytes(Codese.toBytes(new ArrayList<>(List.of(1)))); // the loader installed its own
    assertThrows(IllegalStateException.class, () -> Entry.install((t, k, p) -> {}));
    for (String name : List.of("runSteps", "allocate")) {
      java.lang.reflect.Method m =
          name.equals("allocate")
              ? Entry.class.getDeclaredMethod(name, Object.class)
              : Entry.class.getDeclaredMethod(name, Object[].class, Object[].class, int.class);
      assertFalse(Modifier.isPublic(m.getModifiers()), name);
      assertEquals(
          Grammar.class
              .getField(name.equals("allocate") ? "ALLOCATE_METHOD" : "STEPS_METHOD")
              .get(null),
          name);
    }
  }

  @Test
  void unknownVersionsHaveNoContract() {
    assertThrows(IllegalArgumentException.class, () -> RuntimeContract.of(0));
    assertThrows(
        IllegalArgumentException.class,
        () -> RuntimeContract.of(RuntimeContract.NEWEST_VERSION + 1));
    assertEquals(SnapshotFile.VERSION, RuntimeContract.current().version());
  }

  /** A format-{@code version} file that allocates one {@link Plain} through {@code owner}. */
  private static byte[] allocating(int version, String owner) {
    Crafted c = new Crafted().version(version);
    int t = c.type(Plain.class.getName());
    int k = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    c.code(
        0,
        ch -> {
          ch.mv.visitVarInsn(ALOAD, 0);
          ch.mv.visitInsn(ICONST_0);
          ch.mv.visitVarInsn(ALOAD, 1);
          ch.push(k);
          ch.mv.visitInsn(AALOAD);
          ch.mv.visitMethodInsn(
              INVOKESTATIC, owner, Grammar.ALLOCATE_METHOD, Grammar.ALLOCATE_DESCRIPTOR, false);
          ch.mv.visitInsn(AASTORE);
        });
    return c.bytes();
  }

  /**
   * A format-{@code version} file whose root is a one-element {@code Object[]} that a finish
   * program, run through {@code owner}, fills with the string {@code "x"}.
   */
  private static byte[] finishing(int version, String owner) {
    Crafted c = new Crafted().version(version).slots(2).root(0);
    int program = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_ELEMENT, 0, 0, 1}));
    c.code(0, ch -> ch.newObjectArray(0, 1).newString(1, "x"));
    c.code(
        2,
        ch -> {
          ch.mv.visitVarInsn(ALOAD, 0);
          ch.mv.visitVarInsn(ALOAD, 1);
          ch.push(program);
          ch.mv.visitMethodInsn(
              INVOKESTATIC, owner, Grammar.STEPS_METHOD, Grammar.STEPS_DESCRIPTOR, false);
        });
    return c.bytes();
  }
}
