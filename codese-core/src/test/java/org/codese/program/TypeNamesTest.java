package org.codese.program;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link TypeNames} names descriptors as {@code Class.getTypeName} and {@code Method} do. */
class TypeNamesTest {
  @Test
  void descriptorsAreNamedAsClassGetTypeNameNamesThem() {
    for (Class<?> c :
        new Class<?>[] {
          int.class,
          long.class,
          boolean.class,
          byte.class,
          char.class,
          short.class,
          float.class,
          double.class,
          void.class,
          String.class,
          Map.Entry.class,
          String[].class,
          int[][].class,
          Map.Entry[][][].class
        }) {
      String descriptor =
          c.isPrimitive()
              ? String.valueOf(
                  "IJZBCSFDV"
                      .charAt(
                          java.util.List.of(
                                  int.class,
                                  long.class,
                                  boolean.class,
                                  byte.class,
                                  char.class,
                                  short.class,
                                  float.class,
                                  double.class,
                                  void.class)
                              .indexOf(c)))
              : c.isArray()
                  ? c.getName().replace('.', '/')
                  : "L" + c.getName().replace('.', '/') + ";";
      assertEquals(c.getTypeName(), TypeNames.javaName(descriptor), descriptor);
    }
    assertEquals("java.util.Map$Entry", TypeNames.javaName("java/util/Map$Entry"));
  }

  @Test
  void methodsAreNamedAsJavaDeclaresThem() throws Exception {
    assertEquals(
        "java.lang.Integer java.lang.Integer.valueOf(int)",
        TypeNames.javaMethod("java.lang.Integer.valueOf", "(I)Ljava/lang/Integer;"));
    assertEquals(
        "void set(java.lang.Object, long[], int)",
        TypeNames.javaMethod("set", "(Ljava/lang/Object;[JI)V"));
    assertEquals("void m0()", TypeNames.javaMethod("m0", "()V"));
    assertEquals("m(Lbroken", TypeNames.javaMethod("m", "(Lbroken"));
  }
}
