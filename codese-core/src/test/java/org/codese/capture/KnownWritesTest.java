package org.codese.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedList;
import java.util.List;
import java.util.TreeMap;
import org.codese.CodeseOptions;
import org.codese.jvm.SerialClass;
import org.codese.program.Tape;
import org.junit.jupiter.api.Test;

/**
 * The tapes {@link KnownWrites} makes without running {@code writeObject} are those running it on a
 * {@link CaptureStream} records, with the same ids in the same order.
 */
class KnownWritesTest {
  private static Tape known(Object obj) throws Exception {
    Tape t = KnownWrites.tape(new Capturer(CodeseOptions.defaults()), new ChildList(), 0, obj);
    assertNotNull(t, "a known class");
    return t;
  }

  private static Tape run(Object obj) throws Exception {
    CaptureStream out =
        new CaptureStream(
            new Capturer(CodeseOptions.defaults()),
            0,
            obj,
            SerialClass.of(obj.getClass()).slots().get(0),
            new ChildList());
    out.runWriteObject();
    return out.finish();
  }

  private static void same(Object obj) throws Exception {
    Tape run = run(obj);
    Tape known = known(obj);
    assertArrayEquals(run.data(), known.data(), "data of " + obj);
    assertArrayEquals(run.items(), known.items(), "items of " + obj);
  }

  @Test
  void arrayListsAsTheirWriteObjectWritesThem() throws Exception {
    same(new ArrayList<>());
    same(new ArrayList<>(List.of("a")));
    String shared = "shared";
    ArrayList<Object> many = new ArrayList<>(1000);
    for (int i = 0; i < 300; i++) {
      many.add(i % 7 == 0 ? null : i % 5 == 0 ? shared : Integer.valueOf(i * 1000));
    }
    same(many);
  }

  @Test
  void naturalOrderTreeMapsAsTheirWriteObjectWritesThem() throws Exception {
    same(new TreeMap<>());
    TreeMap<Integer, Object> m = new TreeMap<>();
    String shared = "v";
    for (int i = 0; i < 300; i++) {
      m.put(i * 31 % 1000, i % 3 == 0 ? null : i % 2 == 0 ? shared : "v" + i);
    }
    same(m);
  }

  @Test
  void otherClassesAndComparatorsRunTheirWriteObject() throws Exception {
    Capturer c = new Capturer(CodeseOptions.defaults());
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new LinkedList<>()));
    assertNull(KnownWrites.tape(c, new ChildList(), 0, new ArrayList<>() {}));
    assertNull(
        KnownWrites.tape(
            c, new ChildList(), 0, new TreeMap<String, String>(Comparator.reverseOrder())));
  }
}
