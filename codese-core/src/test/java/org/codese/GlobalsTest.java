package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Constant.HookKind;
import org.codese.program.Grammar;
import org.codese.program.Tape;
import org.codese.testkit.Crafted;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.RoundTrip;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Global references (issue 10, part 5; snapshot format 6): with {@link
 * CodeseOptions#withStaticConstants}, objects that are a class's own static final constants restore
 * as the same instance; with {@link CodeseOptions#withGlobal}, objects the options name. Without
 * the options, nothing changes at capture, and a load with default options rejects a snapshot that
 * holds a global reference before anything of it runs.
 */
class GlobalsTest {
  private static final CodeseOptions ON = CodeseOptions.defaults().withStaticConstants(true);

  /** A key compared by identity, as a library's key objects are (JavaParser's DataKey). */
  static final class Key implements Serializable {
    private static final long serialVersionUID = 1L;
    final String name;

    Key(String name) {
      this.name = name;
    }
  }

  /** Holds keys as its constants, and a map and fields that refer to them. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final Key KEY = new Key("public");
    private static final Key SECRET = new Key("private");
    static final Key[] KEYS = {new Key("a"), new Key("b")};
    static Key notFinal = new Key("not final");
    static final Key NOTHING = null;
    static final int NUMBER = 42;
    final Key instanceKey = new Key("instance");

    final IdentityHashMap<Key, String> map = new IdentityHashMap<>();
    Key field;
    Key secret;
    Key[] keys;
    Key copy = new Key("copy");
  }

  /** A superclass whose constant its subclass's objects refer to. */
  static class Base implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Key BASE_KEY = new Key("base");
  }

  /** Refers to its superclass's constant. */
  static final class Sub extends Base {
    private static final long serialVersionUID = 1L;
    Key key = BASE_KEY;
  }

  /** A singleton held by its own class. */
  static final class Singleton implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Singleton INSTANCE = new Singleton();
    int state = 3;
  }

  /** Holds a comparator that is a lambda, which neither the JDK nor Codese can serialize. */
  static final class Sorted implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Comparator<String> BY_LENGTH =
        (a, b) -> a.length() != b.length() ? a.length() - b.length() : a.compareTo(b);
    final TreeMap<String, Integer> map = new TreeMap<>(BY_LENGTH);
  }

  /** A singleton whose class is not Serializable: as a constant, its contents are not written. */
  static final class Service {
    static final Service INSTANCE = new Service();
    final Thread notCapturable = new Thread();
  }

  /** Refers to {@link Service#INSTANCE}. */
  static final class UsesService implements Serializable {
    private static final long serialVersionUID = 1L;
    final Service service = Service.INSTANCE;
  }

  static Holder holder() {
    Holder h = new Holder();
    h.map.put(Holder.KEY, "public value");
    h.map.put(Holder.SECRET, "private value");
    h.map.put(h.copy, "copy value");
    h.field = Holder.KEY;
    h.secret = Holder.SECRET;
    h.keys = Holder.KEYS;
    return h;
  }

  private static void assertSameConstants(Holder r) {
    assertSame(Holder.KEY, r.field);
    assertSame(Holder.SECRET, r.secret);
    assertSame(Holder.KEYS, r.keys);
    assertEquals("public value", r.map.get(Holder.KEY));
    assertEquals("private value", r.map.get(Holder.SECRET));
    assertNotSame(holder().copy, r.copy);
    assertEquals("copy value", r.map.get(r.copy), "an object that is no constant is copied");
    assertEquals(3, r.map.size());
  }

  @Nested
  class WithTheOptionOn {
    @Test
    void staticConstantsRestoreAsTheSameInstanceOnEveryPath() throws Exception {
      Holder h = holder();
      byte[] bytes = Codese.toBytes(h, ON);
      SnapshotFile file = SnapshotFile.parse(bytes);
      assertEquals(SnapshotFile.VERSION, file.version());
      assertTrue(file.version() >= Grammar.GLOBAL_VERSION);
      assertTrue(
          file.constants().stream()
              .anyMatch(k -> k instanceof Constant.StaticRef r && r.field().equals("KEY")),
          file.constants()::toString);
      Holder fromBytes = (Holder) Codese.fromBytes(bytes, ON);
      assertNotSame(h, fromBytes);
      assertSameConstants(fromBytes);
      assertSameConstants((Holder) Snapshot.capture(h, ON).restore());
      assertSameConstants((Holder) Snapshot.capture(h, ON).restore(2));
      try (Snapshot s = Codese.load(bytes, ON)) {
        assertSameConstants((Holder) s.restore());
        assertSameConstants((Holder) s.restore());
      }
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new CodeseOutputStream(stream, ON)) {
        out.writeObject(h);
        out.writeObject(holder());
      }
      try (ObjectInputStream in =
          new CodeseInputStream(new ByteArrayInputStream(stream.toByteArray()), ON)) {
        assertSameConstants((Holder) in.readObject());
        assertSameConstants((Holder) in.readObject());
      }
    }

    @Test
    void aSuperclassConstantRestoresAsItself() throws Exception {
      Sub r = (Sub) Codese.fromBytes(Codese.toBytes(new Sub(), ON), ON);
      assertSame(Base.BASE_KEY, r.key);
    }

    @Test
    void aSingletonHeldByItsOwnClassRestoresAsItself() throws Exception {
      List<Object> list = new ArrayList<>(List.of(Singleton.INSTANCE, "x", Singleton.INSTANCE));
      @SuppressWarnings("unchecked")
      List<Object> r = (List<Object>) Codese.fromBytes(Codese.toBytes(list, ON), ON);
      assertSame(Singleton.INSTANCE, r.get(0));
      assertSame(Singleton.INSTANCE, r.get(2));
      assertEquals(3, Singleton.INSTANCE.state);
    }

    /** A constant is not captured by its contents: one the JDK could not serialize restores too. */
    @Test
    void aLambdaConstantIsAReferenceNotAProblem() throws Exception {
      Sorted s = new Sorted();
      s.map.put("ccc", 3);
      s.map.put("a", 1);
      s.map.put("bb", 2);
      assertThrows(IOException.class, () -> JdkBytes.serialize(s));
      Sorted r = (Sorted) Codese.fromBytes(Codese.toBytes(s, ON), ON);
      assertSame(Sorted.BY_LENGTH, r.map.comparator());
      assertEquals(List.of("a", "bb", "ccc"), new ArrayList<>(r.map.keySet()));
    }

    /**
     * A constant whose class is not Serializable is no obstacle for a stream, which requires
     * Serializable, since its contents are not written; without the option the JDK and Codese
     * refuse it.
     */
    @Test
    void aConstantOfAClassThatIsNotSerializableIsWrittenAsAReference() throws Exception {
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new CodeseOutputStream(stream, ON)) {
        out.writeObject(new UsesService());
      }
      try (ObjectInputStream in =
          new CodeseInputStream(new ByteArrayInputStream(stream.toByteArray()), ON)) {
        assertSame(Service.INSTANCE, ((UsesService) in.readObject()).service);
      }
      assertThrows(
          java.io.NotSerializableException.class,
          () -> new CodeseOutputStream(new ByteArrayOutputStream()).writeObject(new UsesService()));
      assertThrows(
          java.io.NotSerializableException.class, () -> JdkBytes.serialize(new UsesService()));
    }

    /** The scan finds a constant only through a class of the graph (README, known limitations). */
    @Test
    void aConstantReachedWithoutItsClassIsCopied() throws Exception {
      Object[] r = (Object[]) Codese.fromBytes(Codese.toBytes(new Object[] {Holder.KEY}, ON), ON);
      assertNotSame(Holder.KEY, r[0]);
      assertEquals("public", ((Key) r[0]).name);
    }

    @Test
    void namedGlobalsRestoreAsTheObjectTheLoadOptionsName() throws Exception {
      Key config = new Key("config");
      Holder h = holder();
      h.field = config;
      h.map.put(config, "config value");
      byte[] bytes = Codese.toBytes(h, CodeseOptions.defaults().withGlobal("config", config));
      assertTrue(
          SnapshotFile.parse(bytes).constants().contains(new Constant.NamedRef("config")),
          "captured as a named reference");
      Holder same =
          (Holder) Codese.fromBytes(bytes, CodeseOptions.defaults().withGlobal("config", config));
      assertSame(config, same.field);
      assertEquals("config value", same.map.get(config));
      Key other = new Key("other");
      Holder elsewhere =
          (Holder) Codese.fromBytes(bytes, CodeseOptions.defaults().withGlobal("config", other));
      assertSame(other, elsewhere.field, "the loading side decides what the name stands for");
    }

    /** The listing names each global reference where the program stores it. */
    @Test
    void theListingNamesGlobalReferences() throws Exception {
      Key config = new Key("config");
      Holder h = holder();
      h.copy = config;
      byte[] bytes = Codese.toBytes(h, ON.withGlobal("config", config));
      List<String> globals = new ArrayList<>();
      List<String> created = new ArrayList<>();
      SnapshotContents.read(bytes)
          .list(
              new ProgramListener() {
                @Override
                public void global(int object, String owner, String name, String expression) {
                  globals.add(owner + " " + name + " " + expression);
                }

                @Override
                public void create(int object, String type, String expression) {
                  created.add(expression);
                }
              });
      String holder = Holder.class.getName();
      assertTrue(
          globals.contains(holder + " KEY GlobalsTest.Holder.KEY /* static constant */"),
          globals::toString);
      assertTrue(
          globals.contains(holder + " SECRET GlobalsTest.Holder.SECRET /* static constant */"));
      assertTrue(globals.contains(holder + " KEYS GlobalsTest.Holder.KEYS /* static constant */"));
      assertTrue(
          globals.contains("null config global(\"config\") /* named global */"), globals::toString);
      assertEquals(4, globals.size(), globals::toString);
      assertFalse(created.toString().contains("static constant"), created::toString);
    }

    @Test
    void optionsCompareAndPrintTheNewSettings() {
      Key k = new Key("k");
      assertEquals(ON, CodeseOptions.defaults().withStaticConstants(true));
      assertFalse(ON.equals(CodeseOptions.defaults()));
      assertTrue(ON.staticConstants());
      assertFalse(CodeseOptions.defaults().staticConstants());
      CodeseOptions a = CodeseOptions.defaults().withGlobal("k", k);
      assertEquals(a, CodeseOptions.defaults().withGlobal("k", k));
      assertEquals(a.hashCode(), CodeseOptions.defaults().withGlobal("k", k).hashCode());
      assertFalse(a.equals(CodeseOptions.defaults().withGlobal("k", new Key("k"))));
      assertEquals(Map.of("k", k), a.globals());
      assertTrue(a.toString().contains("globals=[k]"), a.toString());
      assertTrue(ON.toString().contains("staticConstants=true"), ON.toString());
      assertThrows(IllegalArgumentException.class, () -> a.withGlobal("other", k));
      assertThrows(IllegalArgumentException.class, () -> a.withGlobal("", new Key("x")));
      assertThrows(NullPointerException.class, () -> a.withGlobal("x", null));
    }
  }

  @Nested
  class WithTheOptionOff {
    /** Without the option, constants are copied as the JDK copies them: the JDK's bytes again. */
    @Test
    void constantsAreCopiedAsTheJdkCopiesThem() throws Exception {
      // every path, JDK bytes of each restored graph equal to the original's (an identity map's
      // order is not byte-stable, so the round trip's graph holds none)
      List<Object> keys =
          new ArrayList<>(
              List.of(Holder.KEY, Holder.KEYS, new Sub(), Singleton.INSTANCE, Holder.KEY));
      RoundTrip.of(keys)
          .name("constants")
          .check(
              r -> {
                assertNotSame(Holder.KEY, ((List<?>) r).get(0));
                assertNotSame(Holder.KEYS, ((List<?>) r).get(1));
                assertNotSame(Base.BASE_KEY, ((Sub) ((List<?>) r).get(2)).key);
                assertNotSame(Singleton.INSTANCE, ((List<?>) r).get(3));
              })
          .run();
      Holder h = holder();
      Holder r = (Holder) Codese.fromBytes(Codese.toBytes(h));
      Holder jdk = (Holder) JdkBytes.deserialize(JdkBytes.serialize(h));
      assertNotSame(Holder.KEY, r.field);
      assertNull(r.map.get(Holder.KEY), "as after JDK deserialization");
      assertNull(jdk.map.get(Holder.KEY));
      assertEquals(jdk.map.size(), r.map.size());
      assertEquals(
          SnapshotFile.VERSION, SnapshotFile.parse(Codese.toBytes(h)).version(), "newest format");
      assertFalse(
          SnapshotFile.parse(Codese.toBytes(h)).constants().stream()
              .anyMatch(k -> k instanceof Constant.StaticRef));
    }

    @Test
    void aSnapshotOfStaticConstantsIsRejectedByADefaultLoad() throws Exception {
      byte[] bytes = Codese.toBytes(holder(), ON);
      ClassNotAllowedException e =
          assertThrows(ClassNotAllowedException.class, () -> Codese.load(bytes));
      assertTrue(e.getMessage().contains("withStaticConstants(true)"), e.getMessage());
      assertTrue(e.getMessage().contains(Holder.class.getName()), e.getMessage());
      ByteArrayOutputStream stream = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new CodeseOutputStream(stream, ON)) {
        out.writeObject(holder());
      }
      try (ObjectInputStream in =
          new CodeseInputStream(new ByteArrayInputStream(stream.toByteArray()))) {
        assertThrows(ClassNotAllowedException.class, in::readObject);
      }
    }

    @Test
    void aSnapshotOfNamedGlobalsNeedsTheName() throws Exception {
      Key config = new Key("config");
      byte[] bytes = Codese.toBytes(config, CodeseOptions.defaults().withGlobal("config", config));
      ClassNotAllowedException e =
          assertThrows(ClassNotAllowedException.class, () -> Codese.load(bytes));
      assertTrue(e.getMessage().contains("withGlobal(\"config\""), e.getMessage());
      InvalidObjectException missing =
          assertThrows(
              InvalidObjectException.class,
              () -> Codese.load(bytes, CodeseOptions.defaults().withGlobal("other", config)));
      assertTrue(missing.getMessage().contains("\"config\""), missing.getMessage());
      assertThrows(ClassNotAllowedException.class, () -> Codese.load(bytes, ON));
    }
  }

  /** Records whether {@link Trap}'s static initialiser ran; read without initialising it. */
  static final AtomicBoolean TRAP_INITIALISED = new AtomicBoolean();

  /** A class whose initialiser must not run for a snapshot that is rejected. */
  static final class Trap implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Key VALUE;

    static {
      TRAP_INITIALISED.set(true);
      VALUE = new Key("trap");
    }
  }

  /** As {@link #TRAP_INITIALISED}, for the filter's test. */
  static final AtomicBoolean FILTERED_INITIALISED = new AtomicBoolean();

  /** A class the filter rejects; its initialiser must not run. */
  static final class Filtered implements Serializable {
    private static final long serialVersionUID = 1L;
    static final Key VALUE;

    static {
      FILTERED_INITIALISED.set(true);
      VALUE = new Key("filtered");
    }
  }

  /** A snapshot whose root is the static constant {@code type.field}. */
  private static Crafted staticRef(String type, String field) {
    Crafted c = new Crafted();
    int t = c.type(type);
    int k = c.constant(new Constant.StaticRef(t, field));
    return c.code(0, ch -> ch.storeConstant(0, k));
  }

  /** A snapshot of two slots: slot 0 holds {@code Holder.KEY}, slot 1 a new string. */
  private static Crafted keyAndString() {
    Crafted c = new Crafted().slots(2);
    int t = c.type(Holder.class.getName());
    int k = c.constant(new Constant.StaticRef(t, "KEY"));
    return c.code(0, ch -> ch.storeConstant(0, k).newString(1, "changed"));
  }

  private static int keyClass(Crafted c) {
    return c.type(
        new ClassEntry(
            Key.class.getName(),
            List.of(new ClassEntry.FieldEntry("name", "Ljava/lang/String;", true)),
            1L,
            true));
  }

  private static ClassMismatchException mismatch(String field) {
    Crafted c = staticRef(Holder.class.getName(), field);
    ClassMismatchException e =
        assertThrows(ClassMismatchException.class, () -> Codese.load(c.bytes(), ON));
    assertTrue(e.getMessage().contains(Holder.class.getName()), e.getMessage());
    assertTrue(e.getMessage().contains(field), e.getMessage());
    assertTrue(e.getMessage().contains("capture the graph again"), e.getMessage());
    assertEquals(field, e.fieldName());
    return e;
  }

  @Nested
  class Hostile {
    @Test
    void aDefaultLoadRejectsAStaticReferenceBeforeAnythingRuns() throws Exception {
      byte[] bytes = staticRef(Trap.class.getName(), "VALUE").bytes();
      ClassNotAllowedException e =
          assertThrows(ClassNotAllowedException.class, () -> Codese.load(bytes));
      assertTrue(e.getMessage().contains("withStaticConstants(true)"), e.getMessage());
      assertThrows(ClassNotAllowedException.class, () -> Codese.fromBytes(bytes));
      assertFalse(TRAP_INITIALISED.get(), "no class of a rejected snapshot is initialised");
    }

    @Test
    void theFilterIsAskedBeforeTheFieldIsRead() throws Exception {
      byte[] bytes = staticRef(Filtered.class.getName(), "VALUE").bytes();
      ObjectInputFilter filter =
          info ->
              info.serialClass() == Filtered.class
                  ? ObjectInputFilter.Status.REJECTED
                  : ObjectInputFilter.Status.UNDECIDED;
      assertThrows(
          InvalidClassException.class, () -> Codese.load(bytes, ON.withObjectInputFilter(filter)));
      assertFalse(FILTERED_INITIALISED.get(), "the filter refused the class before it was read");
    }

    @Test
    void aStaticReferenceToTheFieldRestoresWithTheOption() throws Exception {
      assertSame(
          Holder.KEY, Codese.fromBytes(staticRef(Holder.class.getName(), "KEY").bytes(), ON));
    }

    @Test
    void aFieldThatIsNotFinalIsRejected() {
      mismatch("notFinal");
      assertEquals("not final", Holder.notFinal.name);
    }

    @Test
    void anInstanceFieldIsRejected() {
      mismatch("instanceKey");
    }

    @Test
    void aMissingFieldIsRejected() {
      mismatch("gone");
    }

    @Test
    void aPrimitiveFieldIsRejected() {
      mismatch("NUMBER");
    }

    @Test
    void aNullFieldIsRejected() {
      mismatch("NOTHING");
    }

    @Test
    void aStaticConstantIsNeverAFieldTarget() throws Exception {
      Crafted c = keyAndString();
      int name = c.constant(new Constant.Setter(keyClass(c), "name", "Ljava/lang/String;"));
      c.code(1, ch -> ch.select(0, null).setRef(name, 1));
      UnsafeSnapshotException e =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes(), ON));
      assertTrue(
          e.getMessage().contains("slot 0, which holds no object this snapshot allocated"),
          e.getMessage());
      assertEquals("public", Holder.KEY.name);
    }

    @Test
    void aStaticConstantIsNeverAHookTarget() throws Exception {
      Crafted c = keyAndString();
      int hook =
          c.constant(
              new Constant.Hook(
                  HookKind.SLOT,
                  keyClass(c),
                  0,
                  new Tape(new byte[0], new int[] {Tape.FIELDS, 1, Tape.OBJECT, 1})));
      int steps = c.constant(new Constant.PrimArray(new int[] {Grammar.STEP_HOOK, hook}));
      c.code(2, ch -> ch.runSteps(steps));
      UnsafeSnapshotException e =
          assertThrows(UnsafeSnapshotException.class, () -> Codese.load(c.bytes(), ON));
      assertTrue(
          e.getMessage().contains("on slot 0, which holds no such object this snapshot"),
          e.getMessage());
      assertEquals("public", Holder.KEY.name);
    }

    @Test
    void aStaticReferenceInAFileOfAnOlderFormatIsRejected() {
      for (int v = SnapshotFile.OLDEST_VERSION; v < Grammar.GLOBAL_VERSION; v++) {
        byte[] bytes = staticRef(Holder.class.getName(), "KEY").version(v).bytes();
        CorruptSnapshotException e =
            assertThrows(CorruptSnapshotException.class, () -> Codese.load(bytes, ON));
        assertTrue(
            e.getMessage().contains("from format version " + Grammar.GLOBAL_VERSION + " on"),
            e.getMessage());
      }
    }

    @Test
    void aNamedReferenceIsNeverAFieldTarget() throws Exception {
      Key config = new Key("config");
      Crafted c = new Crafted().slots(2);
      int k = c.constant(new Constant.NamedRef("config"));
      int name = c.constant(new Constant.Setter(keyClass(c), "name", "Ljava/lang/String;"));
      c.code(0, ch -> ch.storeConstant(0, k).newString(1, "changed"));
      c.code(1, ch -> ch.select(0, null).setRef(name, 1));
      assertThrows(
          UnsafeSnapshotException.class,
          () -> Codese.load(c.bytes(), CodeseOptions.defaults().withGlobal("config", config)));
      assertEquals("config", config.name);
    }
  }
}
