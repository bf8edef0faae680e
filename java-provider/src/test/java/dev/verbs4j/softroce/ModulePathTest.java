package dev.verbs4j.softroce;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.File;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One tiny application (the examples project, {@code ../examples}: the demo's operations through the API)
 * runs with the verbs4j modules on the module path, where the soft provider is found through
 * its {@code provides} clause and native access is granted to it by name, and with the same
 * jars on the class path, where it is found through {@code META-INF/services}.
 */
class ModulePathTest {
    private static final Path APP = Path.of("../examples/src/main/java");
    /** Ports of its own, so the two runs do not collide with other tests' soft devices. */
    private static final String DEVICES = "-Dverbs4j.soft.devices=soft0=127.0.0.1:27961,soft1=127.0.0.2:27961";
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    static Path classes;
    private static String api;
    private static String soft;

    @BeforeAll
    static void compileTheApplicationAsAModule() throws Exception {
        api = module("dev.verbs4j");
        soft = module("dev.verbs4j.soft");
        List<String> sources;
        try (Stream<Path> files = Files.walk(APP)) {
            sources = files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "--module-path", api));
        args.addAll(sources);
        assertEquals(0, javac.run(null, null, null, args.toArray(String[]::new)), "the application compiles as a module");
        assertTrue(Files.exists(classes.resolve("module-info.class")));
    }

    @Test
    void onTheModulePathTheProviderIsANamedModuleWithNativeAccess() throws Exception {
        Run run = run(JAVA, "--enable-native-access=dev.verbs4j.soft", DEVICES,
                "--module-path", String.join(File.pathSeparator, classes.toString(), api, soft),
                "-m", "dev.verbs4j.example/dev.verbs4j.example.Demo");
        assertEquals(0, run.status, run.out + run.err);
        assertTrue(run.out.contains("api: module dev.verbs4j\n"), run.out);
        assertTrue(run.out.contains("provider: module dev.verbs4j.soft\n"), run.out);
        assertTrue(run.out.contains("provider native access: true\n"), run.out);
        assertEveryOperation(run);
    }

    @Test
    void onTheClassPathTheSameApplicationRunsUnnamed() throws Exception {
        Run run = run(JAVA, "--enable-native-access=ALL-UNNAMED", DEVICES,
                "-cp", String.join(File.pathSeparator, classes.toString(), api, soft), "dev.verbs4j.example.Demo");
        assertEquals(0, run.status, run.out + run.err);
        assertTrue(run.out.contains("api: unnamed module"), run.out);
        assertTrue(run.out.contains("provider: unnamed module"), run.out);
        assertTrue(run.out.contains("provider native access: true\n"), run.out);
        assertEveryOperation(run);
    }

    private static void assertEveryOperation(Run run) {
        for (String operation : List.of("SEND with immediate", "RDMA WRITE", "FLUSH", "RDMA READ", "FETCH_AND_ADD",
                "COMPARE_AND_SWAP", "ATOMIC WRITE")) {
            assertTrue(run.out.contains(operation + " ok\n"), operation + ": " + run.out);
        }
        assertTrue(run.out.contains("every operation completed"), run.out);
        // The JDK warns about no restricted call.
        assertFalse(run.err.contains("WARNING"), run.err);
    }

    /** The class-path entry (a jar or a classes folder) that holds module {@code name}. */
    private static String module(String name) {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!Files.exists(path)) {
                continue;
            }
            Optional<ModuleReference> found = ModuleFinder.of(path).findAll().stream()
                    .filter(m -> m.descriptor().name().equals(name)).findFirst();
            if (found.isPresent()) {
                return entry;
            }
        }
        throw new AssertionError("module " + name + " is not on the test class path: "
                + Arrays.toString(System.getProperty("java.class.path").split(File.pathSeparator)));
    }

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... command) throws Exception {
        Path err = Files.createTempFile(classes, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the application finished");
        return new Run(p.exitValue(), out, Files.readString(err));
    }
}
