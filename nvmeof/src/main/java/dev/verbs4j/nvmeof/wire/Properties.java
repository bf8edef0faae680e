package dev.verbs4j.nvmeof.wire;

/**
 * Controller properties a fabrics host reads and writes with Property Get and Set, where a
 * PCIe host would read registers (NVMe base 3.1). The Property commands: attrib (40) bits
 * 2:0 size, 0 four bytes and 1 eight; offset (44); Set's value (48).
 */
public final class Properties {
    public static final int CAP = 0x00;
    public static final int VS = 0x08;
    public static final int CC = 0x14;
    public static final int CSTS = 0x1c;

    public static final int ATTRIB = 40;
    public static final int OFFSET = 44;
    public static final int VALUE = 48;

    public static final int CC_ENABLE = 1;
    public static final int CC_SHUTDOWN_SHIFT = 14;
    public static final int CC_SHUTDOWN_MASK = 3 << CC_SHUTDOWN_SHIFT;
    public static final int CSTS_READY = 1;
    public static final int CSTS_FATAL = 1 << 1;
    public static final int CSTS_SHUTDOWN_COMPLETE = 2 << 2;

    private Properties() {
    }

    /**
     * CAP: MQES {@code maxQueueEntries - 1} (15:0), CQR contiguous queues required (16), TO
     * (31:24, 500 ms units), CSS the NVM command set (bit 37), MPSMIN and MPSMAX 4 KiB.
     */
    public static long capabilities(int maxQueueEntries, int readyTimeoutHalfSeconds) {
        return (maxQueueEntries - 1) & 0xffffL | 1L << 16 | (readyTimeoutHalfSeconds & 0xffL) << 24 | 1L << 37;
    }

    /** CC.IOSQES (19:16) and CC.IOCQES (23:20), as log2 sizes. */
    public static int ioSqEntrySizeShift(int cc) {
        return (cc >>> 16) & 0xf;
    }

    public static int ioCqEntrySizeShift(int cc) {
        return (cc >>> 20) & 0xf;
    }

    /** The CC a host writes to enable a controller: NVM command set, 4 KiB pages, 64-byte SQEs, 16-byte CQEs. */
    public static int enableValue() {
        return 6 << 16 | 4 << 20 | CC_ENABLE;
    }

    /** The CC a host writes to shut the controller down normally (SHN 01b). */
    public static int shutdownValue(int cc) {
        return (cc & ~CC_SHUTDOWN_MASK) | 1 << CC_SHUTDOWN_SHIFT;
    }
}
