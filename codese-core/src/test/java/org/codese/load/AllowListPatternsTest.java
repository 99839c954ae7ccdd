package org.codese.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The allow-list is the one option that widens the default surface, so each pattern must admit
 * exactly what its documentation says and no more, and a malformed pattern must be refused rather
 * than read as something else.
 */
class AllowListPatternsTest {
  private static AllowList of(String... patterns) {
    return AllowList.of(List.of(patterns));
  }

  @Test
  void aClassPatternAdmitsThatClassOnly() {
    AllowList a = of("com.example.Foo");
    assertTrue(a.admits("com.example.Foo"));
    assertFalse(a.admits("com.example.FooBar"));
    assertFalse(a.admits("com.example.Foo$Inner"));
    assertFalse(a.admits("org.example.Foo"));
  }

  @Test
  void aPrefixPatternAdmitsNamesStartingWithIt() {
    AllowList a = of("com.example.Foo*");
    assertTrue(a.admits("com.example.Foo"));
    assertTrue(a.admits("com.example.FooBar"));
    assertFalse(a.admits("com.example.Bar"));
    assertFalse(a.admits("org.example.FooBar"));
  }

  @Test
  void aPackagePatternAdmitsThatPackageOnly() {
    AllowList a = of("com.example.*");
    assertTrue(a.admits("com.example.A"));
    assertTrue(a.admits("com.example.A$B"));
    assertFalse(a.admits("com.example.sub.B"));
    assertFalse(a.admits("com.examples.A"));
    assertFalse(a.admits("com.A"));
  }

  @Test
  void aSubpackagePatternAdmitsThePackageTree() {
    AllowList a = of("com.example.**");
    assertTrue(a.admits("com.example.A"));
    assertTrue(a.admits("com.example.sub.deeper.B"));
    assertFalse(a.admits("com.examples.A"));
    assertFalse(a.admits("com.A"));
  }

  @Test
  void everyClassOnlyWhenAskedFor() {
    assertTrue(of("**").admits("any.Thing"));
    assertTrue(of("*").admits("Thing"));
    assertTrue(AllowList.ALL.admits(Thread.class));
    assertFalse(AllowList.NONE.admits(Thread.class));
    assertTrue(AllowList.NONE.isEmpty());
    assertSame(AllowList.NONE, AllowList.of(List.of()));
  }

  @Test
  void arraysAreJudgedByTheirElementClass() {
    AllowList a = of("java.lang.Thread");
    assertTrue(a.admits(Thread[][].class));
    assertFalse(a.admits(Runnable[].class));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "*Foo",
        "**Foo",
        "com.*.Foo",
        "com.Foo**",
        "com.ex*ample",
        "a b",
        "a;b",
        "a/b",
        "!a",
        "a,b",
        "a\tb"
      })
  void aMalformedPatternIsRefused(String pattern) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> of(pattern));
    assertTrue(e.getMessage().contains("pattern"), e.getMessage());
  }

  @Test
  void theNeededClassesAreAddedSortedAfterThePatterns() {
    AllowList a = of("com.example.*");
    assertEquals(
        List.of("com.example.*", "a.Z", "b.A"),
        a.with(List.of("b.A", "com.example.Admitted", "a.Z", "b.A")));
    assertEquals(
        "CodeseOptions.defaults().withAllowedClasses(\"com.example.*\", \"a.Z\")",
        AllowList.optionsLine(List.of("com.example.*", "a.Z")));
  }

  @Test
  void equalListsAreEqual() {
    assertEquals(of("a.B", "c.*"), of("a.B", "c.*"));
    assertEquals(of("a.B", "c.*").hashCode(), of("a.B", "c.*").hashCode());
    assertFalse(of("a.B").equals(of("c.*")));
    assertEquals("a.B;c.*", of("a.B", "c.*").toString());
  }
}
