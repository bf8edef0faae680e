package dev.verbs4j.nvmeof.wire;

import java.lang.foreign.MemorySegment;

/**
 * The 4096-byte Identify Controller data structure (CNS 01h), the fields a fabrics host
 * reads. What the Linux host insists on: CNTLID equal to the Connect's, KAS non-zero on an
 * I/O controller, SGLS bit 2 (keyed SGL data blocks), ICDOFF 0; it sends in-capsule data
 * when SGLS bit 20 (SGL offsets) is set and the write fits IOCCSZ * 16 - 64 bytes.
 */
public final class IdentifyController {
    public static final int BYTES = 4096;

    public static final int SERIAL = 4;
    public static final int MODEL = 24;
    public static final int FIRMWARE = 64;
    public static final int MDTS = 77;
    public static final int CNTLID = 78;
    public static final int VERSION = 80;
    public static final int OAES = 92;
    public static final int CTRATT = 96;
    public static final int CNTRLTYPE = 111;
    public static final int AERL = 259;
    public static final int LPA = 261;
    public static final int KAS = 320;
    public static final int SQES = 512;
    public static final int CQES = 513;
    public static final int MAXCMD = 514;
    public static final int NN = 516;
    public static final int ONCS = 520;
    public static final int VWC = 525;
    public static final int SGLS = 536;
    public static final int MNAN = 540;
    public static final int SUBNQN = 768;
    public static final int IOCCSZ = 1792;
    public static final int IORCSZ = 1796;
    public static final int ICDOFF = 1800;
    public static final int FCATT = 1802;
    public static final int MSDBD = 1803;

    /** NVMe 1.3: what the identify data and the commands offered follow. */
    public static final int VERSION_1_3 = 0x00010300;
    public static final int CONTROLLER_TYPE_IO = 1;
    public static final int CONTROLLER_TYPE_DISCOVERY = 2;
    /** CTRATT bit 0: host identifiers are 128 bits (the Connect data's hostid). */
    public static final int CTRATT_HOST_ID_128 = 1;
    /** LPA bit 2: Get Log Page takes an offset and extended lengths. */
    public static final int LPA_EXTENDED = 1 << 2;
    /** ONCS bit 2: Dataset Management. */
    public static final int ONCS_DATASET_MANAGEMENT = 1 << 2;
    /** ONCS bit 3: Write Zeroes. */
    public static final int ONCS_WRITE_ZEROES = 1 << 3;
    /**
     * SGLS: bits 1:0 01b SGLs without alignment rules, bit 2 keyed SGL data blocks, bit 20
     * the offset form of the data block (in-capsule data).
     */
    public static final int SGLS_SUPPORTED = 1 | 1 << 2 | 1 << 20;

    /** What one controller reports. */
    public record Fields(int cntlid, String serial, String model, String firmware, String subnqn,
                         boolean discovery, int namespaceCount, int maxCommands, int mdts,
                         int keepAliveUnits100Ms, int inCapsuleDataBytes, boolean volatileWriteCache) {
    }

    private IdentifyController() {
    }

    public static void write(MemorySegment out, long offset, Fields f) {
        MemorySegment s = out.asSlice(offset, BYTES);
        s.fill((byte) 0);
        Le.ascii(s, SERIAL, 20, f.serial(), (byte) ' ');
        Le.ascii(s, MODEL, 40, f.model(), (byte) ' ');
        Le.ascii(s, FIRMWARE, 8, f.firmware(), (byte) ' ');
        Le.u8(s, MDTS, f.mdts());
        Le.u16(s, CNTLID, f.cntlid());
        Le.u32(s, VERSION, VERSION_1_3);
        Le.u32(s, CTRATT, CTRATT_HOST_ID_128);
        Le.u8(s, CNTRLTYPE, f.discovery() ? CONTROLLER_TYPE_DISCOVERY : CONTROLLER_TYPE_IO);
        Le.u8(s, AERL, 3);
        Le.u8(s, LPA, LPA_EXTENDED);
        Le.u16(s, KAS, f.keepAliveUnits100Ms());
        Le.u8(s, SQES, 6 << 4 | 6);
        Le.u8(s, CQES, 4 << 4 | 4);
        Le.u16(s, MAXCMD, f.maxCommands());
        Le.u32(s, NN, f.namespaceCount());
        Le.u32(s, MNAN, f.namespaceCount());
        if (!f.discovery()) {
            Le.u16(s, ONCS, ONCS_DATASET_MANAGEMENT | ONCS_WRITE_ZEROES);
            Le.u8(s, VWC, f.volatileWriteCache() ? 1 : 0);
        }
        Le.u32(s, SGLS, SGLS_SUPPORTED);
        Le.ascii(s, SUBNQN, 256, f.subnqn(), (byte) 0);
        Le.u32(s, IOCCSZ, (Sqe.BYTES + f.inCapsuleDataBytes()) / 16);
        Le.u32(s, IORCSZ, Cqe.BYTES / 16);
        Le.u16(s, ICDOFF, 0);
        Le.u8(s, MSDBD, 1);
    }
}
