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
  private static final String ISOLATED = "codese.cli.isolated";

  private ClassPaths() {}

  /**
   * Codese sets fields with plain {@code putfield} only for classes it sees through its own class
   * loader, and a snapshot captured that way restores only where that holds again. So {@code
   * convert} and {@code to-ser} with {@code --classpath} run again inside one loader that holds
   * both the tool and the given class path: converted files then restore at full speed in a program
   * with both on its class path, and snapshots written by such programs restore here.
   *
   * @return the exit code of the command run inside that loader, or {@code null} to run here
   */
  static Integer runIsolated(String[] args, java.io.PrintStream out, java.io.PrintStream err) {
    if (args.length == 0
        || !(args[0].equals("convert") || args[0].equals("to-ser"))
        || System.getProperty(ISOLATED) != null) {
      return null;
    }
    List<String> rest = new ArrayList<>();
    String cp = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if ((a.equals("--classpath") || a.equals("-cp")) && i + 1 < args.length) {
        cp = args[++i];
      } else if (a.startsWith("--classpath=")) {
        cp = a.substring("--classpath=".length());
      } else {
        rest.add(a);
      }
    }
    if (cp == null || cp.isEmpty()) {
      return null;
    }
    List<URL> urls = new ArrayList<>();
    try {
      for (String own : System.getProperty("java.class.path").split(File.pathSeparator)) {
        if (!own.isEmpty()) {
          urls.add(Path.of(own).toUri().toURL());
        }
      }
    } catch (MalformedURLException e) {
      return null;
    }
    urls.addAll(urls(cp));
    System.setProperty(ISOLATED, "true");
    ClassLoader saved = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader =
        new URLClassLoader(
            "codese-classpath", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      Thread.currentThread().setContextClassLoader(loader);
      Class<?> main = Class.forName(Main.class.getName(), true, loader);
      java.lang.reflect.Method run =
          main.getDeclaredMethod(
              "run", String[].class, java.io.PrintStream.class, java.io.PrintStream.class);
      run.setAccessible(true);
      return (Integer) run.invoke(null, rest.toArray(String[]::new), out, err);
    } catch (CliException e) {
      err.println("codese " + args[0] + ": " + e.getMessage());
      return Main.FAILED;
    } catch (ReflectiveOperationException | java.io.IOException e) {
      return null;
    } finally {
      Thread.currentThread().setContextClassLoader(saved);
      System.clearProperty(ISOLATED);
    }
  }

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
    return new URLClassLoader("codese-classpath", urls(classpath).toArray(URL[]::new), parent);
  }

  private static List<URL> urls(String classpath) {
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
    return urls;
  }
}
