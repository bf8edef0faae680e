package dev.verbs4j.nvmeof.host;

import dev.verbs4j.nvmeof.wire.IdentifyController;
import dev.verbs4j.nvmeof.wire.Le;

import java.lang.foreign.MemorySegment;

/** The Identify Controller fields a host acts on. */
public record ControllerIdentity(int cntlid, String subnqn, String serial, String model, int version,
                                 int mdts, int maxCommands, int namespaces, int keepAliveUnits, int sgls,
                                 int ioccsz, int iorcsz, int icdoff, int controllerType, int oncs,
                                 boolean volatileWriteCache) {
    static ControllerIdentity parse(MemorySegment s) {
        return new ControllerIdentity(Le.u16(s, IdentifyController.CNTLID), Le.ascii(s, IdentifyController.SUBNQN, 256),
                Le.ascii(s, IdentifyController.SERIAL, 20).strip(), Le.ascii(s, IdentifyController.MODEL, 40).strip(),
                Le.u32(s, IdentifyController.VERSION), Le.u8(s, IdentifyController.MDTS),
                Le.u16(s, IdentifyController.MAXCMD), Le.u32(s, IdentifyController.NN), Le.u16(s, IdentifyController.KAS),
                Le.u32(s, IdentifyController.SGLS), Le.u32(s, IdentifyController.IOCCSZ),
                Le.u32(s, IdentifyController.IORCSZ), Le.u16(s, IdentifyController.ICDOFF),
                Le.u8(s, IdentifyController.CNTRLTYPE), Le.u16(s, IdentifyController.ONCS),
                (Le.u8(s, IdentifyController.VWC) & 1) != 0);
    }

    /** Whether the controller takes keyed SGL data blocks (SGLS bit 2), which an RDMA host needs. */
    public boolean keyedSgls() {
        return (sgls & 1 << 2) != 0;
    }

    /** How many data bytes an I/O capsule may carry (0 when SGLS bit 20, the offset form, is unset). */
    public int inCapsuleDataBytes() {
        return (sgls & 1 << 20) != 0 && ioccsz * 16 > 64 ? ioccsz * 16 - 64 : 0;
    }

    /** The largest transfer, from MDTS in 4 KiB units (0: no limit). */
    public long maxTransferBytes() {
        return mdts == 0 ? Long.MAX_VALUE : 4096L << mdts;
    }
}
