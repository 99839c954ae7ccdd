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

  /** What {@code resolveProxyClass} does after logging: 0 the default, 1 null, 2 a non-proxy. */
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

  static Class<?> resolveProxy(String[] interfaces, ObjectInputStream in) throws IOException {
    log.add(
        "resolveProxyClass "
            + List.of(interfaces)
            + " annotation "
            + in.readUTF()
            + " "
            + in.readInt()
            + " then "
            + in.read());
    return resolveMode == 1 ? null : resolveMode == 2 ? String.class : null;
  }

  static void resolve(ObjectStreamClass desc, ObjectInputStream in) throws IOException {
    log.add("resolveClass " + desc.getName() + " annotation " + in.readShort());
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

  @Test
  void aResolveProxyClassThatReturnsNullOrANonProxyFailsAsTheJdks() throws Exception {
    for (int mode = 1; mode <= 2; mode++) {
      resolveMode = mode;
      try {
        List<String> jdk = run(false, new ArrayList<>(), graphs()[0]);
        List<String> codese = run(true, new ArrayList<>(), graphs()[0]);
        // the same exception; Codese stops at the failed class, the JDK reads on through the
        // rest of the object's descriptors first (README: a failed read ends the stream anyway)
        String thrown = jdk.get(jdk.size() - 1);
        assertTrue(thrown.startsWith("thrown"), jdk.toString());
        assertEquals(thrown, codese.get(codese.size() - 1), "mode " + mode);
        List<String> before = codese.subList(0, codese.size() - 1);
        assertEquals(jdk.subList(0, before.size()), before, "mode " + mode);
        assertTrue(before.get(before.size() - 1).startsWith("resolveProxyClass"), "" + codese);
      } finally {
        resolveMode = 0;
      }
    }
  }
}
