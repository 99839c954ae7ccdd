package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotActiveException;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.codese.testkit.SideBySide;
import org.codese.testkit.SideBySide.Outcome;
import org.junit.jupiter.api.Test;

/**
 * {@code registerValidation} is accepted where {@code ObjectInputStream} accepts it, while an
 * object is being read, and throws {@code NotActiveException} where it throws it: outside any
 * {@code readObject} of the stream, from a {@code validateObject}, and on a stream a {@code
 * readObject} kept after its read ended. A restore nested in a {@code readObject} (another stream
 * on the same thread) neither drops nor takes the validations of the restore around it.
 */
class ValidationConformanceTest {
  /** The kind of streams of the current run, for the nested restores. */
  private static volatile SideBySide.Streams kind;

  /** The stream the last {@link Keeper#readObject} was given. */
  private static volatile ObjectInputStream kept;

  /** A validation that logs its name when it runs. */
  record Logged(String name) implements ObjectInputValidation {
    @Override
    public void validateObject() {
      SideBySide.log("validate " + name);
    }
  }

  /** Registers a validation named {@link #name} in its {@code readObject}. */
  static final class Registrar implements Serializable {
    private static final long serialVersionUID = 1L;
    final String name;

    Registrar(String name) {
      this.name = name;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      in.registerValidation(new Logged(name), 0);
      SideBySide.log("readObject " + name);
    }
  }

