package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Writes the IPv4 or IPv6 header and the UDP header that carry a RoCEv2 packet, as the Linux
 * rxe builds them ({@code rxe_net.c prepare_ipv4_hdr / prepare_ipv6_hdr / prepare_udp_hdr}):
 * IPv4 without options, Don't Fragment set; IPv6 with flow label 0 and no extension headers.
 * A user-space engine never writes these to the network (the kernel's UDP socket does); they
 * are synthesized for the ICRC pseudo-header and for pcap captures.
 *
 * <pre>
 *  IPv4 (20 bytes)                          IPv6 (40 bytes)
 *  0  |Ver=4|IHL=5| TOS |  Total Length  |  0  |Ver=6| Traffic Class | Flow Label  |
 *  4  |  Identification  |Flg|Frag Offset|  4  | Payload Length | Next=17| Hop Lim|
 *  8  |  TTL  | Proto=17 | Header Checksum|  8  |  Source Address (16 bytes)      |
 *  12 |        Source Address            |  24 |  Destination Address (16 bytes) |
 *  16 |      Destination Address         |
 *
 *  UDP (8 bytes), right after the IP header
 *  0  |  Source Port     | Destination Port |
 *  4  |  Length          | Checksum         |
 * </pre>
 */
public final class IpUdpHeaders {
    public static final int IPV4_HEADER_LENGTH = 20;
    public static final int IPV6_HEADER_LENGTH = 40;
    public static final int UDP_HEADER_LENGTH = 8;
    /** IPv4 flags and fragment offset with only Don't Fragment set, as rxe sends. */
    public static final int IPV4_DONT_FRAGMENT = 0x4000;
    public static final int PROTOCOL_UDP = 17;

    /** Offsets inside the IPv4 header. */
    public static final int IPV4_TOS_OFFSET = 1;
    public static final int IPV4_TOTAL_LENGTH_OFFSET = 2;
    public static final int IPV4_ID_OFFSET = 4;
    public static final int IPV4_TTL_OFFSET = 8;
    public static final int IPV4_CHECKSUM_OFFSET = 10;
    /** Offsets inside the IPv6 header. */
    public static final int IPV6_HOP_LIMIT_OFFSET = 7;
    /** Offset of the checksum inside the UDP header. */
    public static final int UDP_CHECKSUM_OFFSET = 6;

    private IpUdpHeaders() {
    }

    /** Bytes of IP plus UDP header for {@code flow}: 28 for IPv4, 48 for IPv6. */
    public static int length(UdpFlow flow) {
        return (flow.isIpv6() ? IPV6_HEADER_LENGTH : IPV4_HEADER_LENGTH) + UDP_HEADER_LENGTH;
    }

    /**
     * Writes the IP and UDP headers for a UDP payload (BTH through ICRC) of
     * {@code udpPayloadLength} bytes at {@code offset}, with a correct IPv4 header checksum and
     * UDP checksum 0 (see {@link #fillUdpChecksum}).
     *
     * @param ipv4Id        IPv4 Identification (ignored for IPv6)
     * @param trafficClass  IPv4 TOS or IPv6 traffic class byte
     * @param hopLimit      IPv4 TTL or IPv6 hop limit
     * @return the number of bytes written, {@link #length(UdpFlow)}
     */
    public static int write(MemorySegment segment, long offset, UdpFlow flow, int udpPayloadLength,
                            int ipv4Id, int trafficClass, int hopLimit) {
        int written = writeUnchecked(segment, offset, flow, udpPayloadLength, ipv4Id, trafficClass, hopLimit);
        if (!flow.isIpv6()) {
            BigEndian.u16(segment, offset + IPV4_CHECKSUM_OFFSET, ipv4HeaderChecksum(segment, offset));
        }
        return written;
    }

    /** As {@link #write} but leaves the IPv4 header checksum 0; for the ICRC, which masks it anyway. */
    static int writeUnchecked(MemorySegment segment, long offset, UdpFlow flow, int udpPayloadLength,
                              int ipv4Id, int trafficClass, int hopLimit) {
        int udpLength = UDP_HEADER_LENGTH + udpPayloadLength;
        long udp;
        if (flow.isIpv6()) {
            BigEndian.i32(segment, offset, 6 << 28 | (trafficClass & 0xFF) << 20);
            BigEndian.u16(segment, offset + 4, udpLength);
            BigEndian.u8(segment, offset + 6, PROTOCOL_UDP);
            BigEndian.u8(segment, offset + IPV6_HOP_LIMIT_OFFSET, hopLimit);
            flow.copySourceAddress(segment, offset + 8);
            flow.copyDestinationAddress(segment, offset + 24);
            udp = offset + IPV6_HEADER_LENGTH;
        } else {
            BigEndian.i32(segment, offset, 0x45 << 24 | (trafficClass & 0xFF) << 16 | (IPV4_HEADER_LENGTH + udpLength));
            BigEndian.i32(segment, offset + IPV4_ID_OFFSET, (ipv4Id & 0xFFFF) << 16 | IPV4_DONT_FRAGMENT);
            BigEndian.i32(segment, offset + IPV4_TTL_OFFSET, (hopLimit & 0xFF) << 24 | PROTOCOL_UDP << 16);
            BigEndian.i32(segment, offset + 12, flow.ipv4Source());
            BigEndian.i32(segment, offset + 16, flow.ipv4Destination());
            udp = offset + IPV4_HEADER_LENGTH;
        }
        BigEndian.i32(segment, udp, flow.sourcePort() << 16 | flow.destinationPort());
        BigEndian.i32(segment, udp + 4, udpLength << 16);
        return (int) (udp - offset) + UDP_HEADER_LENGTH;
    }

    /** The RFC 791 header checksum of the 20-byte IPv4 header at {@code offset}, skipping its checksum field. */
    public static int ipv4HeaderChecksum(MemorySegment segment, long offset) {
        long sum = 0;
        for (int i = 0; i < IPV4_HEADER_LENGTH; i += 2) {
            if (i != IPV4_CHECKSUM_OFFSET) {
                sum += BigEndian.u16(segment, offset + i);
            }
        }
        return ~fold(sum) & 0xFFFF;
    }

    /**
     * Computes and stores the UDP checksum (RFC 768 / RFC 8200 8.1) of the datagram that follows
     * the IP header at {@code ipOffset}; the whole datagram must be in {@code segment}. Returns
     * the stored value (0 is sent as 0xFFFF, since 0 means "no checksum").
     */
    public static int fillUdpChecksum(MemorySegment segment, long ipOffset) {
        boolean ipv6 = (BigEndian.u8(segment, ipOffset) >>> 4) == 6;
        long udp = ipOffset + (ipv6 ? IPV6_HEADER_LENGTH : IPV4_HEADER_LENGTH);
        int udpLength = BigEndian.u16(segment, udp + 4);
        long sum = PROTOCOL_UDP + udpLength;
        if (ipv6) {
            sum += sum16(segment, ipOffset + 8, 32);
        } else {
            sum += sum16(segment, ipOffset + 12, 8);
        }
        BigEndian.u16(segment, udp + UDP_CHECKSUM_OFFSET, 0);
        sum += sum16(segment, udp, udpLength);
        int checksum = ~fold(sum) & 0xFFFF;
        if (checksum == 0) {
            checksum = 0xFFFF;
        }
        BigEndian.u16(segment, udp + UDP_CHECKSUM_OFFSET, checksum);
        return checksum;
    }

    /** Sum of big-endian 16-bit words, the odd last byte padded with zero. */
    private static long sum16(MemorySegment segment, long offset, int length) {
        long sum = 0;
        int i = 0;
        for (; i + 4 <= length; i += 4) {
            sum += BigEndian.i32(segment, offset + i) & 0xFFFF_FFFFL;
        }
        for (; i + 2 <= length; i += 2) {
            sum += BigEndian.u16(segment, offset + i);
        }
        if (i < length) {
            sum += BigEndian.u8(segment, offset + i) << 8;
        }
        return sum;
    }

    private static int fold(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }
}
