package org.codese.cli;

/** Java-like spellings of class names for the commands' own output. */
final class Names {
  private Names() {}

  /**
   * @param binary a binary class name ({@code java.util.HashMap}, {@code [I}, {@code [Lp.A$B;})
   * @return its source-like name ({@code java.util.HashMap}, {@code int[]}, {@code p.A.B[]})
   */
  static String source(String binary) {
    if (binary.startsWith("[")) {
      int dims = 0;
      while (dims < binary.length() && binary.charAt(dims) == '[') {
        dims++;
      }
      String elem = binary.substring(dims);
      String base =
          elem.startsWith("L") && elem.endsWith(";")
              ? source(elem.substring(1, elem.length() - 1))
              : primitive(elem);
      return base + "[]".repeat(dims);
    }
    return binary.replace('$', '.');
  }

  /**
   * @param binary a binary class name
   * @return the source-like name without its package
   */
  static String simple(String binary) {
    String elem = binary.replace('/', '.');
    int dims = 0;
    while (elem.startsWith("[")) {
      elem = elem.substring(1);
      dims++;
    }
    if (dims > 0) {
      if (elem.startsWith("L") && elem.endsWith(";")) {
        elem = elem.substring(1, elem.length() - 1);
      } else {
        return primitive(elem) + "[]".repeat(dims);
      }
    }
    return elem.substring(elem.lastIndexOf('.') + 1).replace('$', '.') + "[]".repeat(dims);
  }

  /**
   * @param code a primitive descriptor letter
   * @return the primitive's name
   */
  static String primitive(String code) {
    return switch (code) {
      case "Z" -> "boolean";
      case "B" -> "byte";
      case "C" -> "char";
      case "S" -> "short";
      case "I" -> "int";
      case "J" -> "long";
      case "F" -> "float";
      case "D" -> "double";
      default -> code;
    };
  }
}
