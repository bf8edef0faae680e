package dev.verbs4j.softroce.netdev;

import dev.verbs4j.AsyncEvent;
import dev.verbs4j.AsyncEventType;
import dev.verbs4j.Mtu;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The port follows the interface at the poll deadline, on a clock the test moves. */
class NetdevPortTest {
    private final FakeNetdev veth1 = new FakeNetdev("veth1", 2).add("10.9.0.2").add("fe80::9cf8:f2ff:fe56:6b6a");
    private final List<AsyncEvent> events = new ArrayList<>();
    private final List<InetAddress[]> binds = new ArrayList<>();
    private final NetdevPort port = new NetdevPort("veth1", veth1, 16, events::add);
    private static final long T0 = 5_000_000_000L;

    private static AsyncEvent event(AsyncEventType type) {
        return new AsyncEvent(type, 1);
    }

    @Test
    void startReadsTheInterfaceWithoutEvents() throws Exception {
        InetAddress[] bindable = port.start();
        assertEquals(InetAddress.ofLiteral("fe80::9cf8:f2ff:fe56:6b6a"), bindable[0]);
        assertEquals(InetAddress.ofLiteral("10.9.0.2"), bindable[1]);
        assertNull(bindable[2]);
        assertTrue(port.active());
        assertEquals(Mtu.MTU_1024, port.activeMtu());
        assertEquals(List.of(), events);
        assertEquals(2, port.linkScope());
    }

    @Test
    void changesShowAtTheDeadlineAsEvents() throws Exception {
        port.start();
        assertEquals(0, port.poll(T0), "the first look sets the deadline");
        port.onBindable(binds::add);
        veth1.mtu = 1000;
        veth1.add("fd00:9::2");
        assertEquals(0, port.poll(T0 + NetdevPort.POLL_INTERVAL_NS - 1));
        assertEquals(Mtu.MTU_1024, port.activeMtu());
        assertEquals(1, port.reads());
        assertTrue(port.poll(T0 + NetdevPort.POLL_INTERVAL_NS) > 0);
        assertEquals(Mtu.MTU_512, port.activeMtu());
        assertEquals(List.of(event(AsyncEventType.GID_CHANGE)), events);
        assertEquals(InetAddress.ofLiteral("fd00:9::2"), port.gidAddress(2));
        assertEquals(1, binds.size());
        assertEquals(InetAddress.ofLiteral("fd00:9::2"), binds.getFirst()[2]);

        events.clear();
        veth1.running = false;
        veth1.remove("fd00:9::2").remove("fe80::9cf8:f2ff:fe56:6b6a");
        port.poll(T0 + 2 * NetdevPort.POLL_INTERVAL_NS);
        assertEquals(List.of(event(AsyncEventType.GID_CHANGE), event(AsyncEventType.PORT_ERR)), events);
        assertFalse(port.active());
        // The default GID stays listed, but the interface lacks its address: nothing to bind there.
        assertEquals(InetAddress.ofLiteral("fe80::9cf8:f2ff:fe56:6b6a"), port.gidAddress(0));
        assertNull(binds.getLast()[0]);

        events.clear();
        veth1.running = true;
        port.poll(T0 + 3 * NetdevPort.POLL_INTERVAL_NS);
        assertEquals(List.of(event(AsyncEventType.PORT_ACTIVE)), events);
        events.clear();
        veth1.carrier = false;
        port.poll(T0 + 4 * NetdevPort.POLL_INTERVAL_NS);
        assertEquals(List.of(event(AsyncEventType.PORT_ERR)), events);
    }

    @Test
    void anInterfaceThatGoesIsAPortDownWithoutAddresses() throws Exception {
        port.start();
        port.poll(T0);
        veth1.present = false;
        port.poll(T0 + NetdevPort.POLL_INTERVAL_NS);
        assertFalse(port.active());
        assertArrayEquals(new InetAddress[16], port.gids());
        assertEquals(List.of(event(AsyncEventType.GID_CHANGE), event(AsyncEventType.GID_CHANGE),
                event(AsyncEventType.PORT_ERR)), events);
    }

    @Test
    void aMissingInterfaceCannotStart() {
        NetdevPort none = new NetdevPort("nope0", veth1, 16, events::add);
        assertThrows(java.io.IOException.class, none::start);
    }
}
