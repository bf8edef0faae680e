package dev.verbs4j.softroce.cm;

import dev.verbs4j.softroce.wire.BigEndian;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The layout of a communication-management MAD (IBTA chapter 12): the 24-byte common
 * MAD header, then the message. Offsets are from the start of the MAD; fields narrower
 * than a byte count their bits from the most significant one, as the IBTA tables do.
 * Reads and writes work on a 256-byte {@link MemorySegment} in network byte order.
 */
final class CmMad {
    static final int SIZE = 256;
    static final int DATA = 24;

    // Common MAD header (IBTA 13.4.2).
    static final int BASE_VERSION = 0;
    static final int MGMT_CLASS = 1;
    static final int CLASS_VERSION = 2;
    static final int METHOD = 3;
    static final int STATUS = 4;
    static final int TID = 8;
    static final int ATTR_ID = 16;
    static final int ATTR_MOD = 20;

    static final int MGMT_BASE_VERSION = 1;
    static final int CM_CLASS = 0x07;
    static final int CM_CLASS_VERSION = 2;
    static final int METHOD_SEND = 0x03;

    // Attribute ids (IBTA table 104).
    static final int ATTR_REQ = 0x0010;
    static final int ATTR_MRA = 0x0011;
    static final int ATTR_REJ = 0x0012;
    static final int ATTR_REP = 0x0013;
    static final int ATTR_RTU = 0x0014;
    static final int ATTR_DREQ = 0x0015;
    static final int ATTR_DREP = 0x0016;

    // Both ids lead every message but REQ (whose first word is the sender's id alone).
    static final int LOCAL_COMM_ID = DATA;
    static final int REMOTE_COMM_ID = DATA + 4;

    // REQ (IBTA table 106).
    static final int REQ_SERVICE_ID = DATA + 8;
    static final int REQ_LOCAL_CA_GUID = DATA + 16;
    static final int REQ_LOCAL_QKEY = DATA + 28;
    static final int REQ_LOCAL_QPN = DATA + 32;               // 24 bits
    static final int REQ_RESPONDER_RESOURCES = DATA + 35;
    static final int REQ_LOCAL_EECN = DATA + 36;              // 24 bits
    static final int REQ_INITIATOR_DEPTH = DATA + 39;
    static final int REQ_REMOTE_EECN = DATA + 40;             // 24 bits
    static final int REQ_TIMEOUT_TYPE_FC = DATA + 43;         // remote CM response timeout:5, transport type:2, flow control:1
    static final int REQ_STARTING_PSN = DATA + 44;            // 24 bits
    static final int REQ_LOCAL_TIMEOUT_RETRY = DATA + 47;     // local CM response timeout:5, retry count:3
    static final int REQ_PKEY = DATA + 48;
    static final int REQ_MTU_RDC_RNR = DATA + 50;             // path MTU:4, RDC exists:1, RNR retry count:3
    static final int REQ_CM_RETRIES_SRQ = DATA + 51;          // max CM retries:4, SRQ:1, extended transport type:3
    static final int REQ_PRIMARY_LOCAL_LID = DATA + 52;
    static final int REQ_PRIMARY_REMOTE_LID = DATA + 54;
    static final int REQ_PRIMARY_LOCAL_GID = DATA + 56;
    static final int REQ_PRIMARY_REMOTE_GID = DATA + 72;
    static final int REQ_PRIMARY_FLOW_LABEL_RATE = DATA + 88; // flow label:20, reserved:6, packet rate:6
    static final int REQ_PRIMARY_TRAFFIC_CLASS = DATA + 92;
    static final int REQ_PRIMARY_HOP_LIMIT = DATA + 93;
    static final int REQ_PRIMARY_SL_SUBNET = DATA + 94;       // SL:4, subnet local:1
    static final int REQ_PRIMARY_ACK_TIMEOUT = DATA + 95;     // local ACK timeout:5
    static final int REQ_PRIVATE_DATA = DATA + 140;
    static final int REQ_PRIVATE_DATA_SIZE = 92;

    // MRA (IBTA table 107).
    static final int MRA_MESSAGE = DATA + 8;                  // message MRAed:2
    static final int MRA_SERVICE_TIMEOUT = DATA + 9;          // service timeout:5

    // REJ (IBTA table 108).
    static final int REJ_MESSAGE = DATA + 8;                  // message rejected:2
    static final int REJ_INFO_LENGTH = DATA + 9;              // rejected info length:7
    static final int REJ_REASON = DATA + 10;
    static final int REJ_ARI = DATA + 12;
    static final int REJ_PRIVATE_DATA = DATA + 84;
    static final int REJ_PRIVATE_DATA_SIZE = 148;

