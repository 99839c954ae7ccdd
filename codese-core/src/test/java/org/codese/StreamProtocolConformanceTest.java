package org.codese;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamConstants;
import java.io.OptionalDataException;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import org.codese.corpus.Types.Node;
import org.codese.corpus.Types.Pair;
import org.codese.corpus.Types.Point;
import org.codese.testkit.JdkBytes;
import org.codese.testkit.SideBySide.Streams;
import org.codese.testkit.SocketPair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream protocol of the Java Object Serialization Specification as the drop-in streams must
 * keep it: when bytes reach the underlying stream (section 2.1 and {@code ObjectOutputStream}'s
 * Javadoc on block-data records), the end of the data (section 3.1 and {@code ObjectInputStream}'s
 * Javadoc), {@code reset} (sections 2.1 and 6.2, {@code TC_RESET} in the grammar of 6.4.1),
 * primitive data between objects (6.2, {@code blockdata} in 6.4.1), {@code available}, {@code
 * skipBytes} and underlying streams without {@code mark}. Every test runs one program against
 * {@code ObjectOutputStream}/{@code ObjectInputStream} and against Codese's streams and compares
 * what each observes; the socket tests use a real TCP socket pair.
 */
@Timeout(60)
class StreamProtocolConformanceTest {

  private static final Streams JDK = org.codese.testkit.SideBySide.JDK;
  private static final Streams CODESE = org.codese.testkit.SideBySide.CODESE;

  /** A step of a writing program, and what a reader reads for it. */
  private interface Step {
    void run(ObjectOutputStream out) throws IOException;
  }

  /**
   * @param name for messages
   * @param step what the writer does
   * @param dataBytes the bytes of primitive data the step writes, or -1 for an object, or 0
   */
  private record Op(String name, Step step, int dataBytes) {}

  private static Op data(String name, int bytes, Step step) {
    return new Op(name, step, bytes);
  }

  private static Op object(String name, Step step) {
    return new Op(name, step, -1);
  }

  private static Op other(String name, Step step) {
    return new Op(name, step, 0);
  }

  private static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  /**
   * A program that crosses every rule of the block-data buffer: data before and after objects,
   * writes larger than a block with an empty and a partly full buffer, a reset, a flush, primitives
   * that straddle the 1024-byte boundary, and strings that fill the buffer or cross its end with
   * multi-byte characters (where JDK 17 and later JDKs drain at different points: Codese follows
   * the JDK it runs on).
   */
  private static final List<Op> PROGRAM =
      List.of(
          data("writeInt", 4, o -> o.writeInt(7)),
          object("writeObject(\"x\")", o -> o.writeObject("x")),
          data("write(3000 bytes), buffer empty", 3000, o -> o.write(pattern(3000))),
          data("writeUTF", 8, o -> o.writeUTF("h\u00e9llo")),
          object("writeObject(list)", o -> o.writeObject(new ArrayList<>(List.of(1, "two")))),
          other("reset", ObjectOutputStream::reset),
          data("writeLong", 8, o -> o.writeLong(-1L)),
          data("writeBytes(1500 chars)", 1500, o -> o.writeBytes("a".repeat(1500))),
          data("write(1100 bytes), buffer partly full", 1100, o -> o.write(pattern(1100))),
          data("writeChars", 4, o -> o.writeChars("ab")),
          object("writeUnshared", o -> o.writeUnshared(new Point(1, 2))),
          data("write(1024 bytes), buffer empty", 1024, o -> o.write(pattern(1024))),
          data("writeDouble", 8, o -> o.writeDouble(2.5)),
          data("writeBytes(1016 chars)", 1016, o -> o.writeBytes("b".repeat(1016))),
          data("writeInt across the block boundary", 4, o -> o.writeInt(0x01020304)),
          data(
              "writeBytes(1017 chars), filling the buffer",
              1017,
              o -> o.writeBytes("c".repeat(1017))),
          data("writeUTF(1019 ASCII chars)", 1021, o -> o.writeUTF("d".repeat(1019))),
          data(
              "writeUTF(non-ASCII) across the boundary",
              2 + 1010 + 100,
              o -> o.writeUTF("e".repeat(1010) + "\u00e9\u20ac".repeat(20))),
          other("flush", ObjectOutputStream::flush),
          data("writeBoolean", 1, o -> o.writeBoolean(true)),
          object("writeObject(node)", o -> o.writeObject(new Node("n"))),
          data("writeShort", 2, o -> o.writeShort(3)),
          other("close", ObjectOutputStream::close));

