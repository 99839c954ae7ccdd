package org.codese.plan;

import java.util.List;
import java.util.Objects;
import org.codese.program.Phase;
import org.codese.program.Placement;

/**
 * Ops of one phase that run in one host: Codese's own package ({@link Placement#CODESE}), or the
 * nest of a user class (the class-table index {@code host}), where private fields are set with
 * plain {@code putfield}.
 *
 * @param placement the phase and the host
 * @param ops the ops, in order
 */
public record Section(Placement placement, List<Op> ops) {
  @Override
  public boolean equals(Object o) {
    return o instanceof Section x
        && Objects.equals(placement, x.placement)
        && Objects.equals(ops, x.ops);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(placement);
    h = 31 * h + Objects.hashCode(ops);
    return h;
  }

  /**
   * @return the section's phase
   */
  public Phase phase() {
    return placement.phase();
  }

  /**
   * @return the class-table index of the nest host class, or {@link Placement#CODESE}
   */
  public int host() {
    return placement.host();
  }
}
