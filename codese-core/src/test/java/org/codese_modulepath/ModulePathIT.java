package org.codese_modulepath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * Runs Codese as the named module {@code org.codese}: a child JVM with the packaged core jar and
 * ASM on the module path and this package's classes on the class path captures and restores a graph
 * ({@link ModulePathMain}). The other tests run Codese on the class path.
 *
 * <p>The package is outside {@code org.codese}: on the class path, a class of a package the module
 * holds could not be loaded.
 */
class ModulePathIT {
  @Test
  void capturesAndRestoresAsANamedModule() throws Exception {
    String jar = System.getProperty("codese.core.jar");
    assertTrue(jar != null && Files.isRegularFile(Path.of(jar)), "no core jar: " + jar);
    String asm = jarOf(ClassReader.class);
    String classes = jarOf(ModulePathMain.class);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command =
        List.of(
            java.toString(),
            "--module-path",
            jar + File.pathSeparator + asm,
            "--add-modules",
            "org.codese",
            "-cp",
            classes,
            ModulePathMain.class.getName());
    Process p = new ProcessBuilder(command).start();
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM did not finish");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals("", err, "the child JVM printed on standard error");
    assertEquals(0, p.exitValue());
    assertEquals(String.join(System.lineSeparator(), ModulePathMain.EXPECTED), out);
  }

  private static String jarOf(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
