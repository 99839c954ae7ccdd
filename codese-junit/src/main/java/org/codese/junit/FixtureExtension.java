package org.codese.junit;

import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension {@link Fixture} registers: sets annotated fields before each test and resolves
 * annotated parameters, each with a new copy restored from a snapshot kept in the store of the
 * fixture's scope. JUnit creates one instance per registration; it holds no state of its own.
 */
final class FixtureExtension implements BeforeEachCallback, ParameterResolver {
  private static final Namespace NAMESPACE = Namespace.create(FixtureExtension.class);

  @Override
  public void beforeEach(ExtensionContext context) throws IllegalAccessException {
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      Class<?> c = instance.getClass();
      for (Field field : AnnotationSupport.findAnnotatedFields(c, Fixture.class)) {
        inject(context, instance, field);
      }
    }
  }

  private static void inject(ExtensionContext context, Object instance, Field field)
      throws IllegalAccessException {
    String target = "field " + field.getDeclaringClass().getName() + "." + field.getName();
    int modifiers = field.getModifiers();
    if (Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
      throw new JUnitException(
          "@Fixture "
              + target
              + " is static or final: make it a non-final"
              + " instance field, so that each test gets its own copy");
    }
    Fixture fixture = field.getAnnotation(Fixture.class);
    Object copy =
        loaded(context, fixture, field.getDeclaringClass()).restore(field.getType(), target);
    field.setAccessible(true);
    field.set(instance, copy);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.isAnnotated(Fixture.class);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Fixture fixture = parameter.findAnnotation(Fixture.class).orElseThrow();
    Executable executable = parameter.getDeclaringExecutable();
    String target = "parameter " + parameter.getIndex() + " of " + executable;
    try {
      return loaded(context, fixture, executable.getDeclaringClass())
          .restore(parameter.getParameter().getType(), target);
    } catch (JUnitException e) {
      throw new ParameterResolutionException(e.getMessage(), e.getCause());
    }
  }

  /** The fixture loaded once in its scope's store: by the first test that needs it. */
  private static LoadedFixture loaded(
      ExtensionContext context, Fixture fixture, Class<?> declaringClass) {
    FixtureSpec spec = FixtureSpec.of(fixture, declaringClass, context);
    ExtensionContext owner =
        fixture.scope() == Fixture.Scope.JVM ? context.getRoot() : topLevelClass(context);
    Set<Path> recorded =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(
                RecordedFiles.class, k -> new RecordedFiles(), RecordedFiles.class);
    return owner
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            spec.key(), k -> LoadedFixture.open(spec, recorded), LoadedFixture.class);
  }

  /** The fixture files recorded in one test run (the root context's store holds one). */
  private static final class RecordedFiles extends ConcurrentSkipListSet<Path> {
    private static final long serialVersionUID = 1L;
  }

  /** The context of the top-level class a test (method, invocation, nested class) belongs to. */
  private static ExtensionContext topLevelClass(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getParent().flatMap(ExtensionContext::getParent).isPresent()) {
      c = c.getParent().orElseThrow();
    }
    return c;
  }
}
