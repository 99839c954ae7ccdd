package org.codese.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codese.Codese;
import org.codese.corpus.Corpus;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;
import org.codese.samples.RedBlackTree;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A deterministic guard of the emitter's size limit: every method of every generated class of the
 * corpus and of large graphs stays within {@link Grammar#JIT_HUGE_METHOD_LIMIT} bytes of bytecode,
 * above which HotSpot never compiles a method, so the emitter's estimate ({@link
 * Grammar#MAX_CHUNK_BYTES}) holds for the real size.
 */
class ChunkSizeTest {
  @Test
  void everyEmittedMethodStaysUnderTheJitLimit() throws Exception {
    List<Object> graphs = new ArrayList<>();
    for (Corpus.Case c : Corpus.all()) {
      graphs.add(c.graph().get());
    }
    graphs.add(RedBlackTree.random(100_000, 1));
    graphs.add(distinctStrings(50_000));
    graphs.add(mixedArray(40_000));
    graphs.add(manyKinds());
    int methods = 0;
    int largest = 0;
    for (Object g : graphs) {
      for (byte[] bytes : SnapshotFile.parse(Codese.toBytes(g)).classFiles()) {
        for (Map.Entry<String, Integer> m : codeLengths(bytes).entrySet()) {
          assertTrue(
              m.getValue() <= Grammar.JIT_HUGE_METHOD_LIMIT,
              m.getKey()
                  + " has "
                  + m.getValue()
                  + " bytes of code, over the JIT's "
                  + Grammar.JIT_HUGE_METHOD_LIMIT);
          methods++;
          largest = Math.max(largest, m.getValue());
        }
      }
    }
    assertTrue(methods > 500, "only " + methods + " methods checked");
    // not vacuous: some chunk comes near the estimate's limit
    assertTrue(largest > Grammar.MAX_CHUNK_BYTES / 2, "the largest method has only " + largest);
  }

  /** The reader of code lengths against a class whose method sizes are known. */
  @Test
  void codeLengthsAreReadFromTheClassFile() {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_PUBLIC,
        "Sized",
        null,
        "java/lang/Object",
        new String[] {"java/io/Serializable"});
    cw.visitField(Opcodes.ACC_PRIVATE, "f", "I", null, null).visitEnd();
    for (int n : new int[] {0, 7, 9_000}) {
      MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "m" + n, "()V", null, null);
      mv.visitCode();
      for (int i = 0; i < n; i++) {
        mv.visitInsn(Opcodes.NOP);
      }
      mv.visitInsn(Opcodes.RETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
    }
    cw.visitEnd();
    assertEquals(
        Map.of("Sized.m0()V", 1, "Sized.m7()V", 8, "Sized.m9000()V", 9_001),
        codeLengths(cw.toByteArray()));
  }

  /**
   * Each method's {@code code_length} (JVMS §4.7.3), read from the class file's bytes: ASM's tree
   * does not keep it.
   */
  private static Map<String, Integer> codeLengths(byte[] b) {
    ClassReader r = new ClassReader(b);
    char[] buf = new char[r.getMaxStringLength()];
    int p = r.header + 6; // access, this, super: then interfaces_count
    p += 2 + 2 * r.readUnsignedShort(p);
    p = skipMembers(r, p); // the fields
    Map<String, Integer> out = new LinkedHashMap<>();
    int count = r.readUnsignedShort(p);
    p += 2;
    for (int i = 0; i < count; i++) {
      String name = r.getClassName() + "." + r.readUTF8(p + 2, buf) + r.readUTF8(p + 4, buf);
      int attributes = r.readUnsignedShort(p + 6);
      p += 8;
      for (int k = 0; k < attributes; k++) {
        if (r.readUTF8(p, buf).equals("Code")) {
          out.put(name, r.readInt(p + 10)); // after max_stack and max_locals
        }
        p += 6 + r.readInt(p + 2);
      }
    }
    return out;
  }

  private static int skipMembers(ClassReader r, int at) {
    int count = r.readUnsignedShort(at);
    int p = at + 2;
    for (int i = 0; i < count; i++) {
      int attributes = r.readUnsignedShort(p + 6);
      p += 8;
      for (int k = 0; k < attributes; k++) {
        p += 6 + r.readInt(p + 2);
      }
    }
    return p;
  }

  private static List<String> distinctStrings(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("s" + i);
    }
    return out;
  }

  /**
   * Fewer than the planner's loop threshold of each of many classes: statements that stay
   * straight-line code, so that chunks fill up to the emitter's limit.
   */
  private static List<Object> manyKinds() {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < 31; i++) {
      out.add(new StringBuilder("b" + i));
      out.add(new StringBuffer("c" + i));
      out.add(new java.util.Date(i));
      out.add(java.util.BitSet.valueOf(new long[] {i + 1L}));
      out.add(new java.util.concurrent.atomic.AtomicInteger(i));
      out.add(new java.util.concurrent.atomic.AtomicLong(i));
      out.add(new java.util.concurrent.atomic.AtomicBoolean(i % 2 == 0));
      out.add(java.math.BigInteger.valueOf(i * 31L));
      out.add(new java.math.BigDecimal(i + ".5"));
      out.add(new java.util.UUID(i, -i));
      out.add(java.net.URI.create("http://h/" + i));
      out.add(new java.io.File("/f" + i));
      out.add(new int[] {i});
      out.add(new long[] {i});
      out.add(new char[] {(char) ('a' + i)});
      out.add(new double[] {i});
      out.add(new String[] {"s" + i});
      out.add(new Object[] {i});
      out.add(Long.valueOf(1000L + i));
      out.add(Double.valueOf(i + 0.25));
      out.add(Character.valueOf((char) (200 + i)));
      out.add(new java.util.Random(i));
      out.add(new java.util.SimpleTimeZone(i * 1000, "Z" + i));
    }
    return out;
  }

  /** Objects of several classes interleaved, so that fewer statements group into loops. */
  private static Object[] mixedArray(int n) {
    Object[] out = new Object[n];
    Map<String, Integer> shared = new HashMap<>();
    for (int i = 0; i < n; i++) {
      out[i] =
          switch (i % 5) {
            case 0 -> new StringBuilder("b" + i);
            case 1 -> Integer.valueOf(i * 7919);
            case 2 -> new java.util.Date(i * 1000L);
            case 3 -> new int[] {i, -i};
            default -> shared;
          };
    }
    return out;
  }
}
