package dev.verbs4j.softroce.wire;

import java.lang.foreign.MemorySegment;

/**
 * Flyweight over a Base Transport Header (IBTA Vol. 1, 9.2), the first 12 bytes of every
 * RoCEv2 UDP payload.
 *
 * <pre>
 *  bits   31      24 23  22 21 20 19 16 15                            0
 *        +----------+---+--+-----+-----+-------------------------------+
 *  0     |  OpCode  |SE |M | Pad |TVer |            P_Key              |
 *        +--+--+----+---+--+-----+-----+-------------------------------+
 *  4     |F |B | Resv6a  |               DestQP (24 bits)              |
 *        +--+--+---------+---------------------------------------------+
 *  8     |A |  Resv7     |                PSN (24 bits)                |
 *        +--+------------+---------------------------------------------+
 * </pre>
 *
 * <p>Byte 4 (FECN, BECN and Resv6a) is what the RoCEv2 ICRC masks to 0xFF; rxe calls it
 * {@code resv8a}. It is read and written whole by {@link #resv8a()}. Getters never throw for
 * any byte values; setters mask their argument to the field width, as the kernel's
 * {@code bth_init} does. The flyweight holds no state besides the segment and offset, so one
 * instance can be re-{@link #wrap wrapped} for every packet.
 */
public final class Bth {
    /** Size of the BTH in bytes. */
    public static final int LENGTH = 12;
    public static final int OPCODE_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int PKEY_OFFSET = 2;
    /** Byte holding FECN, BECN and Resv6a; masked by the ICRC. */
    public static final int RESV8A_OFFSET = 4;
    /** 32-bit word whose low 24 bits are the destination QP. */
    public static final int DEST_QP_OFFSET = 4;
    /** 32-bit word holding AckReq (bit 31) and the PSN (low 24 bits). */
    public static final int PSN_OFFSET = 8;

    /** The only transport header version defined (rxe {@code BTH_TVER}). */
    public static final int TVER = 0;
    /** The default partition key, full membership (rxe {@code BTH_DEF_PKEY}). */
    public static final int DEFAULT_PKEY = 0xFFFF;

    private static final int SOLICITED_BIT = 0x80;
    private static final int MIG_REQ_BIT = 0x40;
    private static final int PAD_MASK = 0x30;
    private static final int TVER_MASK = 0x0F;
    private static final int FECN_BIT = 0x80;
    private static final int BECN_BIT = 0x40;
    private static final int ACK_REQ_BIT = 0x8000_0000;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at the BTH that starts at {@code offset} in {@code segment}. */
    public Bth wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.offset = offset;
        return this;
    }

    public MemorySegment segment() {
        return segment;
    }

    /** Offset of the BTH in {@link #segment()}. */
    public long offset() {
        return offset;
    }

    /**
     * Writes all twelve bytes at once, with TVer 0, FECN/BECN/Resv6a 0 and Resv7 0, as the
     * kernel's {@code bth_init} does.
     */
    public Bth init(int opcode, boolean solicited, boolean migReq, int padCount, int pkey,
                    int destQp, boolean ackReq, int psn) {
        int flags = (padCount << 4) & PAD_MASK;
        if (solicited) {
            flags |= SOLICITED_BIT;
        }
        if (migReq) {
            flags |= MIG_REQ_BIT;
        }
        BigEndian.i32(segment, offset, (opcode & 0xFF) << 24 | flags << 16 | (pkey & 0xFFFF));
        BigEndian.i32(segment, offset + DEST_QP_OFFSET, destQp & 0x00FF_FFFF);
        BigEndian.i32(segment, offset + PSN_OFFSET, (ackReq ? ACK_REQ_BIT : 0) | (psn & Psn.MASK));
        return this;
    }

    public int opcode() {
        return BigEndian.u8(segment, offset + OPCODE_OFFSET);
    }

    public Bth opcode(int opcode) {
        BigEndian.u8(segment, offset + OPCODE_OFFSET, opcode);
        return this;
    }

    /** Solicited Event bit. */
    public boolean solicited() {
        return (flagsByte() & SOLICITED_BIT) != 0;
    }

    public Bth solicited(boolean solicited) {
        return flagBit(SOLICITED_BIT, solicited);
    }

    /** MigReq bit (path migration state); RoCE leaves it 0 in rxe except on migration. */
    public boolean migReq() {
        return (flagsByte() & MIG_REQ_BIT) != 0;
    }

    public Bth migReq(boolean migReq) {
        return flagBit(MIG_REQ_BIT, migReq);
    }

    /** Number of pad bytes (0..3) between the payload and the ICRC. */
    public int padCount() {
        return (flagsByte() & PAD_MASK) >>> 4;
    }

    public Bth padCount(int padCount) {
        return flagsByte((flagsByte() & ~PAD_MASK) | ((padCount << 4) & PAD_MASK));
    }

    /** Transport header version; 0 is the only valid value. */
    public int tver() {
        return flagsByte() & TVER_MASK;
    }

    public Bth tver(int tver) {
        return flagsByte((flagsByte() & ~TVER_MASK) | (tver & TVER_MASK));
    }

    /** Partition key (16 bits). */
    public int pkey() {
        return BigEndian.u16(segment, offset + PKEY_OFFSET);
    }

    public Bth pkey(int pkey) {
        BigEndian.u16(segment, offset + PKEY_OFFSET, pkey);
        return this;
    }

    /** The whole byte 4: FECN (bit 7), BECN (bit 6) and Resv6a (bits 5..0). */
    public int resv8a() {
        return BigEndian.u8(segment, offset + RESV8A_OFFSET);
    }

    public Bth resv8a(int value) {
        BigEndian.u8(segment, offset + RESV8A_OFFSET, value);
        return this;
    }

    /** Forward explicit congestion notification bit. */
    public boolean fecn() {
        return (resv8a() & FECN_BIT) != 0;
    }

    /** Backward explicit congestion notification bit. */
    public boolean becn() {
        return (resv8a() & BECN_BIT) != 0;
    }

    /** Destination queue pair number (24 bits). */
    public int destQp() {
        return BigEndian.u24(segment, offset + DEST_QP_OFFSET);
    }

    public Bth destQp(int destQp) {
        BigEndian.u24(segment, offset + DEST_QP_OFFSET, destQp);
        return this;
    }

    /** AckReq: the requester asks for an acknowledgement of this packet. */
    public boolean ackReq() {
        return BigEndian.i32(segment, offset + PSN_OFFSET) < 0;
    }

    public Bth ackReq(boolean ackReq) {
        long at = offset + PSN_OFFSET;
        int word = BigEndian.i32(segment, at);
        BigEndian.i32(segment, at, ackReq ? word | ACK_REQ_BIT : word & ~ACK_REQ_BIT);
        return this;
    }

    /** Packet sequence number (24 bits); compare PSNs only with {@link Psn}. */
    public int psn() {
        return BigEndian.u24(segment, offset + PSN_OFFSET);
    }

    public Bth psn(int psn) {
        BigEndian.u24(segment, offset + PSN_OFFSET, psn);
        return this;
    }

    private int flagsByte() {
        return BigEndian.u8(segment, offset + FLAGS_OFFSET);
    }

    private Bth flagsByte(int value) {
        BigEndian.u8(segment, offset + FLAGS_OFFSET, value);
        return this;
    }

    private Bth flagBit(int bit, boolean set) {
        int flags = flagsByte();
        return flagsByte(set ? flags | bit : flags & ~bit);
    }
}
