package dev.verbs4j.nvmeof.wire;

/** Command opcodes: admin, NVM I/O, and the fabrics command with its fctype values. */
public final class Opcodes {
    public static final int ADMIN_GET_LOG_PAGE = 0x02;
    public static final int ADMIN_IDENTIFY = 0x06;
    public static final int ADMIN_SET_FEATURES = 0x09;
    public static final int ADMIN_GET_FEATURES = 0x0a;
    public static final int ADMIN_ASYNC_EVENT_REQUEST = 0x0c;
    public static final int ADMIN_KEEP_ALIVE = 0x18;

    public static final int IO_FLUSH = 0x00;
    public static final int IO_WRITE = 0x01;
    public static final int IO_READ = 0x02;
    public static final int IO_WRITE_ZEROES = 0x08;
    public static final int IO_DATASET_MANAGEMENT = 0x09;

    /** The fabrics command opcode; {@link Sqe#fctype} says which. */
    public static final int FABRICS = 0x7f;
    public static final int FCTYPE_PROPERTY_SET = 0x00;
    public static final int FCTYPE_CONNECT = 0x01;
    public static final int FCTYPE_PROPERTY_GET = 0x04;

    /** Identify CNS values. */
    public static final int CNS_NAMESPACE = 0x00;
    public static final int CNS_CONTROLLER = 0x01;
    public static final int CNS_ACTIVE_NAMESPACES = 0x02;
    public static final int CNS_NAMESPACE_DESCRIPTORS = 0x03;

    /** Feature identifiers. */
    public static final int FEATURE_NUMBER_OF_QUEUES = 0x07;
    public static final int FEATURE_ASYNC_EVENT_CONFIG = 0x0b;
    public static final int FEATURE_KEEP_ALIVE_TIMER = 0x0f;

    /** Log page identifiers. */
    public static final int LOG_ERROR = 0x01;
    public static final int LOG_SMART = 0x02;
    public static final int LOG_FIRMWARE_SLOT = 0x03;
    public static final int LOG_DISCOVERY = 0x70;

    private Opcodes() {
    }
}
