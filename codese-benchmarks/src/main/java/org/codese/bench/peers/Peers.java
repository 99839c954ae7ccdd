package org.codese.bench.peers;

import java.util.List;

/** The peers by name. Each case names its class only there, so only the chosen one is loaded. */
public final class Peers {
  private Peers() {}

  /** Every peer, in report order. {@code fory-nocg} is timed only where {@code fory} fails. */
  public static final List<String> ALL =
      List.of("codese", "codese-2t", "jdk", "kryo", "fory", "fory-nocg", "floor");

  /**
   * @param name a name from {@link #ALL}
   * @return a new instance of that peer
   */
  public static Peer byName(String name) {
    switch (name) {
      case "codese":
        return new CodesePeer(1);
      case "codese-2t":
        return new CodesePeer(2);
      case "jdk":
        return new JdkPeer();
      case "kryo":
        return new KryoPeer();
      case "fory":
        return new ForyPeer(true);
      case "fory-nocg":
        return new ForyPeer(false);
      case "floor":
        return new FloorPeer();
      default:
        throw new IllegalArgumentException("unknown peer " + name);
    }
  }

  /**
   * @param peer a peer name
   * @return the peer whose files it restores (Codese with 2 threads restores Codese's files, Fory
   *     without code generation restores Fory's)
   */
  public static String fileOwner(String peer) {
    switch (peer) {
      case "codese-2t":
        return "codese";
      default:
        return peer;
    }
  }
}
