package dev.verbs4j.softroce.wire;

import static dev.verbs4j.softroce.wire.Opcodes.*;

/**
 * One row per BTH opcode byte: a flag mask, the length of the transport headers (BTH plus
 * extension headers, without payload, pad and ICRC) and the byte offset of each extension
 * header from the start of the BTH. It mirrors the Linux rxe {@code rxe_opcode[]} table
 * ({@code drivers/infiniband/sw/rxe/rxe_opcode.c}) so that every decision in the engine is a
 * mask test: {@code OpcodeTable.has(op, OpcodeTable.REQUEST | OpcodeTable.READ)}.
 *
 * <p>Rows that the Linux rxe does not implement (RD, XRC, CNP, reserved codes such as 0x15)
 * have no {@link #VALID} bit, length 0 and no headers; {@link PacketView} drops them.
 *
 * <p>Extension header order on the wire follows IBTA Vol. 1, 9.2 (DETH before ImmDt, RETH
 * before ImmDt, AETH before AtomicAckETH) and, for RDMA FLUSH, the IBTA 1.5 MPE order
 * BTH, FETH, RETH. An absent header has offset 0, which no extension header can have
 * because the BTH starts there; test the {@code HAS_*} flag before using an offset.
 */
public final class OpcodeTable {
    /** The opcode is one the engine speaks (RC, UC and UD rows implemented by rxe). */
    public static final int VALID = 1;
    /** Sent by a requester to a responder (rxe {@code RXE_REQ_MASK}). */
    public static final int REQUEST = 1 << 1;
    /** Sent by a responder back to the requester: read responses and ACKs (rxe {@code RXE_ACK_MASK}). */
    public static final int RESPONSE = 1 << 2;
    /** SEND request, any position. */
    public static final int SEND = 1 << 3;
    /** RDMA WRITE request, any position. */
    public static final int WRITE = 1 << 4;
    /** RDMA READ request. */
    public static final int READ = 1 << 5;
    /** COMPARE SWAP or FETCH ADD request. */
    public static final int ATOMIC = 1 << 6;
    /** RDMA ATOMIC WRITE request (0x1D). */
    public static final int ATOMIC_WRITE = 1 << 7;
    /** RDMA FLUSH request (0x1C). */
    public static final int FLUSH = 1 << 8;
    /** RDMA READ RESPONSE, any position. */
    public static final int READ_RESPONSE = 1 << 9;
    /** ACKNOWLEDGE or ATOMIC ACKNOWLEDGE. */
    public static final int ACKNOWLEDGE = 1 << 10;
    /** Carries immediate data (an ImmDt header). */
    public static final int IMMEDIATE = 1 << 11;
    /** SEND with invalidate (an IETH header). */
    public static final int INVALIDATE = 1 << 12;
    /** First packet of a message (rxe {@code RXE_START_MASK}); ONLY packets are FIRST and LAST. */
    public static final int FIRST = 1 << 13;
    /** Middle packet of a multi-packet message. */
    public static final int MIDDLE = 1 << 14;
    /** Last packet of a message (rxe {@code RXE_END_MASK}). */
    public static final int LAST = 1 << 15;
    /** {@code FIRST | LAST}: a single-packet message. */
    public static final int ONLY = FIRST | LAST;
    /**
     * The responder must answer with a response packet of its own rather than a coalesced
     * ACK: READ, ATOMIC, FLUSH and ATOMIC WRITE. These consume responder resources
     * ({@code max_dest_rd_atomic}) and are replayed, not re-ACKed, when they arrive again
     * (rxe {@code rxe_resp.c}).
     */
    public static final int REQUIRES_RESPONSE = 1 << 16;
    /** Consumes a receive WQE at the responder: SEND FIRST/ONLY and WRITE LAST/ONLY WITH IMM (rxe {@code RXE_RWR_MASK}). */
    public static final int CONSUMES_RECEIVE = 1 << 17;
    /** Generates a receive completion: the last packet of a SEND or of a WRITE WITH IMM (rxe {@code RXE_COMP_MASK}). */
    public static final int COMPLETES_RECEIVE = 1 << 18;
    /** Payload bytes may follow the headers (rxe {@code RXE_PAYLOAD_MASK}); without it, payload and pad must be empty. */
    public static final int HAS_PAYLOAD = 1 << 19;
    /** Reliable Connection opcode. */
    public static final int TRANSPORT_RC = 1 << 20;
    /** Unreliable Connection opcode. */
    public static final int TRANSPORT_UC = 1 << 21;
    /** Unreliable Datagram opcode. */
    public static final int TRANSPORT_UD = 1 << 22;
    /** RDMA Extended Transport Header present ({@link Reth}). */
    public static final int HAS_RETH = 1 << 23;
    /** ACK Extended Transport Header present ({@link Aeth}). */
    public static final int HAS_AETH = 1 << 24;
    /** Atomic Extended Transport Header present ({@link AtomicEth}). */
    public static final int HAS_ATOMIC_ETH = 1 << 25;
    /** Atomic ACK Extended Transport Header present ({@link AtomicAckEth}). */
    public static final int HAS_ATOMIC_ACK_ETH = 1 << 26;
    /** Immediate data present ({@link ImmDt}). */
    public static final int HAS_IMM_DT = 1 << 27;
    /** Invalidate Extended Transport Header present ({@link Ieth}). */
    public static final int HAS_IETH = 1 << 28;
    /** Datagram Extended Transport Header present ({@link Deth}). */
    public static final int HAS_DETH = 1 << 29;
    /** FLUSH Extended Transport Header present ({@link Feth}). */
    public static final int HAS_FETH = 1 << 30;

