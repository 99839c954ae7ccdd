package org.codese.plan;

import org.codese.jvm.Types;

/**
 * Internal names of classes, made once per class: the set phase asks for its owner and cast names
 * per object, and names shared between captures keep their hash codes for the code cache's key.
 */
final class Names {
  private static final ClassValue<String> INTERNAL =
      new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
          return Types.internalName(type);
        }
      };

  private Names() {}

  /**
   * @param type any class
   * @return its internal name ({@link Types#internalName})
   */
  static String internal(Class<?> type) {
    return INTERNAL.get(type);
  }

  /**
   * @param type a field's declared type
   * @return the cast a reference needs before {@code putfield}: none ({@code null}) for Object and
   *     interfaces, else the type's internal name
   */
  static String castFor(Class<?> type) {
    return type == Object.class || type.isInterface() ? null : internal(type);
  }
}
