package org.codese.program;

import java.util.Objects;

/**
 * Where a generated class runs: its phase, and its host, the class-table index of the user class in
 * whose package and nest it is defined, or {@link #CODESE} for the runtime contract's package.
 *
 * @param phase the phase
 * @param host the class-table index of the nest host, or {@link #CODESE}
 */
public record Placement(Phase phase, int host) {
  @Override
  public boolean equals(Object o) {
    return o instanceof Placement x && phase == x.phase && host == x.host;
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(phase);
    h = 31 * h + host;
    return h;
  }

  /** The host of classes defined in Codese's own (the runtime contract's) package. */
  public static final int CODESE = -1;

  /**
   * @throws NullPointerException if {@code phase} is null
   * @throws IllegalArgumentException if {@code host} is below {@link #CODESE}
   */
  public Placement {
    Objects.requireNonNull(phase, "phase");
    if (host < CODESE) {
      throw new IllegalArgumentException("host " + host);
    }
  }

  /**
   * @return whether the class is defined in Codese's package rather than in a user class's nest
   */
  public boolean codeseHosted() {
    return host == CODESE;
  }
}
