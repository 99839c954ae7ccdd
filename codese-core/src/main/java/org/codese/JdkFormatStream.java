package org.codese;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * The {@code ObjectInputStream} a {@link CodeseInputStream} reads JDK serialization data with. It
 * is the JDK's own implementation; only the hooks a subclass may override ({@code resolveClass},
 * {@code resolveProxyClass}, {@code resolveObject}, {@code readClassDescriptor}) are passed to the
 * {@code CodeseInputStream}, so that a subclass of it sees the calls a subclass of {@code
 * ObjectInputStream} would.
 */
final class JdkFormatStream extends ObjectInputStream {
  private final CodeseInputStream owner;

  /**
   * Reads the JDK stream header, as {@code new ObjectInputStream(in)} does.
   *
   * @param in the underlying stream, at the stream header
   * @param owner the stream whose hooks are called
   * @throws IOException as {@link ObjectInputStream#ObjectInputStream(InputStream)} throws it
   */
  JdkFormatStream(InputStream in, CodeseInputStream owner) throws IOException {
    super(in);
    this.owner = owner;
  }

  @Override
  protected Class<?> resolveClass(ObjectStreamClass desc)
      throws IOException, ClassNotFoundException {
    return owner.resolveClass(desc);
  }

  @Override
  protected Class<?> resolveProxyClass(String[] interfaces)
      throws IOException, ClassNotFoundException {
    return owner.resolveProxyClass(interfaces);
  }

  @Override
  protected Object resolveObject(Object obj) throws IOException {
    return owner.resolveObject(obj);
  }

  @Override
  protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
    return owner.readClassDescriptor();
  }

  /**
   * @return a class descriptor read as {@code ObjectInputStream} reads it
   */
  ObjectStreamClass defaultReadClassDescriptor() throws IOException, ClassNotFoundException {
    return super.readClassDescriptor();
  }

  /** As {@link #enableResolveObject}, for the owner. */
  boolean enableResolve(boolean enable) {
    return enableResolveObject(enable);
  }
}
