package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Lays out an outgoing RoCEv2 packet (the UDP payload) in a caller-owned buffer: the BTH and
 * the extension headers of one opcode at the offsets of {@link OpcodeTable}, then, once the
 * payload is in place, the pad and the ICRC.
 *
 * <pre>{@code
 * builder.start(buffer, 0, Opcodes.RC_RDMA_WRITE_FIRST);
 * builder.bth().init(Opcodes.RC_RDMA_WRITE_FIRST, false, false, 0, Bth.DEFAULT_PKEY, destQp, false, psn);
 * builder.reth().init(va, rkey, dmaLength);
 * MemorySegment.copy(source, sourceOffset, buffer, builder.payloadOffset(), mtu);
 * int udpPayloadLength = builder.finish(mtu, icrc, flow, 0);
 * }</pre>
 *
 * <p>{@link #start} zeroes the header bytes and writes the opcode, so fields left alone are 0
 * (TVer 0, reserved bits 0). {@link #layout} and {@link #finish} set the BTH pad count. One
 * instance per sending thread; it allocates nothing after construction.
 */
public final class PacketBuilder {
    private final ExtensionHeaders headers = new ExtensionHeaders();

    private MemorySegment segment;
    private long offset;
    private int opcode;
    private int flags;
    private int headerLength;

    /**
     * Starts a packet of {@code opcode} with its BTH at {@code offset}: zeroes the headers,
     * writes the opcode and positions the header flyweights.
     *
     * @throws IllegalArgumentException if the opcode is not {@link OpcodeTable#VALID}
     * @throws IndexOutOfBoundsException if the headers do not fit in the segment
     */
    public PacketBuilder start(MemorySegment segment, long offset, int opcode) {
        int opcodeFlags = OpcodeTable.flags(opcode);
        if ((opcodeFlags & OpcodeTable.VALID) == 0 || (opcode & ~0xFF) != 0) {
            throw new IllegalArgumentException("not a supported opcode: 0x" + Integer.toHexString(opcode));
        }
        this.segment = segment;
        this.offset = offset;
        this.opcode = opcode;
        this.flags = opcodeFlags;
        this.headerLength = OpcodeTable.headerLength(opcode);
        for (int i = 0; i < headerLength; i += 4) {
            BigEndian.i32(segment, offset + i, 0);
        }
        headers.bth().wrap(segment, offset).opcode(opcode);
        headers.position(segment, offset, opcode, opcodeFlags);
        return this;
    }

    public int opcode() {
        return opcode;
    }

    /** BTH plus extension headers of the opcode. */
    public int headerLength() {
        return headerLength;
    }

    /** Absolute offset in the segment where the payload goes. */
    public long payloadOffset() {
        return offset + headerLength;
    }

    /**
     * Writes the pad bytes (zero) after {@code payloadLength} payload bytes, sets the BTH pad
     * count and returns the UDP payload length including the ICRC, whose 4 bytes are left
     * for {@link Icrc#generate}.
     *
     * @throws IllegalArgumentException if the opcode carries no payload and
     *         {@code payloadLength} is not 0, or if it is negative or too large for UDP
     */
    public int layout(int payloadLength) {
        if (payloadLength < 0 || ((flags & OpcodeTable.HAS_PAYLOAD) == 0 && payloadLength != 0)) {
            throw new IllegalArgumentException(Opcodes.name(opcode) + " cannot carry " + payloadLength + " payload bytes");
        }
        int padCount = -payloadLength & 3;
        int length = headerLength + payloadLength + padCount + Icrc.LENGTH;
        if (length > 0xFFFF - IpUdpHeaders.UDP_HEADER_LENGTH) {
            throw new IllegalArgumentException("packet too long for UDP: " + length);
        }
        long pad = payloadOffset() + payloadLength;
        for (int i = 0; i < padCount; i++) {
            BigEndian.u8(segment, pad + i, 0);
        }
        headers.bth().padCount(padCount);
        return length;
    }

    /**
     * {@link #layout} and then {@link Icrc#generate}: the packet is ready to send.
     *
     * @param ipv4Id the IPv4 Identification the packet will travel with (0 from a DF socket)
     * @return the UDP payload length to send
     */
    public int finish(int payloadLength, Icrc icrc, UdpFlow flow, int ipv4Id) {
        int length = layout(payloadLength);
        icrc.generate(flow, ipv4Id, segment, offset, length);
        return length;
    }

    /** {@link #finish} with the kernel rxe's FLUSH ICRC ({@link Icrc#computeRxeFlush}). */
    public int finishRxeFlush(int payloadLength, Icrc icrc, UdpFlow flow, int ipv4Id) {
        int length = layout(payloadLength);
        icrc.generateRxeFlush(flow, ipv4Id, segment, offset, length);
        return length;
    }

    public Bth bth() {
        return headers.bth();
    }

    /** @throws IllegalStateException if the opcode has no RETH */
    public Reth reth() {
        return headers.reth();
    }

    /** @throws IllegalStateException if the opcode has no AETH */
    public Aeth aeth() {
        return headers.aeth();
    }

    /** @throws IllegalStateException if the opcode has no AtomicETH */
    public AtomicEth atomicEth() {
        return headers.atomicEth();
    }

    /** @throws IllegalStateException if the opcode has no AtomicAckETH */
    public AtomicAckEth atomicAckEth() {
        return headers.atomicAckEth();
    }

    /** @throws IllegalStateException if the opcode has no ImmDt */
    public ImmDt immDt() {
        return headers.immDt();
    }

    /** @throws IllegalStateException if the opcode has no IETH */
    public Ieth ieth() {
        return headers.ieth();
    }

    /** @throws IllegalStateException if the opcode has no DETH */
    public Deth deth() {
        return headers.deth();
    }

    /** @throws IllegalStateException if the opcode has no FETH */
    public Feth feth() {
        return headers.feth();
    }
}
