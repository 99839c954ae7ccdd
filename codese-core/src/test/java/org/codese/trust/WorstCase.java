package org.codese.trust;

import java.io.Serializable;
import org.codese.Codese;
import org.codese.Snapshot;
import org.codese.program.Constant;
import org.codese.testkit.Crafted;
import org.objectweb.asm.Opcodes;

/**
 * Measures what the largest-cost snapshots of SECURITY.md's arithmetic cost under the default
 * limits: the biggest zero-filled array a tiny file may ask for, and the most objects a file of a
 * given size can allocate through a loop. Prints file size, load and restore times and heap used.
 * Run: {@code java -Xmx3g -cp <test classpath> org.codese.trust.WorstCase}.
 */
public final class WorstCase {
  /** A small serializable class to allocate. */
  static final class Cell implements Serializable {
    private static final long serialVersionUID = 1L;
    int value;
  }

  private WorstCase() {}

  public static void main(String[] args) throws Exception {
    Crafted big = new Crafted();
    big.code(
        0,
        ch -> {
          ch.mv.visitVarInsn(Opcodes.ALOAD, 0);
          ch.push(0);
          ch.push(1 << 27);
          ch.mv.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_LONG);
          ch.mv.visitInsn(Opcodes.AASTORE);
        });
    run("one long[2^27] array", big.bytes());
    int n = 250_000;
    Crafted many = new Crafted().slots(n);
    int cell = many.type(Cell.class.getName());
    int alloc = many.constant(new Constant.Allocator(cell, Constant.Mode.SERIAL));
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    int idsConstant = many.constant(new Constant.PrimArray(ids));
    many.code(0, ch -> ch.allocLoop(idsConstant, alloc));
    run(n + " objects through one loop", many.bytes());
  }

  private static void run(String what, byte[] file) throws Exception {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    long before = rt.totalMemory() - rt.freeMemory();
    long t0 = System.nanoTime();
    try (Snapshot s = Codese.load(file)) {
      long t1 = System.nanoTime();
      Object root = s.restore();
      long t2 = System.nanoTime();
      long used = rt.totalMemory() - rt.freeMemory() - before;
      System.out.printf(
          "%s: file %,d bytes, load %.1f ms, restore %.1f ms, heap +%,d MB (%s)%n",
          what,
          file.length,
          (t1 - t0) / 1e6,
          (t2 - t1) / 1e6,
          used >> 20,
          root.getClass().getSimpleName());
    }
  }
}
