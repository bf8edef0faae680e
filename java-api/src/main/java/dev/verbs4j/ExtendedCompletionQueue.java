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
    /** The optional fields this queue reports. */
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

    /** The current completion's work request id. @throws IllegalStateException outside a poll (as every reader) */
    long wrId();

    /** The current completion's status. */
    WcStatus status();

    /** The current completion's operation ({@code ibv_wc_read_opcode}). */
    WcOpcode opcode();

    /** {@code ibv_wc_read_vendor_err}. */
    int vendorError();

    /** The {@link WcFlag} bits ({@code ibv_wc_read_wc_flags}). */
    int wcFlags();

    /** Bytes received, read or written back. @throws IllegalStateException without {@link WcField#BYTE_LEN} */
    int byteLength();

    /** The immediate data, in host order. @throws IllegalStateException without {@link WcField#IMM} */
    int immData();

    /** The rkey a SEND with invalidate invalidated. @throws IllegalStateException without {@link WcField#IMM} */
    int invalidatedRkey();

    /** The local queue pair's number. @throws IllegalStateException without {@link WcField#QP_NUM} */
    int qpNum();

    /** The sending queue pair's number (UD). @throws IllegalStateException without {@link WcField#SRC_QP} */
    int srcQp();

    /** The source LID (0 on RoCE). @throws IllegalStateException without {@link WcField#SLID} */
    int slid();

    /** The service level. @throws IllegalStateException without {@link WcField#SL} */
    int sl();

    /** The destination LID path bits (0 on RoCE). @throws IllegalStateException without {@link WcField#DLID_PATH_BITS} */
    int dlidPathBits();

    /**
     * The device clock when the completion was made, in ticks of
     * {@link DeviceAttributes#hcaCoreClockKhz()} kHz, masked by
     * {@link DeviceAttributes#completionTimestampMask()}.
     *
     * @throws IllegalStateException without {@link WcField#COMPLETION_TIMESTAMP}
     */
    long completionTimestamp();

    /** The completion's time in nanoseconds since the epoch. @throws IllegalStateException without {@link WcField#COMPLETION_TIMESTAMP_WALLCLOCK} */
    long completionTimestampWallclockNs();
}
