package org.codese.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.codese.testkit.ClassFiles;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * {@link Jvm#declaredSuid} gives the {@code serialVersionUID} a class declares as {@code
 * ObjectStreamClass} finds it, whatever this JVM may see of the field (issue 10, part 1): the JDK's
 * own classes, whose packages the test JVM does not open, are read from their class files.
 */
class DeclaredSuidTest {
  /** Set by {@link Lazy}'s static initialiser. */
  static boolean lazyInitialised;

  static final class Lazy implements Serializable {
    private static final long serialVersionUID = 42L;

    static {
      lazyInitialised = true;
    }
  }

  /** A value the compiler cannot fold: set by the static initialiser, read by reflection. */
  static final class Computed implements Serializable {
    private static final long serialVersionUID = Long.parseLong("7");
  }

  /** An {@code int} field, which {@code ObjectStreamClass} widens. */
  static final class IntTyped implements Serializable {
    private static final int serialVersionUID = -5;
  }

  /** Not {@code final}: {@code ObjectStreamClass} ignores it and computes a value. */
  static final class NotFinal implements Serializable {
    @SuppressWarnings("unused")
    private static long serialVersionUID = 9L;
  }

  /** A {@code char} field, widened as {@code Field.getLong} widens it. */
  static final class CharTyped implements Serializable {
    private static final char serialVersionUID = '\uffff';
  }

  static final class None implements Serializable {}

  @Test
  void theJdksClosedClassesGiveWhatObjectStreamClassGives() {
    for (Class<?> c :
        List.of(
            ArrayList.class,
            LinkedList.class,
            HashMap.class,
            TreeMap.class,
            EnumMap.class,
            ConcurrentHashMap.class,
            AtomicLong.class,
            Integer.class,
            String.class,
            BigDecimal.class,
            UUID.class,
            LocalDate.class)) {
      long jdk = ObjectStreamClass.lookup(c).getSerialVersionUID();
      assertEquals(jdk, Jvm.declaredSuid(c), c.getName()); // Unsafe before JDK 24, else the file
      assertEquals(jdk, Jvm.declaredSuidFromClassFile(c), c.getName());
    }
    assertEquals(8683452581122892189L, Jvm.declaredSuid(ArrayList.class));
  }

  /**
   * {@code codese verify}'s read: a constant comes from the class file, which runs no static
   * initialiser ({@link Jvm#declaredSuid}, the loader's, reads an open field by reflection, after
   * the filter, as {@code ObjectStreamClass} does).
   */
  @Test
  void aConstantIsReadFromTheClassFileWithoutInitialisingTheClass() throws Exception {
    Class<?> c = Class.forName(Lazy.class.getName(), false, getClass().getClassLoader());
    assertEquals(42L, Jvm.declaredSuidFromClassFile(c));
    assertFalse(lazyInitialised, "reading the constant ran the static initialiser");
    assertEquals(7L, Jvm.declaredSuidFromClassFile(Computed.class));
    assertEquals(
        ObjectStreamClass.lookup(ArrayList.class).getSerialVersionUID(),
        Jvm.declaredSuidFromClassFile(ArrayList.class));
  }

  @Test
  void otherDeclarationsAreReadAsObjectStreamClassReadsThem() {
    assertEquals(7L, Jvm.declaredSuid(Computed.class));
    assertEquals(ObjectStreamClass.lookup(Computed.class).getSerialVersionUID(), 7L);
    assertEquals(-5L, Jvm.declaredSuid(IntTyped.class));
    assertEquals(ObjectStreamClass.lookup(IntTyped.class).getSerialVersionUID(), -5L);
    assertEquals(0xffffL, Jvm.declaredSuid(CharTyped.class));
    assertEquals(ObjectStreamClass.lookup(CharTyped.class).getSerialVersionUID(), 0xffffL);
    assertNull(Jvm.declaredSuid(NotFinal.class));
    assertNotEquals(9L, ObjectStreamClass.lookup(NotFinal.class).getSerialVersionUID());
    assertNull(Jvm.declaredSuid(None.class));
    assertNull(Jvm.declaredSuid(int.class));
    assertNull(Jvm.declaredSuid(String[].class));
  }

  /** A class its loader defined from bytes, without a class file to read: the field is read. */
  @Test
  void aClassWithoutAClassFileIsReadByReflection() throws Exception {
    ClassWriter cw = new ClassWriter(0);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL,
        "suid/Bytes",
        null,
        "java/lang/Object",
        new String[] {"java/io/Serializable"});
    cw.visitField(
            Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL,
            "serialVersionUID",
            "J",
            null,
            77L)
        .visitEnd();
    ClassFiles.defaultConstructor(cw);
    cw.visitEnd();
    ClassLoader loader =
        ClassFiles.definingOnly(getClass().getClassLoader(), "suid.Bytes", cw.toByteArray());
    Class<?> c = Class.forName("suid.Bytes", false, loader);
    assertNull(c.getResource("Bytes.class"));
    assertEquals(77L, Jvm.declaredSuid(c));
  }

  @Test
  void theClassFileGivesOnlyConstants() {
    assertEquals(42L, ClassFileSuid.read(Lazy.class));
    assertNull(ClassFileSuid.read(Computed.class), "no ConstantValue: the initialiser sets it");
    assertNull(ClassFileSuid.read(NotFinal.class), "not static final");
    assertNull(ClassFileSuid.read(None.class));
  }
}
