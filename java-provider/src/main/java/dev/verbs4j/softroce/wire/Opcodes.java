package dev.verbs4j.softroce.wire;

/**
 * BTH opcode numbers (IBTA Vol. 1, 9.2; FLUSH and ATOMIC WRITE from the IBTA 1.5
 * Memory Placement Extensions). The top three bits select the transport (RC 000, UC 001,
 * UD 011), the low five bits the operation. Only the rows that the Linux rxe driver
 * implements are named; {@link OpcodeTable} marks every other byte invalid.
 *
 * <p>Names follow the kernel's {@code IB_OPCODE_*} spelling with {@code IMMEDIATE} shortened
 * to {@code IMM} and {@code INVALIDATE} to {@code INV}, as Wireshark and rdma-core say them.
 */
public final class Opcodes {
    /** Transport bits for Reliable Connection (bits 7..5 = 000). */
    public static final int RC = 0x00;
    /** Transport bits for Unreliable Connection (bits 7..5 = 001). */
    public static final int UC = 0x20;
    /** Transport bits for Unreliable Datagram (bits 7..5 = 011). */
    public static final int UD = 0x60;
    /** Mask of the transport bits of an opcode. */
    public static final int TRANSPORT_MASK = 0xE0;

    public static final int RC_SEND_FIRST = 0x00;
    public static final int RC_SEND_MIDDLE = 0x01;
    public static final int RC_SEND_LAST = 0x02;
    public static final int RC_SEND_LAST_WITH_IMM = 0x03;
    public static final int RC_SEND_ONLY = 0x04;
    public static final int RC_SEND_ONLY_WITH_IMM = 0x05;
    public static final int RC_RDMA_WRITE_FIRST = 0x06;
    public static final int RC_RDMA_WRITE_MIDDLE = 0x07;
    public static final int RC_RDMA_WRITE_LAST = 0x08;
    public static final int RC_RDMA_WRITE_LAST_WITH_IMM = 0x09;
    public static final int RC_RDMA_WRITE_ONLY = 0x0A;
    public static final int RC_RDMA_WRITE_ONLY_WITH_IMM = 0x0B;
    public static final int RC_RDMA_READ_REQUEST = 0x0C;
    public static final int RC_RDMA_READ_RESPONSE_FIRST = 0x0D;
    public static final int RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
    public static final int RC_RDMA_READ_RESPONSE_LAST = 0x0F;
    public static final int RC_RDMA_READ_RESPONSE_ONLY = 0x10;
    public static final int RC_ACKNOWLEDGE = 0x11;
    public static final int RC_ATOMIC_ACKNOWLEDGE = 0x12;
    public static final int RC_COMPARE_SWAP = 0x13;
    public static final int RC_FETCH_ADD = 0x14;
    // 0x15 is reserved for RC (RESYNC exists only on RD, 0x55).
    public static final int RC_SEND_LAST_WITH_INV = 0x16;
    public static final int RC_SEND_ONLY_WITH_INV = 0x17;
    /** RDMA FLUSH: BTH + FETH + RETH, no payload (IBTA 1.5 MPE). */
    public static final int RC_FLUSH = 0x1C;
    /** RDMA ATOMIC WRITE: BTH + RETH + 8 payload bytes (IBTA 1.5 MPE). */
    public static final int RC_ATOMIC_WRITE = 0x1D;

    public static final int UC_SEND_FIRST = 0x20;
    public static final int UC_SEND_MIDDLE = 0x21;
    public static final int UC_SEND_LAST = 0x22;
    public static final int UC_SEND_LAST_WITH_IMM = 0x23;
    public static final int UC_SEND_ONLY = 0x24;
    public static final int UC_SEND_ONLY_WITH_IMM = 0x25;
    public static final int UC_RDMA_WRITE_FIRST = 0x26;
    public static final int UC_RDMA_WRITE_MIDDLE = 0x27;
    public static final int UC_RDMA_WRITE_LAST = 0x28;
    public static final int UC_RDMA_WRITE_LAST_WITH_IMM = 0x29;
    public static final int UC_RDMA_WRITE_ONLY = 0x2A;
    public static final int UC_RDMA_WRITE_ONLY_WITH_IMM = 0x2B;

