package org.codese.program;

/**
 * Types as Java source names them ({@code int}, {@code java.lang.String[]}, {@code
 * java.util.Map$Entry}), for messages: a snapshot records field types and generated code names
 * classes as JVM descriptors and internal names ({@code I}, {@code [Ljava/lang/String;}), which
 * mean little to a reader of an exception.
 */
public final class TypeNames {
  private TypeNames() {}

  /**
   * @param descriptor a field descriptor ({@code I}, {@code Ljava/util/List;}, {@code
   *     [[Ljava/lang/String;}) or an internal class name ({@code java/util/List})
   * @return the type as Java names it ({@code int}, {@code java.util.List}, {@code
   *     java.lang.String[][]}); a one-letter name is read as a primitive type's descriptor
   */
  public static String javaName(String descriptor) {
    int dims = 0;
    while (dims < descriptor.length() && descriptor.charAt(dims) == '[') {
      dims++;
    }
    String element = descriptor.substring(dims);
    String name = element.length() == 1 ? primitive(element.charAt(0)) : null;
    if (name == null) {
      if (element.length() > 2 && element.charAt(0) == 'L' && element.endsWith(";")) {
        element = element.substring(1, element.length() - 1);
      }
      name = element.replace('/', '.');
    }
    StringBuilder sb = new StringBuilder(name);
    for (int i = 0; i < dims; i++) {
      sb.append("[]");
    }
    return sb.toString();
  }

  /**
   * @param name a method's name
   * @param descriptor its descriptor, such as {@code (I)Ljava/lang/Integer;}
   * @return the method as Java declares it, such as {@code java.lang.Integer name(int)}; the
   *     descriptor as it is if it is malformed
   */
  public static String javaMethod(String name, String descriptor) {
    int close = descriptor.indexOf(')');
    if (!descriptor.startsWith("(") || close < 0) {
      return name + descriptor;
    }
    StringBuilder sb = new StringBuilder();
    sb.append(javaName(descriptor.substring(close + 1))).append(' ').append(name).append('(');
    int p = 1;
    boolean first = true;
    while (p < close) {
      int start = p;
      while (p < close && descriptor.charAt(p) == '[') {
        p++;
      }
      if (p < close && descriptor.charAt(p) == 'L') {
        int end = descriptor.indexOf(';', p);
        if (end < 0 || end > close) {
          return name + descriptor;
        }
        p = end;
      }
      p++;
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(javaName(descriptor.substring(start, Math.min(p, close))));
    }
    return sb.append(')').toString();
  }

  private static String primitive(char code) {
    return switch (code) {
      case 'I' -> "int";
      case 'J' -> "long";
      case 'Z' -> "boolean";
      case 'B' -> "byte";
      case 'C' -> "char";
      case 'S' -> "short";
      case 'F' -> "float";
      case 'D' -> "double";
      case 'V' -> "void";
      default -> null;
    };
  }
}
