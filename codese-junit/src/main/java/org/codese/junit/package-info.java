/**
 * Captured test fixtures for JUnit 5: annotate a field or parameter with {@link
 * org.codese.junit.Fixture} and each test gets a fresh copy of an object recorded once as a Codese
 * snapshot under the test resources.
 */
package org.codese.junit;
