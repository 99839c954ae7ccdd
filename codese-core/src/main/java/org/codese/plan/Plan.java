package org.codese.plan;

import java.util.List;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Tape;

/**
 * A restore program: sections of ops in three phases, and the tables they refer to.
 *
 * <p>The create-phase sections may run in parallel, then (after a barrier) the set-phase sections,
 * also in parallel; the finish phase runs hooks in the order Java deserialization would complete
 * the objects and must run sequentially, in section order.
 *
 * @param firstId the first table index this program fills
 * @param tableSize the table size the program needs (one past the last id)
 * @param sections the ops, by phase and host
 * @param constants the constant table
 * @param classes the class table
 * @param items the top-level items (roots and primitive data), ids into the table
 * @param depth the graph's depth, as recorded at capture
 */
public record Plan(
    int firstId,
    int tableSize,
    List<Section> sections,
    List<Constant> constants,
    List<ClassEntry> classes,
    Tape items,
    int depth) {}
