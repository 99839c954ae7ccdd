package org.codese.verify;

import java.util.List;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;
import org.codese.program.TypeNames;

/** Checks the structure of one generated class and hands each method to {@link MethodChecker}. */
final class ClassChecker {
  private static final int ACC_STATIC = 0x0008;
  private static final int ACC_INTERFACE = 0x0200;
  private static final int ACC_ABSTRACT = 0x0400;
  private static final int ACC_ANNOTATION = 0x2000;
  private static final int ACC_ENUM = 0x4000;
  private static final int ACC_MODULE = 0x8000;

  /** Class access flags (JVMS §4.1) no generated class has: it is a plain concrete class. */
  private static final int NOT_PLAIN =
      ACC_INTERFACE | ACC_ABSTRACT | ACC_ANNOTATION | ACC_ENUM | ACC_MODULE;

  /**
   * The deepest operand stack any generated method needs (a chunk needs at most six slots: a new
   * box of a long into the table), with room to spare; a larger {@code max_stack} only asks the JVM
   * for huge frames.
   */
  static final int MAX_STACK = 16;

  private final int index;
  private final String pkg;
  private final String host;
  private final RuntimeContract contract;
  private final long[] arrays;
  private final List<String> out;
  private String name = "?";
  private final java.util.ArrayList<int[]> lifted = new java.util.ArrayList<>();
  private final java.util.ArrayList<String> names = new java.util.ArrayList<>();
  private final java.util.HashMap<String, Integer> indices = new java.util.HashMap<>();

  ClassChecker(
      int index,
      String pkg,
      String host,
      RuntimeContract contract,
      long[] arrays,
      List<String> out) {
    this.index = index;
    this.pkg = pkg;
    this.host = host;
    this.contract = contract;
    this.arrays = arrays;
    this.out = out;
  }

  void fail(String what) {
    out.add("generated class " + index + " (" + TypeNames.javaName(name) + "): " + what);
  }

  String className() {
    return name;
  }

  /**
   * @return the {@link Stmt} codes of each chunk, in the order {@code accept} runs them
   */
  List<int[]> chunks() {
    return List.copyOf(lifted);
  }

  /**
   * @return the names the chunks' statements refer to
   */
  List<String> names() {
    return List.copyOf(names);
  }

  void check(ClassFile cf) {
    name = cf.name;
    String expected = (pkg.isEmpty() ? "" : pkg + "/") + Grammar.CLASS_PREFIX;
    if (!name.startsWith(expected) || name.substring(expected.length()).indexOf('/') >= 0) {
      fail("its name is not " + TypeNames.javaName(expected) + "N");
    }
    if (!"java/lang/Object".equals(cf.superName)) {
      fail(
          "extends "
              + (cf.superName == null ? "nothing" : TypeNames.javaName(cf.superName))
              + ", not java.lang.Object");
    }
    if (!cf.interfaces.equals(List.of(Grammar.ENTRY_INTERFACE))) {
      StringBuilder names = new StringBuilder();
      for (String i : cf.interfaces) {
        names.append(names.length() == 0 ? "" : ", ").append(TypeNames.javaName(i));
      }
      fail(
          "must implement exactly "
              + TypeNames.javaName(Grammar.ENTRY_INTERFACE)
              + ", not ["
              + names
              + "]");
    }
    if ((cf.access & NOT_PLAIN) != 0) {
      fail("is not a plain class");
    }
    for (String f : cf.fields) {
      fail("declares field " + f + "; generated classes have no fields");
    }
    for (String a : cf.attributes) {
      if (!a.equals("SourceFile")) {
        fail("has class attribute " + a + ", which generated classes do not have");
      }
    }
    if (cf.hasForbiddenConstants()) {
      fail("has method handle, dynamic or module constants, which the grammar never uses");
    }
    methods(cf);
  }

  private void methods(ClassFile cf) {
    boolean init = false;
    MethodChecker accept = null;
    int chunks = 0;
    for (ClassFile.Method m : cf.methods) {
      MethodChecker.Kind kind = null;
      if (m.name().equals("<init>") && m.descriptor().equals("()V") && !init) {
        init = true;
        kind = MethodChecker.Kind.INIT;
      } else if (m.name().equals(Grammar.ENTRY_METHOD)
          && accept == null
          && m.descriptor().equals(Grammar.ENTRY_DESCRIPTOR)
          && (m.access() & ACC_STATIC) == 0) {
        kind = MethodChecker.Kind.ACCEPT;
      } else if (m.name().equals(Grammar.chunkName(chunks))
          && (m.access() & ACC_STATIC) != 0
          && m.descriptor().equals(Grammar.CHUNK_DESCRIPTOR)) {
        chunks++;
        kind = MethodChecker.Kind.CHUNK;
      } else {
        fail(
            "declares method "
                + TypeNames.javaMethod(m.name(), m.descriptor())
                + ", which the grammar does not allow"
                + " (only <init>, accept and chunks m0, m1, ... in order)");
        continue;
      }
      if (m.code() == null) {
        fail("method " + m.name() + " has no code");
        continue;
      }
      MethodChecker checker =
          new MethodChecker(this, m.name(), kind, host, contract, arrays, names, indices);
      if (m.maxStack() > MAX_STACK || m.maxLocals() > MethodChecker.MAX_LOCALS) {
        checker.fail(
            -1,
            "asks for "
                + m.maxStack()
                + " stack slots and "
                + m.maxLocals()
                + " locals; the grammar needs at most "
                + MAX_STACK
                + " and "
                + MethodChecker.MAX_LOCALS);
        continue;
      }
      if (m.handlers() != 0) {
        checker.fail(-1, "has an exception handler; the grammar has none");
        continue;
      }
      checker.check(cf, m.code());
      if (kind == MethodChecker.Kind.CHUNK) {
        lifted.add(checker.statements());
      }
      if (kind == MethodChecker.Kind.ACCEPT) {
        accept = checker;
      }
    }
    if (!init) {
      fail("has no no-arg constructor");
    }
    if (accept == null) {
      fail("has no accept method");
    } else if (accept.chunkCalls() != chunks) {
      fail("accept calls " + accept.chunkCalls() + " chunks but the class has " + chunks);
    }
  }
}
