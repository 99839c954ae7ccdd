package org.codese.bench.peers;

import java.nio.file.Path;
import org.codese.Codese;
import org.codese.Snapshot;

/** Codese: capture to a snapshot; load it once, then restore with 1 or more threads. */
final class CodesePeer implements Peer {
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
    return "Codese.toBytes / Codese.load(file) once, Snapshot.restore(" + threads + ") per restore";
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
  public Restorer open(Path file, int ignored) throws Exception {
    Snapshot snapshot = Codese.load(file);
    int n = threads;
    return () -> snapshot.restore(n);
  }
}