  /**
   * What a reader of the bytes written so far gets: for each step, the objects and the bytes of
   * primitive data it can read, until the data ends.
   */
  private static String readable(Streams s, byte[] prefix, List<Op> program) throws Exception {
    StringBuilder log = new StringBuilder();
    try (ObjectInputStream in = s.in(new ByteArrayInputStream(prefix))) {
      for (Op op : program) {
        if (op.dataBytes() < 0) {
          Object o = in.readObject();
          log.append("object ").append(o == null ? null : o.getClass().getSimpleName());
        } else if (op.dataBytes() > 0) {
          int n = 0;
          while (n < op.dataBytes() && in.read() >= 0) {
            n++;
          }
          log.append(n).append(" bytes");
          if (n < op.dataBytes()) {
            return log.toString();
          }
        }
        log.append("; ");
      }
    } catch (EOFException e) {
      log.append("EOFException");
    }
    return log.toString();
  }

  /** After each step: what a reader can read from the underlying stream, and its flushes. */
  private static List<String> observe(Streams s, List<Op> program) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    SocketPair.Counting under = new SocketPair.Counting(bytes);
    List<String> seen = new ArrayList<>();
    ObjectOutputStream out = s.out(under);
    seen.add(
        "constructor: "
            + readable(s, bytes.toByteArray(), program)
            + " | flushed "
            + (under.flushes > 0));
    for (Op op : program) {
      int flushes = under.flushes;
      op.step().run(out);
      seen.add(
          op.name()
              + ": "
              + readable(s, bytes.toByteArray(), program)
              + " | flushed "
              + (under.flushes > flushes));
    }
    return seen;
  }

  /**
   * Section 2.1 and {@code ObjectOutputStream}'s Javadoc: "Each block-data record will be filled up
   * to 1024 bytes, or be written whenever there is a termination of block-data mode. Calls to the
   * ObjectOutputStream methods writeObject, defaultWriteObject and writeFields initially terminate
   * any existing block-data record." After every step of a program, a reader of what reached the
   * underlying stream reads as much with Codese as with the JDK: an object as soon as {@code
   * writeObject} returned, primitive data in the same 1024-byte steps; and only {@code flush} and
   * {@code close} flush the underlying stream (how often they call its {@code flush} is not
   * compared).
   */
  @Test
  void whatReachesTheUnderlyingStreamAfterEveryStep() throws Exception {
    List<String> jdk = observe(JDK, PROGRAM);
    List<String> codese = observe(CODESE, PROGRAM);
    assertEquals(String.join("\n", jdk), String.join("\n", codese));
    // the program does test the buffer: some step leaves data unreadable until a later one
    assertTrue(
        jdk.stream().anyMatch(l -> l.contains(": 4 bytes; object String; 2048 bytes")),
        String.join("\n", jdk));
  }

  /**
   * Section 2.1 ({@code drain}: "Drain any buffered data in ObjectOutputStream. Similar to flush
   * but does not propagate the flush to the underlying stream."): a subclass's {@code drain()}
   * writes the buffered primitive data and flushes nothing.
   */
  @Test
  void drainWritesBufferedDataWithoutFlushing() throws Exception {
    final class JdkDraining extends ObjectOutputStream {
      JdkDraining(OutputStream o) throws IOException {
        super(o);
      }

      void callDrain() throws IOException {
        drain();
      }
    }
    final class CodeseDraining extends CodeseOutputStream {
      CodeseDraining(OutputStream o) throws IOException {
        super(o);
      }

      void callDrain() throws IOException {
        drain();
      }
    }
    List<Op> program =
        List.of(
            data("writeInt", 4, o -> o.writeInt(1)),
            other(
                "drain",
                o -> {
                  if (o instanceof JdkDraining j) {
                    j.callDrain();
                  } else {
                    ((CodeseDraining) o).callDrain();
                  }
                }));
    Streams jdk =
        new Streams() {
          @Override
          public ObjectOutputStream out(OutputStream o) throws IOException {
            return new JdkDraining(o);
          }

          @Override
          public ObjectInputStream in(InputStream i) throws IOException {
            return JDK.in(i);
          }
        };
    Streams codese =
        new Streams() {
          @Override
          public ObjectOutputStream out(OutputStream o) throws IOException {
            return new CodeseDraining(o);
          }

          @Override
          public ObjectInputStream in(InputStream i) throws IOException {
            return CODESE.in(i);
          }
        };
    List<String> seen = observe(jdk, program);
    assertEquals(seen, observe(codese, program));
    assertEquals("drain: 4 bytes; ;  | flushed false", seen.get(2));
  }

  /** Runs {@code write} on a socket's writer end and {@code read} on its reader end. */
  private interface SocketWriter {
    void write(ObjectOutputStream out, SocketPair pair) throws Exception;
  }

  private interface SocketReader {
    String read(ObjectInputStream in, SocketPair pair) throws Exception;
  }

  private static String overSocket(Streams s, SocketWriter w, SocketReader r) throws Exception {
    try (SocketPair pair = SocketPair.open()) {
      Future<Object> writer =
          pair.writer(
              () -> {
                ObjectOutputStream out = s.out(pair.out);
                w.write(out, pair);
                return null;
              });
      try (ObjectInputStream in = s.in(pair.in)) {
        String result = r.read(in, pair);
        SocketPair.join(writer);
        return result;
      }
    }
  }

  /** A call that may throw. */
  private interface Call {
    Object call() throws Exception;
  }

  /**
   * @return the simple name of what {@code c} throws, or "returned X"
   */
  private static String thrown(Call c) {
    try {
      return "returned " + c.call();
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }

  /** JDK-serializes {@code o} for comparison; an exception is named instead. */
  private static String jdkForm(Object o) {
    try {
      return Arrays.toString(JdkBytes.serialize(o));
    } catch (IOException e) {
      return e.toString();
    }
  }

  /**
   * Section 2.1 ("The writeObject method is used to serialize an object to the stream") with {@code
   * ObjectOutputStream}'s block-data rule: over a real socket, objects written and never flushed
   * are read by the peer, as with the JDK (the socket's stream is not buffered).
   */
  @Test
  void objectsWrittenToASocketArriveWithoutFlush() throws Exception {
    SocketWriter w =
        (out, pair) -> {
          out.writeObject("first");
          out.writeObject(new Pair(new Node("a"), 3));
          out.writeInt(5); // held in the block-data buffer ...
          out.writeObject(List.of(1, 2)); // ... and written before the object
          // no flush, no close: the reader must still read all of it
        };
    SocketReader r =
        (in, pair) -> {
          StringBuilder sb = new StringBuilder();
          sb.append(jdkForm(in.readObject())).append(jdkForm(in.readObject()));
          sb.append(in.readInt()).append(jdkForm(in.readObject()));
          return sb.toString();
        };
    assertEquals(overSocket(JDK, w, r), overSocket(CODESE, w, r));
  }

  /**
   * {@code ObjectInputStream}'s Javadoc (primitive reads "throw EOFExceptions" at the end of the
   * data) and section 3.1 ({@code readObject} at the end of the stream): a writer that flushed and
   * then died, its stream never closed, leaves a reader that gets every complete object and
   * primitive, then {@code EOFException}, so that "read until EOFException" works.
   */
  @Test
  void aPeerThatCrashedAfterFlushEndsTheStreamWithEofException() throws Exception {
    SocketWriter w =
        (out, pair) -> {
          out.writeObject(new Node("one"));
          out.writeInt(42);
          out.writeObject(new Node("two"));
          out.flush();
          pair.crashWriter();
        };
    SocketReader r =
        (in, pair) -> {
          List<String> got = new ArrayList<>();
          while (true) {
            try {
              got.add(jdkForm(in.readObject()));
            } catch (OptionalDataException e) {
              got.add("data " + e.length + ": " + in.readInt());
            } catch (EOFException e) {
              got.add(
                  "EOFException; then readInt: "
                      + assertThrows(IOException.class, in::readInt).getClass().getSimpleName()
                      + ", read: "
                      + in.read());
              return got.toString();
            }
          }
        };
    String jdk = overSocket(JDK, w, r);
    assertEquals(jdk, overSocket(CODESE, w, r));
    assertTrue(jdk.contains("EOFException; then readInt: EOFException, read: -1"), jdk);
  }

  /** An input stream over a buffer that grows: -1 where the data ends, more data later. */
  private static final class GrowingLog extends InputStream {
    private final ByteArrayOutputStream buffer;
    private int pos;

    GrowingLog(ByteArrayOutputStream buffer) {
      this.buffer = buffer;
    }

    @Override
    public int read() {
      byte[] b = buffer.toByteArray();
      return pos < b.length ? b[pos++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      byte[] all = buffer.toByteArray();
      if (len == 0) {
        return 0;
      }
      if (pos >= all.length) {
        return -1;
      }
      int n = Math.min(len, all.length - pos);
      System.arraycopy(all, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return buffer.size() - pos;
    }
  }

  /**
   * Section 3.1: {@code EOFException} from {@code readObject} at the end of the data leaves the
   * stream as it was; a log of objects that is still being appended to is read further once more
   * was written and flushed. (The JDK leaves its stream out of block-data mode after that
   * exception, so primitive data after it reads wrongly there; Codese reads it. Not compared.)
   */
  @Test
  void anAppendedLogIsReadFurtherAfterEofException() throws Exception {
    List<List<Object>> results = new ArrayList<>();
    for (Streams s : List.of(JDK, CODESE)) {
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      ObjectOutputStream out = s.out(log);
      out.writeObject("a");
      out.flush();
      ObjectInputStream in = s.in(new GrowingLog(log));
      List<Object> got = new ArrayList<>();
      got.add(in.readObject());
      got.add(thrown(in::readObject));
      out.writeObject("b");
      out.writeObject(new Node("c"));
      out.flush();
      got.add(in.readObject());
      got.add(((Node) in.readObject()).value);
      got.add(thrown(in::readObject));
      results.add(got);
    }
    assertEquals(results.get(0), results.get(1));
    assertEquals(List.of("a", "EOFException", "b", "c", "EOFException"), results.get(1));
  }

  /**
   * A truncated object stays damage, not a clean end: the JDK throws an {@code IOException} ({@code
   * EOFException} inside an object, {@code StreamCorruptedException} inside block data); Codese
   * throws {@link CorruptSnapshotException}, a {@code StreamCorruptedException}, in both cases,
   * naming where the data ends. Neither returns an object.
   */
  @Test
  void dataCutInsideAnObjectOrABlockIsDamage() throws Exception {
    for (int cutInside = 0; cutInside < 2; cutInside++) {
      List<Class<?>> thrown = new ArrayList<>();
      for (Streams s : List.of(JDK, CODESE)) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ObjectOutputStream out = s.out(bytes);
        out.writeObject("complete");
        int before = bytes.size();
        if (cutInside == 0) {
          out.writeObject(new Pair(new Node("cut"), List.of(1, 2, 3)));
        } else {
          out.write(pattern(500));
          out.flush();
        }
        byte[] cut = Arrays.copyOf(bytes.toByteArray(), before + (bytes.size() - before) / 2);
        ObjectInputStream in = s.in(new ByteArrayInputStream(cut));
        assertEquals("complete", in.readObject());
        IOException e =
            assertThrows(
                IOException.class,
                () -> {
                  if (in.readObject() == null) {
                    throw new AssertionError();
                  }
                },
                s.toString());
        if (cutInside == 1) {
          assertInstanceOf(OptionalDataException.class, e);
          e = assertThrows(IOException.class, () -> in.readFully(new byte[500]), s.toString());
          assertInstanceOf(StreamCorruptedException.class, e, s.toString());
        }
        thrown.add(e.getClass());
      }
      assertEquals(CorruptSnapshotException.class, thrown.get(1), "cut " + cutInside);
    }
  }

  /**
   * Section 3.1 and {@code ObjectInputStream}'s Javadoc: primitive data between objects over a
   * socket, read with every primitive method, across the writer's 1024-byte blocks (a {@code
   * readLong} and a {@code readUTF} that span two of them), with {@code available()} (the bytes
   * readable without blocking: 0 before an object, never blocking) and {@code skipBytes} (stops at
   * an object) asked at fixed points, each after every byte written so far has arrived.
   */
  @Test
  void primitivesAvailableAndSkipBytesOverASocket() throws Exception {
    // the writer waits at each step until the reader has looked at what arrived
    SynchronousQueue<String> steps = new SynchronousQueue<>();
    SynchronousQueue<String> seen = new SynchronousQueue<>();
    SocketWriter w =
        (out, pair) -> {
          out.writeInt(7);
          out.writeShort(-2);
          out.flush();
          steps.put("int and short flushed");
          seen.take();
          out.writeObject("object");
          steps.put("object written");
          seen.take();
          out.writeInt(11); // held in the buffer: nothing arrives
          steps.put("int held");
          seen.take();
          out.flush();
          steps.put("int flushed");
          seen.take();
          out.reset();
          out.writeLong(99L);
          out.flush();
          steps.put("reset and long flushed");
          seen.take();
          out.write(pattern(1020));
          out.writeLong(0x0102030405060708L); // spans the 1024-byte boundary
          out.writeUTF("x".repeat(2000)); // spans two more
          out.writeObject(new Point(3, 4));
          out.write(pattern(3000));
          out.writeObject("after skipped data");
          out.writeByte(-1);
          out.writeChar('\u20ac');
          out.writeFloat(1.5f);
          out.writeDouble(-0.0);
          out.writeBoolean(false);
          out.writeBytes("line\r\n");
          out.flush();
          steps.put("rest flushed");
          seen.take();
        };
    SocketReader r =
        (in, pair) -> {
          List<Object> log = new ArrayList<>();
          log.add(steps.take());
          pair.awaitArrived();
          log.add("available " + in.available());
          log.add(in.readInt());
          log.add("available " + in.available());
          log.add(in.readShort());
          seen.put("looked");
          log.add(steps.take());
          pair.awaitArrived();
          log.add("available " + in.available());
          log.add(in.readObject());
          seen.put("looked");
          log.add(steps.take());
          pair.awaitArrived();
          log.add("available " + in.available());
          seen.put("looked");
          log.add(steps.take());
          pair.awaitArrived();
          log.add("available " + in.available());
          log.add(in.readInt());
          seen.put("looked");
          log.add(steps.take());
          pair.awaitArrived();
          log.add("available " + in.available());
          log.add(in.readLong());
          seen.put("looked");
          log.add(steps.take());
          pair.awaitArrived();
          byte[] head = new byte[1020];
          in.readFully(head);
          log.add(Arrays.equals(head, pattern(1020)));
          log.add(in.readLong());
          log.add(in.readUTF().length());
          log.add("available " + in.available());
          log.add("readInt at an object: " + thrown(in::readInt));
          log.add(in.readObject());
          log.add("skipped " + in.skipBytes(5000));
          log.add("skipped " + in.skipBytes(10));
          log.add(in.readObject());
          log.add(in.readByte());
          log.add(in.readChar());
          log.add(in.readFloat());
          log.add(in.readDouble());
          log.add(in.readBoolean());
          @SuppressWarnings("deprecation")
          String line = in.readLine();
          log.add(line);
          log.add("available " + in.available());
          seen.put("looked");
          return log.toString();
        };
    String jdk = overSocket(JDK, w, r);
    assertEquals(jdk, overSocket(CODESE, w, r));
    assertTrue(jdk.contains("skipped 3000, skipped 0"), jdk);
  }

  /** A round of the long-stream test: {@code size} nodes, each written twice. */
  private static List<Node> round(int r, int size) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Node n = new Node("r" + r + "n" + i);
      if (i > 0) {
        n.next = nodes.get(i - 1);
      }
      nodes.add(n);
    }
    return nodes;
  }

  /**
   * Sections 2.1 and 6.2 ({@code reset}: "Reset will discard the state of any objects already
   * written to the stream. The current point in the stream is marked as reset, so the corresponding
   * ObjectInputStream will reset at the same point."), over one long-lived socket: many objects in
   * rounds, each object written twice in its round and a reset after every round. What the reader
   * gets (values, and which reads are the same instance) is compared with the JDK; and the objects
   * Codese's writer and reader hold for later references are those of the current round only, so
   * memory does not grow with the length of the stream. Without resets, they grow, as the JDK's
   * handle tables do.
   */
  @Test
  void resetOverALongLivedSocketBoundsWhatBothEndsHold() throws Exception {
    int rounds = 12;
    int size = 8;
    List<Integer> writerHeld = new ArrayList<>();
    List<Integer> readerHeld = new ArrayList<>();
    boolean[] withReset = {true};
    SocketWriter w =
        (out, pair) -> {
          for (int r = 0; r < rounds; r++) {
            List<Node> nodes = round(r, size);
            for (Node n : nodes) {
              out.writeObject(n);
              out.writeInt(r);
            }
            for (Node n : nodes) {
              out.writeObject(n);
            }
            if (out instanceof CodeseOutputStream c) {
              writerHeld.add(c.heldObjects());
            }
            if (withReset[0]) {
              out.reset();
              if (out instanceof CodeseOutputStream c) {
                writerHeld.add(c.heldObjects());
              }
            }
          }
          out.flush();
        };
    SocketReader r =
        (in, pair) -> {
          StringBuilder sb = new StringBuilder();
          Object previousFirst = null;
          for (int round = 0; round < rounds; round++) {
            List<Object> firsts = new ArrayList<>();
            for (int i = 0; i < size; i++) {
              Node n = (Node) in.readObject();
              firsts.add(n);
              sb.append(n.value)
                  .append(n.next == null ? "" : "->" + n.next.value)
                  .append(in.readInt())
                  .append(' ');
            }
            for (int i = 0; i < size; i++) {
              sb.append(in.readObject() == firsts.get(i) ? "same " : "new ");
            }
            sb.append(firsts.get(0) == previousFirst ? "kept" : "fresh").append('\n');
            previousFirst = firsts.get(0);
            if (in instanceof CodeseInputStream c) {
              readerHeld.add(c.heldObjects());
            }
          }
          return sb.toString();
        };
    String jdk = overSocket(JDK, w, r);
    assertEquals(jdk, overSocket(CODESE, w, r));
    assertTrue(jdk.contains("same same"), jdk);
    // what Codese holds: one round's nodes (and their Strings) at most, nothing after a reset
    int perRound = 2 * size;
    for (int i = 0; i < writerHeld.size(); i += 2) {
      assertTrue(writerHeld.get(i) <= perRound, "writer holds " + writerHeld);
      assertEquals(0, writerHeld.get(i + 1), "writer after reset(): " + writerHeld);
    }
    for (int held : readerHeld) {
      assertTrue(held <= perRound, "reader holds " + readerHeld);
    }
    // without reset() both ends hold everything, as the JDK's handle tables do
    withReset[0] = false;
    writerHeld.clear();
    readerHeld.clear();
    overSocket(CODESE, w, r);
    assertEquals(rounds * perRound, writerHeld.get(rounds - 1));
    assertEquals(rounds * perRound, readerHeld.get(rounds - 1));
  }

  /**
   * Section 6.4.1, {@code stream: magic version contents}: the end of the data after a complete
   * object ends the stream whether or not the writer closed it (Codese's end mark, written by
   * {@code close()}, is optional); the reader reads the same in both cases, as the JDK's does.
   */
  @Test
  void theEndMarkIsOptional() throws Exception {
    for (Streams s : List.of(JDK, CODESE)) {
      ByteArrayOutputStream closed = new ByteArrayOutputStream();
      ByteArrayOutputStream flushed = new ByteArrayOutputStream();
      for (ByteArrayOutputStream b : List.of(closed, flushed)) {
        ObjectOutputStream out = s.out(b);
        out.writeObject(new Point(1, 2));
        out.writeShort(4);
        if (b == closed) {
          out.close();
        } else {
          out.flush();
        }
      }
      List<String> reads = new ArrayList<>();
      for (ByteArrayOutputStream b : List.of(closed, flushed)) {
        ObjectInputStream in = s.in(new ByteArrayInputStream(b.toByteArray()));
        reads.add(
            in.readObject()
                + " "
                + in.readShort()
                + " "
                + in.read()
                + " "
                + thrown(in::readObject)
                + " "
                + thrown(in::readByte)
                + " "
                + in.available());
      }
      assertEquals(reads.get(0), reads.get(1), s.toString());
      assertEquals("Point[x=1, y=2] 4 -1 EOFException EOFException 0", reads.get(0));
    }
  }

  /**
   * Section 2.6 ({@code useProtocolVersion}): "called before the stream is used"; the JDK throws
   * {@code IllegalStateException} once objects were written (until a reset) and {@code
   * IllegalArgumentException} for an unknown version. Codese checks the same; the version has no
   * effect on what it writes.
   */
  @Test
  void useProtocolVersionIsCheckedAsByTheJdk() throws Exception {
    List<List<String>> results = new ArrayList<>();
    for (Streams s : List.of(JDK, CODESE)) {
      ObjectOutputStream out = s.out(new ByteArrayOutputStream());
      List<String> r = new ArrayList<>();
      r.add(
          thrown(
              () -> {
                out.useProtocolVersion(ObjectStreamConstants.PROTOCOL_VERSION_1);
                return null;
              }));
      r.add(
          thrown(
              () -> {
                out.useProtocolVersion(3);
                return null;
              }));
      out.writeObject("x");
      r.add(
          thrown(
              () -> {
                out.useProtocolVersion(ObjectStreamConstants.PROTOCOL_VERSION_2);
                return null;
              }));
      out.reset();
      r.add(
          thrown(
              () -> {
                out.useProtocolVersion(ObjectStreamConstants.PROTOCOL_VERSION_2);
                return null;
              }));
      results.add(r);
    }
    assertEquals(results.get(0), results.get(1));
    assertEquals(
        List.of(
            "returned null", "IllegalArgumentException", "IllegalStateException", "returned null"),
        results.get(0));
  }

  /**
   * A difference kept on purpose (README, "Differences from the JDK streams"): after {@code
   * close()}, the JDK's stream still writes into an underlying stream that accepts it (a {@code
   * ByteArrayOutputStream}); Codese's throws {@code IOException("stream closed")}, since what
   * follows its end mark is never read.
   */
  @Test
  void writingAfterCloseIsRefusedByCodeseOnly() throws Exception {
    List<String> results = new ArrayList<>();
    for (Streams s : List.of(JDK, CODESE)) {
      ObjectOutputStream out = s.out(new ByteArrayOutputStream());
      out.close();
      results.add(
          thrown(
              () -> {
                out.writeObject("late");
                return null;
              }));
    }
    assertEquals(List.of("returned null", "IOException"), results);
    assertNotEquals(results.get(0), results.get(1));
  }

  /** Streams in format version 1 (segments and the end mark only) are still read. */
  @Test
  void versionOneStreamsAreStillRead() throws Exception {
    byte[] segment = Codese.toBytes(new Point(5, 6));
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    java.io.DataOutputStream d = new java.io.DataOutputStream(b);
    d.writeInt(org.codese.load.StreamReader.STREAM_MAGIC);
    d.writeShort(1);
    d.writeInt(segment.length);
    d.write(segment);
    d.writeInt(0);
    try (ObjectInputStream in = CODESE.in(new ByteArrayInputStream(b.toByteArray()))) {
      assertEquals(new Point(5, 6), in.readObject());
      assertThrows(EOFException.class, in::readObject);
    }
  }
}
