package dev.verbs4j.softroce;

import org.junit.jupiter.api.Test;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The device list's forms: IPv4 with or without a port, IPv6 bare, in brackets with a port, and scoped. */
class SoftDeviceConfigTest {
    @Test
    void everyAddressFormParses() throws Exception {
        List<SoftDeviceConfig> configs = SoftDeviceConfig.parse("a=127.0.0.9,b=127.0.0.9:4792,c=fd00:9::2,d=[fd00:9::2]:4793,e=[::1]");
        assertEquals(InetAddress.ofLiteral("127.0.0.9"), configs.get(0).address());
        assertEquals(4791, configs.get(0).port());
        assertEquals(4792, configs.get(1).port());
        assertEquals(InetAddress.ofLiteral("fd00:9::2"), configs.get(2).address());
        assertEquals(4791, configs.get(2).port());
        assertEquals(InetAddress.ofLiteral("fd00:9::2"), configs.get(3).address());
        assertEquals(4793, configs.get(3).port());
        assertEquals(InetAddress.ofLiteral("::1"), configs.get(4).address());
    }

    @Test
    void aLinkLocalAddressKeepsItsScopeByNumberOrByInterface() throws Exception {
        Inet6Address numbered = (Inet6Address) SoftDeviceConfig.ipLiteral("fe80::2%1");
        assertEquals(1, numbered.getScopeId());
        NetworkInterface lo = NetworkInterface.getByName("lo");
        if (lo != null) {
            Inet6Address named = (Inet6Address) SoftDeviceConfig.parse("x=[fe80::2%lo]:4794").getFirst().address();
            assertEquals(lo.getIndex(), named.getScopeId());
            assertEquals(4794, SoftDeviceConfig.parse("x=[fe80::2%lo]:4794").getFirst().port());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SoftDeviceConfig.ipLiteral("fe80::2%no-such-nic"))
                .getMessage().contains("no-such-nic"));
        assertThrows(IllegalArgumentException.class, () -> SoftDeviceConfig.ipLiteral("10.0.0.1%1"));
        assertThrows(IllegalArgumentException.class, () -> SoftDeviceConfig.parse("x=localhost"));
    }

    @Test
    void anInterfaceEntryMakesADeviceOnTheInterface() {
        List<SoftDeviceConfig> configs = SoftDeviceConfig.parse("soft0=netdev:eth0,soft1=10.9.0.2");
        assertEquals("eth0", configs.get(0).netdev());
        assertEquals(4791, configs.get(0).port());
        assertEquals(16, configs.get(0).limits().gidTableLength());
        assertEquals(null, configs.get(1).netdev());
        assertThrows(IllegalArgumentException.class, () -> SoftDeviceConfig.parse("soft0=netdev:"));
        assertThrows(IllegalArgumentException.class, () -> SoftDeviceConfig.onInterface("x", "a/b"));
    }
}