  /** Keeps the stream its {@code readObject} is given in {@link #kept}. */
  static final class Keeper implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      kept = in;
      SideBySide.log("readObject keeper");
    }
  }

  /** Its validation registers another validation on its stream, from {@code validateObject}. */
  static final class RegistersWhileValidating implements Serializable, ObjectInputValidation {
    private static final long serialVersionUID = 1L;
    private transient ObjectInputStream in;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      this.in = in;
      in.registerValidation(this, 0);
    }

    @Override
    public void validateObject() {
      SideBySide.log("validateObject");
      SideBySide.log("registers: " + attempt(in, new Logged("late")));
    }
  }

  /**
   * Restores a {@link Registrar} named "inner" in its {@code readObject}, with a new stream of the
   * run's kind over the data it writes there, and then registers a validation of its own.
   */
  static final class Nester implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = kind.out(bytes)) {
        out.writeObject(new Registrar("inner"));
      }
      try (ObjectInputStream nested = kind.in(new ByteArrayInputStream(bytes.toByteArray()))) {
        nested.readObject();
      }
      in.registerValidation(new Logged("nester"), 0);
      SideBySide.log("readObject nester");
    }
  }

  /** Registers {@code v} on {@code in} and says what happened. */
  static String attempt(ObjectInputStream in, ObjectInputValidation v) {
    try {
      in.registerValidation(v, 0);
      return "accepted";
    } catch (IOException e) {
      return SideBySide.describe(e);
    }
  }

  /** Runs the program on the JDK's streams and on Codese's and asserts they observed the same. */
  private static Outcome same(SideBySide.Writer w, SideBySide.Reader r) throws Exception {
    kind = SideBySide.JDK;
    Outcome jdk = SideBySide.run(SideBySide.JDK, w, r);
    kind = SideBySide.CODESE;
    Outcome codese = SideBySide.run(SideBySide.CODESE, w, r);
    assertEquals(jdk, codese, "Codese's streams differ from the JDK's");
    return jdk;
  }

  private static final String INACTIVE = NotActiveException.class.getName() + ": stream inactive";

  /** Registers validations of the priorities {@link #priorities} names, in that order. */
  static final class Prioritised implements Serializable {
    private static final long serialVersionUID = 1L;
    final int[] priorities;

    Prioritised(int... priorities) {
      this.priorities = priorities;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      for (int i = 0; i < priorities.length; i++) {
        in.registerValidation(new Logged(i + " at " + priorities[i]), priorities[i]);
      }
    }
  }

  /**
   * Validations run highest priority first and, as with {@code ObjectInputStream}'s list, among
   * equal priorities the one registered last first.
   */
  @Test
  void validationsRunByPriorityThenLastRegisteredFirst() throws Exception {
    Outcome jdk =
        same(
            out -> out.writeObject(new Prioritised(0, 5, 0, -1, 5, 0)),
            (in, facts) -> in.readObject());
    assertEquals(
        List.of(
            "validate 4 at 5",
            "validate 1 at 5",
            "validate 5 at 0",
            "validate 2 at 0",
            "validate 0 at 0",
            "validate 3 at -1"),
        jdk.log());
  }

  /** Before, between and after top-level reads the stream is not active. */
  @Test
  void theTopLevelStreamIsNotActive() throws Exception {
    Outcome jdk =
        same(
            out -> {
              out.writeObject(new Registrar("a"));
              out.writeObject("b");
            },
            (in, facts) -> {
              facts.add("before: " + attempt(in, new Logged("top 1")));
              facts.add("read " + ((Registrar) in.readObject()).name);
              facts.add("between: " + attempt(in, new Logged("top 2")));
              facts.add("read " + in.readObject());
              facts.add("after: " + attempt(in, new Logged("top 3")));
            });
    assertEquals(
        List.of(
            "before: " + INACTIVE,
            "read a",
            "between: " + INACTIVE,
            "read b",
            "after: " + INACTIVE),
        jdk.facts());
    assertEquals(List.of("readObject a", "validate a"), jdk.log());
  }

  /** A stream kept from a {@code readObject} is not active once the read it was for returned. */
  @Test
  void aKeptStreamIsNotActiveAfterItsRead() throws Exception {
    Outcome jdk =
        same(
            out -> out.writeObject(new Keeper()),
            (in, facts) -> {
              in.readObject();
              facts.add("kept: " + attempt(kept, new Logged("kept")));
            });
    assertEquals(List.of("kept: " + INACTIVE), jdk.facts());
    assertEquals(List.of("readObject keeper"), jdk.log());
  }

  /** Validations run when the stream is no longer active: they cannot register more. */
  @Test
  void aValidationCannotRegisterAnother() throws Exception {
    Outcome jdk =
        same(
            out -> out.writeObject(new RegistersWhileValidating()),
            (in, facts) -> facts.add("read " + in.readObject().getClass().getSimpleName()));
    assertEquals(List.of("validateObject", "registers: " + INACTIVE), jdk.log());
    assertEquals("none", jdk.thrown());
  }

  /**
   * A restore nested in a {@code readObject} runs its own validations when it ends, and the restore
   * around it keeps registering and running its own: those registered after the nested restore, by
   * the same {@code readObject} and by later ones.
   */
  @Test
  void aNestedRestoreKeepsTheValidationsOfTheOuterOne() throws Exception {
    Outcome jdk =
        same(
            out -> {
              List<Object> graph = new ArrayList<>();
              graph.add(new Registrar("before"));
              graph.add(new Nester());
              graph.add(new Registrar("after"));
              out.writeObject(graph);
            },
            (in, facts) -> facts.add("read " + ((List<?>) in.readObject()).size()));
    assertEquals(List.of("read 3"), jdk.facts());
    assertEquals(
        List.of(
            "readObject before",
            "readObject inner",
            "validate inner",
            "readObject nester",
            "readObject after",
            "validate after",
            "validate nester",
            "validate before"),
        jdk.log());
  }

  /** As above, for a snapshot restored with {@code Codese.fromBytes} around the nested stream. */
  @Test
  void aNestedRestoreKeepsTheValidationsOfASnapshotRestore() throws Exception {
    kind = SideBySide.CODESE;
    List<Object> graph = new ArrayList<>();
    graph.add(new Nester());
    graph.add(new Registrar("after"));
    byte[] snapshot = Codese.toBytes(graph);
    Outcome outcome =
        SideBySide.run(SideBySide.JDK, out -> {}, (in, facts) -> Codese.fromBytes(snapshot));
    assertEquals("none", outcome.thrown());
    assertEquals(
        List.of(
            "readObject inner",
            "validate inner",
            "readObject nester",
            "readObject after",
            "validate after",
            "validate nester"),
        outcome.log());
  }

  /**
   * The stream is active while one of its objects is read: a {@code readObject} may register on the
   * stream another one kept and on the top-level stream itself; the validations run when that read
   * ends.
   */
  @Test
  void theStreamIsActiveWhileAnObjectIsRead() throws Exception {
    Outcome jdk =
        same(
            out -> {
              out.writeObject(new Keeper());
              out.writeObject(new Registrar("second"));
              out.writeObject(new UsesKept());
            },
            (in, facts) -> {
              top = in;
              try {
                facts.add("read " + in.readObject().getClass().getSimpleName());
                facts.add("read " + in.readObject().getClass().getSimpleName());
                facts.add("read " + in.readObject().getClass().getSimpleName());
              } finally {
                top = null;
              }
            });
    assertEquals(
        List.of(
            "readObject keeper",
            "readObject second",
            "validate second",
            "uses kept: accepted",
            "uses top: accepted",
            "validate via top",
            "validate via kept"),
        jdk.log());
  }

  /** As above, for JDK data read with a {@code CodeseInputStream}. */
  @Test
  void aCodeseStreamReadingJdkDataIsActiveAsTheJdksIs() throws Exception {
    SideBySide.Streams jdkDataCodeseReader =
        new SideBySide.Streams() {
          @Override
          public ObjectOutputStream out(java.io.OutputStream o) throws IOException {
            return new ObjectOutputStream(o);
          }

          @Override
          public ObjectInputStream in(java.io.InputStream i) throws IOException {
            return new CodeseInputStream(i);
          }
        };
    SideBySide.Writer w =
        out -> {
          out.writeObject(new Keeper());
          out.writeObject(new UsesKept());
        };
    SideBySide.Reader r =
        (in, facts) -> {
          top = in;
          try {
            facts.add("before: " + attempt(in, new Logged("top")));
            in.readObject();
            in.readObject();
            facts.add("after: " + attempt(in, new Logged("top")));
          } finally {
            top = null;
          }
        };
    Outcome jdk = SideBySide.run(SideBySide.JDK, w, r);
    assertEquals(jdk, SideBySide.run(jdkDataCodeseReader, w, r));
    assertEquals(List.of("before: " + INACTIVE, "after: " + INACTIVE), jdk.facts());
    assertEquals(
        List.of(
            "readObject keeper",
            "uses kept: accepted",
            "uses top: accepted",
            "validate via top",
            "validate via kept"),
        jdk.log());
  }

  /** The top-level stream of the current run, while the program reads. */
  private static volatile ObjectInputStream top;

  /**
   * Registers a validation on the stream {@link Keeper} kept and one on the top-level stream,
   * during a later read.
   */
  static final class UsesKept implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      SideBySide.log("uses kept: " + attempt(kept, new Logged("via kept")));
      SideBySide.log("uses top: " + attempt(top, new Logged("via top")));
    }
  }
}
