package org.codese.fuzz;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.objectweb.asm.tree.MethodNode;

/**
 * Smaller variants of a snapshot, for shrinking a finding: each drops one generated class, one
 * statement of generated code, one field of a class entry, or the last constant, and is encoded
 * with valid checksums. {@code StructureCampaign --minimize} keeps a variant while the finding's
 * signature stays.
 */
final class StructureReducer {
  private StructureReducer() {}

  static Iterable<byte[]> candidates(byte[] snapshot) throws IOException {
    SnapshotFile f = SnapshotFile.parse(snapshot);
    List<byte[]> out = new ArrayList<>();
    int n = f.classFiles().size();
    for (int i = n - 1; i >= 0; i--) {
      List<byte[]> files = new ArrayList<>(f.classFiles());
      List<int[]> places = new ArrayList<>(f.placements());
      files.remove(i);
      places.remove(i);
      out.add(encode(f, f.classes(), f.constants(), files, places));
    }
    for (int i = 0; i < n; i++) {
      CodeEditor probe = new CodeEditor(f.classFiles().get(i));
      List<MethodNode> chunks = probe.chunks();
      for (int m = 0; m < chunks.size(); m++) {
        for (boolean bodies : new boolean[] {false, true}) {
          int count = CodeEditor.statements(chunks.get(m), bodies).size();
          for (int s = count - 1; s >= 0; s--) {
            CodeEditor e = new CodeEditor(f.classFiles().get(i));
            CodeEditor.delete(CodeEditor.statements(e.chunks().get(m), bodies).get(s));
            byte[] b = e.write();
            if (b != null) {
              List<byte[]> files = new ArrayList<>(f.classFiles());
              files.set(i, b);
              out.add(encode(f, f.classes(), f.constants(), files, f.placements()));
            }
          }
        }
      }
    }
    for (int i = 0; i < f.classes().size(); i++) {
      ClassEntry e = f.classes().get(i);
      for (int k = 0; k < e.fields().size(); k++) {
        List<ClassEntry.FieldEntry> fields = new ArrayList<>(e.fields());
        fields.remove(k);
        List<ClassEntry> classes = new ArrayList<>(f.classes());
        classes.set(i, new ClassEntry(e.name(), List.copyOf(fields), e.suid(), e.hasSuid()));
        out.add(encode(f, classes, f.constants(), f.classFiles(), f.placements()));
      }
    }
    if (!f.constants().isEmpty()) {
      List<Constant> constants = new ArrayList<>(f.constants());
      constants.remove(constants.size() - 1);
      out.add(encode(f, f.classes(), constants, f.classFiles(), f.placements()));
    }
    return out;
  }

  private static byte[] encode(SnapshotFile f, List<ClassEntry> classes, List<Constant> constants,
      List<byte[]> files, List<int[]> placements) {
    return new SnapshotFile(f.jdk(), f.firstId(), f.tableSize(), f.depth(), List.copyOf(classes),
        List.copyOf(constants), List.copyOf(files), List.copyOf(placements), f.items()).bytes();
  }
}
