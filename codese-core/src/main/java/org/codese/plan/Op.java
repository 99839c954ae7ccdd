package org.codese.plan;

/**
 * One statement of the restore program, in the vocabulary of the restore grammar. Object ids index
 * the restore table; constant indices index the snapshot's constant table. Ops of the create phase
 * fill table slots; ops of the later phases act on the object chosen by the last {@link Select}.
 */
public sealed interface Op {
  /** {@code table[id] = allocator()}. */
  record Alloc(int id, int allocator) implements Op {}

  /**
   * {@code table[id] = new T[length]}: {@code elem} is a primitive code or {@code 'L'}; for
   * {@code 'L'}, {@code maker} is an array-maker constant, or -1 for {@code Object[]}.
   */
  record NewArray(int id, char elem, int maker, int length) implements Op {}

  /** {@code table[id] = constant.clone()} for a primitive array constant. */
  record CloneArray(int id, int constant, String descriptor) implements Op {}

  /**
   * {@code table[id] = new String(value)}; the value is inline, or the text constant {@code text}
   * when it is too long for the class file ({@code text >= 0}).
   */
  record NewString(int id, String value, int text) implements Op {}

  /** {@code table[id] = box}: {@code valueOf} when {@code cached}, else a new box. */
  record NewBox(int id, char type, long bits, boolean cached) implements Op {}

  /** {@code table[id] = constant}, for enum constants and {@code Class} objects. */
  record LoadConstant(int id, int constant) implements Op {}

  /** Chooses {@code table[id]} as the target of the following puts; arrays are cast. */
  record Select(int id, String arrayDescriptor) implements Op {}

  /**
   * {@code target.field = value} through setter constant {@code setter}: a primitive of type
   * {@code type} with raw {@code bits}, or for {@code 'L'} the table entry {@code ref}.
   */
  record PutField(int setter, char type, long bits, int ref) implements Op {}

  /** {@code target[index] = value}, typed as in {@link PutField}. */
  record PutElement(char type, int index, long bits, int ref) implements Op {}

  /** Runs the hook constant {@code hook} (readObject replay, readExternal, record, resolve). */
  record CallHook(int hook) implements Op {}
}
