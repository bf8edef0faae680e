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
    private final Bth bth = new Bth();
    private final Reth reth = new Reth();
    private final Aeth aeth = new Aeth();
    private final AtomicEth atomicEth = new AtomicEth();
    private final AtomicAckEth atomicAckEth = new AtomicAckEth();
    private final ImmDt immDt = new ImmDt();
    private final Ieth ieth = new Ieth();
    private final Deth deth = new Deth();
    private final Feth feth = new Feth();

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
        bth.wrap(segment, offset);
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
        wrapHeaders();
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
        if (id == Icrc.MISMATCH && opcode == Opcodes.RC_FLUSH) {
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
        return bth;
    }

    /** @throws IllegalStateException if the opcode has no RETH */
    public Reth reth() {
        require(OpcodeTable.HAS_RETH, "RETH");
        return reth;
    }

    /** @throws IllegalStateException if the opcode has no AETH */
    public Aeth aeth() {
        require(OpcodeTable.HAS_AETH, "AETH");
        return aeth;
    }

    /** @throws IllegalStateException if the opcode has no AtomicETH */
    public AtomicEth atomicEth() {
        require(OpcodeTable.HAS_ATOMIC_ETH, "AtomicETH");
        return atomicEth;
    }

    /** @throws IllegalStateException if the opcode has no AtomicAckETH */
    public AtomicAckEth atomicAckEth() {
        require(OpcodeTable.HAS_ATOMIC_ACK_ETH, "AtomicAckETH");
        return atomicAckEth;
    }

    /** @throws IllegalStateException if the opcode has no ImmDt */
    public ImmDt immDt() {
        require(OpcodeTable.HAS_IMM_DT, "ImmDt");
        return immDt;
    }

    /** @throws IllegalStateException if the opcode has no IETH */
    public Ieth ieth() {
        require(OpcodeTable.HAS_IETH, "IETH");
        return ieth;
    }

    /** @throws IllegalStateException if the opcode has no DETH */
    public Deth deth() {
        require(OpcodeTable.HAS_DETH, "DETH");
        return deth;
    }

    /** @throws IllegalStateException if the opcode has no FETH */
    public Feth feth() {
        require(OpcodeTable.HAS_FETH, "FETH");
        return feth;
    }

    private boolean drop(DropReason reason) {
        dropReason = reason;
        flags = 0;
        return false;
    }

    private void wrapHeaders() {
        int op = opcode;
        int f = flags;
        if ((f & OpcodeTable.HAS_RETH) != 0) {
            reth.wrap(segment, offset + OpcodeTable.rethOffset(op));
        }
        if ((f & OpcodeTable.HAS_AETH) != 0) {
            aeth.wrap(segment, offset + OpcodeTable.aethOffset(op));
        }
        if ((f & OpcodeTable.HAS_ATOMIC_ETH) != 0) {
            atomicEth.wrap(segment, offset + OpcodeTable.atomicEthOffset(op));
        }
        if ((f & OpcodeTable.HAS_ATOMIC_ACK_ETH) != 0) {
            atomicAckEth.wrap(segment, offset + OpcodeTable.atomicAckEthOffset(op));
        }
        if ((f & OpcodeTable.HAS_IMM_DT) != 0) {
            immDt.wrap(segment, offset + OpcodeTable.immDtOffset(op));
        }
        if ((f & OpcodeTable.HAS_IETH) != 0) {
            ieth.wrap(segment, offset + OpcodeTable.iethOffset(op));
        }
        if ((f & OpcodeTable.HAS_DETH) != 0) {
            deth.wrap(segment, offset + OpcodeTable.dethOffset(op));
        }
        if ((f & OpcodeTable.HAS_FETH) != 0) {
            feth.wrap(segment, offset + OpcodeTable.fethOffset(op));
        }
    }

    private void require(int header, String name) {
        if ((flags & header) == 0) {
            throw new IllegalStateException(Opcodes.name(opcode) + " has no " + name
                    + (flags == 0 ? " (or the last wrap failed)" : ""));
        }
    }
}
