package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32;

/**
 * The RoCEv2 invariant CRC (IBTA Vol. 1 Annex A17), computed and checked exactly as the
 * Linux rxe does ({@code drivers/infiniband/sw/rxe/rxe_icrc.c}).
 *
 * <p>The CRC is CRC-32 (reflected, polynomial 0xEDB88320, as {@link CRC32}) over a pseudo
 * packet whose variant fields are replaced by ones:
 * <ol>
 *   <li>8 bytes of 0xFF standing for the LRH that RoCEv2 does not have (this is why rxe seeds
 *       its CRC with 0xdebb20e3: the CRC register after those 8 bytes);</li>
 *   <li>the IP header with IPv4 TOS, TTL and header checksum, or IPv6 traffic class, flow
 *       label and hop limit, set to ones;</li>
 *   <li>the UDP header with its checksum set to 0xFFFF;</li>
 *   <li>the BTH with byte 4 (FECN, BECN, Resv6a: rxe's {@code resv8a}) set to 0xFF;</li>
 *   <li>the remaining transport headers, the payload and the pad, unchanged.</li>
 * </ol>
 * The result is stored as the one's complement of the CRC register (which is what
 * {@link CRC32#getValue()} returns), least significant byte first, in the last 4 bytes of the
 * UDP payload.
 *
 * <p>A user-space engine receives only the UDP payload, so the IP and UDP headers are
 * synthesized from a {@link UdpFlow} and the UDP payload length, as rxe builds them: IPv4
 * without options and with Don't Fragment, IPv6 without extension headers.
 *
 * <p>The CRC is affine over GF(2), so the pseudo packet's CRC is the CRC32 of the packet's own
 * bytes (BTH through payload) XOR a term that depends only on the flow and the length: what
 * the pseudo headers and the mask of BTH byte 4 add. Each flow keeps the terms of the
 * lengths it carries ({@code IcrcTerms}), so a packet costs one pass of the CRC32 over its
 * own bytes. A packet whose BTH byte 4 is not zero (ECN marks) takes the long way, the CRC32
 * of the pseudo packet itself.
 *
 * <h2>The IPv4 Identification field</h2>
 * The ICRC does not mask the IPv4 Identification, and a UDP socket cannot see it. Our own
 * sender uses a socket with {@code IP_PMTUDISC_DO}, for which Linux sends ID 0, so
 * {@link #generate} takes the ID as a parameter (0 in practice). The kernel rxe, however,
 * fills the ID from {@code __ip_select_ident()}, a hashed value no receiver can predict. So
 * {@link #check} first tries ID 0 and, if that fails, recovers the ID: the CRC is affine over
 * GF(2), so the difference between the received ICRC and the ICRC for ID 0 is the ID's 16 bits
 * multiplied by x^k modulo the CRC polynomial, where k depends only on the packet length.
 * Multiplying the difference by x^-k gives back a polynomial that must fit in 16 bits; if it
 * does, it is the ID. One 32x32-bit carry-less multiplication per check, with x^-k cached per
 * packet length in a table shared by all instances (65,536 ints, filled lazily); for the
 * lengths that keep coming, four lookups in tables of the instance ({@link Ipv4IdTables}).
 *
 * <p><b>Strength:</b> this reduces the check of a foreign IPv4 packet to 16 effective bits: of
 * the 2^32 possible differences, 2^16 are explained by some ID, so a random corruption passes
 * with probability 2^-16 instead of 2^-32. That is the price of checking packets whose IP
 * header we never see. A soft sender's own packets take that price too when they leave in a
 * segmented run: the kernel numbers a run's datagrams 0, 1, 2, ..., and the sender changes
 * each one's ICRC for its ID ({@link #changeIpv4Id}); on a network, each datagram's UDP
 * checksum and the link's frame check still cover it. Single-bit errors are still always caught in any realistic packet: the
 * nearest bit that an ID change can imitate lies 214,135 bit positions after the ID field, that
 * is beyond a UDP payload of about 26,700 bytes. Packets that match with ID 0 (ours) and all
 * IPv6 checks keep the full 32-bit strength. The check also assumes Don't Fragment set and no
 * IP options, as rxe sends; other IPv4 packets fail it.
 *
 * <p>An instance holds scratch buffers and a {@link CRC32}; it is not thread-safe. Use one per
 * engine thread. Packets must be in native segments or segments backed by a {@code byte[]}
 * (the CRC is fed through a {@link java.nio.ByteBuffer} view so that the JDK's CRC32 intrinsic
 * runs); no method allocates once the packet buffers have been seen (see
 * the package-private {@code ByteBufferViews}).
 */
public final class Icrc {
    /** Size of the ICRC in bytes. */
    public static final int LENGTH = 4;
    /** Returned by {@link #check} when no IPv4 ID (or, for IPv6, the packet itself) explains the ICRC. */
    public static final int MISMATCH = -1;