    // REP (IBTA table 110).
    static final int REP_LOCAL_QKEY = DATA + 8;
    static final int REP_LOCAL_QPN = DATA + 12;               // 24 bits
    static final int REP_LOCAL_EECN = DATA + 16;              // 24 bits
    static final int REP_STARTING_PSN = DATA + 20;            // 24 bits
    static final int REP_RESPONDER_RESOURCES = DATA + 24;
    static final int REP_INITIATOR_DEPTH = DATA + 25;
    static final int REP_ACK_DELAY_FAILOVER_FC = DATA + 26;   // target ACK delay:5, failover accepted:2, flow control:1
    static final int REP_RNR_SRQ = DATA + 27;                 // RNR retry count:3, SRQ:1
    static final int REP_LOCAL_CA_GUID = DATA + 28;
    static final int REP_PRIVATE_DATA = DATA + 36;
    static final int REP_PRIVATE_DATA_SIZE = 196;

    // RTU, DREQ, DREP (IBTA tables 111 to 113).
    static final int RTU_PRIVATE_DATA = DATA + 8;
    static final int RTU_PRIVATE_DATA_SIZE = 224;
    static final int DREQ_REMOTE_QPN = DATA + 8;              // 24 bits
    static final int DREQ_PRIVATE_DATA = DATA + 12;
    static final int DREQ_PRIVATE_DATA_SIZE = 220;
    static final int DREP_PRIVATE_DATA = DATA + 8;
    static final int DREP_PRIVATE_DATA_SIZE = 224;

    /** Which message a REJ or MRA answers (IBTA tables 107 and 108). */
    static final int MESSAGE_REQ = 0;
    static final int MESSAGE_REP = 1;
    static final int MESSAGE_OTHER = 2;

    /** Transport service types of a REQ. */
    static final int TRANSPORT_RC = 0;
    static final int TRANSPORT_UC = 1;

    static final int PERMISSIVE_LID = 0xFFFF;

    private CmMad() {
    }

    static int u8(MemorySegment mad, int offset) {
        return BigEndian.u8(mad, offset);
    }

    static void u8(MemorySegment mad, int offset, int value) {
        BigEndian.u8(mad, offset, value);
    }

    static int u16(MemorySegment mad, int offset) {
        return BigEndian.u16(mad, offset);
    }

    static void u16(MemorySegment mad, int offset, int value) {
        BigEndian.u16(mad, offset, value);
    }

    static int u32(MemorySegment mad, int offset) {
        return BigEndian.i32(mad, offset);
    }

    static void u32(MemorySegment mad, int offset, int value) {
        BigEndian.i32(mad, offset, value);
    }

    static long u64(MemorySegment mad, int offset) {
        return BigEndian.i64(mad, offset);
    }

    static void u64(MemorySegment mad, int offset, long value) {
        BigEndian.i64(mad, offset, value);
    }

    /** The upper 24 bits of the word at {@code offset} (QPNs, EECNs and PSNs). */
    static int u24(MemorySegment mad, int offset) {
        return u32(mad, offset) >>> 8;
    }

    /** Sets the upper 24 bits of the word at {@code offset}, keeping its last byte. */
    static void u24(MemorySegment mad, int offset, int value) {
        u32(mad, offset, (value & 0xFF_FFFF) << 8 | u8(mad, offset + 3));
    }

    /** {@code width} bits of the byte at {@code offset}, {@code shift} bits from its most significant one. */
    static int bits(MemorySegment mad, int offset, int shift, int width) {
        return (u8(mad, offset) >>> (8 - shift - width)) & ((1 << width) - 1);
    }

    static void bits(MemorySegment mad, int offset, int shift, int width, int value) {
        int mask = ((1 << width) - 1) << (8 - shift - width);
        u8(mad, offset, (u8(mad, offset) & ~mask) | ((value << (8 - shift - width)) & mask));
    }

    /** Clears the MAD and writes the common header of a CM SEND with {@code attributeId}. */
    static void header(MemorySegment mad, int attributeId, long transactionId) {
        mad.fill((byte) 0);
        u8(mad, BASE_VERSION, MGMT_BASE_VERSION);
        u8(mad, MGMT_CLASS, CM_CLASS);
        u8(mad, CLASS_VERSION, CM_CLASS_VERSION);
        u8(mad, METHOD, METHOD_SEND);
        u64(mad, TID, transactionId);
        u16(mad, ATTR_ID, attributeId);
    }

    /** Whether the header is that of a CM message this agent handles; else the attribute id is 0. */
    static int cmAttribute(MemorySegment mad) {
        if (u8(mad, BASE_VERSION) != MGMT_BASE_VERSION || u8(mad, MGMT_CLASS) != CM_CLASS
                || u8(mad, CLASS_VERSION) != CM_CLASS_VERSION || u8(mad, METHOD) != METHOD_SEND) {
            return 0;
        }
        int attr = u16(mad, ATTR_ID);
        return attr >= ATTR_REQ && attr <= ATTR_DREP ? attr : 0;
    }

    /** Copies {@code length} bytes of private data out of the MAD. */
    static byte[] privateData(MemorySegment mad, int offset, int length) {
        byte[] data = new byte[length];
        MemorySegment.copy(mad, ValueLayout.JAVA_BYTE, offset, data, 0, length);
        return data;
    }

    /** Copies private data into the MAD (the rest of its field stays zero). */
    static void privateData(MemorySegment mad, int offset, byte[] data) {
        MemorySegment.copy(data, 0, mad, ValueLayout.JAVA_BYTE, offset, data.length);
    }
}
