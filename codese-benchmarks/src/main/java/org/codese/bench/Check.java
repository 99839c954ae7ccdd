package org.codese.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Arrays;

/**
 * The paper's correctness check. For a graph JDK serialization can write: the JDK bytes of the
 * restored graph must equal the JDK bytes of the graph JDK deserialization restores from the
 * original's bytes ("jdk-bytes"). JDK serialization is not idempotent (a HashMap records its table
 * capacity, which its readObject recomputes), so where those bytes differ the restored graph is
 * also accepted if one more JDK round trip of it gives the same bytes as one more round trip of the
 * reference ("jdk-bytes-normalized"); the report says which check passed. Graphs JDK serialization
 * cannot write get the structural check of {@link GraphWalk#compare}.
 */
public final class Check {
  private final Object original;
  private final byte[] reference;
  private byte[] normalizedReference;

  /**
   * @param original the original graph
   * @throws Exception if the JDK round trip of a serializable original fails
   */
  public Check(Object original) throws Exception {
    this.original = original;
    byte[] first = jdkBytesOrNull(original);
    this.reference = first == null ? null : jdkBytes(jdkRead(first));
  }

  /**
   * @return whether the graph is checked through JDK serialization
   */
  public boolean jdkSerializable() {
    return reference != null;
  }

  /**
   * @param restored a restored graph
   * @return {@code "ok <check>"} or {@code "WRONG <check>: <where>"}
   * @throws Exception if serializing or walking the restored graph fails
   */
  public String verify(Object restored) throws Exception {
    if (reference == null) {
      String diff = GraphWalk.compare(original, restored);
      return diff == null ? "ok structural" : "WRONG structural: " + diff;
    }
    byte[] got = jdkBytes(restored);
    if (Arrays.equals(got, reference)) {
      return "ok jdk-bytes";
    }
    if (normalizedReference == null) {
      normalizedReference = jdkBytes(jdkRead(reference));
    }
    byte[] normalized = jdkBytes(jdkRead(got));
    if (Arrays.equals(normalized, normalizedReference)) {
      return "ok jdk-bytes-normalized";
    }
    int at = Arrays.mismatch(got, reference);
    return "WRONG jdk-bytes: "
        + got.length
        + " vs "
        + reference.length
        + " bytes, first difference"
        + " at byte "
        + at;
  }

  static byte[] jdkBytesOrNull(Object o) throws Exception {
    try {
      return jdkBytes(o);
    } catch (java.io.NotSerializableException e) {
      return null;
    }
  }

  static byte[] jdkBytes(Object o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }

  static Object jdkRead(byte[] b) throws Exception {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
      return in.readObject();
    }
  }
}
