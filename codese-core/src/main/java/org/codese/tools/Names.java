package org.codese.tools;

import java.util.Locale;

/** Java-like spellings of class names and values for listings. */
final class Names {
  private static final int MAX_STRING = 60;

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

  /**
   * @param type a primitive descriptor letter
   * @param bits the value's bits, as in {@code Types.bits}
   * @return a Java literal
   */
  static String literal(char type, long bits) {
    return switch (type) {
      case 'Z' -> bits != 0 ? "true" : "false";
      case 'C' -> charLiteral((char) bits);
      case 'B' -> "(byte) " + (byte) bits;
      case 'S' -> "(short) " + (short) bits;
      case 'J' -> bits + "L";
      case 'F' -> floatLiteral(Float.intBitsToFloat((int) bits));
      case 'D' -> doubleLiteral(Double.longBitsToDouble(bits));
      default -> Integer.toString((int) bits);
    };
  }

  private static String floatLiteral(float f) {
    if (Float.isNaN(f)) {
      return "Float.NaN";
    } else if (Float.isInfinite(f)) {
      return f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY";
    }
    return f + "f";
  }

  private static String doubleLiteral(double d) {
    if (Double.isNaN(d)) {
      return "Double.NaN";
    } else if (Double.isInfinite(d)) {
      return d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
    }
    return Double.toString(d);
  }

  private static String charLiteral(char c) {
    if (c == '\'') {
      return "'\\''";
    }
    String s = escape(String.valueOf(c));
    return "'" + s + "'";
  }

  /**
   * @param s a string
   * @return a Java string literal, shortened with a length note if long
   */
  static String string(String s) {
    if (s.length() > MAX_STRING) {
      return "\"" + escape(s.substring(0, MAX_STRING)) + "...\" /* " + s.length() + " chars */";
    }
    return "\"" + escape(s) + "\"";
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
