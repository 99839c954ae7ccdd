package org.codese.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A captured object that every test receives as a fresh, independent copy. Put it on an instance
 * field or a parameter (of a test method, a lifecycle method or a constructor); the annotation
 * registers Codese's fixture extension itself, so no {@code @ExtendWith} is needed:
 *
 * <pre>{@code
 * class ShopTest {
 *   @Fixture("shop") Shop shop;                 // a new copy before each test
 *
 *   static Shop shop() {                        // the factory: runs only to record the fixture
 *     return Shop.loadCatalogue(100_000);
 *   }
 *
 *   @Test void discount() { shop.applyDiscount(10); ... }        // mutate freely
 *   @Test void empty(@Fixture("shop") Shop other) { ... }        // or as a parameter
 * }
 * }</pre>
 *
 * <p><b>Files.</b> The fixture lives in {@code src/test/resources/<package>/<name>.cdse}, the
 * package being the declaring test class's, under the module directory: the nearest directory above
 * the test classes' output directory ({@code target/test-classes}, {@code build/classes/java/test})
 * that holds a {@code pom.xml}, {@code build.gradle} or {@code build.gradle.kts}, so Maven and IDEs
 * find the same file; the working directory's {@code src/test/resources} when there is none. The
 * configuration parameter or system property {@code codese.fixtures.dir} replaces {@code
 * src/test/resources} with another directory. Test classes of one package share a fixture name's
 * file. Commit the files with the tests.
 *
 * <p><b>Recording.</b> When the file is missing, or the configuration parameter or system property
 * {@code codese.fixtures.record} is {@code true} or lists the fixture's name (comma-separated), the
 * extension calls the {@link #factory()} method once, captures what it returns with Codese, writes
 * the file and loads it from there; a run re-records each file at most once. With Maven: {@code mvn
 * test -Dtest=ShopTest -Dcodese.fixtures.record=shop}.
 *
 * <p><b>Loading.</b> The file is read and checked once per {@link #scope() scope}, when the first
 * test that needs it runs (not when the class starts), and each test then gets a new graph from
 * {@link org.codese.Snapshot#restore()}, independent of every other test's: tests may mutate their
 * copies, also when JUnit runs them in parallel (restoring is thread-safe; loading happens once).
 * Fields are set before each test, ahead of the test's own {@code @BeforeEach} methods; {@code
 * static} fields are refused. Restoring admits, beyond what {@code ObjectInputStream} would
 * restore, the classes the fixture needs (see {@link org.codese.Codese#classesToAllow}) that are
 * the tests' own: those of the declaring class's package and its subpackages, and those loaded from
 * the same class path entry as the declaring class (the test output directory). Other classes that
 * are not {@code Serializable} must be named in {@link #allow()}.
 *
 * <p><b>Failures.</b> A fixture that cannot be recorded, loaded or restored fails each test that
 * uses it, not the others, with a {@link org.junit.platform.commons.JUnitException} ({@link
 * org.junit.jupiter.api.extension.ParameterResolutionException} for a parameter) whose message
 * names the fixture, its file and the fix, and whose cause is Codese's exception. A stale fixture,
 * one whose classes changed since it was recorded ({@link org.codese.ClassMismatchException}), says
 * how to re-record it. A failed load is not retried within its scope. Changes the Java
 * serialization specification calls compatible (a field added or removed, with an unchanged
 * declared {@code serialVersionUID}) restore as {@code ObjectInputStream} restores them: added
 * fields hold their defaults, so record again when a test needs their values. A class that declares
 * no {@code serialVersionUID} is stale after any change to the value the JDK computes from its
 * shape (a field or a non-private method added or removed), as {@code ObjectInputStream} refuses
 * it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER})
@ExtendWith(FixtureExtension.class)
public @interface Fixture {
  /**
   * The fixture's name: its file is {@code <name>.cdse}. Letters, digits, {@code .}, {@code _} and
   * {@code -}, starting with a letter or digit.
   *
   * @return the name
   */
  String value();

  /**
   * The static no-argument method that builds the object when the fixture is recorded: a method
   * name, looked up in the declaring class, its superclasses and its enclosing classes, or {@code
   * "com.example.Fixtures#shop"} for a method of another class. By default, the method named like
   * the fixture. Its result must not be {@code null} and must fit the field or parameter.
   *
   * @return the factory method
   */
  String factory() default "";

  /**
   * Further classes to admit when restoring, as {@link org.codese.CodeseOptions#withAllowedClasses}
   * patterns ({@code "com.example.model.*"}): needed only for classes that are not {@code
   * Serializable} and are not the tests' own (see above). Admit only classes whose fixtures come
   * from your own source tree.
   *
   * @return class patterns
   */
  String[] allow() default {};

  /**
   * Whether objects that are the values of {@code static final} fields of the graph's classes are
   * recorded as references to those fields and restored as the same live objects, as {@link
   * org.codese.CodeseOptions#withStaticConstants} describes: needed when tests compare such objects
   * by identity (keys of an identity map, singletons). The fixture is then recorded and loaded with
   * the option on; its file comes from your own source tree, so loading it so is safe. Off by
   * default: constants are copied, as {@code ObjectInputStream} copies them.
   *
   * @return whether static constants are kept as references
   */
  boolean staticConstants() default false;

  /**
   * How long the loaded snapshot is kept.
   *
   * @return the scope; {@link Scope#CLASS} by default
   */
  Scope scope() default Scope.CLASS;

  /** How long a loaded fixture is kept, and who shares it. */
  enum Scope {
    /**
     * Loaded once per top-level test class (its {@code @Nested} classes share it) and released
     * after the class's last test.
     */
    CLASS,
    /**
     * Loaded once per test run (in practice per JVM) and shared by every test class that uses the
     * same file; released when the run ends.
     */
    JVM
  }
}
