package org.codese.testkit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.ArrayList;
import java.util.List;

/**
 * JDK serialization helpers for the paper's byte-for-byte check, and a diff that explains where two
 * JDK streams part: the offset, the class descriptors and objects read around it, and a hex window
 * of both streams.
 */
public final class JdkBytes {
  private JdkBytes() {}

  /** JDK-serializes {@code graph}. */
  public static byte[] serialize(Object graph) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(graph);
    }
    return bytes.toByteArray();
  }

  /** JDK-deserializes one object. */
  public static Object deserialize(byte[] bytes) throws IOException {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    } catch (ClassNotFoundException e) {
      throw new IOException(e);
    }
  }

  /**
   * @return the first offset where the arrays differ, or -1 when they are equal
   */
  public static int firstDifference(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      if (a[i] != b[i]) {
        return i;
      }
    }
    return a.length == b.length ? -1 : n;
  }

  /**
   * Describes how {@code actual} differs from {@code expected}, or returns {@code null} when the
   * two are identical.
   */
  public static String explainDifference(byte[] expected, byte[] actual) {
    int at = firstDifference(expected, actual);
    if (at < 0) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    sb.append("JDK bytes differ at offset ")
        .append(at)
        .append(" (expected length ")
        .append(expected.length)
        .append(", actual length ")
        .append(actual.length)
        .append(")\n");
    sb.append("  expected, near offset: ").append(context(expected, at)).append('\n');
    sb.append("  actual,   near offset: ").append(context(actual, at)).append('\n');
    sb.append("  expected bytes: ").append(hexWindow(expected, at)).append('\n');
    sb.append("  actual bytes:   ").append(hexWindow(actual, at));
    return sb.toString();
  }

  /** Reads the stream while logging positions of class descriptors and finished objects. */
  private static String context(byte[] stream, int offset) {
    List<long[]> marks = new ArrayList<>();
    List<String> names = new ArrayList<>();
    String lastClassBefore = null;
    String failure = null;
    CountingInput counting = new CountingInput(new ByteArrayInputStream(stream));
    try (LoggingInput in = new LoggingInput(counting, marks, names)) {
      in.readObject();
    } catch (Exception | StackOverflowError e) {
      failure = e.toString();
    }
    String lastObjectBefore = null;
    String firstObjectAfter = null;
    for (int i = 0; i < marks.size(); i++) {
      long pos = marks.get(i)[0];
      boolean isClass = marks.get(i)[1] == 1;
      if (pos <= offset) {
        if (isClass) {
          lastClassBefore = names.get(i) + " (descriptor read by ~" + pos + ")";
        } else {
          lastObjectBefore = names.get(i) + " (ended ~" + pos + ")";
        }
      } else if (!isClass && firstObjectAfter == null) {
        firstObjectAfter = names.get(i) + " (ended ~" + pos + ")";
      }
    }
    return "last class descriptor "
        + lastClassBefore
        + "; last object "
        + lastObjectBefore
        + "; next object "
        + firstObjectAfter
        + (failure == null ? "" : "; re-read failed: " + failure);
  }

  private static String hexWindow(byte[] b, int at) {
    int from = Math.max(0, at - 16);
    int to = Math.min(b.length, at + 24);
    StringBuilder hex = new StringBuilder();
    StringBuilder text = new StringBuilder();
    for (int i = from; i < to; i++) {
      if (i == at) {
        hex.append('>');
        text.append('>');
      }
      hex.append(String.format("%02x ", b[i] & 0xff));
      char c = (char) (b[i] & 0xff);
      text.append(c >= 32 && c < 127 ? c : '.');
    }
    return "[" + from + ".." + to + ") " + hex + " |" + text + "|";
  }

  private static final class CountingInput extends FilterInputStream {
    long pos;

    CountingInput(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int r = super.read();
      if (r >= 0) {
        pos++;
      }
      return r;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int r = super.read(b, off, len);
      if (r > 0) {
        pos += r;
      }
      return r;
    }

    @Override
    public long skip(long n) throws IOException {
      long r = super.skip(n);
      pos += r;
      return r;
    }
  }

  private static final class LoggingInput extends ObjectInputStream {
    private final CountingInput counting;
    private final List<long[]> marks;
    private final List<String> names;

    LoggingInput(CountingInput in, List<long[]> marks, List<String> names) throws IOException {
      super(in);
      this.counting = in;
      this.marks = marks;
      this.names = names;
      enableResolveObject(true);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc)
        throws IOException, ClassNotFoundException {
      if (marks.size() < 5_000_000) {
        marks.add(new long[] {counting.pos, 1});
        names.add(desc.getName());
      }
      return super.resolveClass(desc);
    }

    @Override
    protected Object resolveObject(Object obj) {
      if (marks.size() < 5_000_000) {
        marks.add(new long[] {counting.pos, 0});
        names.add(obj == null ? "null" : obj.getClass().getName());
      }
      return obj;
    }
  }
}
