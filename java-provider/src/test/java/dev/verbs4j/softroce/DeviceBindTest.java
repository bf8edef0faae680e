package dev.verbs4j.softroce;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opening a soft device whose address cannot be bound fails with the errno a socket gives,
 * and a clear message, on either socket implementation.
 */
class DeviceBindTest {

    /** A device with an engine thread, on the JDK's or the C library's UDP socket. */
    private static SoftDevice device(String implementation, String name, String ip, int port) {
        SocketLinks.assumeAvailable(implementation);
        SoftDeviceConfig config = SoftDeviceConfig.of(name, InetAddress.ofLiteral(ip)).withPorts(port, port);
        return new SoftDevice(config, c -> SocketLinks.open(implementation, new InetSocketAddress(c.address(), c.port())), true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "native"})
    void anAddressThisHostDoesNotHaveIsEaddrnotavail(String implementation) {
        // 192.0.2.0/24 is TEST-NET-1: documentation only, never assigned to a host.
        SoftDevice nowhere = device(implementation, "nowhere", "192.0.2.1", 27995);
        VerbsException e = assertThrows(VerbsException.class, nowhere::open);
        assertEquals(Errno.EADDRNOTAVAIL.number(), e.errno(), e.getMessage());
        assertTrue(e.getMessage().contains("nowhere") && e.getMessage().contains("192.0.2.1"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "native"})
    void anAddressAnotherDeviceHoldsIsEaddrinuse(String implementation) {
        SoftDevice first = device(implementation, "first", "127.0.0.1", 27996);
        SoftDevice second = device(implementation, "second", "127.0.0.1", 27996);
        try (DeviceContext held = first.open()) {
            VerbsException e = assertThrows(VerbsException.class, second::open);
            assertEquals(Errno.EADDRINUSE.number(), e.errno(), e.getMessage());
            assertTrue(e.getMessage().contains("127.0.0.1:27996"), e.getMessage());
        }
        // Once the first device is closed, the address is free again.
        second.open().close();
    }
}
