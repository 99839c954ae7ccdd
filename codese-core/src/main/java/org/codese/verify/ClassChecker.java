package org.codese.verify;

import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.codese.program.Grammar;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;

/** Checks the structure of one generated class and hands each method to {@link MethodChecker}. */
final class ClassChecker extends ClassVisitor {
  private final int index;
  private final String pkg;
  private final String host;
  private final int[] longestArray;
  private final List<String> out;
  private String name = "?";
  private final List<MethodChecker> chunks = new ArrayList<>();
  private MethodChecker accept;
  private boolean init;

  ClassChecker(int index, String pkg, String host, int[] longestArray, List<String> out) {
    super(ASM9);
    this.index = index;
    this.pkg = pkg;
    this.host = host;
    this.longestArray = longestArray;
    this.out = out;
  }

  void fail(String what) {
    out.add("generated class " + index + " (" + name + "): " + what);
  }

  @Override
  public void visit(int version, int access, String name, String signature, String superName,
      String[] interfaces) {
    this.name = name;
    String expected = (pkg.isEmpty() ? "" : pkg + "/") + Grammar.CLASS_PREFIX;
    if (!name.startsWith(expected) || name.substring(expected.length()).indexOf('/') >= 0) {
      fail("its name is not " + expected + "N");
    }
    if (!"java/lang/Object".equals(superName)) {
      fail("extends " + superName + ", not java/lang/Object");
    }
    if (interfaces == null || interfaces.length != 1
        || !Grammar.ENTRY_INTERFACE.equals(interfaces[0])) {
      fail("must implement exactly " + Grammar.ENTRY_INTERFACE);
    }
    if ((access & (ACC_INTERFACE | ACC_ABSTRACT | ACC_ANNOTATION | ACC_ENUM | ACC_MODULE)) != 0) {
      fail("is not a plain class");
    }
  }

  @Override
  public FieldVisitor visitField(int access, String name, String descriptor, String signature,
      Object value) {
    fail("declares field " + name + "; generated classes have no fields");
    return null;
  }

  @Override
  public void visitNestHost(String nestHost) {
    fail("declares a nest host");
  }

  @Override
  public void visitNestMember(String nestMember) {
    fail("declares a nest member");
  }

  @Override
  public void visitPermittedSubclass(String permittedSubclass) {
    fail("declares permitted subclasses");
  }

  @Override
  public void visitInnerClass(String name, String outerName, String innerName, int access) {
    fail("declares inner class " + name);
  }

  @Override
  public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
      String[] exceptions) {
    if (name.equals("<init>") && descriptor.equals("()V") && !init) {
      init = true;
      return new MethodChecker(this, name, MethodChecker.Kind.INIT, host, longestArray);
    }
    if (name.equals("accept") && descriptor.equals("(Ljava/lang/Object;Ljava/lang/Object;)V")
        && (access & ACC_STATIC) == 0 && accept == null) {
      accept = new MethodChecker(this, name, MethodChecker.Kind.ACCEPT, host, longestArray);
      return accept;
    }
    if (name.equals("m" + chunks.size()) && descriptor.equals(Grammar.CHUNK_DESCRIPTOR)
        && (access & ACC_STATIC) != 0) {
      MethodChecker m = new MethodChecker(this, name, MethodChecker.Kind.CHUNK, host,
          longestArray);
      chunks.add(m);
      return m;
    }
    fail("declares method " + name + descriptor + ", which the grammar does not allow"
        + " (only <init>, accept and chunks m0, m1, ... in order)");
    return null;
  }

  String className() {
    return name;
  }

  void finish() {
    if (!init) {
      fail("has no no-arg constructor");
    }
    if (accept == null) {
      fail("has no accept method");
    } else if (accept.chunkCalls() != chunks.size()) {
      fail("accept calls " + accept.chunkCalls() + " chunks but the class has " + chunks.size());
    }
  }
}
