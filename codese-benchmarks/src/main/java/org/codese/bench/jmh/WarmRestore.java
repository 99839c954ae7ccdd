package org.codese.bench.jmh;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.codese.bench.peers.Peer;
import org.codese.bench.peers.Peers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Warm steady state: one restore per operation from a file read and prepared once. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WarmRestore {
  /** the file to restore from */
  @Param({""})
  public String file;

  /** the peer's name */
  @Param({""})
  public String peer;

  private Peer.Restorer restorer;

  /**
   * @throws Exception if the file cannot be opened
   */
  @Setup
  public void open() throws Exception {
    restorer = Peers.byName(peer).open(Path.of(file), peer.endsWith("-2t") ? 2 : 1);
  }

  /**
   * @return the restored graph
   * @throws Exception if restoring fails
   */
  @Benchmark
  public Object restore() throws Exception {
    return restorer.restore();
  }
}
