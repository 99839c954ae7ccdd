package org.codese.cli;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Class loaders for {@code --classpath}. */
final class ClassPaths {
  private ClassPaths() {}

  /**
   * @param classpath entries separated by the platform's path separator, or {@code null}
   * @return a loader over them whose parent is the tool's own loader (which sees the JDK)
   * @throws CliException if an entry does not exist
   */
  static ClassLoader loader(String classpath) {
    ClassLoader parent = ClassPaths.class.getClassLoader();
    if (classpath == null || classpath.isEmpty()) {
      return parent;
    }
    List<URL> urls = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path p = Path.of(entry);
      if (!Files.exists(p)) {
        throw new CliException("--classpath entry " + entry + " does not exist; check the path");
      }
      try {
        urls.add(p.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new CliException("--classpath entry " + entry + " is not a valid path", e);
      }
    }
    return new URLClassLoader("codese-classpath", urls.toArray(URL[]::new), parent);
  }
}
