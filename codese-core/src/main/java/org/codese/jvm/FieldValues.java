package org.codese.jvm;

/**
 * The default field values of one slot: primitives as raw bits and references as objects, each in
 * the slot's field order (primitives first).
 *
 * @param prims raw bits of the primitive fields
 * @param refs the reference fields' values
 */
public record FieldValues(long[] prims, Object[] refs) {}
