package org.codese.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.codese.bench.graphs.Graphs;
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

/**
 * Warm steady state of capture: one capture of the same graph to bytes per operation, as {@link
 * Peer#capture} makes it (Kryo and Fory keep the engine their first call made).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WarmCapture {
  /** the graph's name (see {@link Graphs#build}) */
  @Param({""})
  public String graph;

  /** the peer's name */
  @Param({""})
  public String peer;

  private Peer capturer;
  private Object root;

  /**
   * @throws Exception if the graph cannot be built
   */
  @Setup
  public void build() throws Exception {
    capturer = Peers.byName(peer);
    root = Graphs.build(graph);
  }

  /**
   * @return the captured bytes
   * @throws Exception if capturing fails
   */
  @Benchmark
  public byte[] capture() throws Exception {
    return capturer.capture(root);
  }
}
