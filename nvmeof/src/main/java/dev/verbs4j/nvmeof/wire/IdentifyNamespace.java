package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;

/**
 * The 4096-byte Identify Namespace data structure (CNS 00h) with one LBA format, and the
 * Namespace Identification Descriptor list (CNS 03h) with its UUID and its NGUID.
 *
 * <pre>
 * 0 NSZE | 8 NCAP | 16 NUSE | 25 NLBAF (0's based) | 26 FLBAS | 104 NGUID (16)
 * 128 LBA format 0: 0 MS (2) | 2 LBADS (log2 block size) | 3 RP
 * </pre>
 */
public final class IdentifyNamespace {
    public static final int BYTES = 4096;
    public static final int NSZE = 0;
    public static final int NCAP = 8;
    public static final int NUSE = 16;
    public static final int NLBAF = 25;
    public static final int FLBAS = 26;
    /** DLFEAT: bits 2:0 say what a deallocated block reads as; 001b, zeroes. */
    public static final int DLFEAT = 33;
    public static final int DLFEAT_READS_ZEROES = 1;
    public static final int NGUID = 104;
    public static final int LBAF0 = 128;
    /** Namespace identifier type 2: a 16-byte NGUID. */
    public static final int NIDT_NGUID = 2;
    /** Namespace identifier type 3: a 16-byte UUID. */
    public static final int NIDT_UUID = 3;
    /** A descriptor: NIDT (1), NIDL (1), reserved (2), then NIDL bytes of identifier. */
    private static final int DESCRIPTOR_HEADER = 4;

    private IdentifyNamespace() {
    }

    public static void write(MemorySegment out, long offset, long blocks, int blockShift, byte[] nguid) {
        MemorySegment s = out.asSlice(offset, BYTES);
        s.fill((byte) 0);
        Le.u64(s, NSZE, blocks);
        Le.u64(s, NCAP, blocks);
        Le.u64(s, NUSE, blocks);
        Le.u8(s, NLBAF, 0);
        Le.u8(s, FLBAS, 0);
        Le.u8(s, DLFEAT, DLFEAT_READS_ZEROES);
        MemorySegment.copy(MemorySegment.ofArray(nguid), 0, s, NGUID, 16);
        Le.u8(s, LBAF0 + 2, blockShift);
    }

    public static long blocks(MemorySegment s, long offset) {
        return Le.u64(s, offset + NSZE);
    }

    public static int blockShift(MemorySegment s, long offset) {
        int format = Le.u8(s, offset + FLBAS) & 0xf;
        return Le.u8(s, offset + LBAF0 + format * 4L + 2);
    }

    /**
     * The descriptor list: the UUID's, then the NGUID's, then zeroes, which end the list.
     * Both identifiers are 16 bytes, the UUID's in the order the UUID reads.
     */
    public static void writeDescriptors(MemorySegment out, long offset, byte[] uuid, byte[] nguid) {
        MemorySegment s = out.asSlice(offset, BYTES);
        s.fill((byte) 0);
        long at = descriptor(s, 0, NIDT_UUID, uuid);
        descriptor(s, at, NIDT_NGUID, nguid);
    }

    private static long descriptor(MemorySegment s, long at, int type, byte[] id) {
        Le.u8(s, at, type);
        Le.u8(s, at + 1, id.length);
        MemorySegment.copy(MemorySegment.ofArray(id), 0, s, at + DESCRIPTOR_HEADER, id.length);
        return at + DESCRIPTOR_HEADER + id.length;
    }
}
