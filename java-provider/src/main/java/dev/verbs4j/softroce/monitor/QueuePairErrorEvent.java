package dev.verbs4j.softroce.monitor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR: a queue pair entered the error state (see {@link SoftEvents#queuePairError}). */
@Name(SoftEvents.PREFIX + "QueuePairError")
@Label("Queue Pair Error")
@Category({"verbs4j", "Soft RoCE"})
@Description("A queue pair entered the error state: its outstanding requests complete with IBV_WC_WR_FLUSH_ERR")
@StackTrace(false)
final class QueuePairErrorEvent extends jdk.jfr.Event {
    @Label("Device")
    String device;

    @Label("Queue Pair Number")
    int qpn;

    @Label("Cause")
    @Description("RETRY_EXC_ERR or RNR_RETRY_EXC_ERR (retries ran out), a transport error (a NAK received or sent, "
            + "a malformed request), QP_FATAL (its completion queue overflowed), or modify (the application)")
    String cause;
}
