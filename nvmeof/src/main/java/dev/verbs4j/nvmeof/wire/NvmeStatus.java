package dev.verbs4j.nvmeof.wire;

/**
 * NVMe status field values: status code in bits 7:0, status code type in 10:8, Do Not Retry
 * in bit 14 (the field as a CQE carries it, shifted right past the phase bit).
 */
public final class NvmeStatus {
    public static final int SUCCESS = 0x000;
    public static final int INVALID_OPCODE = 0x001;
    public static final int INVALID_FIELD = 0x002;
    public static final int DATA_TRANSFER_ERROR = 0x004;
    public static final int INTERNAL = 0x006;
    public static final int INVALID_NAMESPACE = 0x00b;
    public static final int COMMAND_SEQUENCE_ERROR = 0x00c;
    public static final int SGL_INVALID_DATA = 0x00f;
    public static final int SGL_INVALID_TYPE = 0x011;
    public static final int SGL_INVALID_OFFSET = 0x016;
    public static final int LBA_RANGE = 0x080;
    /** Command specific (SCT 1). */
    public static final int ASYNC_LIMIT = 0x105;
    public static final int INVALID_LOG_PAGE = 0x109;
    public static final int CONNECT_INCOMPATIBLE_FORMAT = 0x180;
    public static final int CONNECT_CONTROLLER_BUSY = 0x181;
    public static final int CONNECT_INVALID_PARAMETERS = 0x182;
    public static final int CONNECT_INVALID_HOST = 0x184;
    /** Do Not Retry: the same command will fail again. */
    public static final int DNR = 0x4000;

    private NvmeStatus() {
    }

    /** The status code type, bits 10:8. */
    public static int type(int status) {
        return (status >>> 8) & 0x7;
    }

    /** The status code, bits 7:0. */
    public static int code(int status) {
        return status & 0xff;
    }

    /** The status without its retry and more bits, for comparisons. */
    public static int withoutFlags(int status) {
        return status & 0x7ff;
    }

    public static boolean doNotRetry(int status) {
        return (status & DNR) != 0;
    }

    public static String describe(int status) {
        return String.format("SCT %d SC 0x%02x%s", type(status), code(status), doNotRetry(status) ? " DNR" : "");
    }
}
