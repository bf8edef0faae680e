package dev.verbs4j.softroce.monitor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR: a send request failed because its retries ran out (see {@link SoftEvents#retryExhausted}). */
@Name(SoftEvents.PREFIX + "RetryExhausted")
@Label("Retry Exhausted")
@Category({"verbs4j", "Soft RoCE"})
@Description("The oldest outstanding request of a queue pair failed with IBV_WC_RETRY_EXC_ERR (no answer, or PSN "
        + "sequence NAKs, after retry_cnt retries) or IBV_WC_RNR_RETRY_EXC_ERR (RNR NAKs after rnr_retry retries); "
        + "the queue pair goes to the error state")
@StackTrace(false)
final class RetryExhaustedEvent extends jdk.jfr.Event {
    @Label("Device")
    String device;

    @Label("Queue Pair Number")
    int qpn;

    @Label("Completion Status")
    @Description("RETRY_EXC_ERR or RNR_RETRY_EXC_ERR")
    String status;

    @Label("Expected PSN")
    @Description("The PSN the requester waited to see acknowledged")
    int expectedPsn;
}
