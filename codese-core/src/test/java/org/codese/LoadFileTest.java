package org.codese;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InvalidObjectException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.codese.testkit.JdkBytes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Codese#load(Path, CodeseOptions)} reads a file of the default file system through {@code
 * java.io} and any other through {@code java.nio.file}; both give the same graph, and a failed read
 * gives the exception {@code Files} gives.
 */
class LoadFileTest {
  @TempDir Path dir;

  private static TreeMap<Integer, String> graph() {
    TreeMap<Integer, String> m = new TreeMap<>();
    for (int i = 0; i < 50; i++) {
      m.put(i, "v" + i);
    }
    return m;
  }

  @Test
  void defaultFileSystemFileRestores() throws Exception {
    TreeMap<Integer, String> g = graph();
    Path file = dir.resolve("g.cdse");
    Codese.write(g, file);
    try (Snapshot s = Codese.load(file)) {
      assertArrayEquals(JdkBytes.serialize(g), JdkBytes.serialize(s.restore()));
    }
  }

  @Test
  void otherFileSystemFileRestores() throws Exception {
    TreeMap<Integer, String> g = graph();
    Path zip = dir.resolve("z.zip");
    try (FileSystem fs =
        FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of("create", "true"))) {
      Path file = fs.getPath("/g.cdse");
      Files.write(file, Codese.toBytes(g));
      try (Snapshot s = Codese.load(file)) {
        assertArrayEquals(JdkBytes.serialize(g), JdkBytes.serialize(s.restore()));
      }
    }
  }

  @Test
  void missingFileIsNoSuchFile() {
    Path file = dir.resolve("absent.cdse");
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> Codese.load(file));
    assertTrue(e.getMessage().contains("absent.cdse"), e.getMessage());
  }

  @Test
  void directoryIsAnIoError() throws Exception {
    Path sub = Files.createDirectory(dir.resolve("sub"));
    assertThrows(java.io.IOException.class, () -> Codese.load(sub));
  }

  @Test
  void unreadableFileIsAccessDenied() throws Exception {
    Path file = dir.resolve("locked.cdse");
    Codese.write(graph(), file);
    Assumptions.assumeTrue(file.toFile().setReadable(false, false));
    Assumptions.assumeFalse(Files.isReadable(file), "running as a user who reads anything");
    assertThrows(AccessDeniedException.class, () -> Codese.load(file));
  }

  @Test
  void fileOverTheLimitIsRefusedBeforeReading() throws Exception {
    Path file = dir.resolve("big.cdse");
    Codese.write(graph(), file);
    long size = Files.size(file);
    CodeseOptions tight =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxBytes(size - 1));
    InvalidObjectException e =
        assertThrows(InvalidObjectException.class, () -> Codese.load(file, tight));
    assertTrue(e.getMessage().contains(size + " bytes, over the limit of " + (size - 1)));
    CodeseOptions exact =
        CodeseOptions.defaults().withLimits(CodeseLimits.defaults().withMaxBytes(size));
    Codese.load(file, exact).close();
  }
}
