package dev.verbs4j.softroce.netdev;

import dev.verbs4j.Mtu;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** rxe's rule, and the values the kernel's rxe1 showed for veth1 at MTU 1500, 1000 and 300. */
class RxeMtuTest {
    @Test
    void theLargestIbMtuThatFitsBehind80BytesOfHeaders() {
        assertEquals(Mtu.MTU_1024, RxeMtu.of(1500));
        assertEquals(Mtu.MTU_512, RxeMtu.of(1000));
        assertEquals(Mtu.MTU_256, RxeMtu.of(300));
        assertEquals(Mtu.MTU_256, RxeMtu.of(68));
        assertEquals(Mtu.MTU_1024, RxeMtu.of(1024 + 80));
        assertEquals(Mtu.MTU_512, RxeMtu.of(1024 + 79));
        assertEquals(Mtu.MTU_2048, RxeMtu.of(4096 + 79));
        assertEquals(Mtu.MTU_4096, RxeMtu.of(4096 + 80));
        assertEquals(Mtu.MTU_4096, RxeMtu.of(65536));
    }
}
