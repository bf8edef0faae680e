package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UdpFlowTest {
    @Test
    void ipv4FlowFromSocketAddresses() throws Exception {
        UdpFlow flow = UdpFlow.of(new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 50000),
                new InetSocketAddress(InetAddress.getByName("10.1.2.4"), 4791));
        assertFalse(flow.isIpv6());
        assertEquals(4, flow.addressLength());
        assertEquals(0x0A010203, flow.ipv4Source());
        assertEquals(0x0A010204, flow.ipv4Destination());
        assertEquals(50000, flow.sourcePort());
        assertEquals(4791, flow.destinationPort());
        assertEquals("10.1.2.3:50000 -> 10.1.2.4:4791", flow.toString());
    }

    @Test
    void ipv4MappedIpv6AddressesTravelAsIpv4() {
        byte[] mapped = HexFormat.of().parseHex("00000000000000000000ffff0a000001");
        byte[] plain = {10, 0, 0, 2};
        UdpFlow flow = new UdpFlow().set(mapped, 1, plain, 2);
        assertFalse(flow.isIpv6());
        assertEquals(0x0A000001, flow.ipv4Source());
    }

    @Test
    void ipv6AddressesAreCopiedInNetworkOrder() {
        byte[] source = HexFormat.of().parseHex("20010db8000000000000000000000010");
        byte[] destination = HexFormat.of().parseHex("fe800000000000000000000000000001");
        UdpFlow flow = new UdpFlow().set(source, 0xC000, destination, 4791);
        assertTrue(flow.isIpv6());
        MemorySegment out = MemorySegment.ofArray(new byte[34]);
        flow.copySourceAddress(out, 1);
        flow.copyDestinationAddress(out, 17);
        assertEquals("00" + "20010db8000000000000000000000010" + "fe800000000000000000000000000001" + "00",
                HexFormat.of().formatHex(out.toArray(ValueLayout.JAVA_BYTE)));
    }

    @Test
    void reverseSwapsAddressesAndPortsEvenInPlace() {
        UdpFlow flow = new UdpFlow().setIpv4(1, 100, 2, 4791);
        UdpFlow reply = new UdpFlow().setReverseOf(flow);
        assertEquals(2, reply.ipv4Source());
        assertEquals(1, reply.ipv4Destination());
        assertEquals(4791, reply.sourcePort());
        assertEquals(100, reply.destinationPort());
        flow.setReverseOf(flow);
        assertEquals(2, flow.ipv4Source());
        assertEquals(1, flow.ipv4Destination());
        assertEquals(4791, flow.sourcePort());
    }

    @Test
    void mixedVersionsBadLengthsAndBadPortsAreRejected() {
        byte[] v4 = {10, 0, 0, 1};
        byte[] v6 = HexFormat.of().parseHex("20010db8000000000000000000000010");
        assertThrows(IllegalArgumentException.class, () -> new UdpFlow().set(v4, 1, v6, 2));
        assertThrows(IllegalArgumentException.class, () -> new UdpFlow().set(new byte[5], 1, v4, 2));
        assertThrows(IllegalArgumentException.class, () -> new UdpFlow().set(v4, 65536, v4, 2));
        assertThrows(IllegalArgumentException.class, () -> new UdpFlow().setIpv4(1, 1, 2, -1));
    }
}
