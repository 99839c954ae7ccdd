package org.codese.bench.peers;

import java.nio.file.Path;
import org.codese.Codese;
import org.codese.CodeseOptions;
import org.codese.Snapshot;

/**
 * Codese: capture to a snapshot; load it once, then restore with 1 or more threads. Some graphs
 * have classes that are not Serializable; the suite restores only snapshots it wrote itself, so it
 * admits every class ({@code withAllowedClasses("**")}), the trusted-source choice that matches
 * Kryo's and Fory's peers with registration off.
 */
final class CodesePeer implements Peer {
  private static final CodeseOptions OWN_SNAPSHOTS =
      CodeseOptions.defaults().withAllowedClasses("**");

  private static final CodeseOptions COMPRESSED = CodeseOptions.defaults().withCompression(true);

  private final int threads;

  CodesePeer(int threads) {
    this.threads = threads;
  }

  @Override
  public String name() {
    return threads == 1 ? "codese" : "codese-" + threads + "t";
  }

  @Override
  public String config() {
    return "Codese.toBytes / Codese.load(file) once, every class allowed (own snapshots),"
        + " Snapshot.restore("
        + threads
        + ") per restore";
  }

  @Override
  public String extension() {
    return "cdse";
  }

  @Override
  public byte[] capture(Object root) throws Exception {
    return Codese.toBytes(root);
  }

  @Override
  public byte[] captureCompressed(Object root) throws Exception {
    return Codese.toBytes(root, COMPRESSED);
  }

  @Override
  public Restorer open(Path file, int ignored) throws Exception {
    return new Restore(Codese.load(file, OWN_SNAPSHOTS), threads);
  }

  @Override
  public Session session() {
    return new InMemory();
  }

  /** Codese.toBytes, and Codese.fromBytes (load, restore once, close) per restore. */
  private static final class InMemory implements Session {
    @Override
    public byte[] capture(Object root) throws Exception {
      return Codese.toBytes(root);
    }

    @Override
    public Object restore(byte[] bytes) throws Exception {
      return Codese.fromBytes(bytes, OWN_SNAPSHOTS);
    }
  }

  // a named class, not a lambda: a lambda's bootstrap costs milliseconds in a fresh JVM
  private static final class Restore implements Restorer {
    private final Snapshot snapshot;
    private final int threads;

    Restore(Snapshot snapshot, int threads) {
      this.snapshot = snapshot;
      this.threads = threads;
    }

    @Override
    public Object restore() throws Exception {
      return snapshot.restore(threads);
    }
  }
}
