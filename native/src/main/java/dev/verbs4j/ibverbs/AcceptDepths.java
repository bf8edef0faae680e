package dev.verbs4j.ibverbs;

import dev.verbs4j.Errno;
import dev.verbs4j.VerbsException;
import dev.verbs4j.cm.ConnectionParameters;
import dev.verbs4j.ibverbs.binding.CmVerbs;

/**
 * The RDMA READ and atomic depths an accept gives its queue pair and its reply, as
 * {@code rdma_accept} computes them: 255 ({@code RDMA_MAX_RESP_RES},
 * {@code RDMA_MAX_INIT_DEPTH}) takes the peer's request bounded by the device; another
 * value is taken as given, and in the TCP port space one above the device's limit is
 * {@code EINVAL}.
 *
 * @param responderResources the queue pair's {@code max_dest_rd_atomic}
 * @param initiatorDepth     the queue pair's {@code max_rd_atomic}
 */
record AcceptDepths(int responderResources, int initiatorDepth) {

    /**
     * @param given                       the application's accept parameters
     * @param requestedResponderResources the connect request's, as the kernel reports it to this side
     * @param requestedInitiatorDepth     likewise
     * @param limits                      the device's
     * @param checked                     whether the limits bind (librdmacm checks them in the TCP port space only)
     */
    static AcceptDepths of(ConnectionParameters given, int requestedResponderResources, int requestedInitiatorDepth,
                           DeviceLimits limits, boolean checked) {
        int responderResources = given.responderResources();
        int initiatorDepth = given.initiatorDepth();
        if (!checked) {
            return new AcceptDepths(responderResources, initiatorDepth);
        }
        if (responderResources != CmVerbs.RDMA_MAX_DEPTH && responderResources > limits.maxResponderResources()
                || initiatorDepth != CmVerbs.RDMA_MAX_DEPTH && initiatorDepth > limits.maxInitiatorDepth()) {
            throw new VerbsException(Errno.EINVAL, "responder resources " + responderResources + " or initiator depth "
                    + initiatorDepth + " exceed the device's " + limits);
        }
        if (responderResources == CmVerbs.RDMA_MAX_DEPTH) {
            responderResources = Math.min(requestedResponderResources, limits.maxResponderResources());
        }
        if (initiatorDepth == CmVerbs.RDMA_MAX_DEPTH) {
            initiatorDepth = Math.min(requestedInitiatorDepth, limits.maxInitiatorDepth());
        }
        return new AcceptDepths(responderResources, initiatorDepth);
    }
}
