package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.codese.ProxyTest.Counter;
import org.codese.ProxyTest.Greeter;
import org.codese.ProxyTest.Handler;
import org.junit.jupiter.api.Test;

/**
 * The proxy hooks of the streams (issue 10, parts 3 and 4) side by side with the JDK: the same
 * subclass of {@code ObjectOutputStream}/{@code ObjectInputStream} and of Codese's streams logs
 * every class hook; for the same graph the calls must be the same in number and order, and what
 * {@code annotateProxyClass} writes must reach {@code resolveProxyClass}.
 */
class ProxyStreamHooksTest {
  /** What the current run logs. */
  static List<String> log = new ArrayList<>();

  /**
   * What {@code resolveProxyClass} does after logging: 0 the default, 1 null, 2 a non-proxy, 3
   * throws {@code ClassNotFoundException}.
   */
  static int resolveMode;

  static void annotateProxy(Class<?> cl, ObjectOutputStream out) throws IOException {
    log.add("annotateProxyClass " + names(cl.getInterfaces()));
    out.writeUTF("proxy of " + cl.getInterfaces().length);
    out.writeInt(cl.getInterfaces().length * 7);
  }

  static void annotate(Class<?> cl, ObjectOutputStream out) throws IOException {
    log.add("annotateClass " + cl.getName());
    out.writeShort(cl.getName().length());
  }

  static String names(Class<?>[] classes) {
    List<String> n = new ArrayList<>();
    for (Class<?> c : classes) {
      n.add(c.getName());
    }
    return n.toString();
  }

  static Class<?> resolveProxy(String[] interfaces, ObjectInputStream in)
      throws IOException, ClassNotFoundException {
    log.add(
        "resolveProxyClass "
            + List.of(interfaces)
            + " annotation "
            + in.readUTF()
            + " "
            + in.readInt()
            + " then "
            + in.read());
    if (resolveMode == 3) {
      throw new ClassNotFoundException("refused by resolveProxyClass: " + List.of(interfaces));
    }
    return resolveMode == 2 ? String.class : null;
  }

  /** The class {@code resolveClass} refuses with {@code ClassNotFoundException}, or null. */
  static String refused;

  static void resolve(ObjectStreamClass desc, ObjectInputStream in)
      throws IOException, ClassNotFoundException {
    log.add("resolveClass " + desc.getName() + " annotation " + in.readShort());
    if (desc.getName().equals(refused)) {
      throw new ClassNotFoundException("refused by resolveClass: " + refused);
    }
  }

  static final class JdkWriter extends ObjectOutputStream {
    JdkWriter(OutputStream out) throws IOException {
      super(out);
    }

    @Override
    protected void annotateProxyClass(Class<?> cl) throws IOException {
      annotateProxy(cl, this);
    }

    @Override
    protected void annotateClass(Class<?> cl) throws IOException {
      annotate(cl, this);
    }
  }

  static final class CodeseWriter extends CodeseOutputStream {
    CodeseWriter(OutputStream out) throws IOException {
      super(out);
    }

    @Override
    protected void annotateProxyClass(Class<?> cl) throws IOException {
      annotateProxy(cl, this);
    }

    @Override
    protected void annotateClass(Class<?> cl) throws IOException {
      annotate(cl, this);
    }
  }

  static final class JdkReader extends ObjectInputStream {
    JdkReader(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces)
        throws IOException, ClassNotFoundException {
      Class<?> c = resolveProxy(interfaces, this);
      return resolveMode == 0 ? super.resolveProxyClass(interfaces) : c;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      resolve(desc, this);
      return super.resolveClass(desc);
    }
  }

  static final class CodeseReader extends CodeseInputStream {
    CodeseReader(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces)
        throws IOException, ClassNotFoundException {
      Class<?> c = resolveProxy(interfaces, this);
      return resolveMode == 0 ? super.resolveProxyClass(interfaces) : c;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      resolve(desc, this);
      return super.resolveClass(desc);
    }
  }

