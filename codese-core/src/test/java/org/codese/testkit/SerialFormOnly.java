package org.codese.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class whose own writeObject/readObject do not carry its fields one to one, so the
 * walker compares its fields with what JDK deserialization produces instead of with the original.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SerialFormOnly {}
