package dev.verbs4j.nvmeof.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The RDMA CM private data of the NVMe-oF RDMA transport binding: the host's request
 * (recfmt, qid, hrqsize, hsqsize, cntlid; 32 bytes), the controller's accept (recfmt,
 * crqsize; 32 bytes) and its reject (recfmt, status; 4 bytes). Little-endian.
 */
public final class CmPrivateData {
    /** Record format 1.0, the only one. */
    public static final int RECFMT_1_0 = 0;
    public static final int REQUEST_BYTES = 32;
    public static final int ACCEPT_BYTES = 32;
    public static final int REJECT_BYTES = 4;

    /** Reject status codes. */
    public static final int REJECT_INVALID_LENGTH = 0x01;
    public static final int REJECT_INVALID_RECFMT = 0x02;
    public static final int REJECT_INVALID_QID = 0x03;
    public static final int REJECT_INVALID_HSQSIZE = 0x04;
    public static final int REJECT_INVALID_HRQSIZE = 0x05;
    public static final int REJECT_NO_RESOURCES = 0x06;
    public static final int REJECT_INVALID_IRD = 0x07;
    public static final int REJECT_INVALID_ORD = 0x08;
    public static final int REJECT_INVALID_CNTLID = 0x09;

    private CmPrivateData() {
    }

    /**
     * What a host asks for one queue.
     *
     * @param qid the queue: 0 admin, else I/O
     * @param hrqsize the host's receive queue size (the responses it can take)
     * @param hsqsize the host's send queue size, 0's based (commands it may have outstanding, less one)
     * @param cntlid the controller an I/O queue joins; 0 or 0xFFFF when the host does not say
     */
    public record Request(int recfmt, int qid, int hrqsize, int hsqsize, int cntlid) {
        public byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(REQUEST_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            b.putShort((short) recfmt).putShort((short) qid).putShort((short) hrqsize).putShort((short) hsqsize)
                    .putShort((short) cntlid);
            return b.array();
        }

        /** The request in {@code data}, or null when it is shorter than a request. */
        public static Request decode(byte[] data) {
            if (data == null || data.length < REQUEST_BYTES) {
                return null;
            }
            ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
            return new Request(b.getShort(0) & 0xffff, b.getShort(2) & 0xffff, b.getShort(4) & 0xffff,
                    b.getShort(6) & 0xffff, b.getShort(8) & 0xffff);
        }
    }

    public static byte[] accept(int crqsize) {
        ByteBuffer b = ByteBuffer.allocate(ACCEPT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) RECFMT_1_0).putShort((short) crqsize);
        return b.array();
    }

    /** The crqsize of an accept, or -1 when the data is too short to be one. */
    public static int acceptedQueueSize(byte[] data) {
        if (data == null || data.length < 4) {
            return -1;
        }
        return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getShort(2) & 0xffff;
    }

    public static byte[] reject(int status) {
        ByteBuffer b = ByteBuffer.allocate(REJECT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) RECFMT_1_0).putShort((short) status);
        return b.array();
    }

    /** The status of a reject, or -1 when the data is too short to be one. */
    public static int rejectStatus(byte[] data) {
        if (data == null || data.length < REJECT_BYTES) {
            return -1;
        }
        return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getShort(2) & 0xffff;
    }
}