    public static final int UD_SEND_ONLY = 0x64;
    public static final int UD_SEND_ONLY_WITH_IMM = 0x65;

    private static final String[] NAMES = new String[256];

    static {
        java.util.Arrays.fill(NAMES, "RESERVED");
        name(RC_SEND_FIRST, "RC SEND FIRST");
        name(RC_SEND_MIDDLE, "RC SEND MIDDLE");
        name(RC_SEND_LAST, "RC SEND LAST");
        name(RC_SEND_LAST_WITH_IMM, "RC SEND LAST WITH IMM");
        name(RC_SEND_ONLY, "RC SEND ONLY");
        name(RC_SEND_ONLY_WITH_IMM, "RC SEND ONLY WITH IMM");
        name(RC_RDMA_WRITE_FIRST, "RC RDMA WRITE FIRST");
        name(RC_RDMA_WRITE_MIDDLE, "RC RDMA WRITE MIDDLE");
        name(RC_RDMA_WRITE_LAST, "RC RDMA WRITE LAST");
        name(RC_RDMA_WRITE_LAST_WITH_IMM, "RC RDMA WRITE LAST WITH IMM");
        name(RC_RDMA_WRITE_ONLY, "RC RDMA WRITE ONLY");
        name(RC_RDMA_WRITE_ONLY_WITH_IMM, "RC RDMA WRITE ONLY WITH IMM");
        name(RC_RDMA_READ_REQUEST, "RC RDMA READ REQUEST");
        name(RC_RDMA_READ_RESPONSE_FIRST, "RC RDMA READ RESPONSE FIRST");
        name(RC_RDMA_READ_RESPONSE_MIDDLE, "RC RDMA READ RESPONSE MIDDLE");
        name(RC_RDMA_READ_RESPONSE_LAST, "RC RDMA READ RESPONSE LAST");
        name(RC_RDMA_READ_RESPONSE_ONLY, "RC RDMA READ RESPONSE ONLY");
        name(RC_ACKNOWLEDGE, "RC ACKNOWLEDGE");
        name(RC_ATOMIC_ACKNOWLEDGE, "RC ATOMIC ACKNOWLEDGE");
        name(RC_COMPARE_SWAP, "RC COMPARE SWAP");
        name(RC_FETCH_ADD, "RC FETCH ADD");
        name(RC_SEND_LAST_WITH_INV, "RC SEND LAST WITH INV");
        name(RC_SEND_ONLY_WITH_INV, "RC SEND ONLY WITH INV");
        name(RC_FLUSH, "RC FLUSH");
        name(RC_ATOMIC_WRITE, "RC ATOMIC WRITE");
        name(UC_SEND_FIRST, "UC SEND FIRST");
        name(UC_SEND_MIDDLE, "UC SEND MIDDLE");
        name(UC_SEND_LAST, "UC SEND LAST");
        name(UC_SEND_LAST_WITH_IMM, "UC SEND LAST WITH IMM");
        name(UC_SEND_ONLY, "UC SEND ONLY");
        name(UC_SEND_ONLY_WITH_IMM, "UC SEND ONLY WITH IMM");
        name(UC_RDMA_WRITE_FIRST, "UC RDMA WRITE FIRST");
        name(UC_RDMA_WRITE_MIDDLE, "UC RDMA WRITE MIDDLE");
        name(UC_RDMA_WRITE_LAST, "UC RDMA WRITE LAST");
        name(UC_RDMA_WRITE_LAST_WITH_IMM, "UC RDMA WRITE LAST WITH IMM");
        name(UC_RDMA_WRITE_ONLY, "UC RDMA WRITE ONLY");
        name(UC_RDMA_WRITE_ONLY_WITH_IMM, "UC RDMA WRITE ONLY WITH IMM");
        name(UD_SEND_ONLY, "UD SEND ONLY");
        name(UD_SEND_ONLY_WITH_IMM, "UD SEND ONLY WITH IMM");
    }

    private Opcodes() {
    }

    private static void name(int opcode, String name) {
        NAMES[opcode] = name;
    }

    /**
     * A readable name for logs and test messages, such as {@code "RC SEND ONLY"}; unknown
     * opcodes are {@code "RESERVED"}. Returns a constant, so it does not allocate.
     */
    public static String name(int opcode) {
        return NAMES[opcode & 0xFF];
    }
}
