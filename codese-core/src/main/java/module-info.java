/**
 * Codese: serializes Java object graphs into JVM bytecode and restores them by running it.
 *
 * <p>The module exports only {@link org.codese}; the packages below it are the implementation.
 * Codese restores the private state of user classes, as {@code ObjectInputStream} does, through
 * deep reflection and generated code: a user module whose classes Codese captures and restores
 * opens their packages to {@code org.codese} (classes on the class path need nothing).
 */
module org.codese {
  requires org.objectweb.asm;
  requires jdk.unsupported;

  exports org.codese;
}
