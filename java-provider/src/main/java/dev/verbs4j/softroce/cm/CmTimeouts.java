package dev.verbs4j.softroce.cm;

/**
 * The connection manager's timing, as IBTA exponents (4.096 µs × 2^value). The defaults are
 * the RDMA CM's: a peer answers within 2^20 (4.3 s), a message is sent at most 15 more
 * times, and a RoCE packet lives 2^16 (268 ms). System properties
 * {@value #RESPONSE_TIMEOUT_PROPERTY} and {@value #RETRIES_PROPERTY} change the first two.
 *
 * @param responseTimeout how long this side takes to answer, and waits for an answer
 * @param maxRetries      how often an unanswered REQ, REP or DREQ is sent again
 * @param packetLife      the packet lifetime on the path; it bounds time-wait
 */
record CmTimeouts(int responseTimeout, int maxRetries, int packetLife) {
    static final String RESPONSE_TIMEOUT_PROPERTY = "verbs4j.soft.cm.responseTimeout";
    static final String RETRIES_PROPERTY = "verbs4j.soft.cm.retries";

    CmTimeouts {
        if (responseTimeout < 0 || responseTimeout > 31 || packetLife < 0 || packetLife > 31) {
            throw new IllegalArgumentException("time-out exponents are 0..31");
        }
        if (maxRetries < 0 || maxRetries > 15) {
            throw new IllegalArgumentException("max CM retries are 0..15");
        }
    }

    static CmTimeouts fromSystemProperties() {
        return new CmTimeouts(Integer.getInteger(RESPONSE_TIMEOUT_PROPERTY, 20), Integer.getInteger(RETRIES_PROPERTY, 15), 16);
    }

    /** An IBTA time exponent in nanoseconds. */
    static long nanos(int exponent) {
        return 4096L << Math.min(exponent, 31);
    }

    /** How long a sent REQ, REP or DREQ waits for its answer: two packet lifetimes and the peer's response time. */
    long answerNs(int peerResponseTimeout) {
        return 2 * nanos(packetLife) + nanos(peerResponseTimeout);
    }

    /** How long a closed connection stays in time-wait. */
    long timewaitNs() {
        return 2 * nanos(packetLife);
    }
}
