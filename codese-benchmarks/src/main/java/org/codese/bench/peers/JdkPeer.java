package org.codese.bench.peers;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;

/** JDK serialization: the file is read once, each restore deserializes from memory. */
final class JdkPeer implements Peer {
  @Override
  public String name() {
    return "jdk";
  }

  @Override
  public String config() {
    return "ObjectOutputStream / ObjectInputStream over a byte array read once";
  }

  @Override
  public String extension() {
    return "ser";
  }

  @Override
  public byte[] capture(Object root) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(root);
    } catch (NotSerializableException e) {
      throw new NotApplicable("not Serializable: " + e.getMessage());
    }
    return bytes.toByteArray();
  }

  @Override
  public Restorer open(Path file, int threads) throws Exception {
    return new Restore(Peer.readFile(file));
  }

  @Override
  public Session session() {
    return new InMemory();
  }

  private final class InMemory implements Session {
    @Override
    public byte[] capture(Object root) throws Exception {
      return JdkPeer.this.capture(root);
    }

    @Override
    public Object restore(byte[] bytes) throws Exception {
      return new Restore(bytes).restore();
    }
  }

  // a named class, not a lambda: a lambda's bootstrap costs milliseconds in a fresh JVM
  private static final class Restore implements Restorer {
    private final byte[] bytes;

    Restore(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public Object restore() throws Exception {
      try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
        return in.readObject();
      }
    }
  }
}
