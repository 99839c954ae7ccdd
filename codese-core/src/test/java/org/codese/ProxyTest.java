package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.program.Grammar;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Dynamic proxies (issue 10, part 4): a {@code java.lang.reflect.Proxy} instance with a
 * serializable handler captures and restores with its proxy class made again for the same
 * interfaces in the right loader, as {@code ObjectInputStream} restores it; compared with the JDK
 * by serializing original and restored graph. Hostile snapshots (class entries edited with the
 * format's own writer) are refused before any class is initialised.
 */
class ProxyTest {
  /** A public interface. */
  public interface Greeter {
    String greet(String who);
  }

  /** A second public interface. */
  public interface Counter {
    int count();
  }

  /** A package-private interface: its proxy class must live in its loader. */
  interface Secret {
    String secret();
  }

  /** A second package-private interface. */
  interface Hidden {
    String hidden();
  }

  /** A loader that defines {@code c} anew from its class file and delegates everything else. */
  static ClassLoader copying(Class<?> c) {
    return new ClassLoader(c.getClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals(c.getName())) {
          return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
          Class<?> k = findLoadedClass(name);
          if (k == null) {
            String file = name.substring(name.lastIndexOf('.') + 1) + ".class";
            try (java.io.InputStream in = c.getResourceAsStream(file)) {
              byte[] b = in.readAllBytes();
              k = defineClass(name, b, 0, b.length);
            } catch (java.io.IOException e) {
              throw new ClassNotFoundException(name, e);
            }
          }
          return k;
        }
      }
    };
  }

  /** A handler with state, which may refer back to its proxy. */
  static final class Handler implements InvocationHandler, Serializable {
    private static final long serialVersionUID = 1L;
    String prefix;
    int calls;
    Object self;
    final List<Object> notes = new ArrayList<>();

    Handler(String prefix) {
      this.prefix = prefix;
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) {
      calls++;
      switch (m.getName()) {
        case "greet":
          return prefix + args[0];
        case "count":
          return calls;
        case "secret":
          return "secret of " + prefix;
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == args[0];
        default:
          return "proxy of " + prefix;
      }
    }
  }

  static Object proxy(Handler h, Class<?>... interfaces) {
    return Proxy.newProxyInstance(ProxyTest.class.getClassLoader(), interfaces, h);
  }

  static Handler handlerOf(Object proxy) {
    return (Handler) Proxy.getInvocationHandler(proxy);
  }

  /** Restores through a snapshot and through Codese's streams; both must match the JDK. */
  private static Object roundTrip(Object graph) throws Exception {
    byte[] jdk = JdkBytes.serialize(graph);
    Object restored = Codese.fromBytes(Codese.toBytes(graph));
    assertArrayEquals(jdk, JdkBytes.serialize(restored), "snapshot: same JDK bytes");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(graph);
    }
    Object streamed;
    try (CodeseInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      streamed = in.readObject();
    }
    assertArrayEquals(jdk, JdkBytes.serialize(streamed), "stream: same JDK bytes");
    Object fromJdk = JdkBytes.deserialize(jdk);
    assertArrayEquals(jdk, JdkBytes.serialize(fromJdk), "the JDK's own round trip");
    return restored;
  }

  @Test
  void aProxyOfOneInterfaceWithStatefulHandler() throws Exception {
    Handler h = new Handler("hello ");
    h.calls = 41;
    h.notes.add("note");
    Object p = proxy(h, Greeter.class);
    Object r = roundTrip(p);
    assertTrue(Proxy.isProxyClass(r.getClass()));
    assertNotSame(p, r);
    assertEquals(List.of(Greeter.class), List.of(r.getClass().getInterfaces()));
    assertSame(p.getClass(), r.getClass(), "the same proxy class: same interfaces, same loader");
    assertEquals("hello you", ((Greeter) r).greet("you"));
    assertEquals(42, handlerOf(r).calls);
    assertEquals(List.of("note"), handlerOf(r).notes);
  }

  @Test
  void aProxyOfSeveralInterfacesKeepsTheirOrder() throws Exception {
    Object p = proxy(new Handler("x"), Counter.class, Greeter.class, Runnable.class);
    Object r = roundTrip(p);
    assertEquals(
        List.of(Counter.class, Greeter.class, Runnable.class),
        List.of(r.getClass().getInterfaces()));
    assertEquals(1, ((Counter) r).count());
    assertEquals("xy", ((Greeter) r).greet("y"));
  }

  @Test
  void aSharedProxyStaysOneObject() throws Exception {
    Object p = proxy(new Handler("s"), Greeter.class);
    Object q = proxy(new Handler("t"), Greeter.class);
    List<Object> list = new ArrayList<>(List.of(p, q, p, "text", 7));
    @SuppressWarnings("unchecked")
    List<Object> r = (List<Object>) roundTrip(list);
    assertSame(r.get(0), r.get(2));
    assertNotSame(r.get(0), r.get(1));
    assertEquals("s1", ((Greeter) r.get(0)).greet("1"));
    assertEquals("t2", ((Greeter) r.get(1)).greet("2"));
  }

  @Test
  void aProxyInACycleThroughItsHandler() throws Exception {
    Handler h = new Handler("c");
    Object p = proxy(h, Greeter.class, Counter.class);
    h.self = p;
    h.notes.add(p);
    Object r = roundTrip(p);
    assertSame(r, handlerOf(r).self);
    assertSame(r, handlerOf(r).notes.get(0));
  }

  @Test
  void aProxyOfANonPublicInterfaceIsDefinedInItsLoader() throws Exception {
    Object p = proxy(new Handler("n"), Secret.class, Greeter.class);
    Object r = roundTrip(p);
    assertSame(Secret.class.getClassLoader(), r.getClass().getClassLoader());
    assertEquals(Secret.class.getPackageName(), r.getClass().getPackageName());
    assertEquals("secret of n", ((Secret) r).secret());
  }

  @Test
  void proxiesInAListWithOtherObjects() throws Exception {
    List<Object> list = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      list.add(i % 3 == 0 ? proxy(new Handler("p" + i), Greeter.class) : List.of("e" + i));
    }
    @SuppressWarnings("unchecked")
    List<Object> r = (List<Object>) roundTrip(list);
    assertEquals("p9!", ((Greeter) r.get(9)).greet("!"));
  }

  @Test
  void theClassObjectOfAProxyClassIsTheProxyClassAgain() throws Exception {
    Object p = proxy(new Handler("k"), Greeter.class);
    List<Object> list = new ArrayList<>(List.of(p.getClass(), p));
    @SuppressWarnings("unchecked")
    List<Object> r = (List<Object>) roundTrip(list);
    assertSame(p.getClass(), r.get(0));
    assertSame(r.get(0), r.get(1).getClass());
  }

  @Test
  void aStreamWritesAProxyOnceAcrossWrites() throws Exception {
    Object p = proxy(new Handler("w"), Greeter.class);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CodeseOutputStream out = new CodeseOutputStream(bytes)) {
      out.writeObject(p);
      out.writeObject(List.of(p));
      out.reset();
      out.writeObject(p);
    }
    try (ObjectInputStream in =
        new CodeseInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      Object a = in.readObject();
      List<?> b = (List<?>) in.readObject();
      Object c = in.readObject();
      assertSame(a, b.get(0));
      assertNotSame(a, c);
      assertSame(a.getClass(), c.getClass());
      assertEquals("wz", ((Greeter) c).greet("z"));
    }
  }

  @Test
  void theFilterIsAskedAboutTheInterfacesThenTheProxyClass() throws Exception {
    Object p = proxy(new Handler("f"), Greeter.class, Counter.class);
    List<Class<?>> asked = new ArrayList<>();
    ObjectInputFilter record =
        info -> {
          if (info.serialClass() != null) {
            asked.add(info.serialClass());
          }
          return ObjectInputFilter.Status.UNDECIDED;
        };
    Codese.fromBytes(Codese.toBytes(p), CodeseOptions.defaults().withObjectInputFilter(record));
    List<Class<?>> codese = new ArrayList<>(asked);
    asked.clear();
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(JdkBytes.serialize(p)))) {
      in.setObjectInputFilter(record);
      in.readObject();
    }
    List<Class<?>> jdk = new ArrayList<>(asked);
    assertTrue(codese.containsAll(jdk), "Codese asks about what the JDK asks: " + codese + jdk);
    int greeter = codese.indexOf(Greeter.class);
    int counter = codese.indexOf(Counter.class);
    int proxyClass = codese.indexOf(p.getClass());
    assertTrue(greeter < counter && counter < proxyClass, codese.toString());
    assertEquals(
        jdk.subList(0, 3), List.of(Greeter.class, Counter.class, p.getClass()), "the JDK's order");
  }

  /** An interface whose initialisation is visible: it has a default method. */
  public interface Flagging {
    AtomicBoolean INITIALISED = Witness.flag(Flagging.class);

    default String flag() {
      return "flag";
    }
  }

  /** A class whose initialisation is visible. */
  public static final class Trap {
    static final AtomicBoolean INITIALISED = Witness.flag(Trap.class);
  }

  /** Records which classes were initialised, without initialising them itself. */
  static final class Witness {
    static final List<Class<?>> SEEN = new java.util.concurrent.CopyOnWriteArrayList<>();

    static AtomicBoolean flag(Class<?> c) {
      SEEN.add(c);
      return new AtomicBoolean(true);
    }
  }

  /** Interfaces of probe proxies, each made once, numbered by the JDK's proxy class counter. */
  interface ProbeA {}

  interface ProbeB {}

  /** The number the JDK gave the proxy class of {@code probe}: $Proxy12 is 12. */
  private static int proxyNumber(Class<?> probe) {
    String name = proxy(new Handler("probe"), probe).getClass().getSimpleName();
    return Integer.parseInt(name.substring(name.indexOf("$Proxy") + 6));
  }

  @Nested
  class Hostile {
    /** A proxy snapshot whose proxy entry names {@code interfaces} instead. */
    private byte[] withInterfaces(String... interfaces) throws Exception {
      byte[] bytes = Codese.toBytes(proxy(new Handler("h"), Greeter.class));
      int at = proxyEntry(bytes);
      SnapshotEdit edit = SnapshotEdit.of(bytes);
      return edit.setClass(at, ClassEntry.proxy(edit.classEntry(at).name(), List.of(interfaces)))
          .bytes();
    }

    private int proxyEntry(byte[] bytes) throws Exception {
      List<ClassEntry> classes = SnapshotFile.parse(bytes).classes();
      for (int i = 0; i < classes.size(); i++) {
        if (classes.get(i).isProxy()) {
          return i;
        }
      }
      throw new AssertionError("no proxy entry in " + classes);
    }

    @Test
    void anInterfaceTheFilterRejectsIsRejectedBeforeItIsInitialised() throws Exception {
      byte[] bytes = withInterfaces(Flagging.class.getName());
      ObjectInputFilter filter =
          info ->
              info.serialClass() != null && info.serialClass().getName().endsWith("$Flagging")
                  ? ObjectInputFilter.Status.REJECTED
                  : ObjectInputFilter.Status.UNDECIDED;
      int before = proxyNumber(ProbeA.class);
      InvalidClassException e =
          assertThrows(
              InvalidClassException.class,
              () ->
                  Codese.fromBytes(bytes, CodeseOptions.defaults().withObjectInputFilter(filter)));
      assertEquals(before + 1, proxyNumber(ProbeB.class), "no proxy class was made in between");
      assertTrue(e.getMessage().contains(Flagging.class.getName()), e.getMessage());
      assertFalse(Witness.SEEN.contains(Flagging.class), "the interface was never initialised");
      // the same file restores without the filter: the edit made a valid proxy of Flagging
      Object r = Codese.fromBytes(bytes);
      assertEquals("proxy of h", ((Flagging) r).flag(), "a proxy sends default methods on too");
    }

    @Test
    void aClassNamedAsAnInterfaceIsRejectedUninitialised() throws Exception {
      byte[] bytes = withInterfaces(Trap.class.getName());
      ClassMismatchException e =
          assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(bytes));
      assertTrue(e.getMessage().contains("not an interface"), e.getMessage());
      assertFalse(Witness.SEEN.contains(Trap.class), "the class was never initialised");
    }

    @Test
    void anUnknownInterfaceIsAClassMismatch() throws Exception {
      byte[] bytes = withInterfaces("org.example.Missing");
      ClassMismatchException e =
          assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(bytes));
      assertTrue(e.getMessage().contains("org.example.Missing"), e.getMessage());
    }

    @Test
    void anInterfaceListedTwiceIsCorrupt() throws Exception {
      byte[] bytes = withInterfaces(Greeter.class.getName(), Greeter.class.getName());
      CorruptSnapshotException e =
          assertThrows(CorruptSnapshotException.class, () -> Codese.fromBytes(bytes));
      assertTrue(e.getMessage().contains("twice"), e.getMessage());
    }

    @Test
    void aFormatBeforeProxiesCannotHoldAProxyEntry() throws Exception {
      SnapshotFile f = SnapshotFile.parse(Codese.toBytes(proxy(new Handler("o"), Greeter.class)));
      byte[] old = SnapshotEdit.relabel(f, Grammar.PROXY_VERSION - 1).bytes();
      CorruptSnapshotException e =
          assertThrows(CorruptSnapshotException.class, () -> Codese.fromBytes(old));
      assertTrue(e.getMessage().contains("dynamic proxy"), e.getMessage());
    }

    @Test
    void generatedCodeHostedByAProxyClassIsRefused() throws Exception {
      Handler h = new Handler("n");
      Object p = proxy(h, Greeter.class);
      h.self = p; // a field of a test class: code in its nest
      SnapshotFile f = SnapshotFile.parse(Codese.toBytes(p));
      int at = proxyEntry(f.bytes());
      List<org.codese.program.Placement> placements = new ArrayList<>();
      boolean moved = false;
      for (org.codese.program.Placement pl : f.placements()) {
        placements.add(
            pl.codeseHosted() || moved ? pl : new org.codese.program.Placement(pl.phase(), at));
        moved |= !pl.codeseHosted();
      }
      assertTrue(moved, "the snapshot has code in a user class's nest: " + f.placements());
      // the proxy entry's name, which a load never uses, set to pass the code's package check
      List<ClassEntry> classes = new ArrayList<>(f.classes());
      classes.set(at, ClassEntry.proxy("org.codese.Fake", classes.get(at).interfaces()));
      byte[] bytes =
          new SnapshotFile(
                  f.version(),
                  f.jdk(),
                  f.firstId(),
                  f.tableSize(),
                  f.depth(),
                  classes,
                  f.constants(),
                  f.classFiles(),
                  placements,
                  f.items())
              .bytes();
      ClassMismatchException e =
          assertThrows(ClassMismatchException.class, () -> Codese.fromBytes(bytes));
      assertTrue(e.getMessage().contains("dynamic proxy class"), e.getMessage());
      assertTrue(e.getMessage().contains("damaged or crafted"), e.getMessage());
    }

    @Test
    void nonPublicInterfacesOfTwoLoadersAreRefused() throws Exception {
      // captured with both in one loader; loaded where each comes from a loader of its own: no
      // proxy class can implement both, as ObjectInputStream.resolveProxyClass finds too
      byte[] bytes = Codese.toBytes(proxy(new Handler("two"), Secret.class, Hidden.class));
      ClassLoader secret = copying(Secret.class);
      ClassLoader hidden = copying(Hidden.class);
      ClassLoader router =
          new ClassLoader(ProxyTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve)
                throws ClassNotFoundException {
              if (name.equals(Secret.class.getName())) {
                return secret.loadClass(name);
              }
              if (name.equals(Hidden.class.getName())) {
                return hidden.loadClass(name);
              }
              return super.loadClass(name, resolve);
            }
          };
      ClassMismatchException e =
          assertThrows(
              ClassMismatchException.class,
              () -> Codese.fromBytes(bytes, CodeseOptions.defaults().withClassLoader(router)));
      assertTrue(e.getMessage().contains("different class loaders"), e.getMessage());
      // the control: with the loader it was captured with, the same snapshot loads
      assertTrue(
          Codese.fromBytes(bytes, CodeseOptions.defaults()) instanceof Hidden,
          "the same snapshot loads with one loader");
    }

    @Test
    void aProxyOfANonPublicInterfaceOfAnotherLoaderIsRefused() throws Exception {
      // the snapshot's loader does not see the interface: no proxy class can be made
      byte[] bytes = Codese.toBytes(proxy(new Handler("l"), Secret.class));
      ClassLoader parent = ClassLoader.getPlatformClassLoader();
      ClassMismatchException e =
          assertThrows(
              ClassMismatchException.class,
              () -> Codese.fromBytes(bytes, CodeseOptions.defaults().withClassLoader(parent)));
      assertTrue(e.getMessage().contains(Secret.class.getName()), e.getMessage());
    }
  }
}
