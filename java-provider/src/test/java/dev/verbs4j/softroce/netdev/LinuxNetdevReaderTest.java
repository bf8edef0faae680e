package dev.verbs4j.softroce.netdev;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The files as the micro-VM's kernel showed them for veth1, in a tree of the test's. */
class LinuxNetdevReaderTest {
    @TempDir
    Path root;

    private LinuxNetdevReader reader(List<Inet4Address> ipv4) throws Exception {
        Path veth1 = Files.createDirectories(root.resolve("sys/class/net/veth1"));
        Files.writeString(veth1.resolve("ifindex"), "2\n");
        Files.writeString(veth1.resolve("mtu"), "1200\n");
        Files.writeString(veth1.resolve("flags"), "0x1003\n");
        Files.writeString(veth1.resolve("carrier"), "1\n");
        Files.writeString(veth1.resolve("operstate"), "up\n");
        Files.writeString(veth1.resolve("address"), "9e:f8:f2:56:6b:6a\n");
        Files.createDirectories(root.resolve("proc/net"));
        Files.writeString(root.resolve("proc/net/if_inet6"), """
                00000000000000000000000000000001 01 80 10 80       lo
                fd000009000000000000000000000002 02 40 00 82    veth1
                fe800000000000009cf8f2fffe566b6a 02 40 20 80    veth1
                fd000009000000000000000000000009 02 40 00 40    veth1
                fe80000000000000ece1e7fffea54340 03 40 20 80    veth0
                """);
        return new LinuxNetdevReader(root.resolve("sys/class/net"), root.resolve("proc/net/if_inet6"), name -> ipv4);
    }

    @Test
    void readsTheLinkAndTheUsableIpv6Addresses() throws Exception {
        Inet4Address ip = (Inet4Address) InetAddress.ofLiteral("10.9.0.2");
        NetdevSnapshot s = reader(List.of(ip)).read("veth1").orElseThrow();
        assertEquals(2, s.index());
        assertEquals(1200, s.mtu());
        assertTrue(s.active());
        assertArrayEquals(new byte[] {(byte) 0x9e, (byte) 0xf8, (byte) 0xf2, 0x56, 0x6b, 0x6a}, s.mac());
        assertEquals(List.of(ip), s.ipv4());
        // The tentative fd00:9::9 is left out until its duplicate address detection ends.
        assertEquals(2, s.ipv6().size());
        assertEquals(InetAddress.ofLiteral("fd00:9::2"), s.ipv6().get(0));
        Inet6Address linkLocal = s.ipv6().get(1);
        assertEquals(InetAddress.ofLiteral("fe80::9cf8:f2ff:fe56:6b6a"), linkLocal);
        assertEquals(2, linkLocal.getScopeId());
    }

    @Test
    void aDownInterfaceHasNoCarrierEvenWhenTheFileCannotBeRead() throws Exception {
        LinuxNetdevReader r = reader(List.of());
        Path veth1 = root.resolve("sys/class/net/veth1");
        Files.writeString(veth1.resolve("flags"), "0x1002\n");
        Files.delete(veth1.resolve("carrier"));
        NetdevSnapshot s = r.read("veth1").orElseThrow();
        assertFalse(s.running());
        assertFalse(s.active());
        assertTrue(r.read("veth9").isEmpty());
        Files.writeString(veth1.resolve("address"), "00:00:00:00:00:00\n");
        assertEquals(null, r.read("veth1").orElseThrow().mac(), "loopback's all-zero address is none: no default GID");
        assertTrue(r.read("../veth1").isEmpty());
    }
}
