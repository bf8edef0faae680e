package dev.verbs4j.nvmeof;

import dev.verbs4j.nvmeof.controller.Namespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code TargetMain}'s {@code --namespace} specifications, with and without a UUID. */
class NamespaceSpecTest {
    private static final UUID GIVEN = UUID.fromString("91c1d1e2-7c6e-4a55-9d1b-3c2f6b7e8a90");

    @Test
    void memoryNamespaceTakesTheGivenUuid() throws Exception {
        try (Namespace ns = TargetMain.namespace("mem:64K:4096:uuid=" + GIVEN)) {
            assertEquals(GIVEN, ns.uuid());
            assertEquals(16, ns.blockCount());
            assertEquals(12, ns.blockShift());
        }
    }

    @Test
    void fileNamespaceKeepsItsUuidAcrossOpens(@TempDir Path dir) throws Exception {
        String spec = "file:" + dir.resolve("ns.img") + ":1M";
        UUID first;
        try (Namespace ns = TargetMain.namespace(spec)) {
            first = ns.uuid();
            assertEquals(9, ns.blockShift());
        }
        try (Namespace again = TargetMain.namespace(spec)) {
            assertEquals(first, again.uuid(), "a target restarted on the same file names the same namespace");
        }
        try (Namespace given = TargetMain.namespace(spec + ":uuid=" + GIVEN)) {
            assertEquals(GIVEN, given.uuid());
        }
    }

    @Test
    void malformedUuidOrSpecIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> TargetMain.namespace("mem:64K:uuid=not-a-uuid"));
        assertThrows(IllegalArgumentException.class, () -> TargetMain.namespace("mem:64K:512:4096:uuid=" + GIVEN));
        assertThrows(IllegalArgumentException.class, () -> TargetMain.namespace("uuid=" + GIVEN));
    }
}
