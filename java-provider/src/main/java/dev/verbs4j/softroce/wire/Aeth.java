package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over an ACK Extended Transport Header (IBTA Vol. 1, 9.3.5), carried by
 * ACKNOWLEDGE, ATOMIC ACKNOWLEDGE and the first, last and only RDMA READ RESPONSE.
 *
 * <pre>
 *  bits   31  30 29 28        24 23                                    0
 *        +---+-----+------------+--------------------------------------+
 *  0     | 0 |Type | Value (5)  |        MSN (24 bits)                 |
 *        +---+-----+------------+--------------------------------------+
 *              \___ Syndrome ___/
 * </pre>
 *
 * <p>Syndrome types: {@code 00} ACK (value = credit count, {@link #ACK_UNLIMITED_CREDIT} when
 * the responder does not limit credits, as rxe always sends), {@code 01} RNR NAK (value =
 * minimum RNR timer code), {@code 11} NAK (value = NAK code), {@code 10} reserved. The static
 * helpers build and classify syndromes as plain ints so the engine never allocates.
 */
public final class Aeth {
    /** Size of the AETH in bytes. */
    public static final int LENGTH = 4;
    public static final int SYNDROME_OFFSET = 0;
    /** 32-bit word whose low 24 bits are the MSN. */
    public static final int MSN_OFFSET = 0;

    /** Mask of the syndrome type bits, including the reserved bit 7 (rxe {@code AETH_TYPE_MASK}). */
    public static final int TYPE_MASK = 0xE0;
    /** Mask of the 5-bit syndrome value: credit count, RNR timer or NAK code. */
    public static final int VALUE_MASK = 0x1F;
    public static final int TYPE_ACK = 0x00;
    public static final int TYPE_RNR_NAK = 0x20;
    public static final int TYPE_RESERVED = 0x40;
    public static final int TYPE_NAK = 0x60;

    /** ACK syndrome with the "invalid credit count" value: credits are not limited. */
    public static final int ACK_UNLIMITED_CREDIT = TYPE_ACK | 0x1F;
    /** NAK: PSN sequence error; implicitly ACKs earlier PSNs and makes the requester retry. */
    public static final int NAK_PSN_SEQUENCE_ERROR = TYPE_NAK | 0;
    /** NAK: invalid request (bad opcode sequence, bad length, unsupported operation). */
    public static final int NAK_INVALID_REQUEST = TYPE_NAK | 1;
    /** NAK: remote access error (R_Key, bounds or access rights). */
    public static final int NAK_REMOTE_ACCESS_ERROR = TYPE_NAK | 2;
    /** NAK: remote operational error. */
    public static final int NAK_REMOTE_OPERATIONAL_ERROR = TYPE_NAK | 3;
    /** NAK: invalid RD request (Reliable Datagram only; never sent by RC). */
    public static final int NAK_INVALID_RD_REQUEST = TYPE_NAK | 4;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the AETH that starts at {@code offset} in {@code segment}. */
    public Aeth wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.offset = offset;
        return this;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long offset() {
        return offset;
    }

    /** Writes syndrome and MSN in one store. */
    public Aeth init(int syndrome, int msn) {
        BigEndian.i32(segment, offset, (syndrome & 0xFF) << 24 | (msn & 0x00FF_FFFF));
        return this;
    }

    /** The syndrome byte (type and value). */
    public int syndrome() {
        return BigEndian.u8(segment, offset + SYNDROME_OFFSET);
    }

    public Aeth syndrome(int syndrome) {
        BigEndian.u8(segment, offset + SYNDROME_OFFSET, syndrome);
        return this;
    }

    /** Message sequence number (24 bits). */
    public int msn() {
        return BigEndian.u24(segment, offset + MSN_OFFSET);
    }

    public Aeth msn(int msn) {
        BigEndian.u24(segment, offset + MSN_OFFSET, msn);
        return this;
    }

    /** An ACK syndrome carrying {@code creditCount} (0..31, 31 = unlimited). */
    public static int ackSyndrome(int creditCount) {
        return TYPE_ACK | (creditCount & VALUE_MASK);
    }

    /** An RNR NAK syndrome carrying the 5-bit minimum RNR NAK timer code, as the IBTA RNR timer table encodes it. */
    public static int rnrNakSyndrome(int rnrTimer) {
        return TYPE_RNR_NAK | (rnrTimer & VALUE_MASK);
    }

    /** A NAK syndrome carrying one of the NAK codes 0..4. */
    public static int nakSyndrome(int nakCode) {
        return TYPE_NAK | (nakCode & VALUE_MASK);
    }

    public static boolean isAck(int syndrome) {
        return (syndrome & TYPE_MASK) == TYPE_ACK;
    }

    public static boolean isRnrNak(int syndrome) {
        return (syndrome & TYPE_MASK) == TYPE_RNR_NAK;
    }

    public static boolean isNak(int syndrome) {
        return (syndrome & TYPE_MASK) == TYPE_NAK;
    }

    /** The 5-bit value of a syndrome: credit count, RNR timer code or NAK code. */
    public static int value(int syndrome) {
        return syndrome & VALUE_MASK;
    }
}
