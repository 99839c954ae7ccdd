package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Externalizable;
import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.codese.jvm.Jvm;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The rules of the default surface on their own: {@link org.codese.jvm.Jvm#serialInitClass} against
 * the JDK's own decision, and {@link AllowList}'s patterns.
 */
class SurfaceRulesTest {
  /** A non-serializable base whose only no-arg constructor is private. */
  static class PrivateBase {
    private PrivateBase() {}

    PrivateBase(int unused) {}
  }

  static final class OverPrivateBase extends PrivateBase implements Serializable {
    private static final long serialVersionUID = 1L;

    OverPrivateBase() {
      super(1);
    }
  }

  /** A non-serializable base with a package-private no-arg constructor, in this package. */
  static class PackageBase {
    PackageBase() {}
  }

  static final class OverPackageBase extends PackageBase implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /** A non-serializable base without any no-arg constructor. */
  static class ArgBase {
    ArgBase(int unused) {}
  }

  static final class OverArgBase extends ArgBase implements Serializable {
    private static final long serialVersionUID = 1L;

    OverArgBase() {
      super(1);
    }
  }

  /**
   * {@code org.codese.jvm.Jvm.serialInitClass} decides as the JDK's {@code ReflectionFactory}
   * (which {@code ObjectStreamClass} asks, and {@link Jvm#serialConstructor} too) for every public
   * concrete {@code Serializable} class of {@code java.base}'s main packages and for the hand-made
   * cases here, including classes whose superclass's constructors another package may not call.
   */
  @Test
  void serialConstructorRuleMatchesTheJdk() throws Exception {
    List<Class<?>> classes = new ArrayList<>(javaBaseSerializables());
    assertTrue(classes.size() > 150, "only " + classes.size() + " JDK classes found");
    Class<?> overPackagePrivate = generatedOverPackagePrivateConstructor();
    classes.addAll(
        List.of(
            OverPrivateBase.class,
            OverPackageBase.class,
            OverArgBase.class,
            overPackagePrivate,
            generatedOverProtectedConstructor()));
    List<String> differ = new ArrayList<>();
    int valid = 0;
    for (Class<?> c : classes) {
      boolean jdk = Jvm.serialConstructor(c) != null;
      boolean ours = org.codese.jvm.Jvm.serialInitClass(c) != null;
      valid += jdk ? 1 : 0;
      if (jdk != ours) {
        differ.add(c.getName() + " (JDK " + jdk + ", Codese " + ours + ")");
      }
    }
    assertEquals(List.of(), differ);
    assertTrue(valid > 150 && valid < classes.size(), valid + " of " + classes.size());
    assertNull(org.codese.jvm.Jvm.serialInitClass(OverPrivateBase.class));
    assertEquals(PackageBase.class, org.codese.jvm.Jvm.serialInitClass(OverPackageBase.class));
    assertNull(org.codese.jvm.Jvm.serialInitClass(OverArgBase.class));
    assertEquals(java.util.AbstractList.class, org.codese.jvm.Jvm.serialInitClass(ArrayList.class));
    assertNull(org.codese.jvm.Jvm.serialInitClass(overPackagePrivate));
  }

  private static List<Class<?>> javaBaseSerializables() throws Exception {
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    List<Class<?>> out = new ArrayList<>();
    for (String pkg :
        List.of(
            "java/lang",
            "java/util",
            "java/io",
            "java/net",
            "java/time",
            "java/util/concurrent",
            "java/math",
            "java/text")) {
      try (Stream<Path> files = Files.list(jrt.getPath("/modules/java.base/" + pkg))) {
        for (Path p : (Iterable<Path>) files::iterator) {
          String n = p.getFileName().toString();
          if (!n.endsWith(".class") || n.equals("module-info.class")) {
            continue;
          }
          Class<?> c =
              Class.forName(
                  pkg.replace('/', '.') + "." + n.substring(0, n.length() - 6), false, null);
          if (Serializable.class.isAssignableFrom(c)
              && Modifier.isPublic(c.getModifiers())
              && !Externalizable.class.isAssignableFrom(c)
              && !c.isInterface()
              && !c.isEnum()
              && !c.isRecord()
              && !Modifier.isAbstract(c.getModifiers())
              && !c.isArray()) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  /**
   * A {@code Serializable} class of this package over {@link
   * org.codese.load.other.PackagePrivateBase}, public with only a package-private no-arg
   * constructor in another package: javac would not compile it, the JVM loads it, the JDK finds no
   * valid constructor.
   */
  private static Class<?> generatedOverPackagePrivateConstructor() throws Exception {
    return generated("GenOverPackagePrivate", "org/codese/load/other/PackagePrivateBase");
  }

  /** The same over {@code java.util.AbstractList}, whose constructor is protected: valid. */
  private static Class<?> generatedOverProtectedConstructor() throws Exception {
    return generated("GenOverAbstractList", "java/util/AbstractList");
  }

  private static Class<?> generated(String simpleName, String superName) throws Exception {
    String name = "org/codese/load/" + simpleName;
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER,
        name,
        null,
        superName,
        new String[] {"java/io/Serializable"});
    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    if (superName.equals("java/util/AbstractList")) {
      for (String[] m : new String[][] {{"get", "(I)Ljava/lang/Object;"}, {"size", "()I"}}) {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, m[0], m[1], null, null);
        mv.visitCode();
        mv.visitInsn(m[0].equals("size") ? Opcodes.ICONST_0 : Opcodes.ACONST_NULL);
        mv.visitInsn(m[0].equals("size") ? Opcodes.IRETURN : Opcodes.ARETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
      }
    }
    cw.visitEnd();
    return MethodHandles.lookup().defineClass(cw.toByteArray());
  }

  @Test
  void patternsMatchLikeJep290() {
    String nested = "org.codese.DefaultSurfaceTest$Key";
    for (String p :
        List.of(
            nested,
            "org.codese.*",
            "org.codese.**",
            "org.**",
            "org.codese.DefaultSurfaceTest$*",
            "org.codese.Default*",
            "**",
            "*")) {
      assertTrue(AllowList.of(List.of(p)).admits(nested), p);
    }
    for (String p :
        List.of(
            "org.codese.load.*",
            "org.codese.load.**",
            "org.codese.DefaultSurfaceTest",
            "org.*",
            "com.**",
            "org.codese.Key")) {
      assertFalse(AllowList.of(List.of(p)).admits(nested), p);
    }
    AllowList list = AllowList.of(List.of("java.util.Timer", "com.example.**"));
    assertTrue(list.admits(java.util.Timer.class));
    assertTrue(list.admits(java.util.Timer[][].class), "arrays are judged by their elements");
    assertTrue(list.admits("com.example.deep.Thing"));
    assertFalse(list.admits("com.examples.Thing"));
    assertFalse(AllowList.NONE.admits(Object.class));
    assertTrue(AllowList.ALL.admits(Object.class));
  }

  @Test
  void malformedPatternsAreRefusedWithTheSyntax() {
    for (String p :
        List.of(
            "",
            " a.B",
            "a.B;c.D",
            "!a.B",
            "java.base/java.lang.*",
            "a.*.B",
            "a.B**",
            "a,b",
            "a.***")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> AllowList.of(List.of(p)), p);
      assertNotNull(e.getMessage());
    }
    assertThrows(
        NullPointerException.class, () -> AllowList.of(java.util.Arrays.asList("a", null)));
  }

  @Test
  void withAddsOnlyWhatThePatternsMiss() {
    AllowList list = AllowList.of(List.of("com.example.*"));
    assertEquals(
        List.of("com.example.*", "a.Z", "org.Other"),
        list.with(List.of("org.Other", "com.example.Foo", "a.Z", "org.Other")));
    assertEquals(
        "CodeseOptions.defaults().withAllowedClasses(\"a.B\", \"c.*\")",
        AllowList.optionsLine(List.of("a.B", "c.*")));
  }
}
