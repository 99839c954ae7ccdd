package org.codese.verify;

import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;
import org.codese.program.RuntimeContract;

/**
 * Checks that every generated class of a snapshot follows the restore grammar of {@link Grammar},
 * without defining or running anything. A class outside the grammar (a call of any other method, a
 * field read, a static write, a branch other than the counted loop, an exception handler, {@code
 * invokedynamic}, a class initializer, an extra method or field) is reported with its class, method
 * and instruction.
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
  public record Result(
      List<String> violations, int longestArray, long arrayElements, List<Lifted> program) {}

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
   * What checking one class file found, independent of where it stands in a snapshot: for the
   * segments of one stream, which may send the same class file again (the loader keeps this by the
   * file's bytes and its host's name, the only inputs of the check, and never changes it).
   *
   * @param chunks as in {@link Lifted}
   * @param names as in {@link Lifted}
   * @param longestArray the greatest constant array length the class creates
   * @param arrayElements the total number of array elements it creates
   */
  public record Checked(
      List<int[]> chunks, List<String> names, int longestArray, long arrayElements) {}

  /**
   * @param file a parsed snapshot
   * @return the violations and the longest array the code creates
   */
  public static Result check(SnapshotFile file) {
    return check(file, new Checked[file.classFiles().size()]);
  }

  /**
   * As {@link #check(SnapshotFile)}, taking the outcome for class {@code i} from {@code known[i]}
   * where it is not {@code null} (the caller vouches that it checked the same bytes for a host of
   * the same name) and storing there the outcome of every class it checks and finds inside the
   * grammar.
   *
   * @param file a parsed snapshot
   * @param known per class file, its earlier outcome or {@code null}; filled in by the check
   * @return the violations and the longest array the code creates
   */
  public static Result check(SnapshotFile file, Checked[] known) {
    List<String> out = new ArrayList<>();
    long longest = 0;
    long elements = 0;
    List<Lifted> program = new ArrayList<>();
    for (int i = 0; i < file.classFiles().size(); i++) {
      int before = out.size();
      Checked c = known[i] != null ? known[i] : checkClass(file, i, out);
      if (c == null) {
        continue;
      }
      if (out.size() == before) {
        known[i] = c; // only a class inside the grammar is kept
      }
      longest = Math.max(longest, c.longestArray());
      elements += c.arrayElements();
      program.add(
          new Lifted(
              i,
              file.placements().get(i).phase().ordinal(),
              file.placements().get(i).host(),
              c.chunks(),
              c.names()));
    }
    return new Result(List.copyOf(out), (int) longest, elements, List.copyOf(program));
  }

  /** Checks class {@code i}, adding its violations to {@code out}; null if it is unreadable. */
  private static Checked checkClass(SnapshotFile file, int i, List<String> out) {
    int host = file.placements().get(i).host();
    RuntimeContract contract = RuntimeContract.of(file.version());
    String pkg =
        host < 0 ? contract.hostPackage() : Grammar.packageOf(file.classes().get(host).name());
    String hostClass = host < 0 ? null : file.classes().get(host).name().replace('.', '/');
    long[] arrays = new long[2];
    ClassChecker checker = new ClassChecker(i, pkg, hostClass, contract, arrays, out);
    try {
      checker.check(ClassFile.parse(file.classFiles().get(i)));
    } catch (RuntimeException e) {
      out.add("generated class " + i + ": not a readable class file (" + e + ")");
      return null;
    }
    return new Checked(checker.chunks(), checker.names(), (int) arrays[0], arrays[1]);
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
      case Stmt.STORE_ALLOC,
          Stmt.STORE_COLLECTION,
          Stmt.COLLECTION_LOOP,
          Stmt.STORE_STRING,
          Stmt.STORE_CONSTANT,
          Stmt.ALLOC_LOOP,
          Stmt.STRING_LOOP,
          Stmt.SELECT ->
          3;
      case Stmt.STORE_CLONE, Stmt.STORE_BOX, Stmt.SET_FIELD, Stmt.PUT_ELEMENT -> 4;
      case Stmt.STORE_ARRAY, Stmt.BOX_LOOP -> 5;
      case Stmt.PUT_FIELD -> 7;
      case Stmt.CLUSTER_LOOP -> 4 + code[pc + 3] * Stmt.COLUMN_SIZE;
      default -> throw new IllegalArgumentException("no statement starts at " + pc);
    };
  }
}
