package org.codese.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.codese.Codese;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A fixture recorded from an older shape of its class: the tests that use it fail with a message
 * that names the fixture and its file and says how to record it again, the others run, and
 * recording again mends it.
 */
class StaleFixtureTest {
  /** The class as the tests have it now; the fixture was recorded when it had other fields. */
  static final class Thing {
    int count;
    String label;
  }

  @Launch.Sample
  static class UsesStale {
    @Fixture("thing")
    Thing thing;

    static Thing thing() {
      Thing t = new Thing();
      t.count = 3;
      t.label = "now";
      return t;
    }

    @Test
    void one() {
      assertEquals(3, thing.count);
    }

    @Test
    void two() {
      assertEquals("now", thing.label);
    }
  }

  @Launch.Sample
  static class Unaffected {
    @Test
    void runs() {}
  }

  @Test
  void staleFixtureSaysHowToRecordItAgain(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("org/codese/junit/thing.cdse");
    Files.createDirectories(file.getParent());
    Files.write(file, Codese.toBytes(oldThing()));

    TestExecutionSummary s = Launch.run(dir, List.of(), UsesStale.class, Unaffected.class);
    assertEquals(1, s.getTestsSucceededCount());
    List<String> messages = Launch.failures(s);
    assertEquals(2, messages.size());
    String message = messages.get(0);
    String declared =
        "Codese fixture \"thing\" (declared in "
            + UsesStale.class.getName()
            + ", file "
            + file
            + ") is stale: its classes changed since it was recorded (";
    assertTrue(message.startsWith(declared), message);
    assertTrue(message.contains(Thing.class.getName()), message);
    assertTrue(
        message.endsWith(
            ").\nRe-record it: mvn test -Dtest=StaleFixtureTest"
                + " -Dcodese.fixtures.record=thing\n(codese.fixtures.record is a system property or"
                + " JUnit configuration parameter, true for every fixture; or delete the file: the next"
                + " run records it.)"),
        message);
    assertEquals(message, messages.get(1));

    s = Launch.run(dir, List.of(FixtureSpec.RECORD, "thing"), UsesStale.class);
    assertEquals(List.of(), Launch.failures(s));
    assertEquals(2, s.getTestsSucceededCount());
  }

  /** A {@link Thing} of the class's older shape, {@code int count; long removed}. */
  private static Object oldThing() throws Exception {
    String name = Thing.class.getName();
    byte[] code = oldThingClass(name.replace('.', '/'));
    ClassLoader loader =
        new ClassLoader(StaleFixtureTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            return n.equals(name)
                ? defineClass(n, code, 0, code.length)
                : super.loadClass(n, resolve);
          }
        };
    return loader.loadClass(name).getDeclaredConstructor().newInstance();
  }

  private static byte[] oldThingClass(String internalName) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        internalName,
        null,
        "java/lang/Object",
        null);
    cw.visitField(0, "count", "I", null, null).visitEnd();
    cw.visitField(0, "removed", "J", null, null).visitEnd();
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    mv.visitCode();
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }
}
