package org.codese.emit;

import java.util.List;

/**
 * Generated class files with the number of chunk methods each has per phase.
 *
 * @param classFiles the class files, in execution order
 * @param chunks for each class, the number of chunks in phases a, b and c
 */
public record Emitted(List<byte[]> classFiles, List<int[]> chunks) {}
