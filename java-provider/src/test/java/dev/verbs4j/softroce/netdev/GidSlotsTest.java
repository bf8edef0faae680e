package dev.verbs4j.softroce.netdev;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The order of the kernel's table for rxe1 on veth1 in the micro-VM (kernel 7.3.4), as
 * {@code ibv_devinfo -v} printed it: the default GID, IPv4, global IPv6; an address added
 * later takes the lowest free index, one removed leaves its index empty.
 */
class GidSlotsTest {
    private static String at(GidSlots t, int i) {
        InetAddress a = t.address(i);
        return a == null ? null : a.getHostAddress().replaceAll("%.*", "");
    }

    @Test
    void defaultGidThenIpv4ThenIpv6AsTheKernelFillsIt() {
        FakeNetdev veth1 = new FakeNetdev("veth1", 2).add("10.9.0.2").add("fe80::9cf8:f2ff:fe56:6b6a").add("fd00:9::2");
        GidSlots t = new GidSlots(16);
        assertEquals(List.of(0, 1, 2), t.update(veth1.read("veth1").orElseThrow()));
        assertEquals("fe80:0:0:0:9cf8:f2ff:fe56:6b6a", at(t, 0));
        assertEquals("10.9.0.2", at(t, 1));
        assertEquals("fd00:9:0:0:0:0:0:2", at(t, 2));
        assertNull(t.address(3));
        assertEquals(2, ((java.net.Inet6Address) t.address(0)).getScopeId());
    }

    @Test
    void aNewAddressTakesTheLowestFreeIndexAndAGoneOneLeavesAHole() {
        FakeNetdev veth1 = new FakeNetdev("veth1", 2).add("10.9.0.2").add("fd00:9::2");
        GidSlots t = new GidSlots(16);
        t.update(veth1.read("veth1").orElseThrow());
        assertEquals(List.of(3), t.update(veth1.add("10.9.1.2").read("veth1").orElseThrow()));
        assertEquals(List.of(2), t.update(veth1.remove("fd00:9::2").read("veth1").orElseThrow()));
        assertNull(t.address(2));
        assertEquals("10.9.1.2", at(t, 3));
        assertEquals(List.of(2), t.update(veth1.add("fd00:9::7").read("veth1").orElseThrow()));
        assertEquals("fd00:9:0:0:0:0:0:7", at(t, 2));
        assertEquals(List.of(), t.update(veth1.read("veth1").orElseThrow()));
    }

    @Test
    void theDefaultGidStaysWithoutIpv6AndIsNotListedTwice() {
        FakeNetdev veth0 = new FakeNetdev("veth0", 3).add("10.9.0.1");
        veth0.mac = new byte[] {(byte) 0xee, (byte) 0xe1, (byte) 0xe7, (byte) 0xa5, 0x43, 0x40};
        GidSlots t = new GidSlots(16);
        t.update(veth0.read("veth0").orElseThrow());
        assertEquals("fe80:0:0:0:ece1:e7ff:fea5:4340", at(t, 0));
        assertEquals("10.9.0.1", at(t, 1));
        assertEquals(List.of(), t.update(veth0.add("fe80::ece1:e7ff:fea5:4340").read("veth0").orElseThrow()));
        assertNull(t.address(2));
    }

    @Test
    void withoutAHardwareAddressIndexZeroStaysEmpty() {
        FakeNetdev tun = new FakeNetdev("tun0", 9).add("10.8.0.1");
        tun.mac = null;
        GidSlots t = new GidSlots(16);
        t.update(tun.read("tun0").orElseThrow());
        assertNull(t.address(0));
        assertEquals("10.8.0.1", at(t, 1));
    }
}
