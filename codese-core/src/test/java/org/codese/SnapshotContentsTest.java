package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The tools API: {@link SnapshotContents}, {@link SnapshotSegment}, {@link ProgramListener}. */
class SnapshotContentsTest {
  /** A user class with a declared serialVersionUID and a cycle. */
  static final class Node implements Serializable {
    private static final long serialVersionUID = 42L;
    int value;
    Node next;
  }

  /** Not Serializable: a load must admit it. */
  static final class Plain {
    int x = 7;
  }

  private static Node cycle() {
    Node a = new Node();
    Node b = new Node();
    a.value = 1;
    b.value = 2;
    a.next = b;
    b.next = a;
    return a;
  }

  /** Collects the listing as lines. */
  private static final class Lines implements ProgramListener {
    final List<String> lines = new ArrayList<>();

    @Override
    public void segment(int index, SnapshotSegment segment) {
      lines.add("segment " + index);
    }

    @Override
    public void generatedClass(int index, String name, String phase, String nestHost) {
      lines.add("class " + phase);
    }

    @Override
    public void create(int object, String type, String expression) {
      lines.add("o" + object + " = " + expression + " : " + type);
    }

    @Override
    public void field(
        int object, String type, String field, String value, boolean ref, boolean nonDefault) {
      lines.add("o" + object + "." + field + " = " + value + " : " + type);
    }

    @Override
    public void end(int index, SnapshotSegment segment) {
      lines.add("end " + index);
    }
  }

