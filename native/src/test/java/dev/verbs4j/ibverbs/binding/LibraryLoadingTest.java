package dev.verbs4j.ibverbs.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LibraryLoadingTest {

    @Test
    void jniLibraryLoadsThroughJavaCppLoader() {
        IbverbsLibrary.load();
        assertEquals(0x12345601, MemoryVerbs.ibv_inc_rkey(0x12345600), "a native call answers");
    }

    @Test
    void reportsTheHeadersItWasCompiledAgainst() {
        String headers = IbverbsLibrary.headersVersion();
        assertNotNull(headers);
        assertTrue(headers.contains("libibverbs-dev") || headers.startsWith("custom "), headers);
    }

    @Test
    void runtimeLibraryIsTheLibibverbsMappedIntoThisProcess() throws IOException {
        String path = IbverbsLibrary.runtimeLibraryPath();
        assertNotNull(path);
        List<String> mapped = Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(line -> line.contains("/libibverbs.so"))
                .map(line -> line.substring(line.indexOf('/')))
                .distinct()
                .toList();
        assertEquals(List.of(path), mapped);
    }

    @Test
    void runtimeReleaseComesFromTheLibraryFileName() {
        String file = Path.of(IbverbsLibrary.runtimeLibraryPath()).getFileName().toString();
        String[] parts = file.split("\\.");
        assertEquals(Integer.parseInt(parts[parts.length - 2]), IbverbsLibrary.runtimeReleaseMajor(), file);
        assertEquals(IbverbsLibrary.runtimeReleaseMajor() >= 45, IbverbsLibrary.runtimeKnowsFlush());
    }

    @Test
    void releaseIsParsedFromRdmaCoreSonames() {
        assertEquals(44, IbverbsLibrary.releaseMajorOf("/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0"));
        assertEquals(65, IbverbsLibrary.releaseMajorOf("/usr/lib64/libibverbs.so.1.15.65.1"));
        assertEquals(-1, IbverbsLibrary.releaseMajorOf("/usr/lib/libibverbs.so.1"));
        assertEquals(-1, IbverbsLibrary.releaseMajorOf(null));
    }
}
