package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import org.codese.ProxyTest.Greeter;
import org.codese.ProxyTest.Handler;
import org.codese.format.SnapshotFile;
import org.codese.program.ClassEntry;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.SnapshotEdit;
import org.junit.jupiter.api.Test;

/**
 * Arrays whose element type is a dynamic proxy class ({@code $Proxy5[]}) and arrays of an interface
 * holding proxies, compared with {@code ObjectInputStream} on the same graph.
 */
class ProxyArrayTest {
  /** A holder with an interface-typed array field. */
  static final class Holder implements Serializable {
    private static final long serialVersionUID = 1L;
    Runnable[] tasks;
    Object any;
  }

  private static Object proxy(String prefix) {
    return ProxyTest.proxy(new Handler(prefix), Greeter.class, Runnable.class);
  }

  /** Restores through a snapshot and through Codese's streams; both must match the JDK. */
  static Object roundTrip(Object graph) throws Exception {
    byte[] jdk = JdkBytes.serialize(graph);
    Object fromJdk = JdkBytes.deserialize(jdk);
    assertArrayEquals(jdk, JdkBytes.serialize(fromJdk), "the JDK's own round trip");
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
    return restored;
  }

  @Test
  void anInterfaceArrayFieldHoldingProxies() throws Exception {
    Holder h = new Holder();
    Object p = proxy("a");
    h.tasks = new Runnable[] {(Runnable) p, null, (Runnable) p};
    Holder r = (Holder) roundTrip(h);
    assertSame(Runnable[].class, r.tasks.getClass());
    assertSame(r.tasks[0], r.tasks[2]);
    assertEquals("ax", ((Greeter) r.tasks[0]).greet("x"));
  }

  @Test
  void anArrayOfAProxyClass() throws Exception {
    Object p = proxy("b");
    Object[] array = (Object[]) Array.newInstance(p.getClass(), 2);
    array[0] = p;
    Object[] r = (Object[]) roundTrip(array);
    assertSame(array.getClass(), r.getClass(), "the proxy class's array class");
    assertTrue(Proxy.isProxyClass(r[0].getClass()));
    assertEquals("by", ((Greeter) r[0]).greet("y"));
  }

  @Test
  void anEmptyArrayOfAProxyClassInAField() throws Exception {
    Object p = proxy("c");
    Holder h = new Holder();
    h.any = Array.newInstance(p.getClass(), 0);
    Holder r = (Holder) roundTrip(h);
    assertSame(p.getClass(), r.any.getClass().getComponentType());
  }

  @Test
  void aTwoDimensionalArrayOfAProxyClassAndItsClassObject() throws Exception {
    Object p = proxy("d");
    Object[] inner = (Object[]) Array.newInstance(p.getClass(), 1);
    inner[0] = p;
    Object[][] outer = (Object[][]) Array.newInstance(inner.getClass(), 1);
    outer[0] = inner;
    Object[] graph = {outer, outer.getClass(), p};
    Object[] r = (Object[]) roundTrip(graph);
    assertSame(outer.getClass(), r[1]);
    assertSame(((Object[][]) r[0])[0][0], r[2]);
  }

  /**
   * A snapshot as another JVM writes it, which named its proxy class otherwise (the names are made
   * up by the JVM that defines the class). The JDK's reader resolves an array class of a proxy
   * class by its name and fails with {@code ClassNotFoundException} where no class of that name was
   * made; Codese makes the array class from the proxy class it makes again for the interfaces.
   */
  @Test
  void anArrayOfAProxyClassNamedByAnotherJvm() throws Exception {
    Object p = proxy("e");
    Object[] inner = (Object[]) Array.newInstance(p.getClass(), 1);
    inner[0] = p;
    Object[] graph = {inner, new Object[][] {inner}, Array.newInstance(inner.getClass(), 0)};
    String name = p.getClass().getName();
    String other = otherName(name);
    byte[] bytes = Codese.toBytes(graph);
    SnapshotEdit edit = SnapshotEdit.of(bytes);
    int renamed = 0;
    for (int i = 0; i < SnapshotFile.parse(bytes).classes().size(); i++) {
      ClassEntry e = edit.classEntry(i);
      if (e.isProxy()) {
        edit.setClass(i, ClassEntry.proxy(e.name().replace(name, other), e.interfaces()));
      } else if (e.name().contains(name)) {
        edit.setClass(
            i, new ClassEntry(e.name().replace(name, other), e.fields(), e.suid(), e.hasSuid()));
        renamed++;
      }
    }
    assertEquals(2, renamed, "arrays of one and two dimensions: " + edit.classEntry(0));
    byte[] jdk = JdkBytes.serialize(graph);
    Object[] r = (Object[]) Codese.fromBytes(edit.bytes());
    assertArrayEquals(jdk, JdkBytes.serialize(r));
    assertSame(inner.getClass(), r[0].getClass());
    assertEquals("ez", ((Greeter) ((Object[]) r[0])[0]).greet("z"));
    byte[] jdkFromOther =
        new String(jdk, StandardCharsets.ISO_8859_1)
            .replace(name, other)
            .getBytes(StandardCharsets.ISO_8859_1);
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(jdkFromOther))) {
      assertThrows(ClassNotFoundException.class, in::readObject);
    }
  }

  /**
   * A proxy class name of the same length that this JVM did not make: $Proxy12 becomes $Qroxy12.
   */
  private static String otherName(String name) {
    int at = name.lastIndexOf("$Proxy");
    return name.substring(0, at) + "$Qroxy" + name.substring(at + 6);
  }
}
