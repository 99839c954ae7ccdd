package org.codese.load.other;

/**
 * Public, not Serializable, with only a package-private no-arg constructor: a Serializable subclass
 * in another package has no valid constructor for Java serialization.
 */
public class PackagePrivateBase {
  PackagePrivateBase() {}
}
