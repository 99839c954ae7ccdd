package org.codese.testkit;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Two connected TCP sockets on the loopback interface, for object streams over a real socket: the
 * writer's end ({@link #out}) and the reader's end ({@link #in}), each counting its bytes. Reads
 * time out after {@link #TIMEOUT_SECONDS}, so a test that expects data that never comes fails
 * instead of hanging. A second thread, for writers that may block, is {@link #writer}.
 */
public final class SocketPair implements AutoCloseable {
  /** How long a read waits, and how long {@link #awaitArrived} waits. */
  public static final int TIMEOUT_SECONDS = 10;

  private final Socket client;
  private final Socket server;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "socket-pair-writer");
            t.setDaemon(true);
            return t;
          });

  /** The writer's end: bytes written reach {@link #in}; counts them. */
  public final Counting out;

  /** The reader's end: counts the bytes read from it; no {@code mark}, like any socket stream. */
  public final CountingIn in;

  private SocketPair(Socket client, Socket server) throws IOException {
    this.client = client;
    this.server = server;
    this.out = new Counting(client.getOutputStream());
    this.in = new CountingIn(server.getInputStream());
  }

  /**
   * @return a connected pair
   */
  public static SocketPair open() throws IOException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (ServerSocket listener = new ServerSocket(0, 1, loopback)) {
      listener.setSoTimeout(TIMEOUT_SECONDS * 1000);
      Socket c = new Socket(loopback, listener.getLocalPort());
      Socket s = listener.accept();
      c.setSoTimeout(TIMEOUT_SECONDS * 1000);
      s.setSoTimeout(TIMEOUT_SECONDS * 1000);
      c.setTcpNoDelay(true);
      return new SocketPair(c, s);
    }
  }

  /** Closes the writer's socket without closing any stream over it: a peer that crashed. */
  public void crashWriter() throws IOException {
    client.close();
  }

  /** A task run on the pair's writer thread. */
  public interface Task<T> {
    T run() throws Exception;
  }

  /**
   * Runs {@code task} on the writer thread.
   *
   * @return the task's future
   */
  public <T> Future<T> writer(Task<T> task) {
    return thread.submit(task::run);
  }

  /**
   * @return the task's result, or its exception as an AssertionError; waits the timeout
   */
  public static <T> T join(Future<T> f) {
    try {
      return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("the writer failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new AssertionError("the writer did not finish within " + TIMEOUT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * Waits until every byte written to {@link #out} so far has arrived at {@link #in} (read or
   * available), so that {@code available()} answers deterministically.
   */
  public void awaitArrived() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (in.count + in.available() < out.count) {
      if (System.nanoTime() > deadline) {
        throw new InterruptedIOException(
            "bytes written did not arrive within " + TIMEOUT_SECONDS + " s");
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  @Override
  public void close() throws IOException {
    thread.shutdownNow();
    try {
      client.close();
    } finally {
      server.close();
    }
  }

  /** An output stream that counts the bytes and the flushes passing through it. */
  public static final class Counting extends FilterOutputStream {
    /** Bytes written. */
    public volatile long count;

    /** Calls of {@code flush}. */
    public volatile int flushes;

    /**
     * @param out the stream written to
     */
    public Counting(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void flush() throws IOException {
      flushes++;
      out.flush();
    }
  }

  /** An input stream that counts the bytes read from it. */
  public static final class CountingIn extends FilterInputStream {
    /** Bytes read. */
    public volatile long count;

    CountingIn(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long k = in.skip(n);
      count += Math.max(0, k);
      return k;
    }

    @Override
    public boolean markSupported() {
      return false;
    }
  }
}
