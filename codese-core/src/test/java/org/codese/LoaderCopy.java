package org.codese;

import java.io.Serializable;

/**
 * A top-level class that {@link ResolveClassSecurityTest} defines a second time in a loader of its
 * own (a nested class would name its nest host, which that loader would not share): what a reader's
 * {@code resolveClass} may return instead of the class the writer had.
 */
final class LoaderCopy implements Serializable {
  private static final long serialVersionUID = 1L;
  String name;
  LoaderCopy next;
  int n;

  LoaderCopy(String name, int n) {
    this.name = name;
    this.n = n;
  }
}
