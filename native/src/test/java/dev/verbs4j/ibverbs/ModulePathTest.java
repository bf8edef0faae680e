package dev.verbs4j.ibverbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.File;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ibverbs provider as a named module: an application on the module path finds it
 * through its {@code provides} clause, and JavaCPP's loader (in {@code org.bytedeco.javacpp})
 * loads its JNI library from it, which calls libibverbs. Native access is granted to the two
 * modules by name, and the JDK then warns about nothing.
 */
class ModulePathTest {
    private static final Path PROBE = Path.of("src/test/modular-probe/dev.verbs4j.probe");

    @TempDir
    Path classes;

    @Test
    void theProviderLoadsItsLibraryAndCallsLibibverbsFromTheModulePath() throws Exception {
        List<String> modules = new ArrayList<>();
        for (String name : List.of("dev.verbs4j", "dev.verbs4j.ibverbs", "org.bytedeco.javacpp", "org.bytedeco.javacpp.linux.x86_64")) {
            modules.add(entryOf(name));
        }
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "--module-path", modules.getFirst()));
        try (Stream<Path> files = Files.walk(PROBE)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)));

        Path err = classes.resolve("stderr.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.bytedeco.javacpp.cachedir=" + classes.resolve("javacpp-cache"),
                "--enable-native-access=dev.verbs4j.ibverbs,org.bytedeco.javacpp",
                "--module-path", classes + File.pathSeparator + String.join(File.pathSeparator, modules),
                "-m", "dev.verbs4j.probe/dev.verbs4j.probe.ListDevices").redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String errors = Files.readString(err);
        assertEquals(0, p.exitValue(), out + errors);
        assertTrue(out.contains("provider: module dev.verbs4j.ibverbs\n"), out);
        // Either devices, or libibverbs' own answer (ENOSYS where the kernel has no RDMA): the library loaded.
        assertTrue(!out.contains("devices: []") || out.contains("unavailable: ibv_get_device_list"), out);
        assertFalse(errors.contains("WARNING"), errors);
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
