package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;

/**
 * The fabrics Connect command's fields and its 1024-byte data (NVMe-oF 1.1, 3.3).
 *
 * <pre>
 * command: 40 recfmt | 42 qid | 44 sqsize (0's based) | 46 cattr | 48 kato (ms)
 * data:     0 hostid (16) | 16 cntlid | 256 subnqn (256) | 512 hostnqn (256)
 * response: result bits 15:0 the controller id; on Invalid Parameters, IPO (the offset
 *           of the bad field) in bits 15:0 and IATTR (1: in the data) in bits 23:16
 * </pre>
 */
public final class Connect {
    public static final int RECFMT = 40;
    public static final int QID = 42;
    public static final int SQSIZE = 44;
    public static final int CATTR = 46;
    public static final int KATO = 48;

    public static final int DATA_BYTES = 1024;
    public static final int DATA_HOSTID = 0;
    public static final int DATA_CNTLID = 16;
    public static final int DATA_SUBNQN = 256;
    public static final int DATA_HOSTNQN = 512;
    public static final int NQN_BYTES = 256;

    /** A Connect's cntlid asking for any new controller (dynamic model). */
    public static final int CNTLID_DYNAMIC = 0xffff;

    private Connect() {
    }

    public static int recfmt(MemorySegment sqe) {
        return Le.u16(sqe, RECFMT);
    }

    public static int qid(MemorySegment sqe) {
        return Le.u16(sqe, QID);
    }

    public static int sqsize(MemorySegment sqe) {
        return Le.u16(sqe, SQSIZE);
    }

    /** KATO in milliseconds: an unsigned 32-bit count. */
    public static long kato(MemorySegment sqe) {
        return Le.u32(sqe, KATO) & 0xffffffffL;
    }

    public static void command(MemorySegment sqe, int qid, int sqsize, int katoMs) {
        Le.u16(sqe, RECFMT, 0);
        Le.u16(sqe, QID, qid);
        Le.u16(sqe, SQSIZE, sqsize);
        Le.u8(sqe, CATTR, 0);
        Le.u32(sqe, KATO, katoMs);
    }

    public static void data(MemorySegment data, long offset, byte[] hostId, int cntlid, String subnqn, String hostnqn) {
        data.asSlice(offset, DATA_BYTES).fill((byte) 0);
        MemorySegment.copy(MemorySegment.ofArray(hostId), 0, data, offset + DATA_HOSTID, 16);
        Le.u16(data, offset + DATA_CNTLID, cntlid);
        Le.ascii(data, offset + DATA_SUBNQN, NQN_BYTES, subnqn, (byte) 0);
        Le.ascii(data, offset + DATA_HOSTNQN, NQN_BYTES, hostnqn, (byte) 0);
    }

    /** The result of a Connect refused for the field at {@code offset} of the command. */
    public static long invalidCommandField(int offset) {
        return offset;
    }

    /** The result of a Connect refused for the field at {@code offset} of its data. */
    public static long invalidDataField(int offset) {
        return 1L << 16 | offset;
    }
}
