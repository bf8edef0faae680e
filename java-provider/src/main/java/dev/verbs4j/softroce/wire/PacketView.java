package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A validated, reusable view of one received RoCEv2 packet: the UDP payload from the BTH
 * through the ICRC.
 *
 * <pre>
 *  offset                                                     offset + length
 *  |  BTH  | extension headers | payload ... | pad (0..3) |  ICRC  |
 *  |&lt;----- headerLength() ---&gt;|&lt;-- payloadLength() --&gt;|          |&lt;- 4 -&gt;|
 * </pre>
 *
 * <p>{@link #wrap} checks what can be checked without the queue pair, in the order rxe does:
 * minimum length, known opcode, transport version, then the opcode's header length, pad count
 * and payload length. It never throws for malformed bytes; it returns {@code false} and
 * {@link #dropReason()} says why. {@link #checkIcrc} then verifies the ICRC against the flow
 * the packet arrived on. After a successful wrap the header accessors return flyweights
 * already positioned on the packet; they are reused by the next wrap.
 *
 * <p>One instance per receiving thread; it allocates nothing after construction.
 */
public final class PacketView {
    private final ExtensionHeaders headers = new ExtensionHeaders();

    private MemorySegment segment;
    private long offset;
    private int length;
    private int opcode;
    private int flags;
    private int headerLength;
    private int payloadLength;
    private DropReason dropReason;
    private int ipv4Id;
    private boolean rxeFlushIcrc;
    private boolean acceptRxeFlushIcrc;

    /**
     * Whether {@link #checkIcrc} also accepts a FLUSH carrying the kernel rxe's ICRC variant
     * ({@link Icrc#computeRxeFlush}); off by default. Only for a device that talks to the
     * kernel: that check is weak. A packet whose ICRC was built the IBTA way, corrupted so that
     * it reads as a FLUSH or corrupted inside a FLUSH, differs from the variant by a term of its
     * whole contents, not of the corruption alone; with the IPv4 ID recovered, 1 in 65,536 of
     * them passes, single-bit errors included, and which ones depends on bytes such as the
     * addresses and keys a run happens to use.
     */
    public void acceptRxeFlushIcrc(boolean accept) {
        acceptRxeFlushIcrc = accept;
    }

    /**
     * Points the view at the packet in {@code segment[offset, offset + length)} and validates
     * it.
     *
     * @return true when the packet is well formed; false with {@link #dropReason()} set
     * @throws IndexOutOfBoundsException if the range is not inside the segment (a caller bug,
     *         not a packet fault)
     */
    public boolean wrap(MemorySegment segment, long offset, int length) {
        Objects.checkFromIndexSize(offset, length, segment.byteSize());
        this.segment = segment;
        this.offset = offset;
        this.length = length;
        this.flags = 0;
        this.ipv4Id = 0;
        if (length < Bth.LENGTH + Icrc.LENGTH) {
            return drop(DropReason.TOO_SHORT);
        }
        Bth bth = headers.bth().wrap(segment, offset);
        opcode = bth.opcode();
        int opcodeFlags = OpcodeTable.flags(opcode);
        if ((opcodeFlags & OpcodeTable.VALID) == 0) {
            return drop(DropReason.UNKNOWN_OPCODE);
        }
        if (bth.tver() != Bth.TVER) {
            return drop(DropReason.BAD_TVER);
        }
        headerLength = OpcodeTable.headerLength(opcode);
        int afterHeaders = length - headerLength - Icrc.LENGTH;
        if (afterHeaders < 0) {
            return drop(DropReason.TOO_SHORT);
        }
        int padCount = bth.padCount();
        if ((opcodeFlags & OpcodeTable.HAS_PAYLOAD) == 0 && afterHeaders != 0) {
            return drop(DropReason.BAD_LENGTH);
        }
        if (padCount > afterHeaders || (afterHeaders & 3) != 0) {
            return drop(DropReason.BAD_PAD);
        }
        payloadLength = afterHeaders - padCount;
        flags = opcodeFlags;
        dropReason = null;
        headers.position(segment, offset, opcode, opcodeFlags);
        return true;
    }

    /**
     * Verifies the ICRC of a packet accepted by {@link #wrap}, for the flow it arrived on
     * (source = the peer, destination = our address and port). For IPv4 the Identification is
     * recovered when it is not 0; see {@link Icrc} for what that costs.
     *
     * @return true when the ICRC matches; false with {@link #dropReason()} {@link DropReason#ICRC}
     */
    public boolean checkIcrc(Icrc icrc, UdpFlow flow) {
        int id = icrc.check(flow, segment, offset, length);
        rxeFlushIcrc = false;
        if (id == Icrc.MISMATCH && opcode == Opcodes.RC_FLUSH && acceptRxeFlushIcrc) {
            // The kernel rxe covers a FLUSH's headers twice (see Icrc.computeRxeFlush).
            id = icrc.checkRxeFlush(flow, segment, offset, length);
            rxeFlushIcrc = id != Icrc.MISMATCH;
        }
        if (id == Icrc.MISMATCH) {
            return drop(DropReason.ICRC);
        }
        ipv4Id = id;
        return true;
    }

    /** Whether the last {@link #checkIcrc} matched only the kernel rxe's FLUSH ICRC variant. */
    public boolean rxeFlushIcrc() {
        return rxeFlushIcrc;
    }

    /** Why the last {@link #wrap} or {@link #checkIcrc} returned false; null after success. */
    public DropReason dropReason() {
        return dropReason;
    }

    /** The IPv4 Identification that {@link #checkIcrc} matched (0 for IPv6 and our own packets). */
    public int ipv4Id() {
        return ipv4Id;
    }

    public MemorySegment segment() {
        return segment;
    }

    /** Offset of the BTH in {@link #segment()}. */
    public long offset() {
        return offset;
    }

    /** UDP payload length: BTH through ICRC. */
    public int length() {
        return length;
    }

    public int opcode() {
        return opcode;
    }

    /** The {@link OpcodeTable} flags of the opcode; 0 when the last wrap failed. */
    public int flags() {
        return flags;
    }

    /** True when the opcode has every bit of {@code mask}. */
    public boolean has(int mask) {
        return (flags & mask) == mask;
    }

    /** BTH plus extension headers. */
    public int headerLength() {
        return headerLength;
    }

    /** Absolute offset of the payload in {@link #segment()}. */
    public long payloadOffset() {
        return offset + headerLength;
    }

    /** Payload bytes, without pad and ICRC. */
    public int payloadLength() {
        return payloadLength;
    }

    /** Absolute offset of the ICRC in {@link #segment()}. */
    public long icrcOffset() {
        return offset + length - Icrc.LENGTH;
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

    private boolean drop(DropReason reason) {
        dropReason = reason;
        flags = 0;
        headers.clear(opcode);
        return false;
    }
}
