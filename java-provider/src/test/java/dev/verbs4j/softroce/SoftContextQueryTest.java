package dev.verbs4j.softroce;

import dev.verbs4j.DeviceContext;
import dev.verbs4j.Errno;
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
        return SoftProvider.addDevice(SoftDeviceConfig.of(name, InetAddress.ofLiteral("127.0.0.1")).withPorts(47997, 47997));
    }

    @Test
    void portReportsWidthAndSpeedFromTheIbtaTables() {
        try (DeviceContext ctx = device("query-port").open()) {
            PortAttributes port = ctx.queryPort(1);
            assertTrue(WIDTHS.contains(port.activeWidth()), "active_width " + port.activeWidth());
            assertTrue(SPEEDS.contains(port.activeSpeed()), "active_speed " + port.activeSpeed());
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
