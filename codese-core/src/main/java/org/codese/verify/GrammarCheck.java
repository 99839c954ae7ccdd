package org.codese.verify;

import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;

/**
 * Checks that every generated class of a snapshot follows the restore grammar of {@link Grammar},
 * without defining or running anything. A class outside the grammar (a call of any other method, a
 * field read, a static write, a branch other than the counted loop, an exception handler, {@code
 * invokedynamic}, a class initializer, an extra method or field) is reported with its class,
 * method and instruction.
 *
 * <p>What the grammar guarantees: generated code only allocates objects of classes the snapshot
 * names (through constructors Java serialization would run), stores into the restore table, into
 * fields of the host class's nest and into arrays, and calls the sanctioned hooks; every loop
 * counts up to a fixed array length, so the code always terminates.
 */
public final class GrammarCheck {
  private GrammarCheck() {}

  /**
   * @param file a parsed snapshot
   * @return the violations, one line each; empty if every class follows the grammar
   */
  public static List<String> violations(SnapshotFile file) {
    return check(file).violations();
  }

  /**
   * The outcome of a check.
   *
   * @param violations one line per violation; empty if every class follows the grammar
   * @param longestArray the greatest constant array length the code creates
   * @param arrayElements the total number of array elements the code creates
   * @param program the statements of every generated class, in file order; meaningful only when
   *     there are no violations
   */
  public record Result(List<String> violations, int longestArray, long arrayElements,
      List<Lifted> program) {}

  /**
   * The statements of one generated class.
   *
   * @param index the class's index in the snapshot
   * @param phase its phase (0 create, 1 set, 2 finish)
   * @param host the class-table index of its nest host, or -1
   * @param chunks the {@link Stmt} codes of each chunk method, in the order they run
   * @param names the class names, member names and descriptors the statements refer to
   */
  public record Lifted(int index, int phase, int host, List<int[]> chunks, List<String> names) {}

  /**
   * @param file a parsed snapshot
   * @return the violations and the longest array the code creates
   */
  public static Result check(SnapshotFile file) {
    List<String> out = new ArrayList<>();
    long[] arrays = new long[2];
    List<Lifted> program = new ArrayList<>();
    for (int i = 0; i < file.classFiles().size(); i++) {
      int host = file.placements().get(i)[1];
      String pkg = host < 0 ? Grammar.PACKAGE : packageOf(file.classes().get(host).name());
      String hostClass = host < 0 ? null : file.classes().get(host).name().replace('.', '/');
      ClassChecker checker = new ClassChecker(i, pkg, hostClass, arrays, out);
      try {
        checker.check(ClassFile.parse(file.classFiles().get(i)));
        program.add(new Lifted(i, file.placements().get(i)[0], host, checker.chunks(),
            checker.names()));
      } catch (RuntimeException e) {
        out.add("generated class " + i + ": not a readable class file (" + e + ")");
      }
    }
    return new Result(List.copyOf(out), (int) arrays[0], arrays[1], List.copyOf(program));
  }

  /**
   * @param code {@link Stmt} codes of one chunk
   * @param pc the start of a statement
   * @return the number of ints of the statement at {@code pc}
   * @throws IllegalArgumentException if no statement starts at {@code pc}
   */
  public static int statementSize(int[] code, int pc) {
    return switch (code[pc]) {
      case Stmt.ELEMENT_LOOP, Stmt.RUN_STEPS -> 2;
      case Stmt.STORE_ALLOC, Stmt.STORE_STRING, Stmt.STORE_CONSTANT, Stmt.ALLOC_LOOP,
          Stmt.STRING_LOOP, Stmt.SELECT -> 3;
      case Stmt.STORE_CLONE, Stmt.STORE_BOX, Stmt.SET_FIELD, Stmt.PUT_ELEMENT -> 4;
      case Stmt.STORE_ARRAY, Stmt.BOX_LOOP -> 5;
      case Stmt.PUT_FIELD -> 7;
      case Stmt.CLUSTER_LOOP -> 4 + code[pc + 3] * Stmt.COLUMN_SIZE;
      default -> throw new IllegalArgumentException("no statement starts at " + pc);
    };
  }

  private static String packageOf(String binaryName) {
    int dot = binaryName.lastIndexOf('.');
    return dot < 0 ? "" : binaryName.substring(0, dot).replace('.', '/');
  }
}