  /** The log of writing then reading {@code graphs}, each written with one writeObject. */
  static List<String> run(boolean codese, List<Object> read, Object... graphs) throws Exception {
    log = new ArrayList<>();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = codese ? new CodeseWriter(bytes) : new JdkWriter(bytes)) {
      for (Object g : graphs) {
        out.writeObject(g);
        log.add("-- written");
      }
    }
    ByteArrayInputStream in = new ByteArrayInputStream(bytes.toByteArray());
    try (ObjectInputStream r = codese ? new CodeseReader(in) : new JdkReader(in)) {
      for (int i = 0; i < graphs.length; i++) {
        read.add(r.readObject());
        log.add("-- read");
      }
    } catch (Exception e) {
      log.add("thrown " + e.getClass().getName());
    }
    return log;
  }

  private static Object[] graphs() {
    Handler h = new Handler("a");
    Object p = ProxyTest.proxy(h, Greeter.class, Counter.class);
    h.self = p;
    Object q = ProxyTest.proxy(new Handler("b"), Greeter.class, Counter.class);
    Object s = ProxyTest.proxy(new Handler("c"), ProxyTest.Secret.class);
    return new Object[] {p, new ArrayList<>(List.of(q, p, s)), s};
  }

  @Test
  void theProxyHooksRunAsTheJdksWithTheAnnotationInBetween() throws Exception {
    List<Object> jdkRead = new ArrayList<>();
    List<Object> codeseRead = new ArrayList<>();
    List<String> jdk = run(false, jdkRead, graphs());
    List<String> codese = run(true, codeseRead, graphs());
    assertEquals(jdk, codese);
    assertTrue(
        jdk.contains(
            "resolveProxyClass ["
                + Greeter.class.getName()
                + ", "
                + Counter.class.getName()
                + "] annotation proxy of 2 14 then -1"),
        jdk.toString());
    assertEquals(2, jdk.stream().filter(l -> l.startsWith("annotateProxyClass")).count(), "" + jdk);
    assertEquals(2, jdk.stream().filter(l -> l.startsWith("resolveProxyClass")).count(), "" + jdk);
    assertSame(codeseRead.get(0), ((List<?>) codeseRead.get(1)).get(1));
    assertSame(codeseRead.get(2), ((List<?>) codeseRead.get(1)).get(2));
    assertTrue(Proxy.isProxyClass(codeseRead.get(2).getClass()));
  }

  /**
   * A {@code resolveProxyClass} that returns {@code null} or throws {@code ClassNotFoundException}:
   * the JDK keeps the exception, reads on through the rest of the object (calling {@code
   * resolveClass} for {@code Proxy} and the handler's classes) and throws it from {@code
   * readObject}; one that returns a class that is not a proxy class fails at once ({@code
   * InvalidClassException} "Not a proxy"). Codese makes the same calls in the same order and throws
   * the same exception.
   */
  @Test
  void aResolveProxyClassThatFailsCallsTheHooksAsTheJdksThenThrowsTheSame() throws Exception {
    for (int mode = 1; mode <= 3; mode++) {
      resolveMode = mode;
      try {
        List<String> jdk = run(false, new ArrayList<>(), graphs()[0]);
        List<String> codese = run(true, new ArrayList<>(), graphs()[0]);
        assertTrue(jdk.get(jdk.size() - 1).startsWith("thrown"), jdk.toString());
        assertEquals(jdk, codese, "mode " + mode);
        if (mode != 2) {
          int failed = indexOf(jdk, "resolveProxyClass");
          assertTrue(
              indexOf(jdk.subList(failed, jdk.size()), "resolveClass " + Handler.class.getName())
                  > 0,
              "the JDK reads on to the handler: " + jdk);
        }
      } finally {
        resolveMode = 0;
      }
    }
  }

  /**
   * An empty array of a proxy class: the JDK asks {@code resolveClass} about the array class and
   * never {@code resolveProxyClass} (no proxy object is written); Codese makes the same calls, and
   * the array restores with the proxy class as its component type.
   */
  @Test
  void anEmptyProxyArrayCallsTheHooksAsTheJdks() throws Exception {
    Object p = ProxyTest.proxy(new Handler("e"), Greeter.class, Counter.class);
    Object empty = java.lang.reflect.Array.newInstance(p.getClass(), 0);
    List<Object> jdkRead = new ArrayList<>();
    List<Object> codeseRead = new ArrayList<>();
    List<String> jdk = run(false, jdkRead, new ArrayList<>(List.of(empty, "x")));
    List<String> codese = run(true, codeseRead, new ArrayList<>(List.of(empty, "x")));
    assertEquals(jdk, codese);
    assertEquals(-1, indexOf(jdk, "resolveProxyClass"), jdk.toString());
    Object restored = ((List<?>) codeseRead.get(0)).get(0);
    assertSame(p.getClass(), restored.getClass().getComponentType());
  }

  /**
   * The same array beside a proxy object of its class: one {@code resolveProxyClass}, as the JDK.
   */
  @Test
  void anEmptyProxyArrayBesideItsProxyCallsTheHooksAsTheJdks() throws Exception {
    Object p = ProxyTest.proxy(new Handler("f"), Greeter.class, Counter.class);
    Object empty = java.lang.reflect.Array.newInstance(p.getClass(), 0);
    List<Object> codeseRead = new ArrayList<>();
    List<String> jdk = run(false, new ArrayList<>(), new ArrayList<>(List.of(empty, p)));
    List<String> codese = run(true, codeseRead, new ArrayList<>(List.of(empty, p)));
    assertEquals(jdk, codese);
    List<?> read = (List<?>) codeseRead.get(0);
    assertSame(read.get(1).getClass(), read.get(0).getClass().getComponentType());
  }

  private static int indexOf(List<String> log, String prefix) {
    for (int i = 0; i < log.size(); i++) {
      if (log.get(i).startsWith(prefix)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A {@code resolveClass} that refuses the proxy's handler class: the JDK reads on through the
   * rest of the object's descriptors and throws the {@code ClassNotFoundException} from {@code
   * readObject}; Codese makes the same calls and throws the same.
   */
  @Test
  void aResolveClassThatThrowsReadsOnAsTheJdks() throws Exception {
    refused = Handler.class.getName();
    try {
      List<String> jdk = run(false, new ArrayList<>(), graphs()[0]);
      List<String> codese = run(true, new ArrayList<>(), graphs()[0]);
      assertEquals("thrown " + ClassNotFoundException.class.getName(), jdk.get(jdk.size() - 1));
      assertEquals(jdk, codese);
      int failed = indexOf(jdk, "resolveClass " + Handler.class.getName());
      assertTrue(
          indexOf(jdk.subList(failed, jdk.size()), "resolveClass java.util.ArrayList") > 0,
          "the JDK reads on past the refused class: " + jdk);
    } finally {
      refused = null;
    }
  }
}