    private static final int MASKED_LRH_LENGTH = 8;
    private static final int MAX_PSEUDO_LENGTH = MASKED_LRH_LENGTH + IpUdpHeaders.IPV6_HEADER_LENGTH
            + IpUdpHeaders.UDP_HEADER_LENGTH + Bth.LENGTH;

    /** x^-248: with x^(8 * length + 176), the shift over a packet's bytes after BTH byte 4 ({@link #variantTerm}). */
    private static final int UNSHIFT_248 = Ipv4IdRecovery.inversePowerOfX(248);

    private final byte[] pseudo = new byte[MAX_PSEUDO_LENGTH];
    private final MemorySegment pseudoSegment = MemorySegment.ofArray(pseudo);
    private final CRC32 crc = new CRC32();
    private final ByteBufferViews views = new ByteBufferViews();
    private final Ipv4IdTables idTables = new Ipv4IdTables();

    public Icrc() {
        for (int i = 0; i < MASKED_LRH_LENGTH; i++) {
            pseudo[i] = (byte) 0xFF;
        }
    }

    /**
     * The ICRC of the packet whose BTH starts at {@code offset} and whose UDP payload (BTH
     * through ICRC) is {@code length} bytes, as the little-endian int to store in its last 4
     * bytes. The packet's own ICRC bytes are not read.
     *
     * @param ipv4Id the IPv4 Identification the packet travels with (ignored for IPv6)
     * @throws IllegalArgumentException if {@code length} cannot hold a BTH and an ICRC
     */
    public int compute(UdpFlow flow, int ipv4Id, MemorySegment packet, long offset, int length) {
        checkLength(length);
        if (BigEndian.u8(packet, offset + Bth.RESV8A_OFFSET) != 0) {
            return computeOverPseudoPacket(flow, ipv4Id, packet, offset, length);
        }
        long entry = flow.icrcTerms.entry(length);
        int term = IcrcTerms.holds(entry, length) ? (int) entry : flow.icrcTerms.keep(length, variantTerm(flow, length));
        crc.reset();
        crc.update(views.view(packet, offset, length - LENGTH));
        int icrc = (int) crc.getValue() ^ term;
        return ipv4Id == 0 || flow.isIpv6() ? icrc : icrc ^ idTables.difference(ipv4Id, length);
    }

    /**
     * The ICRC the long way: the CRC32 of the pseudo packet itself, every variant field
     * replaced. {@link #compute} takes it for packets whose BTH byte 4 is not zero.
     */
    int computeOverPseudoPacket(UdpFlow flow, int ipv4Id, MemorySegment packet, long offset, int length) {
        checkLength(length);
        int pseudoLength = writePseudoHeaders(flow, ipv4Id, packet, offset, length);
        crc.reset();
        crc.update(pseudo, 0, pseudoLength);
        int rest = length - Bth.LENGTH - LENGTH;
        if (rest > 0) {
            crc.update(views.view(packet, offset + Bth.LENGTH, rest));
        }
        return (int) crc.getValue();
    }

    /**
     * What turns the CRC32 of a packet's bytes (BTH through payload, BTH byte 4 zero) into its
     * ICRC with IPv4 ID 0, for packets of {@code length} on {@code flow}. The CRC is affine, so
     * that difference depends on the pseudo headers and the length only: it is the CRC
     * register after the pseudo headers (as {@link CRC32#getValue} gives it, the register
     * XOR ones), carried through BTH bytes 0 to 3 as zeros and byte 4 as the 0xFF that masks
     * it, then shifted over the packet's remaining {@code length - 9} bytes.
     */
    private int variantTerm(UdpFlow flow, int length) {
        int prefixLength = MASKED_LRH_LENGTH + writeMaskedIpUdp(flow, 0, length);
        crc.reset();
        crc.update(pseudo, 0, prefixLength);
        int register = (int) crc.getValue();
        for (int i = 0; i < Bth.RESV8A_OFFSET; i++) {
            register = Ipv4IdRecovery.feedByte(register, 0);
        }
        register = Ipv4IdRecovery.feedByte(register, 0xFF);
        // x^(8 * (length - 9)) = x^(8 * length + 176) * x^-248, the first from the shared table.
        return Ipv4IdRecovery.multiply(Ipv4IdRecovery.multiply(register, UNSHIFT_248), Ipv4IdRecovery.shiftFactor(length));
    }

    private static void checkLength(int length) {
        if (length < Bth.LENGTH + LENGTH || length > 0xFFFF - IpUdpHeaders.UDP_HEADER_LENGTH) {
            throw new IllegalArgumentException("RoCEv2 UDP payload length out of range: " + length);
        }
    }

    /**
     * The ICRC the Linux kernel's rxe computes for an RDMA FLUSH: its opcode table gives FLUSH
     * no payload offset, so after the headers the CRC runs over the whole packet once more,
     * from the (unmasked) BTH to the ICRC. The IBTA ICRC covers every byte once; this variant
     * exists only so a soft device can talk FLUSH with the kernel (a kernel finding).
     */
    public int computeRxeFlush(UdpFlow flow, int ipv4Id, MemorySegment packet, long offset, int length) {
        computeOverPseudoPacket(flow, ipv4Id, packet, offset, length);
        crc.update(views.view(packet, offset, length - LENGTH));
        return (int) crc.getValue();
    }

