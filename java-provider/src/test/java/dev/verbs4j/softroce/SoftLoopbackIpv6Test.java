package dev.verbs4j.softroce;

import dev.verbs4j.Gid;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link SoftLoopbackTest}'s traffic between two soft devices on the IPv6 loopback ({@code ::1},
 * two ports): the GIDs are IPv6 ones, the sockets IPv6 sockets (which take datagrams with a
 * zero UDP checksum, as the kernel rxe sends them), the ICRC covers the IPv6 pseudo header.
 * Skipped, with the reason, where this host has no IPv6 loopback.
 */
class SoftLoopbackIpv6Test extends SoftLoopbackTest {
    @Override
    RcPair connectPair() throws Exception {
        InetAddress loopback = InetAddress.getByName("::1");
        assumeTrue(ipv6Loopback(loopback), "no IPv6 loopback on this host");
        SoftDevice a = new SoftDevice(SoftDeviceConfig.of("lo6-a", loopback).withPorts(27921, 27922));
        SoftDevice b = new SoftDevice(SoftDeviceConfig.of("lo6-b", loopback).withPorts(27922, 27921));
        return pair(a, b);
    }

    private static boolean ipv6Loopback(InetAddress loopback) {
        try (DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            c.bind(new InetSocketAddress(loopback, 0));
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Test
    void theDevicesAreAddressedByIpv6Gids() {
        Gid gid = pair.a.ctx.queryGid(1, 0);
        assertFalse(gid.isIpv4Mapped(), gid.toString());
        assertEquals(Gid.of(InetAddress.ofLiteral("::1")), gid);
    }
}
