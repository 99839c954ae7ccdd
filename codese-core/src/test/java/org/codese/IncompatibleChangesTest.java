package org.codese;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InvalidClassException;
import org.junit.jupiter.api.Test;

/**
 * The incompatible changes of the serialization specification's section 5.6.1 that {@code
 * ObjectInputStream} rejects, each compared with the JDK by {@link EvolutionHarness#compare}:
 * Codese throws the JDK's exception class (an {@link InvalidClassException}, here a {@link
 * ClassMismatchException} naming class and field) for the same change.
 */
class IncompatibleChangesTest extends EvolutionHarness {
  private static final String THING = CompatibleChangesTest.THING;
  private static final String MAKE = CompatibleChangesTest.MAKE;

  private void rejectedLike(String v2, String... more) throws Exception {
    String[] sources = new String[more.length + 1];
    sources[0] = v2;
    System.arraycopy(more, 0, sources, 1, more.length);
    rejected(compare(version(THING, MAKE), version(sources)), InvalidClassException.class);
  }

  @Test
  void aChangedPrimitiveTypeIsRejected() throws Exception {
    rejectedLike(THING.replace("public int a;", "public long a;"));
  }

  @Test
  void aPrimitiveFieldMadeAReferenceIsRejected() throws Exception {
    rejectedLike(THING.replace("public int a;", "public Integer a;"));
  }

  @Test
  void aReferenceFieldMadePrimitiveIsRejected() throws Exception {
    rejectedLike(THING.replace("public String s;", "public int s;"));
  }

  @Test
  void aChangedSerialVersionUidIsRejected() throws Exception {
    rejectedLike(THING.replace("= 1L;", "= 2L;"));
  }

  @Test
  void aRemovedFieldOfAClassWithoutSerialVersionUidIsRejected() throws Exception {
    String v1 = THING.replace("private static final long serialVersionUID = 1L;", "");
    rejected(
        compare(version(v1, MAKE), version(v1.replace("public String s;", ""))),
        InvalidClassException.class);
  }

  /** Version 1 of {@code Thing} without a declared {@code serialVersionUID}. */
  static final String UNDECLARED =
      THING.replace("private static final long serialVersionUID = 1L;", "");

  @Test
  void aFieldAddedToAClassWithoutSerialVersionUidIsRejected() throws Exception {
    Outcome jdk =
        compare(
            version(UNDECLARED, MAKE),
            version(UNDECLARED.replace("public String s;", "public String s; public int added;")));
    rejected(jdk, InvalidClassException.class);
    assertTrue(
        jdk.error().getMessage().contains("local class incompatible"), jdk.error()::toString);
  }

  @Test
  void aMethodAddedToAClassWithoutSerialVersionUidIsRejected() throws Exception {
    rejected(
        compare(
            version(UNDECLARED, MAKE),
            version(
                UNDECLARED.replace(
                    "public Thing next;",
                    "public Thing next; public int twice() { return 2 * a; }"))),
        InvalidClassException.class);
  }

  @Test
  void aClassThatNoLongerDeclaresItsSerialVersionUidIsRejected() throws Exception {
    rejected(compare(version(THING, MAKE), version(UNDECLARED)), InvalidClassException.class);
  }

  @Test
  void serializableMadeExternalizableIsRejected() throws Exception {
    rejectedLike(
        THING
            .replace("java.io.Serializable", "java.io.Externalizable")
            .replace(
                "public Thing next;",
                """
                public Thing next;
                public void writeExternal(java.io.ObjectOutput out) {}
                public void readExternal(java.io.ObjectInput in) {}
                """));
  }

  @Test
  void aClassMadeAnEnumIsRejected() throws Exception {
    rejectedLike("public enum Thing { A; private static final long serialVersionUID = 1L; }");
  }

  @Test
  void aClassNoLongerSerializableIsRejected() throws Exception {
    rejectedLike(THING.replace("implements java.io.Serializable", ""));
  }
}