  /**
   * A compressed snapshot, signed or not, reads as the uncompressed one: the same segment, with its
   * sizes and the envelopes it came in.
   */
  @Test
  void readsACompressedAndSignedSnapshot() throws Exception {
    Node graph = cycle();
    byte[] plain = Codese.toBytes(graph);
    SnapshotContents p = SnapshotContents.read(plain);
    assertFalse(p.isCompressed());
    assertFalse(p.isSigned());
    assertEquals(-1, p.compressedSize());
    assertEquals(plain.length, p.snapshotSize());
    CodeseOptions compressed = CodeseOptions.defaults().withCompression(true);
    byte[] packed = Codese.toBytes(graph, compressed);
    SnapshotContents c = SnapshotContents.read(packed);
    assertTrue(c.isCompressed());
    assertFalse(c.isSigned());
    assertEquals(packed.length, c.size());
    assertEquals(packed.length, c.compressedSize());
    assertEquals(plain.length, c.snapshotSize());
    assertEquals(1, c.segments().size());
    SnapshotSegment s = c.segments().get(0);
    assertEquals(p.segments().get(0).sectionSizes(), s.sectionSizes());
    assertEquals(p.segments().get(0).classes(), s.classes());
    assertEquals(plain.length, s.length());
    byte[] key = "0123456789abcdef-contents".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] signed = Codese.toBytes(graph, compressed.withSigningKey(key));
    SnapshotContents sc = SnapshotContents.read(signed);
    assertTrue(sc.isSigned());
    assertTrue(sc.isCompressed());
    assertEquals(signed.length, sc.size());
    assertEquals(packed.length, sc.compressedSize());
    assertEquals(plain.length, sc.snapshotSize());
    SnapshotContents so =
        SnapshotContents.read(Codese.toBytes(graph, CodeseOptions.defaults().withSigningKey(key)));
    assertTrue(so.isSigned());
    assertFalse(so.isCompressed());
    assertEquals(plain.length, so.snapshotSize());
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () -> SnapshotContents.read(Arrays.copyOf(packed, packed.length - 1)));
    assertEquals("compression envelope", e.section());
  }

  @Test
  void readsASnapshot() throws Exception {
    byte[] bytes = Codese.toBytes(cycle());
    SnapshotContents c = SnapshotContents.read(bytes);
    assertFalse(c.isStream());
    assertEquals(bytes.length, c.size());
    assertEquals(1, c.segments().size());
    assertEquals(c.segments(), c.parts());
    SnapshotSegment s = c.segments().get(0);
    assertEquals(0, s.firstObject());
    assertEquals(2, s.objectCount());
    assertTrue(s.jdk().startsWith(Runtime.version().feature() + "."), s.jdk());
    assertTrue(s.formatVersion() >= 1);
    assertEquals(
        List.of("header", "classes", "constants", "code", "items"),
        List.copyOf(s.sectionSizes().keySet()));
    SnapshotSegment.ClassInfo node = s.classes().get(0);
    assertEquals(Node.class.getName(), node.name());
    assertEquals(OptionalLong.of(42L), node.serialVersionUID());
    assertEquals(
        List.of(
            new SnapshotSegment.FieldInfo("value", "I", true),
            new SnapshotSegment.FieldInfo("next", Node.class.descriptorString(), true)),
        node.fields());
    assertFalse(s.classFiles().isEmpty());
    assertEquals(List.of(new SnapshotSegment.Item(SnapshotSegment.Item.Kind.OBJECT, 0)), s.items());
    assertEquals(List.of(), s.grammarViolations());
    assertEquals(List.of(), s.classesToAllow(getClass().getClassLoader()));
    s.check(CodeseOptions.defaults().withClassLoader(getClass().getClassLoader()));
  }

  @Test
  void listsTheRestoreProgram() throws Exception {
    Lines l = new Lines();
    SnapshotContents.read(Codese.toBytes(cycle())).list(l);
    String n = Node.class.getName();
    assertEquals("segment 0", l.lines.get(0));
    assertEquals("end 0", l.lines.get(l.lines.size() - 1));
    assertTrue(l.lines.contains("o0 = new SnapshotContentsTest.Node() : " + n), l.lines.toString());
    assertTrue(l.lines.contains("o0.next = o1 : " + n), l.lines.toString());
    assertTrue(l.lines.contains("o1.next = o0 : " + n), l.lines.toString());
    assertTrue(l.lines.contains("o1.value = 2 : " + n), l.lines.toString());
  }

  @Test
  void readsAStreamWithDataAndResets() throws Exception {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(buffer)) {
      out.writeObject(new HashMap<>(Map.of("k", List.of(1, 2))));
      out.writeInt(5);
      out.reset();
      out.writeObject("again");
    }
    SnapshotContents c = SnapshotContents.read(buffer.toByteArray());
    assertTrue(c.isStream());
    List<SnapshotContents.Part> parts = c.parts();
    assertEquals(4, parts.size(), parts.toString());
    assertInstanceOf(SnapshotSegment.class, parts.get(0));
    assertEquals(4, ((SnapshotContents.Data) parts.get(1)).length());
    assertInstanceOf(SnapshotContents.Reset.class, parts.get(2));
    SnapshotSegment last = (SnapshotSegment) parts.get(3);
    assertEquals(0, last.firstObject());
    assertEquals(2, c.segments().size());
    Lines l = new Lines();
    c.list(l);
    assertTrue(
        l.lines.contains("o0 = new String(\"again\") : java.lang.String"), l.lines.toString());
  }

  @Test
  void namesTheClassesToAllow() throws Exception {
    byte[] bytes =
        Codese.toBytes(new Plain(), CodeseOptions.defaults().withRequireSerializable(false));
    SnapshotSegment s = SnapshotContents.read(bytes).segments().get(0);
    assertEquals(List.of(Plain.class.getName()), s.classesToAllow(getClass().getClassLoader()));
    assertThrows(
        ClassNotAllowedException.class,
        () -> s.check(CodeseOptions.defaults().withClassLoader(getClass().getClassLoader())));
    s.check(
        CodeseOptions.defaults()
            .withClassLoader(getClass().getClassLoader())
            .withAllowedClasses(Plain.class.getName()));
  }

  @Test
  void readsDeclaredSerialVersionUids() {
    assertEquals(OptionalLong.of(42L), SnapshotContents.declaredSerialVersionUID(Node.class));
    assertEquals(OptionalLong.empty(), SnapshotContents.declaredSerialVersionUID(Plain.class));
  }

  @Test
  void rejectsCorruptInput() throws Exception {
    byte[] bytes = Codese.toBytes(cycle());
    assertThrows(
        CorruptSnapshotException.class,
        () -> SnapshotContents.read(Arrays.copyOf(bytes, bytes.length - 5)));
    byte[] flipped = bytes.clone();
    flipped[bytes.length / 2] ^= 1;
    assertThrows(CorruptSnapshotException.class, () -> SnapshotContents.read(flipped));
    assertThrows(CorruptSnapshotException.class, () -> SnapshotContents.read(new byte[] {1, 2}));
    ByteArrayOutputStream jdk = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(jdk)) {
      out.writeObject("x");
    }
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class, () -> SnapshotContents.read(jdk.toByteArray()));
    assertTrue(e.getMessage().contains("JDK serialization"), e.getMessage());
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(stream)) {
      out.writeObject(cycle());
    }
    byte[] s = stream.toByteArray();
    CorruptSnapshotException t =
        assertThrows(
            CorruptSnapshotException.class,
            () -> SnapshotContents.read(Arrays.copyOf(s, s.length - 4)));
    assertTrue(t.getMessage().contains("end mark"), t.getMessage());
  }

  @Test
  void rejectsAProgramOutsideTheGrammarWhenListing() throws Exception {
    // replace the first generated class's accept method name: the listing finds no accept method
    boolean[] first = {true};
    byte[] bytes =
        CraftedCodeTest.rewriteCode(
            Codese.toBytes(cycle()),
            classFile -> {
              byte[] c = classFile.clone();
              if (first[0]) {
                int name =
                    indexOf(c, "accept".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                c[name] = 'e';
                first[0] = false;
              }
              return c;
            });
    CorruptSnapshotException e =
        assertThrows(
            CorruptSnapshotException.class,
            () -> SnapshotContents.read(bytes).list(new ProgramListener() {}));
    assertTrue(e.getMessage().contains("the restore program cannot be read"), e.getMessage());
  }

  private static int indexOf(byte[] in, byte[] part) {
    outer:
    for (int i = 0; i + part.length <= in.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (in[i + j] != part[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