    private static final int[] FLAGS = new int[256];
    private static final byte[] HEADER_LENGTH = new byte[256];
    private static final byte[] RETH_OFFSET = new byte[256];
    private static final byte[] AETH_OFFSET = new byte[256];
    private static final byte[] ATOMIC_ETH_OFFSET = new byte[256];
    private static final byte[] ATOMIC_ACK_ETH_OFFSET = new byte[256];
    private static final byte[] IMM_DT_OFFSET = new byte[256];
    private static final byte[] IETH_OFFSET = new byte[256];
    private static final byte[] DETH_OFFSET = new byte[256];
    private static final byte[] FETH_OFFSET = new byte[256];

    static {
        int send = REQUEST | SEND | HAS_PAYLOAD;
        int write = REQUEST | WRITE | HAS_PAYLOAD;
        int sendStart = send | FIRST | CONSUMES_RECEIVE;
        int sendEnd = send | LAST | COMPLETES_RECEIVE;
        int immEnd = IMMEDIATE | COMPLETES_RECEIVE | CONSUMES_RECEIVE;
        for (int transport : new int[] {RC, UC}) {
            row(transport | 0x00, sendStart);
            row(transport | 0x01, send | MIDDLE);
            row(transport | 0x02, sendEnd);
            row(transport | 0x03, sendEnd | IMMEDIATE, HAS_IMM_DT);
            row(transport | 0x04, sendStart | sendEnd);
            row(transport | 0x05, sendStart | sendEnd | IMMEDIATE, HAS_IMM_DT);
            row(transport | 0x06, write | FIRST, HAS_RETH);
            row(transport | 0x07, write | MIDDLE);
            row(transport | 0x08, write | LAST);
            row(transport | 0x09, write | LAST | immEnd, HAS_IMM_DT);
            row(transport | 0x0A, write | ONLY, HAS_RETH);
            row(transport | 0x0B, write | ONLY | immEnd, HAS_RETH, HAS_IMM_DT);
        }
        row(RC_RDMA_READ_REQUEST, REQUEST | READ | ONLY | REQUIRES_RESPONSE, HAS_RETH);
        int readResponse = RESPONSE | READ_RESPONSE | HAS_PAYLOAD;
        row(RC_RDMA_READ_RESPONSE_FIRST, readResponse | FIRST, HAS_AETH);
        row(RC_RDMA_READ_RESPONSE_MIDDLE, readResponse | MIDDLE);
        row(RC_RDMA_READ_RESPONSE_LAST, readResponse | LAST, HAS_AETH);
        row(RC_RDMA_READ_RESPONSE_ONLY, readResponse | ONLY, HAS_AETH);
        row(RC_ACKNOWLEDGE, RESPONSE | ACKNOWLEDGE | ONLY, HAS_AETH);
        row(RC_ATOMIC_ACKNOWLEDGE, RESPONSE | ACKNOWLEDGE | ONLY, HAS_AETH, HAS_ATOMIC_ACK_ETH);
        row(RC_COMPARE_SWAP, REQUEST | ATOMIC | ONLY | REQUIRES_RESPONSE, HAS_ATOMIC_ETH);
        row(RC_FETCH_ADD, REQUEST | ATOMIC | ONLY | REQUIRES_RESPONSE, HAS_ATOMIC_ETH);
        row(RC_SEND_LAST_WITH_INV, sendEnd | INVALIDATE, HAS_IETH);
        row(RC_SEND_ONLY_WITH_INV, sendStart | sendEnd | INVALIDATE, HAS_IETH);
        row(RC_FLUSH, REQUEST | FLUSH | ONLY | REQUIRES_RESPONSE, HAS_FETH, HAS_RETH);
        row(RC_ATOMIC_WRITE, REQUEST | ATOMIC_WRITE | ONLY | REQUIRES_RESPONSE | HAS_PAYLOAD, HAS_RETH);
        row(UD_SEND_ONLY, sendStart | sendEnd, HAS_DETH);
        row(UD_SEND_ONLY_WITH_IMM, sendStart | sendEnd | IMMEDIATE, HAS_DETH, HAS_IMM_DT);
    }

    private OpcodeTable() {
    }

