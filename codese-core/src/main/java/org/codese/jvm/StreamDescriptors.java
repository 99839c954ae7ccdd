package org.codese.jvm;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.UncheckedIOException;

/**
 * Class descriptors as a reader of a stream gets them: what {@code ObjectInputStream} returns for
 * an {@code ObjectStreamClass} read back and from {@code GetField.getObjectStreamClass()}. Those
 * are not the JVM's own descriptor ({@code ObjectStreamClass.lookup}) but new ones built from the
 * stream, whose object fields have type {@code Object} (JOSS §4.1, §4.4). Codese builds each the
 * same way: the class's descriptor written by {@code ObjectOutputStream} and read back by {@code
 * ObjectInputStream}, once per class, so that every read of one class gives one instance, as one
 * stream gives. The class was resolved and accepted by the filter before; its descriptor is read
 * only once a restore needs it.
 */
public final class StreamDescriptors {
  private static final ClassValue<ObjectStreamClass> READ =
      new ClassValue<>() {
        @Override
        protected ObjectStreamClass computeValue(Class<?> type) {
          try {
            return read(type);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  private StreamDescriptors() {}

  /**
   * The descriptor of {@code type} as a reader of a stream written by this JVM gets it: the same
   * instance for every call with the same class.
   *
   * @param type any class
   * @return the descriptor
   * @throws InvalidClassException if {@code ObjectInputStream} refuses the descriptor (the JVM-wide
   *     filter, a class it cannot describe)
   */
  public static ObjectStreamClass of(Class<?> type) throws InvalidClassException {
    try {
      return READ.get(type);
    } catch (UncheckedIOException e) {
      InvalidClassException x =
          new InvalidClassException(
              type.getName(),
              "its class descriptor cannot be read back as ObjectInputStream reads it: "
                  + e.getCause().getMessage());
      x.initCause(e.getCause());
      throw x;
    }
  }

  private static ObjectStreamClass read(Class<?> type) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(ObjectStreamClass.lookupAny(type));
    }
    try (Reader in = new Reader(bytes.toByteArray(), type)) {
      return (ObjectStreamClass) in.readObject();
    } catch (ClassNotFoundException e) {
      throw new InvalidClassException(type.getName(), e.toString());
    }
  }

  /** Reads one descriptor, resolving its classes to those of the JVM's descriptor of the type. */
  private static final class Reader extends ObjectInputStream {
    private final Class<?> type;

    Reader(byte[] bytes, Class<?> type) throws IOException {
      super(new ByteArrayInputStream(bytes));
      this.type = type;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws ClassNotFoundException {
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        if (c.getName().equals(desc.getName())) {
          return c;
        }
      }
      throw new ClassNotFoundException(desc.getName());
    }
  }
}
