package org.codese.jvm;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the value of a class's {@code serialVersionUID} from the {@code ConstantValue} attribute in
 * its class file, as the compiler wrote it for a {@code static final} field initialised with a
 * constant: without initialising the class and without reflective access to the field, so the same
 * value is read whether or not the JVM was started with {@code --add-opens}. Class files are never
 * encapsulated ({@code Class.getResourceAsStream} finds them in any module).
 *
 * <p>Every read is bounds-checked by the array accesses themselves; a malformed or foreign file
 * gives {@code null}, as does a class without a class file (hidden classes, classes defined from
 * bytes by a loader that has no resource for them) or a field without a constant.
 */
final class ClassFileSuid {
  private static final int MAGIC = 0xCAFEBABE;
  private static final int STATIC_FINAL = 0x0008 | 0x0010;

  private ClassFileSuid() {}

  /**
   * @param c a class, not an array or primitive class
   * @return the constant value of its {@code static final serialVersionUID} of an integral type,
   *     widened to {@code long}, or {@code null} if its class file is not at hand or holds no such
   *     constant
   */
  static Long read(Class<?> c) {
    byte[] b = bytes(c);
    if (b == null) {
      return null;
    }
    try {
      return parse(b, c.getName());
    } catch (IndexOutOfBoundsException e) {
      return null; // truncated or malformed: not the class's own file
    }
  }

  private static byte[] bytes(Class<?> c) {
    String name = c.getName();
    try (InputStream in =
        c.getResourceAsStream(name.substring(name.lastIndexOf('.') + 1) + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static Long parse(byte[] b, String className) {
    if (u4(b, 0) != MAGIC) {
      return null;
    }
    int count = u2(b, 8);
    int[] at = new int[count]; // offset of each constant's tag; 0 for index 0 and second slots
    int p = 10;
    for (int i = 1; i < count; i++) {
      at[i] = p;
      switch (b[p]) {
        case 1 -> p += 3 + u2(b, p + 1); // Utf8
        case 3, 4, 9, 10, 11, 12, 17, 18 -> p += 5;
        case 5, 6 -> {
          p += 9; // Long, Double: two slots
          i++;
        }
        case 7, 8, 16, 19, 20 -> p += 3;
        case 15 -> p += 4;
        default -> {
          return null;
        }
      }
    }
    int thisClass = at[u2(b, p + 2)];
    if (b[thisClass] != 7 || !utf8Is(b, at, u2(b, thisClass + 1), className.replace('.', '/'))) {
      return null; // the resource is not this class's file
    }
    p += 8 + 2 * u2(b, p + 6); // access, this, super, interfaces
    int fields = u2(b, p);
    p += 2;
    for (int f = 0; f < fields; f++) {
      boolean suid =
          (u2(b, p) & STATIC_FINAL) == STATIC_FINAL
              && utf8Is(b, at, u2(b, p + 2), "serialVersionUID");
      int descriptor = u2(b, p + 4);
      int attributes = u2(b, p + 6);
      p += 8;
      for (int a = 0; a < attributes; a++) {
        int length = u4(b, p + 2);
        if (suid && length == 2 && utf8Is(b, at, u2(b, p), "ConstantValue")) {
          return constant(b, at[u2(b, p + 6)], utf8Char(b, at, descriptor));
        }
        p += 6 + length;
      }
      if (suid) {
        return null; // declared, but set by the static initialiser
      }
    }
    return null;
  }

  /** The {@code Long} or {@code Integer} constant at {@code p} for a field of type {@code type}. */
  private static Long constant(byte[] b, int p, int type) {
    if (b[p] == 5 && type == 'J') {
      return ((long) u4(b, p + 1) << 32) | (u4(b, p + 5) & 0xFFFFFFFFL);
    }
    if (b[p] == 3 && (type == 'I' || type == 'S' || type == 'C' || type == 'B')) {
      return (long) u4(b, p + 1);
    }
    return null;
  }

  /** The descriptor's only character, or -1 if it is longer than one. */
  private static int utf8Char(byte[] b, int[] at, int index) {
    int p = at[index];
    return b[p] == 1 && u2(b, p + 1) == 1 ? b[p + 3] : -1;
  }

  /** Whether constant {@code index} is the Utf8 {@code ascii}. */
  private static boolean utf8Is(byte[] b, int[] at, int index, String ascii) {
    int p = at[index];
    if (index == 0 || b[p] != 1 || u2(b, p + 1) != ascii.length()) {
      return false;
    }
    for (int i = 0; i < ascii.length(); i++) {
      if (b[p + 3 + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static int u2(byte[] b, int p) {
    return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
  }

  private static int u4(byte[] b, int p) {
    return (u2(b, p) << 16) | u2(b, p + 2);
  }
}
