package org.codese.junit;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fixture as a user writes it, run by the build itself: the committed file {@code
 * src/test/resources/org/codese/junit/shop.cdse}, a field and parameters, and every test mutating
 * its copy; each must find its copy pristine and unlike every other test's.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FixtureTest {
  static final int ITEMS = 500;

  /** every copy handed out in this class, by identity */
  private static final Set<Object> SEEN = Collections.newSetFromMap(new IdentityHashMap<>());

  @Fixture("shop")
  Shop shop;

  private boolean setBeforeEach;

  static Shop shop() {
    return Shop.of("corner shop", ITEMS);
  }

  @BeforeEach
  void seesTheField() {
    setBeforeEach = shop != null;
  }

  @AfterAll
  static void everyCopyWasNew() {
    assertTrue(SEEN.size() >= 20, "copies seen: " + SEEN.size());
  }

  private static void freshAndMutate(Shop copy) {
    assertNotNull(copy);
    assertTrue(copy.pristine(ITEMS), "a copy changed by another test");
    synchronized (SEEN) {
      assertTrue(SEEN.add(copy), "a copy handed out twice");
      assertTrue(SEEN.add(copy.items.get(0)), "an item shared between copies");
    }
    copy.mutate();
  }

  @Test
  @Order(1)
  void firstTestMutatesItsCopy() {
    assertTrue(setBeforeEach, "the field is set before @BeforeEach methods run");
    freshAndMutate(shop);
  }

  @Test
  @Order(2)
  void secondTestGetsAPristineCopy() {
    freshAndMutate(shop);
  }

  @Test
  @Order(3)
  void parameterAndFieldAreDifferentCopies(@Fixture("shop") Shop other) {
    assertNotSame(shop, other);
    freshAndMutate(shop);
    freshAndMutate(other);
  }

  @RepeatedTest(5)
  @Order(4)
  void repeated(TestInfo info) {
    freshAndMutate(shop);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  @Order(5)
  void parameterized(int n, @Fixture("shop") Shop copy) {
    assertTrue(n > 0);
    freshAndMutate(copy);
    freshAndMutate(shop);
  }

  @Nested
  class Inner {
    @Fixture("shop")
    Shop inner;

    @Test
    void outerAndInnerFieldsAreFreshCopies() {
      assertNotSame(shop, inner);
      freshAndMutate(shop);
      freshAndMutate(inner);
    }

    @RepeatedTest(3)
    void repeatedInNested(@Fixture("shop") Shop copy) {
      freshAndMutate(copy);
      freshAndMutate(inner);
    }
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class OneInstanceForAllTests {
    @Fixture("shop")
    Shop copy;

    @RepeatedTest(3)
    void eachTestStillGetsItsOwnCopy() {
      freshAndMutate(copy);
    }
  }
}
