package dev.verbs4j.conformance.access;

import dev.verbs4j.Access;
import dev.verbs4j.DeviceCapability;
import dev.verbs4j.OdpTransportCapability;
import dev.verbs4j.WrOpcode;
import dev.verbs4j.conformance.fixture.RcSpec;
import dev.verbs4j.conformance.fixture.Require;
import dev.verbs4j.conformance.fixture.Testbed;

import java.util.EnumSet;
import java.util.Set;

/** The remote operations of the matrix: what each needs of the key, the device and the queue pairs. */
enum Operation {
    WRITE("write", "RDMA WRITE", Access.REMOTE_WRITE, Shape.RANGE, OdpTransportCapability.WRITE),
    WRITE_WITH_IMM("writeImm", "RDMA WRITE with immediate", Access.REMOTE_WRITE, Shape.RANGE, OdpTransportCapability.WRITE),
    READ("read", "RDMA READ", Access.REMOTE_READ, Shape.RANGE, OdpTransportCapability.READ),
    COMPARE_SWAP("compareSwap", "compare-and-swap", Access.REMOTE_ATOMIC, Shape.EIGHT_BYTES, OdpTransportCapability.ATOMIC),
    FETCH_ADD("fetchAdd", "fetch-and-add", Access.REMOTE_ATOMIC, Shape.EIGHT_BYTES, OdpTransportCapability.ATOMIC),
    /** IBTA 1.5 ATOMIC WRITE needs remote write on the key (rxe check_rkey asks IB_ACCESS_REMOTE_WRITE). */
    ATOMIC_WRITE("atomicWrite", "ATOMIC WRITE", Access.REMOTE_WRITE, Shape.EIGHT_BYTES, OdpTransportCapability.ATOMIC_WRITE),
    FLUSH_RANGE("flushRange", "FLUSH of a range", Access.FLUSH_GLOBAL, Shape.RANGE, OdpTransportCapability.FLUSH),
    FLUSH_REGION("flushRegion", "FLUSH of the whole region", Access.FLUSH_GLOBAL, Shape.WHOLE_REGION, OdpTransportCapability.FLUSH),
    /**
     * The access is the invalidation of the key the IETH names. The check after a refused
     * invalidation writes through the key, so an on-demand key needs ODP writes.
     */
    SEND_WITH_INV("sendInv", "SEND_WITH_INV", null, Shape.KEY, OdpTransportCapability.WRITE);

    /** What a request names besides its key. */
    enum Shape {
        /** An address and a length, checked against the granted range. */
        RANGE,
        /** 8 aligned bytes (atomics). */
        EIGHT_BYTES,
        /** An address and a length the responder ignores: the whole region behind the key. */
        WHOLE_REGION,
        /** Only a key. */
        KEY
    }

    private final String id;
    private final String label;
    private final Access right;
    private final Shape shape;
    private final OdpTransportCapability odpNeed;

    Operation(String id, String label, Access right, Shape shape, OdpTransportCapability odpNeed) {
        this.id = id;
        this.label = label;
        this.right = right;
        this.shape = shape;
        this.odpNeed = odpNeed;
    }

    String id() {
        return id;
    }

    String label() {
        return label;
    }

    /** The right the key must grant, or null for SEND_WITH_INV. */
    Access right() {
        return right;
    }

    Shape shape() {
        return shape;
    }

    boolean isFlush() {
        return right == Access.FLUSH_GLOBAL;
    }

    /** The On-Demand Paging transport capability an on-demand key needs for this operation. */
    OdpTransportCapability odpNeed() {
        return odpNeed;
    }

    /**
     * C9-88: an RDMA READ or WRITE whose DMA length is zero is not checked against its
     * R_Key or address (rxe check_rkey returns before the lookup). FLUSH and atomics are.
     */
    boolean zeroLengthUnchecked() {
        return this == WRITE || this == WRITE_WITH_IMM || this == READ;
    }

    /** Whether a successful request consumes a receive at the responder. */
    boolean consumesReceive() {
        return this == WRITE_WITH_IMM || this == SEND_WITH_INV;
    }

    /** The work request opcode that carries the operation. */
    WrOpcode wrOpcode() {
        return switch (this) {
            case WRITE -> WrOpcode.RDMA_WRITE;
            case WRITE_WITH_IMM -> WrOpcode.RDMA_WRITE_WITH_IMM;
            case READ -> WrOpcode.RDMA_READ;
            case COMPARE_SWAP -> WrOpcode.ATOMIC_CMP_AND_SWP;
            case FETCH_ADD -> WrOpcode.ATOMIC_FETCH_AND_ADD;
            case ATOMIC_WRITE -> WrOpcode.ATOMIC_WRITE;
            case FLUSH_RANGE, FLUSH_REGION -> WrOpcode.FLUSH;
            case SEND_WITH_INV -> WrOpcode.SEND_WITH_INV;
        };
    }

    /** Every right a key grants for this operation: the three remote rights, and FLUSH_GLOBAL for a FLUSH. */
    Set<Access> keyRights() {
        Set<Access> rights = EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
        if (isFlush()) {
            rights.add(Access.FLUSH_GLOBAL);
        }
        return rights;
    }

    /** Skips unless both devices can carry the operation. */
    void require(Testbed bed) {
        switch (this) {
            case COMPARE_SWAP, FETCH_ADD -> Require.atomics(bed);
            case WRITE_WITH_IMM -> Require.infinibandTransport(bed, "immediate data (RDMAP of RFC 5040 carries none)");
            case ATOMIC_WRITE -> Require.capabilities(bed, DeviceCapability.ATOMIC_WRITE);
            case FLUSH_RANGE, FLUSH_REGION -> Require.capabilities(bed, DeviceCapability.FLUSH_GLOBAL);
            default -> {
            }
        }
    }

    /** Queue pairs that may post and accept the operation; a FLUSH needs the placement type in their access. */
    RcSpec spec() {
        RcSpec spec = new RcSpec();
        if (this == ATOMIC_WRITE) {
            spec.allow(WrOpcode.ATOMIC_WRITE);
        } else if (isFlush()) {
            spec.allow(WrOpcode.FLUSH).qpAccess(EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                    Access.REMOTE_ATOMIC, Access.FLUSH_GLOBAL));
        }
        return spec;
    }
}
