package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;

/**
 * A 16-byte NVMe completion queue entry, the whole of a response capsule over RDMA (the
 * transport binding sends no data in it).
 *
 * <pre>
 *  0-7 command-specific result | 8-9 SQ head | 10-11 SQ id | 12-13 command id
 * 14-15 status: phase bit 0, then the status field (SC 8:1, SCT 11:9, CRD 13:12, M 14, DNR 15)
 * </pre>
 */
public final class Cqe {
    public static final int BYTES = 16;

    private static final int RESULT = 0;
    private static final int SQ_HEAD = 8;
    private static final int SQ_ID = 10;
    private static final int COMMAND_ID = 12;
    private static final int STATUS = 14;

    private MemorySegment segment;
    private long base;

    public Cqe wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.base = offset;
        return this;
    }

    /** Writes a whole entry; {@code status} is a {@link NvmeStatus} value (DNR included). */
    public void write(long result, int sqHead, int sqId, int commandId, int status) {
        Le.u64(segment, base + RESULT, result);
        Le.u16(segment, base + SQ_HEAD, sqHead);
        Le.u16(segment, base + SQ_ID, sqId);
        Le.u16(segment, base + COMMAND_ID, commandId);
        Le.u16(segment, base + STATUS, status << 1);
    }

    public long result() {
        return Le.u64(segment, base + RESULT);
    }

    public int sqHead() {
        return Le.u16(segment, base + SQ_HEAD);
    }

    public int sqId() {
        return Le.u16(segment, base + SQ_ID);
    }

    public int commandId() {
        return Le.u16(segment, base + COMMAND_ID);
    }

    /** The status field without the phase bit, comparable with {@link NvmeStatus} values. */
    public int status() {
        return Le.u16(segment, base + STATUS) >>> 1;
    }
}
