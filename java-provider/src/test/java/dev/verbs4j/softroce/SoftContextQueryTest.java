package dev.verbs4j.softroce;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
import dev.verbs4j.Mtu;
import dev.verbs4j.PortAttributes;
import dev.verbs4j.VerbsException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a soft device's context reports and refuses as libibverbs on the kernel rxe does:
 * a port width and speed from the IBTA code tables, and completion vectors counted from 0
 * below {@code num_comp_vectors}.
 */
class SoftContextQueryTest {
    /** IBTA PortInfo LinkWidthActive and LinkSpeedActive codes, as {@code ibv_port_attr} carries them. */
    private static final Set<Integer> WIDTHS = Set.of(1, 2, 4, 8, 16);
    private static final Set<Integer> SPEEDS = Set.of(1, 2, 4, 8, 16, 32, 64, 128, 256);

    private static SoftDevice device(String name) {
        return SoftProvider.addDevice(SoftDeviceConfig.of(name, InetAddress.ofLiteral("127.0.0.1")).withPorts(27997, 27997));
    }

    @Test
    void portReportsWidthAndSpeedFromTheIbtaTables() {
        try (DeviceContext ctx = device("query-port").open()) {
            PortAttributes port = ctx.queryPort(1);
            assertTrue(WIDTHS.contains(port.activeWidth()), "active_width " + port.activeWidth());
            assertTrue(SPEEDS.contains(port.activeSpeed()), "active_speed " + port.activeSpeed());
        }
    }

    /**
     * A device on the address of an Ethernet interface: its active MTU fits that interface's
     * MTU, as rxe's follows its netdev's, so that no RoCE packet is fragmented (two soft
     * devices across a 1500-byte link once sent 4 KiB payloads, and multi-packet messages ended
     * in RETRY_EXC_ERR). Loopback's 64 KiB fits 4096.
     */
    @Test
    void activeMtuFitsTheInterfaceOfTheAddress() throws Exception {
        try (DeviceContext ctx = device("query-mtu-loopback").open()) {
            assertEquals(Mtu.MTU_4096, ctx.queryPort(1).activeMtu(), "loopback carries 4096-byte payloads");
        }
        java.util.Optional<java.net.InterfaceAddress> small = java.net.NetworkInterface.networkInterfaces()
                .filter(n -> mtu(n) > 0 && mtu(n) < 4096 + 80 && up(n))
                .flatMap(n -> n.getInterfaceAddresses().stream())
                .filter(a -> a.getAddress() instanceof java.net.Inet4Address)
                .findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(small.isPresent(),
                "this machine has no IPv4 address on an interface whose MTU is below 4176");
        InetAddress address = small.get().getAddress();
        int interfaceMtu = java.net.NetworkInterface.getByInetAddress(address).getMTU();
        try (DeviceContext ctx = SoftProvider.addDevice(SoftDeviceConfig.of("query-mtu-ethernet", address).withPorts(27996, 27996))
                .open()) {
            PortAttributes port = ctx.queryPort(1);
            assertEquals(Mtu.fittingEthernetMtu(interfaceMtu), port.activeMtu(), "the interface's MTU is " + interfaceMtu);
            assertTrue(port.activeMtu().bytes() + 80 <= interfaceMtu, "a payload of the active MTU fits one frame");
            assertEquals(Mtu.MTU_4096, port.maxMtu(), "the largest stays the device's own");
        }
    }

    private static int mtu(java.net.NetworkInterface n) {
        try {
            return n.getMTU();
        } catch (java.net.SocketException e) {
            return -1;
        }
    }

    private static boolean up(java.net.NetworkInterface n) {
        try {
            return n.isUp() && !n.isLoopback();
        } catch (java.net.SocketException e) {
            return false;
        }
    }

    @Test
    void completionVectorPastTheDevicesFailsWithEinval() {
        try (DeviceContext ctx = device("query-vectors").open()) {
            int vectors = ctx.completionVectorCount();
            assertTrue(vectors >= 1, "num_comp_vectors " + vectors);
            ctx.createCq(4, null, vectors - 1).close();

            VerbsException e = assertThrows(VerbsException.class, () -> ctx.createCq(4, null, vectors));
            assertEquals(Errno.EINVAL, e.error());
            e = assertThrows(VerbsException.class, () -> ctx.createCq(4, null, -1));
            assertEquals(Errno.EINVAL, e.error());
        }
    }
}