    /** Stores {@link #computeRxeFlush} in the packet's last 4 bytes. */
    public void generateRxeFlush(UdpFlow flow, int ipv4Id, MemorySegment packet, long offset, int length) {
        packet.set(BigEndian.LE32, offset + length - LENGTH, computeRxeFlush(flow, ipv4Id, packet, offset, length));
    }

    /** {@link #check} for the kernel rxe's FLUSH ICRC ({@link #computeRxeFlush}). */
    public int checkRxeFlush(UdpFlow flow, MemorySegment packet, long offset, int length) {
        int computed = computeRxeFlush(flow, 0, packet, offset, length);
        int received = packet.get(BigEndian.LE32, offset + length - LENGTH);
        if (computed == received) {
            return 0;
        }
        if (flow.isIpv6()) {
            return MISMATCH;
        }
        // The ID sits as far from the end as if the packet were longer by the repeated bytes.
        return Ipv4IdRecovery.recover(received ^ computed, length + length - LENGTH);
    }

    /** Computes the ICRC and stores it, little-endian, in the last 4 bytes of the packet. */
    public void generate(UdpFlow flow, int ipv4Id, MemorySegment packet, long offset, int length) {
        int icrc = compute(flow, ipv4Id, packet, offset, length);
        packet.set(BigEndian.LE32, offset + length - LENGTH, icrc);
    }

    /**
     * Checks the ICRC of a received packet. For IPv4 it returns the Identification that makes
     * the ICRC match: 0 for packets sent with ID 0 (our own), the recovered ID for packets from
     * the kernel rxe; see the class comment for what this costs in strength. For IPv6 it
     * returns 0 when the ICRC matches.
     *
     * @return the matching IPv4 ID (0..65535), 0 for a good IPv6 packet, or {@link #MISMATCH}
     * @throws IllegalArgumentException if {@code length} cannot hold a BTH and an ICRC
     */
    public int check(UdpFlow flow, MemorySegment packet, long offset, int length) {
        int computed = compute(flow, 0, packet, offset, length);
        int received = packet.get(BigEndian.LE32, offset + length - LENGTH);
        if (computed == received) {
            return 0;
        }
        if (flow.isIpv6()) {
            return MISMATCH;
        }
        return idTables.recover(received ^ computed, length);
    }

    /**
     * Turns the ICRC of the IPv4 packet {@code datagram[0, length)} (a whole UDP payload, BTH
     * through ICRC) from the one for the Identification it was computed with into the one for
     * that ID XOR {@code idChange}: a packet built for ID 0 then travels with ID
     * {@code idChange}, as the kernel numbers the datagrams it cuts from one segmented send
     * (0, 1, 2, ...). Applied twice with the same change, the packet is as before. Not for the
     * kernel rxe's FLUSH ICRC ({@link #computeRxeFlush}), where the ID lies farther from the end.
     * The product for the change comes from {@code tables}, the caller's own.
     */
    public static void changeIpv4Id(MemorySegment datagram, int length, int idChange, Ipv4IdTables tables) {
        long at = length - LENGTH;
        datagram.set(BigEndian.LE32, at, datagram.get(BigEndian.LE32, at) ^ tables.difference(idChange, length));
    }

    private int writePseudoHeaders(UdpFlow flow, int ipv4Id, MemorySegment packet, long offset, int length) {
        int at = MASKED_LRH_LENGTH + writeMaskedIpUdp(flow, ipv4Id, length);
        MemorySegment.copy(packet, offset, pseudoSegment, at, Bth.LENGTH);
        pseudo[at + Bth.RESV8A_OFFSET] = (byte) 0xFF;
        return at + Bth.LENGTH;
    }

    /** Writes the IP and UDP headers of the pseudo packet, their variant fields set to ones, after its LRH. @return their length */
    private int writeMaskedIpUdp(UdpFlow flow, int ipv4Id, int length) {
        int at = MASKED_LRH_LENGTH;
        int written = IpUdpHeaders.writeUnchecked(pseudoSegment, at, flow, length, ipv4Id, 0xFF, 0xFF);
        if (flow.isIpv6()) {
            BigEndian.i32(pseudoSegment, at, 0x6FFF_FFFF); // version 6, traffic class and flow label all ones
        } else {
            BigEndian.u16(pseudoSegment, at + IpUdpHeaders.IPV4_CHECKSUM_OFFSET, 0xFFFF);
        }
        BigEndian.u16(pseudoSegment, at + written - IpUdpHeaders.UDP_HEADER_LENGTH + IpUdpHeaders.UDP_CHECKSUM_OFFSET, 0xFFFF);
        return written;
    }
}
