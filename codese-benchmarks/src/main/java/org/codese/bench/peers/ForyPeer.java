package org.codese.bench.peers;

import java.nio.file.Path;
import org.apache.fory.Fory;
import org.apache.fory.config.Language;

/** Apache Fory in Java native mode with reference tracking; code generation on or off. */
final class ForyPeer implements Peer {
  private final boolean codegen;

  ForyPeer(boolean codegen) {
    this.codegen = codegen;
  }

  Fory newFory() {
    return Fory.builder()
        .withLanguage(Language.JAVA)
        .withXlang(false)
        .withRefTracking(true)
        .ignoreStringRef(false)
        .ignoreTimeRef(false)
        .withMaxDepth(100_000)
        .withCodegen(codegen)
        .withAsyncCompilation(false)
        .requireClassRegistration(false)
        .suppressClassRegistrationWarnings(true)
        .build();
  }

  @Override
  public String name() {
    return codegen ? "fory" : "fory-nocg";
  }

  @Override
  public String config() {
    return "Fory 1.6.0: Java native mode, ref tracking on, codegen "
        + (codegen ? "on (synchronous)" : "off")
        + ", string and time refs tracked too, max depth 100,000, no registration; one instance, bytes read once";
  }

  @Override
  public String extension() {
    return codegen ? "fory" : "forynocg";
  }

  /** the capturing engine, made by the first capture and kept, as a program would keep it */
  private Fory captureFory;

  @Override
  public byte[] capture(Object root) throws Exception {
    if (captureFory == null) {
      captureFory = newFory();
    }
    return captureFory.serialize(root);
  }

  @Override
  public Restorer open(Path file, int threads) throws Exception {
    byte[] bytes = Peer.readFile(file);
    return new Restore(newFory(), bytes);
  }

  @Override
  public Session session() {
    return new InMemory(newFory());
  }

  /** One Fory instance for every capture and restore. */
  private static final class InMemory implements Session {
    private final Fory fory;

    InMemory(Fory fory) {
      this.fory = fory;
    }

    @Override
    public byte[] capture(Object root) {
      return fory.serialize(root);
    }

    @Override
    public Object restore(byte[] bytes) {
      return fory.deserialize(bytes);
    }
  }

  // a named class, not a lambda: a lambda's bootstrap costs milliseconds in a fresh JVM
  private static final class Restore implements Restorer {
    private final Fory fory;
    private final byte[] bytes;

    Restore(Fory fory, byte[] bytes) {
      this.fory = fory;
      this.bytes = bytes;
    }

    @Override
    public Object restore() {
      return fory.deserialize(bytes);
    }
  }
}
