package org.codese.load;

/**
 * Carries what a class's own restore code threw ({@code readObject}, {@code readExternal}, {@code
 * readResolve}, a record's canonical constructor, {@code validateObject}), or what {@code
 * ObjectInputStream} throws in its place, out of generated code when it is not an {@code
 * IOException}: a {@code RuntimeException}, an {@code Error}, a {@code ClassNotFoundException}.
 * {@link LoadedSnapshot} unwraps it, so that it is never seen outside this package: {@code
 * CodeseInputStream} rethrows the cause as {@code ObjectInputStream} would, {@code
 * Snapshot.restore} wraps it in a {@code RestoreException}. Anything else that escapes generated
 * code was thrown by Codese or by the generated code itself.
 */
final class HookFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  HookFailure(Throwable cause) {
    super(null, cause, false, false);
  }
}
