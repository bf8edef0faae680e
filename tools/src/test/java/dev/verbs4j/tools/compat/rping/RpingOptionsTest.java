package dev.verbs4j.tools.compat.rping;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RpingOptionsTest {
    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> RpingOptions.parse(args)).getMessage();
    }

    @Test
    void hasRpingsDefaults() {
        RpingOptions o = RpingOptions.parse(new String[] {"-s"});

        assertTrue(o.server);
        assertEquals(7174, o.port);
        assertEquals(64, o.size);
        assertEquals(0, o.count);
        assertEquals("soft", o.provider);
        assertNull(o.address);
        assertNull(o.softDeviceAddress());
    }

    @Test
    void readsRpingsOptionsAndTheProviderChoice() {
        RpingOptions o = RpingOptions.parse(new String[] {"-c", "-a", "10.9.0.1", "-I", "10.9.0.2", "-p", "7200", "-C", "5",
            "-S", "100", "-v", "-V", "-d", "-q", "--provider", "ibverbs", "--device", "rxe0"});

        assertTrue(o.client);
        assertFalse(o.server);
        assertEquals("10.9.0.1", o.address);
        assertEquals(7200, o.port);
        assertEquals(5, o.count);
        assertEquals(100, o.size);
        assertTrue(o.verbose && o.validate && o.debug && o.ownQp);
        assertEquals("ibverbs", o.provider);
        assertEquals("rxe0", o.device);
        assertEquals("10.9.0.2", o.softDeviceAddress());
    }

    @Test
    void theSoftDeviceGoesOnTheServersAddressUnlessGiven() {
        assertEquals("10.9.0.2", RpingOptions.parse(new String[] {"-s", "-a", "10.9.0.2"}).softDeviceAddress());
        assertEquals("10.9.0.3", RpingOptions.parse(new String[] {"-s", "-a", "10.9.0.2", "--address", "10.9.0.3"})
                .softDeviceAddress());
    }

    @Test
    void refusesWhatRpingRefusesAndWhatIsNotImplemented() {
        assertTrue(refusal().contains("-s"));
        assertTrue(refusal("-s", "-c").contains("-s"));
        assertTrue(refusal("-c").contains("-a"));
        assertTrue(refusal("-s", "-S", "25").contains("26..65535"));
        assertTrue(refusal("-s", "-S", "65536").contains("26..65535"));
        assertTrue(refusal("-s", "-C", "-1").contains("-C"));
        assertTrue(refusal("-s", "-P").contains("persistent"));
        assertTrue(refusal("-s", "-p", "x").contains("number"));
        assertTrue(refusal("-s", "--address", "10.9.0.2", "--provider", "ibverbs").contains("soft device"));
        assertTrue(refusal("-s", "-I", "10.9.0.2").contains("-I"));
        assertTrue(refusal("-s", "-x").contains("unknown"));
    }
}
