package dev.verbs4j;

import java.util.Set;

/**
 * A completion queue read one field at a time ({@code struct ibv_cq_ex}), made by
 * {@link DeviceContext#createExtendedCq}. A poll is a cursor over the queue:
 * <pre>{@code
 * if (cq.startPoll()) {                 // ibv_start_poll
 *     do {
 *         handle(cq.wrId(), cq.status(), cq.byteLength());
 *     } while (cq.nextPoll());          // ibv_next_poll
 *     cq.endPoll();                     // ibv_end_poll
 * }
 * }</pre>
 * The readers describe the current completion and allocate nothing. {@link #wrId()},
 * {@link #status()}, {@link #opcode()}, {@link #vendorError()} and {@link #wcFlags()} are
 * always there; the others only when their {@link WcField} was asked for. As in libibverbs,
 * the opcode and the optional fields are defined for successful completions only. A poll
 * belongs to the thread that started it, and the queue's other pollers wait until it ends;
 * {@link #poll} works on this queue too, outside a poll.
 */
public interface ExtendedCompletionQueue extends CompletionQueue {
    /**
     * The optional fields this queue reports.
     * They are the {@code wc_flags} of {@code ibv_cq_init_attr_ex} the queue was created with.
     *
     * @return a set the caller may not change
     */
    Set<WcField> fields();

    /**
     * Starts a poll ({@code ibv_start_poll}).
     *
     * @return true with the oldest completion current, and the poll open until {@link #endPoll()};
     *         false when the queue is empty, and no poll is open
     * @throws IllegalStateException when this thread already has a poll open on this queue
     */
    boolean startPoll();

    /**
     * Moves to the next completion ({@code ibv_next_poll}), consuming the current one.
     *
     * @return false when there is none; the poll stays open until {@link #endPoll()}
     * @throws IllegalStateException when no poll is open
     */
    boolean nextPoll();

    /**
     * Ends the poll ({@code ibv_end_poll}), consuming the current completion.
     *
     * @throws IllegalStateException when no poll is open
     */
    void endPoll();

    /**
     * The current completion's work request id ({@code ibv_cq_ex.wr_id}).
     *
     * @return the id the request was posted with
     * @throws IllegalStateException outside a poll (as every reader)
     */
    long wrId();

    /**
     * The current completion's status ({@code ibv_cq_ex.status}).
     *
     * @return the status
     * @throws IllegalStateException outside a poll
     */
    WcStatus status();

    /**
     * The current completion's operation ({@code ibv_wc_read_opcode}).
     *
     * @return the operation
     * @throws IllegalStateException outside a poll
     */
    WcOpcode opcode();

    /**
     * The current completion's vendor error ({@code ibv_wc_read_vendor_err}).
     *
     * @return the device's code, 0 when it gives none
     * @throws IllegalStateException outside a poll
     */
    int vendorError();

    /**
     * The {@link WcFlag} bits ({@code ibv_wc_read_wc_flags}).
     *
     * @return an OR of {@link WcFlag#value()} bits
     * @throws IllegalStateException outside a poll
     */
    int wcFlags();

    /**
     * Bytes received, read or written back ({@code ibv_wc_read_byte_len}).
     *
     * @return bytes
     * @throws IllegalStateException without {@link WcField#BYTE_LEN}
     */
    int byteLength();

    /**
     * The immediate data in host order ({@code ibv_wc_read_imm_data}).
     *
     * @return the value
     * @throws IllegalStateException without {@link WcField#IMM}
     */
    int immData();

    /**
     * The rkey a SEND with invalidate invalidated ({@code ibv_wc_read_invalidated_rkey}).
     *
     * @return the key
     * @throws IllegalStateException without {@link WcField#IMM}
     */
    int invalidatedRkey();

    /**
     * The local queue pair's number ({@code ibv_wc_read_qp_num}).
     *
     * @return the 24-bit number
     * @throws IllegalStateException without {@link WcField#QP_NUM}
     */
    int qpNum();

    /**
     * The sending queue pair's number of a UD receive ({@code ibv_wc_read_src_qp}).
     *
     * @return the 24-bit number
     * @throws IllegalStateException without {@link WcField#SRC_QP}
     */
    int srcQp();

    /**
     * The source LID ({@code ibv_wc_read_slid}).
     *
     * @return the LID, 0 on RoCE
     * @throws IllegalStateException without {@link WcField#SLID}
     */
    int slid();

    /**
     * The service level ({@code ibv_wc_read_sl}).
     *
     * @return the level, 0-15
     * @throws IllegalStateException without {@link WcField#SL}
     */
    int sl();

    /**
     * The destination LID path bits ({@code ibv_wc_read_dlid_path_bits}).
     *
     * @return the bits, 0 on RoCE
     * @throws IllegalStateException without {@link WcField#DLID_PATH_BITS}
     */
    int dlidPathBits();

    /**
     * The device clock when the completion was made, in ticks of
     * {@link DeviceAttributes#hcaCoreClockKhz()} kHz, masked by
     * {@link DeviceAttributes#completionTimestampMask()}.
     * It is {@code ibv_wc_read_completion_ts}.
     *
     * @throws IllegalStateException without {@link WcField#COMPLETION_TIMESTAMP}
     * @return the raw device clock value
     */
    long completionTimestamp();

    /**
     * The completion's time in nanoseconds since the epoch ({@code ibv_wc_read_completion_wallclock_ns}).
     *
     * @return nanoseconds
     * @throws IllegalStateException without {@link WcField#COMPLETION_TIMESTAMP_WALLCLOCK}
     */
    long completionTimestampWallclockNs();
}
