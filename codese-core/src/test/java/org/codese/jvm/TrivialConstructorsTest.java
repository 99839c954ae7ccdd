package org.codese.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.objectweb.asm.Opcodes.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * {@link Jvm#hasTrivialConstructor} is a claim about the running JDK's class files: each class it
 * names has a public or protected no-arg constructor that only calls its superclass's trivial
 * no-arg constructor and stores default values into its own fields. Read here from the JDK's own
 * bytecode, on every JDK the build runs on.
 */
class TrivialConstructorsTest {
  /** Classes the JDK's serializable collections and maps first reach that are not serializable. */
  private static final List<Class<?>> CANDIDATES =
      List.of(
          Object.class,
          java.util.AbstractMap.class,
          java.util.AbstractList.class,
          java.util.AbstractCollection.class,
          java.util.AbstractSet.class,
          java.util.AbstractSequentialList.class,
          java.util.AbstractQueue.class,
          java.util.Dictionary.class,
          Thread.class,
          java.io.InputStream.class,
          java.util.concurrent.locks.AbstractQueuedSynchronizer.class,
          java.util.AbstractMap.SimpleEntry.class);

  /** A class whose constructor sets a field to a value other than its default. */
  static class Marks {
    int mark = 1;
  }

  @Test
  void everyClassClaimedTrivialHasATrivialConstructorOnThisJdk() throws IOException {
    int claimed = 0;
    for (Class<?> c : CANDIDATES) {
      if (Jvm.hasTrivialConstructor(c)) {
        claimed++;
        assertTrue(trivial(c), c + " has a no-arg constructor that does something");
      }
    }
    assertEquals(8, claimed, "the candidates include every class the claim names");
  }

  @Test
  void theCheckSeesAConstructorWithAnEffect() throws IOException {
    assertFalse(trivial(Marks.class));
    assertFalse(trivial(Thread.class));
    assertFalse(Jvm.hasTrivialConstructor(Marks.class));
  }

  /** The JDK's serializable collections all start at a class with a trivial constructor. */
  @Test
  void jdkCollectionsNeedNoSerializationConstructor() {
    for (Class<?> c :
        List.of(
            java.util.HashMap.class,
            java.util.LinkedHashMap.class,
            java.util.TreeMap.class,
            java.util.ArrayList.class,
            java.util.LinkedList.class,
            java.util.ArrayDeque.class,
            java.util.HashSet.class,
            java.util.TreeSet.class,
            java.util.PriorityQueue.class,
            java.util.Hashtable.class,
            java.util.IdentityHashMap.class,
            java.util.EnumMap.class,
            java.util.concurrent.ConcurrentHashMap.class,
            java.util.Vector.class,
            Integer.class,
            String.class,
            java.math.BigDecimal.class,
            java.time.LocalDate.class)) {
      Class<?> init = Jvm.serialInitClass(c);
      assertTrue(init != null && Jvm.hasTrivialConstructor(init), c + " starts at " + init);
    }
  }

  private static boolean trivial(Class<?> c) throws IOException {
    if (c == Object.class) {
      return true;
    }
    if (Serializable.class.isAssignableFrom(c) && c != Object.class) {
      return false; // never a first non-serializable superclass
    }
    MethodNode init = noArgConstructor(c);
    if (init == null || (init.access & (ACC_PUBLIC | ACC_PROTECTED)) == 0) {
      return false;
    }
    String self = c.getName().replace('.', '/');
    List<AbstractInsnNode> code = new ArrayList<>();
    for (AbstractInsnNode i : init.instructions) {
      if (i.getOpcode() >= 0) {
        code.add(i);
      }
    }
    int at = 0;
    boolean calledSuper = false;
    while (at < code.size()) {
      AbstractInsnNode i = code.get(at);
      if (i.getOpcode() == RETURN && at == code.size() - 1) {
        return calledSuper;
      }
      if (i.getOpcode() != ALOAD || at + 1 >= code.size()) {
        return false;
      }
      AbstractInsnNode next = code.get(at + 1);
      if (next instanceof MethodInsnNode m
          && m.getOpcode() == INVOKESPECIAL
          && m.name.equals("<init>")
          && m.desc.equals("()V")
          && !calledSuper) {
        Class<?> sup = c.getSuperclass();
        if (!m.owner.equals(sup.getName().replace('.', '/')) || !trivial(sup)) {
          return false;
        }
        calledSuper = true;
        at += 2;
      } else if (calledSuper && at + 2 < code.size() && isDefault(next)) {
        AbstractInsnNode store = code.get(at + 2);
        if (!(store instanceof FieldInsnNode f)
            || f.getOpcode() != PUTFIELD
            || !f.owner.equals(self)) {
          return false;
        }
        at += 3;
      } else {
        return false;
      }
    }
    return false;
  }

  private static boolean isDefault(AbstractInsnNode i) {
    int op = i.getOpcode();
    return op == ICONST_0
        || op == ACONST_NULL
        || op == LCONST_0
        || op == FCONST_0
        || op == DCONST_0;
  }

  private static MethodNode noArgConstructor(Class<?> c) throws IOException {
    String resource = "/" + c.getName().replace('.', '/') + ".class";
    try (InputStream in = c.getResourceAsStream(resource)) {
      ClassNode node = new ClassNode();
      new ClassReader(in.readAllBytes()).accept(node, ClassReader.SKIP_FRAMES);
      for (MethodNode m : node.methods) {
        if (m.name.equals("<init>") && m.desc.equals("()V")) {
          return Modifier.isPrivate(m.access) ? null : m;
        }
      }
      return null;
    }
  }
}
