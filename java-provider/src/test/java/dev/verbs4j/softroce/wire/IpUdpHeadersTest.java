package dev.verbs4j.softroce.wire;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IpUdpHeadersTest {
    @Test
    void ipv4HeaderHasDontFragmentAndAValidChecksum() {
        UdpFlow flow = new UdpFlow().setIpv4(0xC0A80001, 0xC000, 0xC0A800C7, 4791);
        MemorySegment out = MemorySegment.ofArray(new byte[28]);
        assertEquals(28, IpUdpHeaders.write(out, 0, flow, 100, 0x1C46, 0, 64));
        // Header fields from the classic RFC 1071 worked example, with our length, flags and protocol.
        assertEquals("45000080" + "1c464000" + "4011" + "xxxx" + "c0a80001" + "c0a800c7"
                + "c00012b7" + "006c0000", hex(out).substring(0, 20) + "xxxx" + hex(out).substring(24));
        // A correct header sums to 0xFFFF in one's complement arithmetic, checksum included.
        long sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += out.get(BigEndian.U16, i) & 0xFFFF;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        assertEquals(0xFFFF, sum);
    }

    @Test
    void ipv6HeaderCarriesTheUdpLengthAsPayloadLength() {
        byte[] a = HexFormat.of().parseHex("20010db8000000000000000000000001");
        byte[] b = HexFormat.of().parseHex("20010db8000000000000000000000002");
        UdpFlow flow = new UdpFlow().set(a, 0xC001, b, 4791);
        MemorySegment out = MemorySegment.ofArray(new byte[48]);
        assertEquals(48, IpUdpHeaders.write(out, 0, flow, 20, 0xFFFF, 0xA0, 7));
        assertEquals("6a000000" + "001c" + "11" + "07" + hex(a) + hex(b) + "c00112b7" + "001c0000", hex(out));
    }

    @Test
    void udpChecksumOfADatagramVerifiesToZero() {
        byte[] a = HexFormat.of().parseHex("20010db8000000000000000000000001");
        byte[] b = HexFormat.of().parseHex("20010db8000000000000000000000002");
        UdpFlow flow = new UdpFlow().set(a, 0xC001, b, 4791);
        MemorySegment out = MemorySegment.ofArray(new byte[48 + 7]);
        for (int i = 0; i < 7; i++) {
            out.set(ValueLayout.JAVA_BYTE, 48 + i, (byte) (0x31 + i));
        }
        IpUdpHeaders.write(out, 0, flow, 7, 0, 0, 64);
        int checksum = IpUdpHeaders.fillUdpChecksum(out, 0);
        assertEquals(checksum, out.get(BigEndian.U16, 46) & 0xFFFF);
        // Receiver's verification: pseudo-header + datagram (checksum included) sums to 0xFFFF.
        long sum = 17 + 15;
        for (int i = 8; i < 40; i += 2) {
            sum += out.get(BigEndian.U16, i) & 0xFFFF;
        }
        for (int i = 40; i < 54; i += 2) {
            sum += out.get(BigEndian.U16, i) & 0xFFFF;
        }
        sum += (out.get(ValueLayout.JAVA_BYTE, 54) & 0xFF) << 8;
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        assertEquals(0xFFFF, sum);
    }

    private static String hex(MemorySegment segment) {
        return HexFormat.of().formatHex(segment.toArray(ValueLayout.JAVA_BYTE));
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
