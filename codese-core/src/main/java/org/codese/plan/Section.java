package org.codese.plan;

import java.util.List;

/**
 * Ops of one phase that run in one host: Codese's own package ({@code host == -1}), or the nest of
 * a user class (the class-table index {@code host}), where private fields are set with plain {@code
 * putfield}.
 *
 * @param phase 0 create, 1 set, 2 finish
 * @param host the class-table index of the nest host class, or -1
 * @param ops the ops, in order
 */
public record Section(int phase, int host, List<Op> ops) {}
