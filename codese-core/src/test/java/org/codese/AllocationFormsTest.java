package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.AALOAD;
import static org.objectweb.asm.Opcodes.AASTORE;
import static org.objectweb.asm.Opcodes.ALOAD;
import static org.objectweb.asm.Opcodes.CHECKCAST;
import static org.objectweb.asm.Opcodes.ICONST_0;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Constant;
import org.codese.program.Constant.Mode;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.testkit.Crafted;
import org.junit.jupiter.api.Test;

/**
 * The two forms of allocation in generated code: format version 1 calls {@code
 * Constructor.newInstance} on an allocator constant, version 2 calls {@code Allocation.allocate},
 * which creates an object without a JDK-generated serialization constructor where that constructor
 * would run no code. Each version admits its own form only, an allocation runs exactly the
 * constructors {@code ObjectInputStream} runs, and {@code Allocation.allocate} takes allocator
 * constants only.
 */
class AllocationFormsTest {
  /** A plain serializable class: its first non-serializable superclass is {@code Object}. */
  static final class Plain implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
  }

  /** A non-serializable base whose no-arg constructor has an effect a restore must keep. */
  static class Counted {
    static int made;
    int mark;

    Counted() {
      made++;
      mark = 7;
    }
  }

  /** Serializable below {@link Counted}: {@code ObjectInputStream} runs {@code Counted()}. */
  static final class Child extends Counted implements Serializable {
    private static final long serialVersionUID = 1L;
    int own;
  }

  /** Serializable below {@code AbstractList}, whose constructor does nothing. */
  static final class Listing extends AbstractList<Integer> implements Serializable {
    private static final long serialVersionUID = 1L;
    int[] values;

    @Override
    public Integer get(int index) {
      return values[index];
    }

    @Override
    public int size() {
      return values.length;
    }
  }

  /** Set by {@link Guarded}'s initialiser (reading a field of the class would initialise it). */
  static volatile boolean guardedInitialised;

  /** Initialised only if something allocates it or otherwise uses it. */
  static final class Guarded implements Serializable {
    private static final long serialVersionUID = 1L;

    static {
      guardedInitialised = true;
    }
  }

  private static Crafted allocating(int version, String type) {
    Crafted c = new Crafted().version(version);
    int t = c.type(type);
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    return c;
  }

  @Test
  void eachFormatVersionRestoresItsOwnForm() throws IOException {
    for (int v = SnapshotFile.OLDEST_VERSION; v <= SnapshotFile.VERSION; v++) {
      byte[] file = allocating(v, Plain.class.getName()).bytes();
      assertEquals(v, SnapshotFile.parse(file).version());
      assertInstanceOf(Plain.class, Codese.fromBytes(file), "format version " + v);
    }
  }

  /** A file of format {@code fileVersion} whose one allocation has the form of {@code form}. */
  private static byte[] mixed(int fileVersion, int form) {
    Crafted c = new Crafted().version(fileVersion);
    int t = c.type(Plain.class.getName());
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    c.code(
        0,
        ch -> {
          ch.mv.visitVarInsn(ALOAD, 0);
          ch.mv.visitInsn(ICONST_0);
          ch.mv.visitVarInsn(ALOAD, 1);
          ch.push(alloc);
          ch.mv.visitInsn(AALOAD);
          if (form < Grammar.ALLOCATE_VERSION) {
            ch.mv.visitTypeInsn(CHECKCAST, "java/lang/reflect/Constructor");
          }
          ch.allocate(form);
          ch.mv.visitInsn(AASTORE);
        });
    return c.bytes();
  }

  @Test
  void aVersion2FileWithTheConstructorFormIsRejected() {
    byte[] file = mixed(Grammar.ALLOCATE_VERSION, 1);
    String why = assertThrows(UnsafeSnapshotException.class, () -> Codese.load(file)).getMessage();
    assertTrue(why.contains("Constructor.newInstance"), why);
  }

  @Test
  void aVersion1FileWithTheAllocateFormIsRejected() {
    byte[] file = mixed(1, Grammar.ALLOCATE_VERSION);
    String why = assertThrows(UnsafeSnapshotException.class, () -> Codese.load(file)).getMessage();
    assertTrue(why.contains(RuntimeContract.of(Grammar.ALLOCATE_VERSION).allocateOwner()), why);
  }

  /**
   * A class constant handed to {@code Allocation.allocate} would create an object of a class the
   * snapshot never declared to allocate, past the default-surface check: only allocator constants
   * may reach it, and the class is not even initialised.
   */
  @Test
  void allocateTakesAllocatorConstantsOnly() {
    Crafted c = new Crafted();
    int t = c.type(Guarded.class.getName());
    int type = c.constant(new Constant.TypeRef(t));
    c.code(0, ch -> ch.alloc(0, type));
    assertThrows(IOException.class, () -> Codese.load(c.bytes()));
    assertFalse(guardedInitialised, "the class was initialised");
  }

  @Test
  void allocateIsRejectedInAClassThatJoinsANest() {
    Crafted c = new Crafted();
    int t = c.type(Plain.class.getName());
    int alloc = c.constant(new Constant.Allocator(t, Mode.SERIAL));
    c.code(0, ch -> ch.alloc(0, alloc));
    c.code(1, t, ch -> ch.alloc(0, alloc));
    assertThrows(IOException.class, () -> Codese.load(c.bytes()));
  }

  /**
   * Where the first non-serializable superclass's constructor has an effect, it still runs, once
   * per object, as with {@code ObjectInputStream}; where it is {@code AbstractList}'s, which does
   * nothing, the object is created without it, and both restore to the JDK's serial form.
   */
  @Test
  void constructorsRunExactlyWhereTheJdkRunsThemWithTheSameResult() throws Exception {
    List<Object> graph = new ArrayList<>();
    for (int i = 0; i < 40; i++) { // enough for an allocation loop
      Child c = new Child();
      c.own = i;
      c.mark = -1; // not serialized: Counted is not Serializable
      graph.add(c);
      Listing l = new Listing();
      l.values = new int[] {i, i + 1};
      graph.add(l);
    }
    byte[] snapshot = Codese.toBytes(graph);
    int before = Counted.made;
    @SuppressWarnings("unchecked")
    List<Object> copy = (List<Object>) Codese.fromBytes(snapshot);
    assertEquals(40, Counted.made - before, "Counted() runs once per restored Child");
    int jdkBefore = Counted.made;
    Object jdk = jdkRoundTrip(graph);
    assertEquals(40, Counted.made - jdkBefore);
    for (Object o : copy) {
      if (o instanceof Child ch) {
        assertEquals(7, ch.mark);
      }
    }
    assertArrayEquals(jdkForm(jdk), jdkForm(copy));
  }

  private static Object jdkRoundTrip(Object o) throws Exception {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(jdkForm(o)))) {
      return in.readObject();
    }
  }

  private static byte[] jdkForm(Object o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }
}
