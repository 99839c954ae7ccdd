/**
 * The runtime contract of generated code, part of the snapshot format from version 3 on: the
 * Codese-hosted classes of a snapshot are hidden classes defined in this package, and the only
 * methods of Codese they call are {@link org.codese.runtime.Entry}'s. Nothing here is renamed or
 * changes meaning without a new format version, so the internal packages may change freely without
 * breaking stored snapshots.
 *
 * <p>Not exported: no program other than generated code, which the load-time checks admitted, may
 * use it.
 */
package org.codese.runtime;
