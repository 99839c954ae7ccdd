package org.codese.verify;

import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.Grammar;
import org.objectweb.asm.ClassReader;

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
   */
  public record Result(List<String> violations, int longestArray) {}

  /**
   * @param file a parsed snapshot
   * @return the violations and the longest array the code creates
   */
  public static Result check(SnapshotFile file) {
    List<String> out = new ArrayList<>();
    int[] longest = new int[1];
    for (int i = 0; i < file.classFiles().size(); i++) {
      int host = file.placements().get(i)[1];
      String pkg = host < 0 ? Grammar.PACKAGE : packageOf(file.classes().get(host).name());
      String hostClass = host < 0 ? null : file.classes().get(host).name().replace('.', '/');
      ClassChecker checker = new ClassChecker(i, pkg, hostClass, longest, out);
      try {
        new ClassReader(file.classFiles().get(i)).accept(checker, ClassReader.SKIP_FRAMES);
        checker.finish();
      } catch (RuntimeException e) {
        out.add("generated class " + i + ": not a readable class file (" + e + ")");
      }
    }
    return new Result(List.copyOf(out), longest[0]);
  }

  private static String packageOf(String binaryName) {
    int dot = binaryName.lastIndexOf('.');
    return dot < 0 ? "" : binaryName.substring(0, dot).replace('.', '/');
  }
}
