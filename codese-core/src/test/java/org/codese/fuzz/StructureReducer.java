package org.codese.fuzz;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Placement;
import org.objectweb.asm.tree.MethodNode;

/**
 * Smaller variants of a snapshot, for shrinking a finding: each drops one generated class, one
 * statement of generated code, a class entry nothing refers to, one field of a class entry, two or
 * four words of a small {@code int[]} constant (a step of a finish program), a constant naming a
 * class (made an empty text), or the last constant, and is encoded with valid checksums. {@code
 * StructureCampaign --minimize} keeps a variant while the finding's signature stays.
 */
final class StructureReducer {
  private StructureReducer() {}

  static Iterable<byte[]> candidates(byte[] snapshot) throws IOException {
    SnapshotFile f = SnapshotFile.parse(snapshot);
    List<byte[]> out = new ArrayList<>();
    int n = f.classFiles().size();
    for (int i = n - 1; i >= 0; i--) {
      List<byte[]> files = new ArrayList<>(f.classFiles());
      List<Placement> places = new ArrayList<>(f.placements());
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
    for (int i = f.classes().size() - 1; i >= 0; i--) {
      byte[] without = withoutClass(f, i);
      if (without != null) {
        out.add(without);
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
    for (int k = f.constants().size() - 1; k >= 0; k--) {
      if (typeOf(f.constants().get(k)) >= 0) {
        // a constant that names no class, so that its class entry can go next
        List<Constant> constants = new ArrayList<>(f.constants());
        constants.set(k, new Constant.Text(""));
        out.add(encode(f, f.classes(), constants, f.classFiles(), f.placements()));
      }
    }
    for (int k = 0; k < f.constants().size(); k++) {
      if (f.constants().get(k) instanceof Constant.PrimArray p
          && p.array() instanceof int[] a
          && a.length <= 64) {
        for (int len : new int[] {2, 4}) {
          for (int at = 0; at + len <= a.length; at++) {
            int[] b = new int[a.length - len];
            System.arraycopy(a, 0, b, 0, at);
            System.arraycopy(a, at + len, b, at, a.length - at - len);
            List<Constant> constants = new ArrayList<>(f.constants());
            constants.set(k, new Constant.PrimArray(b));
            out.add(encode(f, f.classes(), constants, f.classFiles(), f.placements()));
          }
        }
      }
    }
    if (!f.constants().isEmpty()) {
      List<Constant> constants = new ArrayList<>(f.constants());
      constants.remove(constants.size() - 1);
      out.add(encode(f, f.classes(), constants, f.classFiles(), f.placements()));
    }
    return out;
  }

  /**
   * @return the snapshot without class entry {@code i}, the class indices above it renumbered, or
   *     null if a constant or a placement refers to it
   */
  private static byte[] withoutClass(SnapshotFile f, int i) {
    for (Placement p : f.placements()) {
      if (p.host() == i) {
        return null;
      }
    }
    List<Constant> constants = new ArrayList<>();
    for (Constant k : f.constants()) {
      int t = typeOf(k);
      if (t == i) {
        return null;
      }
      constants.add(t > i ? retype(k, t - 1) : k);
    }
    List<Placement> places = new ArrayList<>();
    for (Placement p : f.placements()) {
      places.add(new Placement(p.phase(), p.host() > i ? p.host() - 1 : p.host()));
    }
    List<ClassEntry> classes = new ArrayList<>(f.classes());
    classes.remove(i);
    return encode(f, classes, constants, f.classFiles(), places);
  }

  private static int typeOf(Constant k) {
    if (k instanceof Constant.TypeRef t) {
      return t.type();
    } else if (k instanceof Constant.StreamClassRef t) {
      return t.type();
    } else if (k instanceof Constant.EnumRef t) {
      return t.type();
    } else if (k instanceof Constant.StaticRef t) {
      return t.type();
    } else if (k instanceof Constant.Allocator t) {
      return t.type();
    } else if (k instanceof Constant.ArrayMaker t) {
      return t.type();
    } else if (k instanceof Constant.Setter t) {
      return t.type();
    } else if (k instanceof Constant.Hook t) {
      return t.type();
    }
    return -1;
  }

  private static Constant retype(Constant k, int type) {
    if (k instanceof Constant.TypeRef) {
      return new Constant.TypeRef(type);
    } else if (k instanceof Constant.StreamClassRef) {
      return new Constant.StreamClassRef(type);
    } else if (k instanceof Constant.EnumRef t) {
      return new Constant.EnumRef(type, t.name());
    } else if (k instanceof Constant.StaticRef t) {
      return new Constant.StaticRef(type, t.field());
    } else if (k instanceof Constant.Allocator t) {
      return new Constant.Allocator(type, t.mode());
    } else if (k instanceof Constant.ArrayMaker) {
      return new Constant.ArrayMaker(type);
    } else if (k instanceof Constant.Setter t) {
      return new Constant.Setter(type, t.field(), t.descriptor());
    }
    Constant.Hook h = (Constant.Hook) k;
    return new Constant.Hook(h.kind(), type, h.id(), h.tape());
  }

  private static byte[] encode(
      SnapshotFile f,
      List<ClassEntry> classes,
      List<Constant> constants,
      List<byte[]> files,
      List<Placement> placements) {
    return new SnapshotFile(
            f.jdk(),
            f.firstId(),
            f.tableSize(),
            f.depth(),
            List.copyOf(classes),
            List.copyOf(constants),
            List.copyOf(files),
            List.copyOf(placements),
            f.items())
        .bytes();
  }
}
