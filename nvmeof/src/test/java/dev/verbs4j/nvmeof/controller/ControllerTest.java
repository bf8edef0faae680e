package dev.verbs4j.nvmeof.controller;

import dev.verbs4j.nvmeof.wire.Properties;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Property semantics and keep-alive deadlines, without a connection. */
class ControllerTest {
    private static Controller controller() {
        Subsystem s = new Subsystem("nqn.2026-01.dev.verbs4j:unit", "SN", List.of(), Set.of());
        return new Controller(1, s, "nqn.2026-01.dev.verbs4j:h", new byte[16], 4, 128);
    }

    @Test
    void enablingWithFabricsEntrySizesMakesTheControllerReady() {
        Controller c = controller();
        c.writeCc(Properties.enableValue());
        assertEquals(Properties.CSTS_READY, c.csts);
        assertTrue(c.ready());
    }

    @Test
    void enablingWithOtherEntrySizesIsAFatalStatus() {
        Controller c = controller();
        c.writeCc(5 << 16 | 4 << 20 | Properties.CC_ENABLE);
        assertEquals(Properties.CSTS_FATAL, c.csts);
        assertFalse(c.ready());
    }

    @Test
    void clearingEnableResetsReady() {
        Controller c = controller();
        c.writeCc(Properties.enableValue());
        c.writeCc(Properties.enableValue() & ~Properties.CC_ENABLE);
        assertEquals(0, c.csts);
    }

    @Test
    void shutdownNotificationCompletesAtOnce() {
        Controller c = controller();
        c.writeCc(Properties.enableValue());
        c.writeCc(Properties.shutdownValue(Properties.enableValue()));
        assertEquals(Properties.CSTS_SHUTDOWN_COMPLETE, c.csts & (3 << 2));
    }

    @Test
    void keepAliveExpiresOnlyAfterTheTimeout() {
        Controller c = controller();
        c.keepAliveMs = 5000;
        c.keepAlive(1_000_000_000L);
        assertFalse(c.keepAliveExpired(6_000_000_000L));
        assertTrue(c.keepAliveExpired(6_000_000_001L));
        c.keepAliveMs = 0;
        assertFalse(c.keepAliveExpired(Long.MAX_VALUE), "KATO 0: no keep-alive");
    }

    @Test
    void capabilitiesAdvertiseQueueEntriesAndTheNvmCommandSet() {
        long cap = Properties.capabilities(128, 15);
        assertEquals(127, cap & 0xffff);
        assertEquals(1, (cap >>> 16) & 1);
        assertEquals(15, (cap >>> 24) & 0xff);
        assertEquals(1, (cap >>> 37) & 1);
        assertEquals(0, (cap >>> 48) & 0xf, "MPSMIN 4 KiB");
    }
}
