package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;

/**
 * A 64-byte NVMe submission queue entry, the head of every command capsule (NVMe-oF 1.1,
 * 2.1; NVMe base 4.2). A flyweight: {@link #wrap} points it at a capsule without copying.
 *
 * <pre>
 *  0 opcode | 1 flags (PSDT 7:6) | 2-3 command id | 4-7 nsid (fabrics: 4 fctype)
 *  8-23 cdw2, cdw3, metadata pointer
 * 24-39 SGL descriptor 1:  24 address | 32 length (3 bytes keyed, 4 otherwise)
 *                          35 key (keyed) | 39 type 7:4, subtype 3:0
 * 40-63 cdw10..cdw15 (fabrics: type-specific fields)
 * </pre>
 */
public final class Sqe {
    public static final int BYTES = 64;

    public static final int OPCODE = 0;
    public static final int FLAGS = 1;
    public static final int COMMAND_ID = 2;
    public static final int NSID = 4;
    public static final int FCTYPE = 4;
    public static final int SGL_ADDRESS = 24;
    public static final int SGL_LENGTH = 32;
    public static final int SGL_KEY = 35;
    public static final int SGL_TYPE = 39;
    public static final int CDW10 = 40;

    /** PSDT 01b: SGLs for data, the metadata pointer a contiguous buffer; what fabrics hosts set. */
    public static final int FLAGS_PSDT_SGL = 1 << 6;
    /** The PSDT bits of the flags. */
    public static final int FLAGS_PSDT_MASK = 3 << 6;
    /** The FUSE bits of the flags: this target takes no fused commands (FUSES 0). */
    public static final int FLAGS_FUSE_MASK = 3;

    /** SGL type 0, subtype 1: a data block addressed by its offset into the capsule's data. */
    public static final int SGL_DATA_BLOCK_OFFSET = 0x01;
    /** SGL type 4, subtype 0: a keyed data block (address, length, key). */
    public static final int SGL_KEYED_DATA_BLOCK = 0x40;
    /** SGL type 4, subtype 0xF: a keyed data block whose key the response invalidates. */
    public static final int SGL_KEYED_DATA_BLOCK_INVALIDATE = 0x4f;

    private MemorySegment segment;
    private long base;

    public Sqe wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.base = offset;
        return this;
    }

    public MemorySegment segment() {
        return segment;
    }

    public void clear() {
        segment.asSlice(base, BYTES).fill((byte) 0);
    }

    public int opcode() {
        return Le.u8(segment, base + OPCODE);
    }

    public Sqe opcode(int value) {
        Le.u8(segment, base + OPCODE, value);
        return this;
    }

    public int flags() {
        return Le.u8(segment, base + FLAGS);
    }

    public Sqe flags(int value) {
        Le.u8(segment, base + FLAGS, value);
        return this;
    }

    public int commandId() {
        return Le.u16(segment, base + COMMAND_ID);
    }

    public Sqe commandId(int value) {
        Le.u16(segment, base + COMMAND_ID, value);
        return this;
    }

    public int nsid() {
        return Le.u32(segment, base + NSID);
    }

    public Sqe nsid(int value) {
        Le.u32(segment, base + NSID, value);
        return this;
    }

    public int fctype() {
        return Le.u8(segment, base + FCTYPE);
    }

    public Sqe fctype(int value) {
        Le.u8(segment, base + FCTYPE, value);
        return this;
    }

    /** Command dword {@code n}, 10 to 15. */
    public int cdw(int n) {
        return Le.u32(segment, base + CDW10 + (n - 10) * 4L);
    }

    public Sqe cdw(int n, int value) {
        Le.u32(segment, base + CDW10 + (n - 10) * 4L, value);
        return this;
    }

    /** The starting LBA of Read, Write and Write Zeroes (cdw10 and cdw11). */
    public long startLba() {
        return Le.u64(segment, base + CDW10);
    }

    public Sqe startLba(long lba) {
        Le.u64(segment, base + CDW10, lba);
        return this;
    }

    /** The number of logical blocks of Read, Write and Write Zeroes, from the 0's based cdw12 field. */
    public int blockCount() {
        return (cdw(12) & 0xffff) + 1;
    }

    public int sglType() {
        return Le.u8(segment, base + SGL_TYPE);
    }

    public long sglAddress() {
        return Le.u64(segment, base + SGL_ADDRESS);
    }

    /** The keyed descriptor's 3-byte length. */
    public int keyedLength() {
        return Le.u24(segment, base + SGL_LENGTH);
    }

    public int keyedKey() {
        return Le.u32(segment, base + SGL_KEY);
    }

    /** The unkeyed data block descriptor's 4-byte length. */
    public int blockLength() {
        return Le.u32(segment, base + SGL_LENGTH);
    }

    public Sqe keyedSgl(long address, int length, int key, boolean invalidate) {
        Le.u64(segment, base + SGL_ADDRESS, address);
        Le.u24(segment, base + SGL_LENGTH, length);
        Le.u32(segment, base + SGL_KEY, key);
        Le.u8(segment, base + SGL_TYPE, invalidate ? SGL_KEYED_DATA_BLOCK_INVALIDATE : SGL_KEYED_DATA_BLOCK);
        return this;
    }

    public Sqe inCapsuleSgl(long offset, int length) {
        Le.u64(segment, base + SGL_ADDRESS, offset);
        Le.u32(segment, base + SGL_LENGTH, length);
        segment.asSlice(base + SGL_LENGTH + 4, 3).fill((byte) 0);
        Le.u8(segment, base + SGL_TYPE, SGL_DATA_BLOCK_OFFSET);
        return this;
    }

    /** Copies the 64 bytes into {@code into} at {@code offset}. */
    public void copyTo(MemorySegment into, long offset) {
        MemorySegment.copy(segment, base, into, offset, BYTES);
    }
}
