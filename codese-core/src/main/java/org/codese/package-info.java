/**
 * Codese's public API: serializes a Java object graph into JVM bytecode and restores it by running
 * that code.
 *
 * <p>{@link org.codese.Codese} holds the static entry points: capture a graph to bytes, a file or a
 * stream ({@code toBytes}, {@code write}), restore it ({@code fromBytes}, {@code read}), or load a
 * snapshot once as a {@link org.codese.Snapshot} and restore many independent copies of it. {@link
 * org.codese.CodeseOutputStream} and {@link org.codese.CodeseInputStream} are drop-in {@code
 * ObjectOutputStream} and {@code ObjectInputStream} subclasses whose objects travel as code. {@link
 * org.codese.CodeseOptions} and {@link org.codese.CodeseLimits} set what a snapshot may restore and
 * how large it may be.
 *
 * <p>For {@code Serializable} classes Codese follows JDK serialization's rules ({@code
 * writeObject}/{@code readObject}, {@code readResolve}, records, enums, {@code transient} fields),
 * and a snapshot is checked completely (format, checksums, the classes it names, the restore
 * grammar of its code) before any of its code runs. The exceptions of this package say what failed:
 * {@link org.codese.CorruptSnapshotException}, {@link org.codese.UnsafeSnapshotException}, {@link
 * org.codese.AuthenticityException}, {@link org.codese.ClassMismatchException}, {@link
 * org.codese.ClassNotAllowedException}, {@link org.codese.CaptureException} and {@link
 * org.codese.RestoreException}.
 *
 * <p>Tools that read a snapshot without running it (as the {@code codese} command's {@code
 * inspect}, {@code show} and {@code verify} do) use {@link org.codese.SnapshotContents}: its {@link
 * org.codese.SnapshotSegment}s, their classes, generated class files and items, the checks a load
 * runs before any code runs, and a readable listing of the restore program ({@link
 * org.codese.ProgramListener}).
 *
 * <p>Only this package is API. The packages below it ({@code org.codese.capture}, {@code plan},
 * {@code emit}, {@code format}, {@code load}, {@code verify}, {@code program}, {@code jvm}, {@code
 * tools}) are the implementation and may change in any release.
 */
package org.codese;
