package dev.verbs4j.ibverbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ibverbs provider as a named module: an application on the module path finds it
 * through its {@code provides} clause, and JavaCPP's loader (in {@code org.bytedeco.javacpp})
 * loads its JNI library, which calls libibverbs. The module and the library come apart as the
 * jars ship them: the module's classes without the platform folder, and the platform jar, an
 * automatic module holding only the libraries, added by name. Native access is granted to the
 * two modules by name, and the JDK then warns about nothing.
 */
class ModulePathTest {
    private static final Path PROBE = Path.of("src/test/modular-probe/dev.verbs4j.probe");

    @TempDir
    Path classes;

    @Test
    void theProviderLoadsItsLibraryFromThePlatformModuleAndCallsLibibverbs() throws Exception {
        Run run = runProbe(true);
        assertEquals(0, run.exitValue(), run.out() + run.errors());
        assertTrue(run.out().contains("provider: module dev.verbs4j.ibverbs\n"), run.out());
        // Either devices, or libibverbs' own answer (ENOSYS where the kernel has no RDMA): the library loaded.
        assertTrue(!run.out().contains("devices: []") || run.out().contains("unavailable: ibv_get_device_list"), run.out());
        assertFalse(run.errors().contains("WARNING"), run.errors());
    }

    @Test
    void withoutThePlatformModuleTheLibraryIsNotFound() throws Exception {
        Run run = runProbe(false);
        assertEquals(0, run.exitValue(), run.out() + run.errors());
        assertTrue(run.out().contains("unavailable: the libibverbs binding cannot be loaded"), run.out());
    }

    private record Run(int exitValue, String out, String errors) {
    }

    private Run runProbe(boolean withPlatformModule) throws Exception {
        String platform = System.getProperty("verbs4j.platform");
        String platformModule = System.getProperty("verbs4j.platform.module");
        Path moduleClasses = Path.of(entryOf("dev.verbs4j.ibverbs"));
        Path libraries = moduleClasses.resolve("dev/verbs4j/ibverbs/binding").resolve(platform);
        assertTrue(Files.isDirectory(libraries), libraries + " holds the JNI libraries");
        Path mainModule = classes.resolve("main-module");
        copyWithout(moduleClasses, mainModule, libraries);
        Path platformJar = classes.resolve("platform.jar");
        writePlatformJar(moduleClasses, libraries, platformJar, platformModule);

        List<String> modules = new ArrayList<>();
        for (String name : List.of("dev.verbs4j", "org.bytedeco.javacpp", "org.bytedeco.javacpp.linux.x86_64")) {
            modules.add(entryOf(name));
        }
        modules.add(mainModule.toString());
        Path probeClasses = classes.resolve("probe");
        List<String> args = new ArrayList<>(List.of("-d", probeClasses.toString(), "--module-path", modules.getFirst()));
        try (Stream<Path> files = Files.walk(PROBE)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)));

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.bytedeco.javacpp.cachedir=" + classes.resolve("javacpp-cache"),
                "--enable-native-access=dev.verbs4j.ibverbs,org.bytedeco.javacpp"));
        if (withPlatformModule) {
            modules.add(platformJar.toString());
            command.add("--add-modules=" + platformModule);
        }
        command.addAll(List.of("--module-path", probeClasses + File.pathSeparator + String.join(File.pathSeparator, modules),
                "-m", "dev.verbs4j.probe/dev.verbs4j.probe.ListDevices"));
        Path err = classes.resolve("stderr.txt");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Run(p.exitValue(), out, Files.readString(err));
    }

    /** The module's classes as its main jar holds them: everything but the libraries' folder. */
    private static void copyWithout(Path from, Path to, Path excluded) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.startsWith(excluded)) {
                    continue;
                }
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    /** The platform jar as the build writes it: the libraries' folder and an automatic module's name. */
    private static void writePlatformJar(Path root, Path libraries, Path jar, String moduleName) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Automatic-Module-Name", moduleName);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
             Stream<Path> files = Files.list(libraries)) {
            for (Path library : (Iterable<Path>) files::iterator) {
                out.putNextEntry(new JarEntry(root.relativize(library).toString().replace(File.separatorChar, '/')));
                Files.copy(library, out);
                out.closeEntry();
            }
        }
    }

    /** The class-path entry (a jar or a classes folder) that holds module {@code name}. */
    private static String entryOf(String name) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.exists(path) && ModuleFinder.of(path).findAll().stream().anyMatch(m -> m.descriptor().name().equals(name))) {
                return entry;
            }
        }
        throw new AssertionError("module " + name + " is not on the test class path");
    }
}
