package org.codese.plan;

import java.util.List;
import org.codese.program.ClassEntry;
import org.codese.program.Constant;
import org.codese.program.Tape;

/**
 * A restore program: three phases of ops, and the tables they refer to.
 *
 * <p>The create phase may run in parallel chunks, then (after a barrier) the set phase, also in
 * parallel chunks; the finish phase runs hooks in the order Java deserialization would complete
 * the objects and must run sequentially.
 *
 * @param firstId the first table index this program fills
 * @param tableSize the table size the program needs (one past the last id)
 * @param create allocation ops
 * @param set field and element stores that need no hooks
 * @param finish deferred stores and hook calls, in completion order
 * @param constants the constant table
 * @param classes the class table
 * @param items the top-level items (roots and primitive data), ids into the table
 */
public record Plan(
    int firstId,
    int tableSize,
    List<Op> create,
    List<Op> set,
    List<Op> finish,
    List<Constant> constants,
    List<ClassEntry> classes,
    Tape items) {}
