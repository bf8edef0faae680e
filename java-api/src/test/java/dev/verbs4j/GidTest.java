package dev.verbs4j;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GidTest {
    @Test
    void ipv4AddressesBecomeIpv4MappedGids() throws Exception {
        Gid gid = Gid.of(InetAddress.getByName("10.9.0.2"));
        assertTrue(gid.isIpv4Mapped());
        assertEquals("0000:0000:0000:0000:0000:ffff:0a09:0002", gid.toString());
        assertEquals(InetAddress.getByName("10.9.0.2"), gid.toInetAddress());
        assertEquals(gid, Gid.parse(gid.toString()));
        assertEquals(gid, Gid.parse("::ffff:10.9.0.2"));
    }

    @Test
    void ipv6GidsRoundTripThroughBytes() {
        Gid gid = Gid.parse("fe80::200:ff:fe00:1");
        assertFalse(gid.isIpv4Mapped());
        assertEquals(gid, Gid.fromBytes(gid.toBytes()));
        assertArrayEquals(gid.toInetAddress().getAddress(), gid.toBytes());
    }

    @Test
    void malformedGidsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Gid.fromBytes(new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> Gid.parse("not-a-gid"));
    }
}
