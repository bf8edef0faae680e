package dev.verbs4j.cm;

import java.util.Arrays;

/**
 * What one side offers when it connects or accepts ({@code struct rdma_conn_param}), and
 * what a {@link CmEvent} reports of the peer's offer. Reusable and mutable; the calls that
 * take it copy what they need.
 */
public final class ConnectionParameters {
    /** Private data an application may put in a connect request over TCP or UDP port space: 92 bytes less the 36-byte address header. */
    public static final int MAX_CONNECT_PRIVATE_DATA = 56;
    /** Private data an accept (REP) carries. */
    public static final int MAX_ACCEPT_PRIVATE_DATA = 196;
    /** Private data a reject (REJ) carries. */
    public static final int MAX_REJECT_PRIVATE_DATA = 148;

    private static final byte[] NONE = new byte[0];

    private byte[] privateData = NONE;
    private int responderResources = 1;
    private int initiatorDepth = 1;
    private boolean flowControl = true;
    private int retryCount = 7;
    private int rnrRetryCount = 7;
    private boolean srq;
    private int qpNumber;

    /**
     * No private data, one responder resource and initiator depth, flow control on, 7 retries
     * and 7 RNR retries, no SRQ and no queue pair number.
     */
    public ConnectionParameters() {
    }

    /**
     * The private data (a copy), empty when there is none.
     *
     * @return a new array
     */
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * Length of the private data.
     *
     * @return bytes, 0 when there is none
     */
    public int privateDataLength() {
        return privateData.length;
    }

    /**
     * Sets the private data (copied); {@code null} for none.
     * It is {@code private_data} and {@code private_data_len}; the call that takes these parameters
     * checks the length against its message's limit.
     *
     * @param data the bytes, or null
     * @return these parameters
     */
    public ConnectionParameters privateData(byte[] data) {
        this.privateData = data == null ? NONE : data.clone();
        return this;
    }

    /**
     * RDMA READ and atomic requests this side accepts in flight ({@code responder_resources}).
     *
     * @return the count, 0-255; 1 unless set
     */
    public int responderResources() {
        return responderResources;
    }

    /**
     * Sets the RDMA READ and atomic requests this side accepts in flight ({@code responder_resources}).
     *
     * @param value 0-255
     * @return these parameters
     * @throws IllegalArgumentException for a value outside 0-255
     */
    public ConnectionParameters responderResources(int value) {
        this.responderResources = checkByte(value, "responderResources");
        return this;
    }

    /**
     * RDMA READ and atomic requests this side sends in flight ({@code initiator_depth}).
     *
     * @return the count, 0-255; 1 unless set
     */
    public int initiatorDepth() {
        return initiatorDepth;
    }

    /**
     * Sets the RDMA READ and atomic requests this side sends in flight ({@code initiator_depth}).
     *
     * @param value 0-255
     * @return these parameters
     * @throws IllegalArgumentException for a value outside 0-255
     */
    public ConnectionParameters initiatorDepth(int value) {
        this.initiatorDepth = checkByte(value, "initiatorDepth");
        return this;
    }

    /**
     * End-to-end flow control ({@code flow_control}).
     *
     * @return true unless cleared
     */
    public boolean flowControl() {
        return flowControl;
    }

    /**
     * Sets end-to-end flow control ({@code flow_control}).
     *
     * @param value true to ask for it
     * @return these parameters
     */
    public ConnectionParameters flowControl(boolean value) {
        this.flowControl = value;
        return this;
    }

    /**
     * Transport retries before a send fails ({@code retry_count}, 0 to 7).
     *
     * @return the count; 7 unless set
     */
    public int retryCount() {
        return retryCount;
    }

    /**
     * Sets the transport retries ({@code retry_count}).
     *
     * @param value 0-7
     * @return these parameters
     * @throws IllegalArgumentException for a value outside 0-7
     */
    public ConnectionParameters retryCount(int value) {
        this.retryCount = checkRange(value, 7, "retryCount");
        return this;
    }

    /**
     * Receiver-not-ready retries ({@code rnr_retry_count}, 0 to 7; 7 is unlimited).
     *
     * @return the count; 7 unless set
     */
    public int rnrRetryCount() {
        return rnrRetryCount;
    }

    /**
     * Sets the receiver-not-ready retries ({@code rnr_retry_count}).
     *
     * @param value 0-7, 7 retrying for ever
     * @return these parameters
     * @throws IllegalArgumentException for a value outside 0-7
     */
    public ConnectionParameters rnrRetryCount(int value) {
        this.rnrRetryCount = checkRange(value, 7, "rnrRetryCount");
        return this;
    }

    /**
     * Whether the queue pair receives from a shared receive queue ({@code srq}).
     *
     * @return false unless set
     */
    public boolean srq() {
        return srq;
    }

    /**
     * Sets whether the queue pair receives from a shared receive queue ({@code srq}).
     *
     * @param value true for a shared receive queue
     * @return these parameters
     */
    public ConnectionParameters srq(boolean value) {
        this.srq = value;
        return this;
    }

    /**
     * The queue pair number ({@code qp_num}): in an event, the peer's; when connecting, only
     * used by an id with no queue pair.
     *
     * @return the 24-bit number, 0 when none
     */
    public int qpNumber() {
        return qpNumber;
    }

    /**
     * Sets the queue pair number ({@code qp_num}) an id without a queue pair announces.
     *
     * @param value the number; bits above the low 24 are dropped
     * @return these parameters
     */
    public ConnectionParameters qpNumber(int value) {
        this.qpNumber = value & 0xffffff;
        return this;
    }

    /**
     * Copies every field of {@code other} into this.
     *
     * @param other the parameters to copy, unchanged
     * @return these parameters
     */
    public ConnectionParameters set(ConnectionParameters other) {
        this.privateData = other.privateData;
        this.responderResources = other.responderResources;
        this.initiatorDepth = other.initiatorDepth;
        this.flowControl = other.flowControl;
        this.retryCount = other.retryCount;
        this.rnrRetryCount = other.rnrRetryCount;
        this.srq = other.srq;
        this.qpNumber = other.qpNumber;
        return this;
    }

    private static int checkByte(int value, String name) {
        return checkRange(value, 255, name);
    }

    private static int checkRange(int value, int max, String name) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be 0.." + max + ", not " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "ConnectionParameters[privateData=" + privateData.length + " bytes, responderResources=" + responderResources
                + ", initiatorDepth=" + initiatorDepth + ", flowControl=" + flowControl + ", retryCount=" + retryCount
                + ", rnrRetryCount=" + rnrRetryCount + ", srq=" + srq + ", qpNumber=" + qpNumber + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionParameters p && Arrays.equals(privateData, p.privateData)
                && responderResources == p.responderResources && initiatorDepth == p.initiatorDepth
                && flowControl == p.flowControl && retryCount == p.retryCount && rnrRetryCount == p.rnrRetryCount
                && srq == p.srq && qpNumber == p.qpNumber;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(privateData) * 31 + qpNumber;
    }
}
