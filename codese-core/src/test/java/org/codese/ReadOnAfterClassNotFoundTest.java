package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * After a {@code resolveClass} or {@code resolveProxyClass} override throws {@code
 * ClassNotFoundException} (or returns {@code null}), {@code ObjectInputStream} throws it from that
 * {@code readObject} and reads on: the next objects read, and every later object that reaches the
 * lost one throws the same exception. The same subclass of both streams logs every hook call and
 * every outcome; the logs must be equal.
 */
class ReadOnAfterClassNotFoundTest {
  /** A class the readers refuse. */
  static final class Refused implements Serializable {
    private static final long serialVersionUID = 1L;
    int v = 3;
  }

  /** A class the readers accept. */
  static final class Plain implements Serializable {
    private static final long serialVersionUID = 1L;
    String s;

    Plain(String s) {
      this.s = s;
    }

    @Override
    public String toString() {
      return "Plain " + s;
    }
  }

  /** Holds another object in a field. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Object held;

    Holder(Object held) {
      this.held = held;
    }

    @Override
    public String toString() {
      return "Holder of " + held;
    }
  }

  /** Holds another object through its own writeObject/readObject data. */
  static final class CustomHolder implements Serializable {
    private static final long serialVersionUID = 1L;
    transient Object held;

    CustomHolder(Object held) {
      this.held = held;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeObject(held);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      held = in.readObject();
    }

    @Override
    public String toString() {
      return "CustomHolder of " + held;
    }
  }

  /** A serializable proxy handler. */
  static final class Handler implements InvocationHandler, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
      return method.getName().equals("toString") ? "a proxy" : null;
    }
  }

  /** The proxies' interface. */
  public interface Shape {}

  static List<String> log;
  static boolean refuseProxies;
  static boolean returnNull;

  static Class<?> check(ObjectStreamClass desc) throws ClassNotFoundException {
    log.add("resolveClass " + desc.getName());
    if (desc.getName().equals(Refused.class.getName())) {
      if (returnNull) {
        return null;
      }
      throw new ClassNotFoundException("refused " + desc.getName());
    }
    return Object.class; // not refused: the default
  }

  static boolean checkProxy(String[] interfaces) throws ClassNotFoundException {
    log.add("resolveProxyClass " + List.of(interfaces));
    if (refuseProxies) {
      throw new ClassNotFoundException("refused proxy " + List.of(interfaces));
    }
    return true;
  }

  static final class JdkReader extends ObjectInputStream {
    JdkReader(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return check(desc) == null ? null : super.resolveClass(desc);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces)
        throws IOException, ClassNotFoundException {
      checkProxy(interfaces);
      return super.resolveProxyClass(interfaces);
    }
  }

  static final class CodeseReader extends CodeseInputStream {
    CodeseReader(InputStream in) throws IOException {
      super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      return check(desc) == null ? null : super.resolveClass(desc);
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces)
        throws IOException, ClassNotFoundException {
      checkProxy(interfaces);
      return super.resolveProxyClass(interfaces);
    }
  }

  /** What to write: an object, or an {@code Integer} written with {@code writeInt}. */
  record Item(Object object, boolean data) {}

  static Item object(Object o) {
    return new Item(o, false);
  }

  static Item data(int v) {
    return new Item(v, true);
  }

  /** Writes the items with one stream, reads them back with its reader, logging everything. */
  static List<String> run(boolean codese, Item... items) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out =
        codese ? new CodeseOutputStream(bytes) : new ObjectOutputStream(bytes)) {
      for (Item i : items) {
        if (i.data()) {
          out.writeInt((Integer) i.object());
        } else {
          out.writeObject(i.object());
        }
      }
    }
    log = new ArrayList<>();
    ByteArrayInputStream in = new ByteArrayInputStream(bytes.toByteArray());
    try (ObjectInputStream r = codese ? new CodeseReader(in) : new JdkReader(in)) {
      for (Item i : items) {
        try {
          log.add(i.data() ? "int " + r.readInt() : "read " + r.readObject());
        } catch (Exception e) {
          log.add("thrown " + e.getClass().getName() + ": " + e.getMessage());
        }
      }
    }
    return log;
  }

  static void same(Item... items) throws Exception {
    List<String> jdk = run(false, items);
    List<String> codese = run(true, items);
    assertEquals(jdk, codese);
    assertTrue(jdk.stream().anyMatch(l -> l.startsWith("thrown")), jdk.toString());
  }

  @Test
  void theNextObjectsReadAsTheJdks() throws Exception {
    Refused r = new Refused();
    Plain p = new Plain("p");
    same(
        object(r),
        object(p),
        data(42),
        object(r),
        object(new Holder(r)),
        object(new Holder(p)),
        object(new CustomHolder(r)),
        object(new Plain("q")));
  }

  @Test
  void aResolveClassThatReturnsNullReadsOnAsTheJdks() throws Exception {
    returnNull = true;
    try {
      Refused r = new Refused();
      same(object(r), object(new Plain("p")), object(new Holder(r)), object(new Plain("q")));
    } finally {
      returnNull = false;
    }
  }

  @Test
  void aLostObjectInsideAGraphReadsOnAsTheJdks() throws Exception {
    Refused r = new Refused();
    same(
        object(new Holder(r)),
        object(new Plain("p")),
        object(r),
        object(new Holder(new Plain("q"))));
  }

  @Test
  void aRefusedProxyReadsOnAsTheJdks() throws Exception {
    refuseProxies = true;
    try {
      Object proxy =
          Proxy.newProxyInstance(
              Shape.class.getClassLoader(), new Class<?>[] {Shape.class}, new Handler());
      same(object(proxy), object(new Plain("p")), object(new Holder(proxy)), data(7));
    } finally {
      refuseProxies = false;
    }
  }

  @Test
  void aResetForgetsTheLostObjects() throws Exception {
    Refused r = new Refused();
    for (boolean codese : new boolean[] {false, true}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out =
          codese ? new CodeseOutputStream(bytes) : new ObjectOutputStream(bytes)) {
        out.writeObject(r);
        out.reset();
        out.writeObject(new Plain("after"));
      }
      log = new ArrayList<>();
      ByteArrayInputStream in = new ByteArrayInputStream(bytes.toByteArray());
      try (ObjectInputStream reader = codese ? new CodeseReader(in) : new JdkReader(in)) {
        try {
          reader.readObject();
        } catch (ClassNotFoundException e) {
          log.add("thrown");
        }
        log.add("read " + reader.readObject());
      }
      assertEquals(
          List.of(
              "resolveClass " + Refused.class.getName(),
              "thrown",
              "resolveClass " + Plain.class.getName(),
              "read Plain after"),
          log,
          codese ? "Codese" : "JDK");
    }
  }
}
