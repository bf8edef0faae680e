package dev.verbs4j;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class QpEndpointTest {
    @Test
    void endpointSurvivesTheWireForm() {
        QpEndpoint e = new QpEndpoint(0x11, 0xabcdef, Gid.parse("::ffff:127.0.0.2"), Mtu.MTU_4096, 0,
                0x7f0000001000L, 0xdeadbeef, 1L << 33);
        assertEquals(e, QpEndpoint.decode(e.encode()));
    }

    @Test
    void garbageIsRejectedWithTheLine() {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> QpEndpoint.decode("hello"));
        assertEquals(true, ex.getMessage().contains("hello"));
        assertThrows(IllegalArgumentException.class, () -> QpEndpoint.decode(null));
        assertThrows(IllegalArgumentException.class, () -> QpEndpoint.decode(
                "verbs4j-rc/1 qpn=zz psn=1 gid=::1 mtu=1024 lid=0 addr=0 rkey=0 len=0"));
    }
}
