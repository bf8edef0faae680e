package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * The BTH and extension-header flyweights of one packet, positioned at the offsets
 * {@link OpcodeTable} gives for its opcode. An accessor for a header the opcode does not
 * carry throws, so a caller cannot read or write bytes that belong to another header or to
 * the payload. Shared by {@link PacketBuilder} and {@link PacketView}; allocates nothing
 * after construction.
 */
final class ExtensionHeaders {
    private final Bth bth = new Bth();
    private final Reth reth = new Reth();
    private final Aeth aeth = new Aeth();
    private final AtomicEth atomicEth = new AtomicEth();
    private final AtomicAckEth atomicAckEth = new AtomicAckEth();
    private final ImmDt immDt = new ImmDt();
    private final Ieth ieth = new Ieth();
    private final Deth deth = new Deth();
    private final Feth feth = new Feth();

    private int opcode;
    private int flags;

    /** Positions the headers {@code opcodeFlags} says the opcode carries, after the BTH at {@code offset}. */
    void position(MemorySegment segment, long offset, int opcode, int opcodeFlags) {
        this.opcode = opcode;
        this.flags = opcodeFlags;
        if ((opcodeFlags & OpcodeTable.HAS_RETH) != 0) {
            reth.wrap(segment, offset + OpcodeTable.rethOffset(opcode));
        }
        if ((opcodeFlags & OpcodeTable.HAS_AETH) != 0) {
            aeth.wrap(segment, offset + OpcodeTable.aethOffset(opcode));
        }
        if ((opcodeFlags & OpcodeTable.HAS_ATOMIC_ETH) != 0) {
            atomicEth.wrap(segment, offset + OpcodeTable.atomicEthOffset(opcode));
        }
        if ((opcodeFlags & OpcodeTable.HAS_ATOMIC_ACK_ETH) != 0) {
            atomicAckEth.wrap(segment, offset + OpcodeTable.atomicAckEthOffset(opcode));
        }
        if ((opcodeFlags & OpcodeTable.HAS_IMM_DT) != 0) {
            immDt.wrap(segment, offset + OpcodeTable.immDtOffset(opcode));
        }
        if ((opcodeFlags & OpcodeTable.HAS_IETH) != 0) {
            ieth.wrap(segment, offset + OpcodeTable.iethOffset(opcode));
        }
        if ((opcodeFlags & OpcodeTable.HAS_DETH) != 0) {
            deth.wrap(segment, offset + OpcodeTable.dethOffset(opcode));
        }
        if ((opcodeFlags & OpcodeTable.HAS_FETH) != 0) {
            feth.wrap(segment, offset + OpcodeTable.fethOffset(opcode));
        }
    }

    /** No extension header of {@code opcode} is available (a packet that failed validation). */
    void clear(int opcode) {
        this.opcode = opcode;
        this.flags = 0;
    }

    Bth bth() {
        return bth;
    }

    Reth reth() {
        require(OpcodeTable.HAS_RETH, "RETH");
        return reth;
    }

    Aeth aeth() {
        require(OpcodeTable.HAS_AETH, "AETH");
        return aeth;
    }

    AtomicEth atomicEth() {
        require(OpcodeTable.HAS_ATOMIC_ETH, "AtomicETH");
        return atomicEth;
    }

    AtomicAckEth atomicAckEth() {
        require(OpcodeTable.HAS_ATOMIC_ACK_ETH, "AtomicAckETH");
        return atomicAckEth;
    }

    ImmDt immDt() {
        require(OpcodeTable.HAS_IMM_DT, "ImmDt");
        return immDt;
    }

    Ieth ieth() {
        require(OpcodeTable.HAS_IETH, "IETH");
        return ieth;
    }

    Deth deth() {
        require(OpcodeTable.HAS_DETH, "DETH");
        return deth;
    }

    Feth feth() {
        require(OpcodeTable.HAS_FETH, "FETH");
        return feth;
    }

    private void require(int header, String name) {
        if ((flags & header) == 0) {
            throw new IllegalStateException(Opcodes.name(opcode) + " has no " + name
                    + (flags == 0 ? " (or the last wrap failed)" : ""));
        }
    }
}
