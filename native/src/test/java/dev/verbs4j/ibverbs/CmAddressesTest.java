package dev.verbs4j.ibverbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The socket addresses and timeouts handed to the connection-manager glue. */
class CmAddressesTest {

    @Test
    void ipv4IsFourBytesInNetworkOrder() {
        InetSocketAddress address = new InetSocketAddress("10.9.0.1", 7471);
        assertArrayEquals(new byte[] {10, 9, 0, 1}, CmAddresses.bytes(address));
        assertEquals(0, CmAddresses.scope(address));
    }

    @Test
    void ipv6IsSixteenBytesWithItsScope() throws Exception {
        byte[] linkLocal = new byte[16];
        linkLocal[0] = (byte) 0xfe;
        linkLocal[1] = (byte) 0x80;
        linkLocal[15] = 7;
        InetSocketAddress address = new InetSocketAddress(Inet6Address.getByAddress(null, linkLocal, 3), 18515);
        assertArrayEquals(linkLocal, CmAddresses.bytes(address));
        assertEquals(3, CmAddresses.scope(address));
    }

    @Test
    void anUnresolvedHostIsEinval() {
        VerbsException e = assertThrows(VerbsException.class,
                () -> CmAddresses.bytes(InetSocketAddress.createUnresolved("server", 1)));
        assertEquals(Errno.EINVAL, e.error());
    }

    @Test
    void bytesComeBackAsTheSameSocketAddress() throws Exception {
        byte[] raw = new byte[16];
        raw[0] = 10;
        raw[1] = 9;
        raw[3] = 2;
        assertEquals(new InetSocketAddress(InetAddress.getByName("10.9.0.2"), 40000),
                CmAddresses.socketAddress(raw, 4, 40000));
        byte[] v6 = InetAddress.getByName("2001:db8::5").getAddress();
        assertEquals(new InetSocketAddress(InetAddress.getByName("2001:db8::5"), 1),
                CmAddresses.socketAddress(v6, 16, 1));
    }

    @Test
    void noAddressFamilyIsNull() {
        assertNull(CmAddresses.socketAddress(new byte[16], 0, 0));
    }

    @Test
    void anotherLengthIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CmAddresses.socketAddress(new byte[16], 8, 0));
    }

    @Test
    void timeoutsAreWholeMillisecondsWithinAnInt() {
        assertEquals(2000, CmAddresses.millis(Duration.ofSeconds(2)));
        assertEquals(0, CmAddresses.millis(Duration.ofMillis(-5)));
        assertEquals(Integer.MAX_VALUE, CmAddresses.millis(Duration.ofDays(365)));
        assertEquals(Integer.MAX_VALUE, CmAddresses.millis(Duration.ofSeconds(Long.MAX_VALUE)));
    }
}
