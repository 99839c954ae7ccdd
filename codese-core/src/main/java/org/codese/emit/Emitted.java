package org.codese.emit;

import java.util.List;
import org.codese.program.Placement;

/**
 * Generated class files and where each runs.
 *
 * @param classFiles the class files, in execution order
 * @param placements for each class, {@code {phase, host}}: the phase (0 create, 1 set, 2 finish)
 *     and the class-table index of the nest host, or -1 for Codese's own package
 */
public record Emitted(List<byte[]> classFiles, List<Placement> placements) {}