    /** Adds one valid row; {@code headers} are HAS_* flags in wire order after the BTH. */
    private static void row(int opcode, int flags, int... headers) {
        int transport = switch (opcode & TRANSPORT_MASK) {
            case RC -> TRANSPORT_RC;
            case UC -> TRANSPORT_UC;
            case UD -> TRANSPORT_UD;
            default -> throw new IllegalArgumentException("transport of opcode " + opcode);
        };
        int offset = Bth.LENGTH;
        int all = VALID | transport | flags;
        for (int header : headers) {
            all |= header;
            offsetTable(header)[opcode] = (byte) offset;
            offset += extensionLength(header);
        }
        FLAGS[opcode] = all;
        HEADER_LENGTH[opcode] = (byte) offset;
    }

    private static byte[] offsetTable(int header) {
        return switch (header) {
            case HAS_RETH -> RETH_OFFSET;
            case HAS_AETH -> AETH_OFFSET;
            case HAS_ATOMIC_ETH -> ATOMIC_ETH_OFFSET;
            case HAS_ATOMIC_ACK_ETH -> ATOMIC_ACK_ETH_OFFSET;
            case HAS_IMM_DT -> IMM_DT_OFFSET;
            case HAS_IETH -> IETH_OFFSET;
            case HAS_DETH -> DETH_OFFSET;
            case HAS_FETH -> FETH_OFFSET;
            default -> throw new IllegalArgumentException("not a header flag: " + header);
        };
    }

    private static int extensionLength(int header) {
        return switch (header) {
            case HAS_RETH -> Reth.LENGTH;
            case HAS_AETH -> Aeth.LENGTH;
            case HAS_ATOMIC_ETH -> AtomicEth.LENGTH;
            case HAS_ATOMIC_ACK_ETH -> AtomicAckEth.LENGTH;
            case HAS_IMM_DT -> ImmDt.LENGTH;
            case HAS_IETH -> Ieth.LENGTH;
            case HAS_DETH -> Deth.LENGTH;
            case HAS_FETH -> Feth.LENGTH;
            default -> throw new IllegalArgumentException("not a header flag: " + header);
        };
    }

    /** The flag mask of {@code opcode} (only its low 8 bits are used); 0 for unknown opcodes. */
    public static int flags(int opcode) {
        return FLAGS[opcode & 0xFF];
    }

    /** True when {@code opcode} has every bit of {@code mask}. */
    public static boolean has(int opcode, int mask) {
        return (FLAGS[opcode & 0xFF] & mask) == mask;
    }

    /** True when {@code opcode} has at least one bit of {@code mask}. */
    public static boolean hasAny(int opcode, int mask) {
        return (FLAGS[opcode & 0xFF] & mask) != 0;
    }

    /** True for opcodes the engine speaks. */
    public static boolean isValid(int opcode) {
        return (FLAGS[opcode & 0xFF] & VALID) != 0;
    }

    /** BTH plus extension headers in bytes, which is also the payload offset; 0 for unknown opcodes. */
    public static int headerLength(int opcode) {
        return HEADER_LENGTH[opcode & 0xFF];
    }

    /** Offset of the RETH from the BTH start, or 0 without {@link #HAS_RETH}. */
    public static int rethOffset(int opcode) {
        return RETH_OFFSET[opcode & 0xFF];
    }

    /** Offset of the AETH from the BTH start, or 0 without {@link #HAS_AETH}. */
    public static int aethOffset(int opcode) {
        return AETH_OFFSET[opcode & 0xFF];
    }

    /** Offset of the AtomicETH from the BTH start, or 0 without {@link #HAS_ATOMIC_ETH}. */
    public static int atomicEthOffset(int opcode) {
        return ATOMIC_ETH_OFFSET[opcode & 0xFF];
    }

    /** Offset of the AtomicAckETH from the BTH start, or 0 without {@link #HAS_ATOMIC_ACK_ETH}. */
    public static int atomicAckEthOffset(int opcode) {
        return ATOMIC_ACK_ETH_OFFSET[opcode & 0xFF];
    }

    /** Offset of the ImmDt from the BTH start, or 0 without {@link #HAS_IMM_DT}. */
    public static int immDtOffset(int opcode) {
        return IMM_DT_OFFSET[opcode & 0xFF];
    }

    /** Offset of the IETH from the BTH start, or 0 without {@link #HAS_IETH}. */
    public static int iethOffset(int opcode) {
        return IETH_OFFSET[opcode & 0xFF];
    }

    /** Offset of the DETH from the BTH start, or 0 without {@link #HAS_DETH}. */
    public static int dethOffset(int opcode) {
        return DETH_OFFSET[opcode & 0xFF];
    }

    /** Offset of the FETH from the BTH start, or 0 without {@link #HAS_FETH}. */
    public static int fethOffset(int opcode) {
        return FETH_OFFSET[opcode & 0xFF];
    }
}
